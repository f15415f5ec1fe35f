//! Programs in the shapes models hand them in (`docs/contract.md`, "What a program may look
//! like"): each row of issue 35's table through the library, and the rule that a result never
//! comes back silently empty. The corpus in `tests/forms` (run by `forms_corpus.rs`) covers the
//! shapes against Node; these tests pin the runtime's side: call records, warnings, diagnostics.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use codemode::{CallStatus, CodeMode, DiagnosticKind, ExecResult};
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
}

fn run_with(rt: &CodeMode, source: &str) -> ExecResult {
    runtime().block_on(rt.execute(source))
}

fn run(source: &str) -> ExecResult {
    run_with(&codemode::demo::builder().build().expect("build"), source)
}

/// The statuses of the run's tool calls, in order.
fn statuses(r: &ExecResult) -> Vec<CallStatus> {
    r.tool_calls.iter().map(|call| call.status).collect()
}

fn order(id: &str) -> Value {
    let r = run(&format!("return await tools.orders.lookup({{ id: {id:?} }})"));
    r.value.expect("the demo tool answers")
}

// ---------------------------------------------------------------------------------------------
// A returned or final promise is awaited: the program is an async function body
// ---------------------------------------------------------------------------------------------

#[test]
fn a_returned_promise_all_is_awaited() {
    let r =
        run(r#"const ids = ["a1", "b2"]; return Promise.all(ids.map(id => tools.orders.lookup({ id })))"#);
    assert!(r.ok, "{r:?}");
    assert_eq!(r.value, Some(json!([order("a1"), order("b2")])));
    assert_eq!(statuses(&r), [CallStatus::Ok, CallStatus::Ok]);
    assert!(r.warnings.is_empty(), "{r:?}");
}

#[test]
fn a_returned_tool_call_is_awaited() {
    let forecast =
        codemode::Tool::from_json("Forecast for a city", None, None, |input: Value, _ctx| async move {
            Ok(json!({ "city": input["city"], "high": 12 }))
        });
    let rt = CodeMode::builder().tool("weather.get_forecast", forecast).build().unwrap();
    let r = run_with(&rt, r#"return tools.weather.get_forecast({ city: "Oslo" })"#);
    assert_eq!(r.value, Some(json!({ "city": "Oslo", "high": 12 })), "{r:?}");
    assert_eq!(statuses(&r), [CallStatus::Ok]);
}

#[test]
fn main_called_on_the_last_line_is_awaited() {
    let r = run(
        "async function main() {\n  const o = await tools.orders.lookup({ id: 'a1' });\n  console.log('got', o.id);\n  return o.status;\n}\nmain();",
    );
    assert_eq!(r.value, Some(json!("complete")), "{r:?}");
    assert_eq!(r.logs, ["got a1"]);
    // `main().catch(..)` and `await main()` alike.
    assert_eq!(run("async function main() { return 2 }\nmain().catch(e => null)").value, Some(json!(2)));
}

#[test]
fn a_then_chain_is_awaited() {
    let r = run(
        "return fetchThing().then(r => r.items).then(items => items.length)\nasync function fetchThing() { return { items: [1, 2, 3] } }",
    );
    assert_eq!(r.value, Some(json!(3)), "{r:?}");
}

#[test]
fn a_returned_rejection_fails_the_run() {
    let r = run(r#"return tools.demo.fail({ message: "no such order" })"#);
    assert!(!r.ok, "{r:?}");
    assert_eq!(r.error.map(|e| e.kind), Some(DiagnosticKind::ToolFailure));
    let r = run(r#"Promise.reject(new RangeError("late"))"#);
    let error = r.error.expect("failed");
    assert_eq!(error.kind, DiagnosticKind::ExecutionFailure);
    assert!(error.message.starts_with("RangeError: late"), "{error:?}");
}

#[test]
fn a_thenable_result_is_asked_through_its_then() {
    let r = run("({ then(resolve) { resolve({ via: 'then' }) } })");
    assert_eq!(r.value, Some(json!({ "via": "then" })), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// Whole-program functions are called
// ---------------------------------------------------------------------------------------------

#[test]
fn an_expression_bodied_async_arrow_is_called() {
    let r = run(r#"async () => (await tools.orders.lookup({ id: "a4" })).total"#);
    assert_eq!(r.value, Some(order("a4")["total"].clone()), "{r:?}");
}

#[test]
fn an_arrow_returning_an_object_is_called() {
    assert_eq!(run("() => ({ answer: 42 })").value, Some(json!({ "answer": 42 })));
    // With parameters (called with none) and as a function expression.
    assert_eq!(run("(input) => input === undefined").value, Some(json!(true)));
    assert_eq!(run("(async function () { return 'fn' })").value, Some(json!("fn")));
}

#[test]
fn a_lone_function_declaration_is_called() {
    let r = run(
        "// the model forgot to call it\nasync function main() {\n  return (await tools.demo.echo({ n: 1 })).n;\n}\n",
    );
    assert_eq!(r.value, Some(json!(1)), "{r:?}");
    // Two declarations and no call: nothing is guessed.
    assert_eq!(run("function a() { return 1 }\nfunction b() { return 2 }").value, Some(Value::Null));
}

#[test]
fn export_default_of_a_function_is_called() {
    let r = run("export default async function run() {\n  return 5;\n}");
    assert_eq!(r.value, Some(json!(5)), "{r:?}");
    assert_eq!(run("export default async () => 6;").value, Some(json!(6)));
    assert_eq!(run("export default { seven: 7 }").value, Some(json!({ "seven": 7 })));
    // `export` in front of declarations the program uses, in TypeScript.
    let r = run(
        "export interface Order { id: string }\nexport const ids: string[] = ['a1', 'b2'];\nexport default async function run(): Promise<number> {\n  const orders = await Promise.all(ids.map(id => tools.orders.lookup({ id })));\n  return orders.length;\n}",
    );
    assert_eq!(r.value, Some(json!(2)), "{r:?}");
    // A program that produces its own result keeps it: the default export is not called again.
    let r =
        run("export default async function main() { console.log('ran'); return 1 }\nawait main();\n'own'");
    assert_eq!((r.value, r.logs), (Some(json!("own")), vec!["ran".to_string()]));
}

#[test]
fn reexports_stay_unsupported_with_a_reason() {
    let r = run(r#"export * from "fs""#);
    let error = r.error.expect("refused");
    assert_eq!(error.kind, DiagnosticKind::UnsupportedSyntax);
    assert!(error.message.contains("return the result instead"), "{error:?}");
}

// ---------------------------------------------------------------------------------------------
// The boundary: promises settled, binary data refused by path, `__proto__` dropped
// ---------------------------------------------------------------------------------------------

#[test]
fn a_promise_inside_the_result_is_awaited() {
    let r = run(
        r#"return { order: tools.orders.lookup({ id: "a1" }), list: [tools.demo.echo(1), Promise.resolve(2)] }"#,
    );
    assert_eq!(r.value, Some(json!({ "order": order("a1"), "list": [1, 2] })), "{r:?}");
    assert_eq!(statuses(&r), [CallStatus::Ok, CallStatus::Ok]);
    // A rejected one fails the run with its reason, as awaiting it would.
    let r = run(r#"return { r: Promise.reject(new Error("nested")) }"#);
    assert_eq!(r.error.map(|e| e.message), Some("Error: nested".to_string()));
}

#[test]
fn binary_data_in_the_result_is_refused_with_its_path() {
    let r = run("return { data: { bytes: new Uint8Array([1, 2]) } }");
    let error = r.error.expect("refused");
    assert_eq!(error.kind, DiagnosticKind::InvalidDataValue);
    assert!(error.message.contains("Uint8Array at $.data.bytes cannot cross the boundary"), "{error:?}");
    let r = run(r#"return [0, { "a b": new DataView(new ArrayBuffer(2)) }]"#);
    assert!(r.error.unwrap().message.contains(r#"DataView at $[1]["a b"]"#));
    // Inside the program JSON.stringify keeps JavaScript's answer.
    assert_eq!(run("JSON.stringify(new Uint8Array([1]))").value, Some(json!("{\"0\":1}")));
}

#[test]
fn tool_input_is_settled_and_checked_like_the_result() {
    let r = run("await tools.demo.echo({ b: new Uint8Array(2) })");
    let error = r.error.expect("refused");
    assert_eq!(error.kind, DiagnosticKind::InvalidToolInput);
    assert!(error.message.contains("Uint8Array at $.b cannot cross the boundary"), "{error:?}");
    let r = run(
        r#"return await tools.demo.echo({ p: Promise.resolve(5), q: JSON.parse('{"__proto__": 1, "k": 2}') })"#,
    );
    assert_eq!(r.value, Some(json!({ "p": 5, "q": { "k": 2 } })), "{r:?}");
}

#[test]
fn proto_keys_are_dropped_at_the_boundary() {
    let r = run(r#"const o = JSON.parse('{"__proto__": {"admin": true}, "ok": 1}'); return o"#);
    assert_eq!(r.value, Some(json!({ "ok": 1 })), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// No silent empty results
// ---------------------------------------------------------------------------------------------

/// The one warning of a run, which must be about its empty result.
fn empty_result_warning(r: &ExecResult) -> String {
    assert!(r.ok, "{r:?}");
    assert_eq!(r.warnings.len(), 1, "{r:?}");
    assert_eq!(r.warnings[0].kind, DiagnosticKind::InvalidDataValue);
    r.warnings[0].message.clone()
}

#[test]
fn an_empty_result_that_lost_its_data_is_named_in_a_warning() {
    let r = run("const run = async () => 1; return run");
    assert_eq!(r.value, Some(Value::Null));
    assert!(empty_result_warning(&r).starts_with("The program's result is a function"));
    let r = run("return { run: async () => 1, helper() {} }");
    assert_eq!(r.value, Some(json!({})));
    assert!(empty_result_warning(&r).contains("(run, helper)"));
    let r = run("class Report { get total() { return 1 } }\nreturn new Report()");
    assert!(empty_result_warning(&r).contains("on its prototype"));
    let r = run("const pending = tools.demo.sleep({ ms: 5000 }); return {}");
    assert_eq!(statuses(&r), [CallStatus::Interrupted]);
    assert!(empty_result_warning(&r).contains("demo.sleep (#1)"));
}

#[test]
fn an_empty_result_the_program_meant_has_no_warning() {
    for source in
        ["return {}", "return null", "console.log('x')", "const o = {}; o", "return { f: undefined }"]
    {
        let r = run(source);
        assert!(r.ok && r.warnings.is_empty(), "{source}: {r:?}");
    }
}
