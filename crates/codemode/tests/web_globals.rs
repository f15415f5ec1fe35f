//! The web and Node globals models reach for: `Error.prototype.stack`, `crypto`, the console
//! methods whose text depends on the run (`time`, `trace`, `dir`), and the timers' absence.
//! (What Node prints the same is in `tests/conformance/`.)

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use codemode::{ExecResult, ExecuteOptions};
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
}

fn run_seeded(source: &str, seed: u64) -> ExecResult {
    let rt = codemode::demo::builder().build().expect("build");
    runtime().block_on(rt.execute_with(source, ExecuteOptions::new().random_seed(seed)))
}

fn run(source: &str) -> ExecResult {
    run_seeded(source, 7)
}

fn value(source: &str) -> Value {
    let r = run(source);
    assert!(r.ok, "{r:?}");
    r.value.expect("a value")
}

#[test]
fn error_stack_names_the_error_and_the_program_lines() {
    let v = value(
        "function inner() {\n  return new TypeError(\"msg\");\n}\nfunction outer() {\n  return inner();\n}\nconst e = outer();\nreturn e.stack;",
    );
    let stack = v.as_str().expect("a string");
    assert!(stack.starts_with("TypeError: msg\n    at "), "{stack}");
    let lines: Vec<&str> = stack.lines().collect();
    assert!(lines[1].starts_with("    at inner (<program>:2:"), "{stack}");
    assert!(lines[2].starts_with("    at outer (<program>:5:"), "{stack}");
    assert!(lines[3].starts_with("    at <program>:7:"), "{stack}");
    assert_eq!(lines.len(), 4, "{stack}");
    assert!(!stack.contains(".rs") && !stack.contains('/'), "no host paths: {stack}");
}

#[test]
fn errors_thrown_by_the_vm_have_a_stack_at_the_throwing_line() {
    let v = value(
        "function f(o) {\n  let x = 1;\n  return o.missing.deeper;\n}\ntry { f({}); } catch (e) { return e.stack; }",
    );
    let stack = v.as_str().expect("a string");
    assert!(stack.starts_with("TypeError: Cannot read properties of undefined"), "{stack}");
    assert!(stack.contains("\n    at f (<program>:3:"), "{stack}");
    assert!(stack.contains("\n    at <program>:5:"), "{stack}");
}

#[test]
fn error_stack_is_not_enumerable_and_stays_out_of_results() {
    let v = value(
        "const e = new Error(\"boom\");
         return [Object.keys(e), JSON.stringify(e), typeof e.stack, e, Object.getOwnPropertyDescriptor(Error.prototype, 'stack').enumerable];",
    );
    assert_eq!(v, json!([[], "{}", "string", {"name": "Error", "message": "boom"}, false]));
}

