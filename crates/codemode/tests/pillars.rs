//! The architecture pillars of DESIGN.md, each shown by a test through the public API.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use codemode::{CodeMode, DiagnosticKind, ExecResult, Limits, Tool, ToolError};
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
}

fn run(source: &str, limits: Limits) -> ExecResult {
    let rt = codemode::demo::builder().limits(limits).build().expect("build");
    runtime().block_on(rt.execute(source))
}

fn error_kind(r: &ExecResult) -> Option<DiagnosticKind> {
    r.error.as_ref().map(|e| e.kind)
}

#[test]
fn busy_loop_times_out() {
    let started = std::time::Instant::now();
    let r = run("while (true) {}", Limits::default().timeout(Duration::from_millis(200)));
    assert_eq!(error_kind(&r), Some(DiagnosticKind::TimeoutExceeded), "{r:?}");
    assert_eq!(r.error.as_ref().map(|e| e.message.as_str()), Some("Execution timed out after 200ms."));
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
}

#[test]
fn infinite_loop_inside_a_map_callback_is_stopped_by_fuel() {
    let r =
        run("[1, 2].map(x => { while (true) {} })", Limits::default().timeout(Duration::from_millis(200)));
    assert_eq!(error_kind(&r), Some(DiagnosticKind::TimeoutExceeded), "{r:?}");
}

/// Callbacks restarted in place (`return_in_place`) are charged and checked like calls: a
/// billion of them, none with a loop or a call of its own, still end at the deadline.
#[test]
fn callbacks_restarted_in_place_are_stopped_by_fuel() {
    let source = "const a = Array.from({ length: 1000 }, (_, i) => i);
        a.forEach(() => a.forEach(() => a.forEach(() => 0)));";
    let started = std::time::Instant::now();
    let r = run(source, Limits::default().timeout(Duration::from_millis(200)));
    assert_eq!(error_kind(&r), Some(DiagnosticKind::TimeoutExceeded), "{r:?}");
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
}

#[test]
fn infinite_recursion_is_a_catchable_range_error() {
    let source = r#"
        function down(n) { return down(n + 1) + 1; }
        try { down(0); return "no error"; }
        catch (e) { return [e instanceof RangeError, e.message]; }
    "#;
    let r = run(source, Limits::default().timeout(Duration::from_secs(10)));
    assert_eq!(r.value, Some(json!([true, "Maximum call stack size exceeded"])), "{r:?}");
}

#[test]
fn recursion_through_builtins_is_limited_too() {
    // map → callback → map → ...: native frames count towards the depth limit and nothing
    // recurses through Rust.
    let source = r#"
        function deep(n) { return [n].map(x => deep(x + 1))[0]; }
        try { deep(0); } catch (e) { return e.message; }
    "#;
    let r = run(source, Limits::default().timeout(Duration::from_secs(10)));
    assert_eq!(r.value, Some(json!("Maximum call stack size exceeded")), "{r:?}");
}

#[test]
fn deep_recursion_within_the_limit_works() {
    let source = "function sum(n) { return n === 0 ? 0 : n + sum(n - 1); } return sum(5000);";
    let r = run(source, Limits::default());
    assert_eq!(r.value, Some(json!(12502500)), "{r:?}");
}

#[test]
fn deeply_nested_input_is_a_diagnostic_not_a_crash() {
    for source in [
        format!("return {}1{};", "(".repeat(10_000), ")".repeat(10_000)),
        format!("return {}{};", "[".repeat(10_000), "]".repeat(10_000)),
        format!("return {}{};", "{a:".repeat(10_000), "}".repeat(10_000)),
        format!("return {}1;", "-".repeat(10_000)),
        format!("return {}1{};", "f(".repeat(10_000), ")".repeat(10_000)),
    ] {
        let r = run(&source, Limits::default());
        assert_eq!(error_kind(&r), Some(DiagnosticKind::ParseError), "{:?}", r.error);
    }
}

#[test]
fn deeply_nested_tool_results_are_rejected_at_the_boundary() {
    let mut v = json!(1);
    for _ in 0..40 {
        v = json!([v]);
    }
    let r = run(&format!("return await tools.demo.echo({v})"), Limits::default());
    assert!(!r.ok, "{r:?}");
}

#[test]
fn tool_calls_under_promise_all_really_overlap() {
    // The first tool waits until the second has started: a sequential driver deadlocks.
    let second_started = Arc::new(AtomicBool::new(false));
    let flag = second_started.clone();
    let first = Tool::from_json("waits for second", None, Some(json!({})), move |_input: Value, _ctx| {
        let flag = flag.clone();
        async move {
            for _ in 0..200 {
                if flag.load(Ordering::SeqCst) {
                    return Ok(json!("first"));
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Err(ToolError::failure("the second call never started"))
        }
    });
    let flag = second_started.clone();
    let second = Tool::from_json("second", None, Some(json!({})), move |_input: Value, _ctx| {
        let flag = flag.clone();
        async move {
            flag.store(true, Ordering::SeqCst);
            Ok(json!("second"))
        }
    });
    let rt = CodeMode::builder()
        .tool("a.first", first)
        .tool("a.second", second)
        .limits(Limits::default().timeout(Duration::from_secs(5)))
        .build()
        .expect("build");
    let r = runtime().block_on(rt.execute("return await Promise.all([tools.a.first(), tools.a.second()])"));
    assert_eq!(r.value, Some(json!(["first", "second"])), "{r:?}");
    assert_eq!(r.tool_calls.len(), 2);
}

#[test]
fn failing_tool_rejects_a_catchable_error_and_uncaught_is_tool_failure() {
    let r = run(
        r#"try { await tools.demo.fail({ message: "nope" }); } catch (e) { return e.message; }"#,
        Limits::default(),
    );
    assert_eq!(r.value, Some(json!("nope")), "{r:?}");
    let r = run(r#"await tools.demo.fail({ message: "nope" });"#, Limits::default());
    assert_eq!(error_kind(&r), Some(DiagnosticKind::ToolFailure), "{r:?}");
}

#[test]
fn unknown_tool_is_reported_with_a_suggestion() {
    let r = run("return await tools.orders.lokup({ id: 'x' })", Limits::default());
    assert_eq!(error_kind(&r), Some(DiagnosticKind::UnknownTool), "{r:?}");
    let message = r.error.map(|e| e.message).unwrap_or_default();
    assert!(message.contains("Did you mean tools.orders.lookup"), "{message}");
}

#[test]
fn max_tool_calls_is_enforced() {
    let r = run(
        "for (let i = 0; i < 5; i++) await tools.demo.echo(i); return 1;",
        Limits::default().max_tool_calls(3),
    );
    assert_eq!(error_kind(&r), Some(DiagnosticKind::ToolCallLimitExceeded), "{r:?}");
    assert_eq!(r.tool_calls.len(), 3);
}

#[test]
fn syntax_errors_and_unsupported_syntax_have_locations() {
    let r = run("let x = ;", Limits::default());
    assert_eq!(error_kind(&r), Some(DiagnosticKind::ParseError), "{r:?}");
    assert!(r.error.as_ref().and_then(|e| e.location).is_some());
    let r = run("\nexport * from \"m\";", Limits::default());
    assert_eq!(error_kind(&r), Some(DiagnosticKind::UnsupportedSyntax), "{r:?}");
    assert_eq!(r.error.as_ref().and_then(|e| e.location).map(|l| l.line), Some(2));
}

#[test]
fn last_expression_is_the_result_and_undefined_becomes_null() {
    assert_eq!(run("1 + 2", Limits::default()).value, Some(json!(3)));
    assert_eq!(run("let x = 1;", Limits::default()).value, Some(json!(null)));
}

#[test]
fn uncaught_errors_are_execution_failures_with_location() {
    let r = run("const o = null;\nreturn o.x;", Limits::default());
    assert_eq!(error_kind(&r), Some(DiagnosticKind::ExecutionFailure));
    let e = r.error.expect("error");
    assert_eq!(e.message, "TypeError: Cannot read properties of null (reading 'x') (line 2, col 8)");
    let r = run("throw 'text'", Limits::default());
    assert_eq!(r.error.map(|e| e.message).unwrap_or_default(), "Uncaught: \"text\" (line 1, col 1)");
}

#[test]
fn unhandled_rejections_become_warnings() {
    let r = run("Promise.reject(new Error('lost')); return 1;", Limits::default());
    assert_eq!(r.value, Some(json!(1)));
    assert_eq!(r.warnings.len(), 1, "{r:?}");
    assert!(r.warnings[0].message.starts_with("Unhandled rejection from an un-awaited promise: Error: lost"));
}

#[test]
fn search_is_a_synchronous_builtin_counted_as_a_tool_call() {
    let r = run(
        r#"const r = search({ query: "order" }); const again = await search({ query: "records" });
           return [r.items[0].path, again.items[0].path, typeof r.then];"#,
        Limits::default(),
    );
    // Thenable as the reference says (contract.rs::search_is_usable_directly_awaited_or_chained).
    assert_eq!(r.value, Some(json!(["tools.orders.lookup", "tools.data.records", "function"])), "{r:?}");
    assert_eq!(r.tool_calls.iter().map(|c| c.path.as_str()).collect::<Vec<_>>(), ["search", "search"]);
    let r = run("search(); search(); return 1;", Limits::default().max_tool_calls(1));
    assert_eq!(error_kind(&r), Some(DiagnosticKind::ToolCallLimitExceeded), "{r:?}");
    let r = run(
        "try { search({ limit: 'x' }); return 'no error'; } catch (e) { return e.message; }",
        Limits::default(),
    );
    assert!(
        r.value.as_ref().and_then(Value::as_str).is_some_and(|m| m.starts_with("Invalid input for search")),
        "{r:?}"
    );
}

#[test]
fn typed_tools_decode_input_and_report_invalid_input() {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Input {
        id: String,
        #[serde(default)]
        qty: u32,
    }
    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Output {
        label: String,
    }
    let tool = Tool::typed("Label an item", |input: Input, _ctx| async move {
        Ok(Output { label: format!("{} x{}", input.id, input.qty) })
    });
    let rt = CodeMode::builder().tool("items.label", tool).build().expect("build");
    let r = runtime().block_on(rt.execute("return (await tools.items.label({ id: 'a', qty: 2 })).label"));
    assert_eq!(r.value, Some(json!("a x2")), "{r:?}");
    let r = runtime().block_on(rt.execute("return await tools.items.label({ id: 5 })"));
    assert_eq!(error_kind(&r), Some(DiagnosticKind::InvalidToolInput), "{r:?}");
    let message = r.error.map(|e| e.message).unwrap_or_default();
    assert!(message.starts_with("Error: Invalid input for tool 'items.label': "), "{message}");
    assert!(message.contains("id"), "{message}");
}

#[test]
fn a_slow_tool_times_out_and_is_reported_interrupted() {
    let started = std::time::Instant::now();
    let r = run(
        "console.log('before'); return await tools.demo.sleep({ ms: 10000, value: 1 });",
        Limits::default().timeout(Duration::from_millis(200)),
    );
    assert_eq!(error_kind(&r), Some(DiagnosticKind::TimeoutExceeded), "{r:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(r.logs, ["before"]);
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].status, codemode::CallStatus::Interrupted);
}

#[test]
fn unhandled_rejections_are_capped_with_a_summary() {
    let r =
        run("for (let i = 0; i < 150; i++) Promise.reject(new Error('e' + i)); return 1;", Limits::default());
    assert_eq!(r.value, Some(json!(1)));
    assert_eq!(r.warnings.len(), 101, "{:?}", r.warnings.last());
    assert!(r.warnings[0].message.ends_with("Error: e0"), "{}", r.warnings[0].message);
    assert_eq!(r.warnings[100].message, "50 more unhandled rejections were omitted.");
}

#[test]
fn running_out_of_memory_is_a_catchable_range_error_and_garbage_is_collected() {
    // Garbage from a loop without calls is collected (200 MB of discarded strings).
    let r = run(
        "let n = 0; for (let i = 0; i < 200; i++) { const s = 'x'.repeat(1 << 20); n += s.length; } return n;",
        Limits::default().timeout(Duration::from_secs(20)),
    );
    assert_eq!(r.value, Some(json!(200 << 20)), "{r:?}");
    // Live data beyond the budget is an error the program can catch, and the run goes on.
    let r = run(
        "const keep = []; try { while (true) keep.push('y'.repeat(1 << 20) + keep.length); } \
         catch (e) { return [e.name, e.message, keep.length > 10]; }",
        Limits::default().timeout(Duration::from_secs(20)),
    );
    assert_eq!(
        r.value,
        Some(json!(["RangeError", "Out of memory: the program exceeded its memory limit", true])),
        "{r:?}"
    );
}

#[test]
fn large_results_convert_without_growing_the_stack() {
    // Run on a small thread: the result walk and JSON.stringify must be iterative.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            run(
                "const a = Array.from({ length: 200000 }, (_, i) => i); \
                 return { n: JSON.stringify(a).length, a: a.slice(0, 2), o: Object.fromEntries(a.slice(0, 50000).map(i => ['k' + i, i])).k49999, all: a };",
                Limits::default().timeout(Duration::from_secs(30)),
            )
        })
        .expect("thread");
    let r = handle.join().expect("no stack overflow");
    let value = r.value.expect("value");
    assert_eq!(value["a"], json!([0, 1]));
    assert_eq!(value["o"], json!(49999));
    assert_eq!(value["all"].as_array().map(Vec::len), Some(200000));
}