#[test]
fn error_stack_can_be_assigned_and_is_capped() {
    let v = value(
        "const e = new Error(\"x\"); e.stack = \"mine\";
         function down(n) { return n === 0 ? new Error(\"deep\") : down(n - 1); }
         return [e.stack, Object.keys(e), down(50).stack.split(\"\\n\").length];",
    );
    assert_eq!(v, json!(["mine", [], 11]));
}

#[test]
fn stack_survives_a_saved_run() {
    // A tool call suspends the run between making the error and reading its stack.
    let v = value(
        "const e = new RangeError(\"r\");\nawait tools.orders.lookup({ id: \"o1\" });\nreturn e.stack;",
    );
    assert!(v.as_str().unwrap().starts_with("RangeError: r\n    at <program>:1:"), "{v}");
}

const UUID_AND_BYTES: &str = "return [crypto.randomUUID(), crypto.randomUUID(), Array.from(crypto.getRandomValues(new Uint8Array(6)))]";

#[test]
fn crypto_is_seeded_by_the_run() {
    let a = run_seeded(UUID_AND_BYTES, 1).value.unwrap();
    let b = run_seeded(UUID_AND_BYTES, 1).value.unwrap();
    let c = run_seeded(UUID_AND_BYTES, 2).value.unwrap();
    assert_eq!(a, b, "same seed, same values");
    assert_ne!(a, c, "another seed, other values");
    let uuid = a[0].as_str().unwrap();
    assert_eq!(uuid.len(), 36);
    assert_eq!(&uuid[14..15], "4", "{uuid}");
    assert!("89ab".contains(&uuid[19..20]), "{uuid}");
    assert_ne!(a[0], a[1]);
}

#[test]
fn get_random_values_checks_its_argument() {
    let v = value(
        "const r = [];
         for (const f of [() => crypto.getRandomValues(new Float64Array(2)),
                          () => crypto.getRandomValues([1, 2]),
                          () => crypto.getRandomValues(new Uint8Array(65537))]) {
           try { f(); r.push('no error'); } catch (e) { r.push(e.name); }
         }
         const big = new BigUint64Array(2);
         r.push(crypto.getRandomValues(big) === big, crypto.getRandomValues(new Uint32Array(16384)).length);
         return r;",
    );
    assert_eq!(v, json!(["TypeMismatchError", "TypeMismatchError", "QuotaExceededError", true, 16384]));
}

#[test]
fn timers_are_absent_with_a_message_that_says_what_to_do() {
    let r = run("return typeof setTimeout");
    assert_eq!(r.value, Some(json!("undefined")));
    let v = value("try { setTimeout(() => 1, 10); } catch (e) { return [e.name, e.message]; }");
    assert_eq!(v[0], "ReferenceError");
    let message = v[1].as_str().unwrap();
    assert!(
        message.starts_with("setTimeout is not available: codemode programs have no timers."),
        "{message}"
    );
    assert!(message.contains("Promise.all"), "{message}");
    let v = value("try { clearInterval(1); } catch (e) { return e.message; }");
    assert!(v.as_str().unwrap().starts_with("clearInterval is not available"), "{v}");
    let v = value("try { notAGlobal; } catch (e) { return e.message; }");
    assert_eq!(v, json!("notAGlobal is not defined"));
}

#[test]
fn console_time_uses_the_run_clock_and_trace_prints_the_stack() {
    let r =
        run("console.time(); console.timeLog(undefined, 'x', 1); console.timeEnd(); console.timeEnd('none');
         function f() { console.trace('here', 1); }\nf();
         console.dir({ a: [1] });");
    assert!(r.ok, "{r:?}");
    assert_eq!(r.logs[0], "default: 0ms x 1");
    assert_eq!(r.logs[1], "default: 0ms");
    assert!(r.logs[2].starts_with("[error] Trace: here 1\n    at f (<program>:2:"), "{:?}", r.logs);
    assert!(r.logs[2].contains("\n    at <program>:3:"), "{:?}", r.logs);
    assert_eq!(r.logs[3], "{\"a\":[1]}");
    assert_eq!(r.logs.len(), 4);
}

#[test]
fn console_state_survives_a_saved_run() {
    let r = run(
        "console.count('a'); console.group('g');\nawait tools.orders.lookup({ id: 'o1' });\nconsole.count('a'); console.groupEnd(); console.log('end');",
    );
    assert_eq!(r.logs, vec!["a: 1", "g", "  a: 2", "end"]);
}

// `Array.fromAsync` is not in Node 20 (the conformance oracle), so its cases are here.
#[test]
fn array_from_async_reads_every_kind_of_source() {
    let v = value(
        "async function* gen() { yield 1; yield Promise.resolve(2); yield 3; }
         const slow = (x) => new Promise(r => r(x));
         return [
           await Array.fromAsync(gen()),
           await Array.fromAsync([slow(1), 2, slow(3)]),
           await Array.fromAsync(new Set(['a', 'b'])),
           await Array.fromAsync({ length: 3, 0: 'x', 1: slow('y') }),
           await Array.fromAsync([1, 2, 3], async (x, i) => x * 10 + i),
           await Array.fromAsync(gen(), function (x) { return this.k + x; }, { k: 100 }),
           await Array.fromAsync([]),
           await Array.fromAsync(tools.orders.lookup({ id: 'o2' }).then(o => [o.id, o.status])),
         ];",
    );
    assert_eq!(
        v,
        json!([[1, 2, 3], [1, 2, 3], ["a", "b"], ["x", "y", null], [10, 21, 32], [101, 102, 103], [], []])
    );
}

#[test]
fn array_from_async_rejects_and_closes_the_iterator() {
    let v = value(
        "const log = [];
         function* g() { try { yield 1; yield 2; } finally { log.push('closed'); } }
         const r = [];
         try { await Array.fromAsync(g(), x => { throw new RangeError('map ' + x); }); } catch (e) { r.push(e.name + ': ' + e.message); }
         try { await Array.fromAsync([1, Promise.reject(new Error('bad'))]); } catch (e) { r.push(e.message); }
         try { await Array.fromAsync(null); } catch (e) { r.push(e.name); }
         try { await Array.fromAsync([1], 5); } catch (e) { r.push(e.name); }
         const p = Array.fromAsync([1]);
         r.push(p instanceof Promise, typeof Array.fromAsync, Array.fromAsync.length);
         await p;
         return [r, log];",
    );
    assert_eq!(
        v,
        json!([["RangeError: map 1", "bad", "TypeError", "TypeError", true, "function", 1], ["closed"]])
    );
}

#[test]
fn a_host_may_extend_the_built_in_crypto_object() {
    let ext = codemode::Extension::new("hash").global(
        "crypto.subtle.digest",
        |args: Vec<Value>, _ctx| async move {
            Ok(json!(format!("digest of {}", args.get(1).and_then(Value::as_str).unwrap_or_default())))
        },
    );
    let rt = codemode::demo::builder().extension(ext).build().expect("build");
    let r = runtime().block_on(rt.execute(
        "return [await crypto.subtle.digest('SHA-256', 'abc'), typeof crypto.randomUUID, crypto.randomUUID().length]",
    ));
    assert_eq!(r.value, Some(json!(["digest of abc", "function", 36])), "{r:?}");
}

#[test]
fn error_capture_stack_trace_leaves_out_the_constructor() {
    let v = value(
        "class HttpError extends Error {\n  constructor(m) {\n    super(m);\n    this.name = 'HttpError';\n    Error.captureStackTrace(this, HttpError);\n  }\n}\nfunction fail() {\n  throw new HttpError('404');\n}\ntry { fail(); } catch (e) { const o = {}; Error.captureStackTrace(o); return [e.stack, Object.keys(e), o.stack.split('\\n')[0]]; }",
    );
    let stack = v[0].as_str().unwrap();
    assert!(stack.starts_with("HttpError: 404\n    at fail (<program>:9:"), "{stack}");
    assert!(!stack.contains("HttpError ("), "{stack}");
    assert_eq!(v[1], json!(["name"]));
    assert_eq!(v[2], json!("Error"));
}