#[test]
fn call_depth_and_memory_limits_are_configurable() {
    let recursion = r#"
        function down(n) { return n === 0 ? 0 : 1 + down(n - 1); }
        try { return down(150); } catch (e) { return e.message; }
    "#;
    let r = run(recursion, Limits::default().max_call_depth(100));
    assert_eq!(r.value, Some(json!("Maximum call stack size exceeded")), "{r:?}");
    let r = run(recursion, Limits::default().max_call_depth(1000));
    assert_eq!(r.value, Some(json!(150)), "{r:?}");

    let growth = r#"const a = []; try { for (let i = 0; i < 20000; i++) a.push("x".repeat(1000) + i); } catch (e) { return e.name; } return "done";"#;
    let r = run(growth, Limits::default().memory_limit(8 << 20));
    assert_eq!(r.value, Some(json!("RangeError")), "{r:?}");
    let r = run(growth, Limits::default().memory_limit(64 << 20));
    assert_eq!(r.value, Some(json!("done")), "{r:?}");

    let too_small = codemode::demo::builder().limits(Limits::default().memory_limit(1024)).build();
    assert!(too_small.is_err_and(|e| e.to_string().contains("memory_limit")));
    let zero_depth = codemode::demo::builder().limits(Limits::default().max_call_depth(0)).build();
    assert!(zero_depth.is_err());
}
