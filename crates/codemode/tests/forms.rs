//! Programs in the shapes models hand them in (`docs/contract.md`, "What a program may look
//! like"): each row of issue 35's table through the library, and the rule that a result never
//! comes back silently empty. The corpus in `tests/forms` (run by `forms_corpus.rs`) covers the
//! shapes against Node; these tests pin the runtime's side: call records, warnings, diagnostics.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use codemode::{CallFailureKind, CallStatus, CodeMode, DiagnosticKind, ExecResult, Limits, Tool};
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

fn echo() -> Tool {
    Tool::from_json("Echoes its input", None, None, |input: Value, _ctx| async move { Ok(input) })
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
    // Two declarations and no call: nothing is guessed, and the warning names them.
    let r = run("function a() { return 1 }\ninterface T { x: number }\nasync function b() { return 2 }");
    assert_eq!(r.value, Some(Value::Null), "{r:?}");
    let warning = r.warnings.first().expect("a warning says nothing ran");
    assert_eq!(warning.kind, DiagnosticKind::InvalidDataValue);
    assert!(warning.message.contains("`a`, `b`") && warning.message.contains("calls none"), "{warning:?}");
    // A program that calls one of them, or that ends in `null` on purpose, gets no such warning.
    for source in
        ["function a() { return 1 }\nfunction b() { return null }\nreturn b()", "function a() {}\nnull"]
    {
        let r = run(source);
        assert_eq!((r.value, r.warnings.len()), (Some(Value::Null), 0), "{source}");
    }
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

// ---------------------------------------------------------------------------------------------
// Discovery: `tools.search(...)`, listing the tool tree, unknown members and their messages
// ---------------------------------------------------------------------------------------------

#[test]
fn tools_search_is_the_search_builtin() {
    let r = run(r#"
        const slip = await tools.search({ query: "orders" });
        const global = await search({ query: "orders" });
        const chained = await tools.search({ query: "orders" }).then(r => r.items.length);
        const detached = tools.search;
        return [JSON.stringify(slip) === JSON.stringify(global), slip.items[0].path, chained,
                detached({ query: "echo" }).items[0].path, typeof tools.search,
                Object.keys(tools).includes("search"), "search" in tools]
    "#);
    assert_eq!(
        r.value,
        Some(json!([true, "tools.orders.lookup", 1, "tools.demo.echo", "function", false, false])),
        "{r:?}"
    );
    // The same host call as `search(...)`: recorded as `search`, counted as a tool call.
    assert!(r.tool_calls.iter().all(|c| c.path == "search"), "{:?}", r.tool_calls);
    assert_eq!(r.tool_calls.len(), 4);
}

#[test]
fn tools_search_counts_toward_max_tool_calls() {
    let rt = codemode::demo::builder().limits(Limits::default().max_tool_calls(1)).build().unwrap();
    let r = run_with(&rt, r#"await tools.search({ query: "a" }); await search({ query: "b" }); return 1"#);
    assert_eq!(r.error.map(|e| e.kind), Some(DiagnosticKind::ToolCallLimitExceeded));
}

#[test]
fn a_host_tool_or_namespace_named_search_wins() {
    let rt = CodeMode::builder().tool("search", echo()).tool("other.x", echo()).build().unwrap();
    let r = run_with(&rt, r#"return [await tools.search({ q: 1 }), Object.keys(tools)]"#);
    assert_eq!(r.value, Some(json!([{ "q": 1 }, ["other", "search"]])), "{r:?}");
    assert_eq!(r.tool_calls[0].path, "search");

    let rt = CodeMode::builder().tool("search.docs", echo()).build().unwrap();
    let r = run_with(
        &rt,
        r#"const keys = Object.keys(tools.search);
           try { await tools.search({ query: "x" }) } catch (e) { return [keys, e.message] }"#,
    );
    assert_eq!(
        r.value,
        Some(json!([["docs"], "Tool 'search' is not callable. tools.search has: docs."])),
        "{r:?}"
    );
}

#[test]
fn only_the_root_search_is_the_builtin() {
    let r = run(r#"try { await tools.orders.search({ query: "x" }) } catch (e) { return e.message }"#);
    assert_eq!(
        r.value,
        Some(json!(
            "Unknown tool 'orders.search'. tools.orders has: lookup. search is a global function, \
             not a tool: call search({ query, namespace: \"orders\" })."
        )),
        "{r:?}"
    );
}

/// Invariant: **a namespace's tools are its properties whichever way a program looks first.**
/// Namespaces are listed when first looked at (`Vm::list_tool_children`); each probe here is the
/// first look at a fresh namespace of its own, so a way of looking that forgot to list it answers
/// as if the namespace were empty.
#[test]
fn a_namespace_lists_its_tools_whichever_way_it_is_first_looked_at() {
    let probes = [
        ("Object.keys(ns)", json!(["a", "b"])),
        ("Object.getOwnPropertyNames(ns).filter(k => k !== 'length' && k !== 'name')", json!(["a", "b"])),
        ("Reflect.ownKeys(ns).filter(k => k !== 'length' && k !== 'name')", json!(["a", "b"])),
        ("Object.entries(ns).map(([k]) => k)", json!(["a", "b"])),
        ("Object.values(ns).length", json!(2)),
        ("(() => { const ks = []; for (const k in ns) ks.push(k); return ks })()", json!(["a", "b"])),
        ("'b' in ns", json!(true)),
        ("Object.prototype.hasOwnProperty.call(ns, 'b')", json!(true)),
        ("Object.hasOwn(ns, 'a')", json!(true)),
        ("Object.prototype.propertyIsEnumerable.call(ns, 'a')", json!(true)),
        ("Object.getOwnPropertyDescriptor(ns, 'a')?.enumerable", json!(true)),
        (
            "Object.keys(Object.getOwnPropertyDescriptors(ns)).filter(k => k !== 'length' && k !== 'name')",
            json!(["a", "b"]),
        ),
        ("Object.keys({ ...ns })", json!(["a", "b"])),
        ("Object.keys(Object.assign({}, ns))", json!(["a", "b"])),
        ("(ns.extra = 1, Object.keys(ns))", json!(["a", "b", "extra"])),
        ("(ns.a = 5, [ns.a, Object.keys(ns)])", json!([5, ["a", "b"]])),
        (
            "(Object.defineProperty(ns, 'x', { value: 1, enumerable: true }), Object.keys(ns))",
            json!(["a", "b", "x"]),
        ),
        ("(delete ns.a, Object.keys(ns))", json!(["b"])),
        ("(Object.freeze(ns), Object.keys(ns))", json!(["a", "b"])),
        // A child read before the namespace is listed keeps its identity and its place.
        (
            "(() => { const b = ns.b; return [Object.keys(ns), ns.b === b, Object.values(ns)[1] === b] })()",
            json!([["a", "b"], true, true]),
        ),
        (
            "(ns.nope, ns.b, ns.b.c, Reflect.ownKeys(ns).filter(k => k !== 'length' && k !== 'name'))",
            json!(["a", "b"]),
        ),
        ("typeof ns.a", json!("function")),
        ("ns.a === ns.a", json!(true)),
    ];
    let mut builder = CodeMode::builder();
    for i in 0..probes.len() {
        builder = builder.tool(format!("n{i}.b"), echo()).tool(format!("n{i}.a"), echo());
    }
    let rt = builder.build().unwrap();
    // The root is a namespace too: here it holds the tools `a` and `b`.
    let flat = CodeMode::builder().tool("b", echo()).tool("a", echo()).build().unwrap();
    for (i, (probe, expected)) in probes.iter().enumerate() {
        let r = run_with(&rt, &format!("const ns = tools.n{i}; return {probe}"));
        assert_eq!(r.value.as_ref(), Some(expected), "{probe}: {r:?}");
        let r = run_with(&flat, &format!("const ns = tools; return {probe}"));
        assert_eq!(r.value.as_ref(), Some(expected), "root, {probe}: {r:?}");
    }
}

#[test]
fn every_level_of_the_tool_tree_lists_its_members() {
    let rt = CodeMode::builder()
        .tool("a.b.c", echo())
        .tool("a.b-x", echo())
        .tool("a.b2", echo())
        .tool("a.b.d", echo())
        .tool("z", echo())
        .build()
        .unwrap();
    let r = run_with(
        &rt,
        r#"
        const forIn = []; for (const k in tools.a) forIn.push(k);
        return [
            Object.keys(tools),
            Object.keys(tools.a),
            Object.keys(tools.a.b),
            Object.entries(tools.a).map(([k, v]) => [k, typeof v, Object.keys(v)]),
            forIn,
            Reflect.ownKeys(tools.a.b),
            JSON.stringify(Object.keys(tools.a.b)),
            ["c" in tools.a.b, "nope" in tools.a.b, "b" in tools.a, Object.hasOwn(tools, "z")],
            Object.values(tools.a).map(v => Object.keys(v).length),
            Object.keys({ ...tools.a.b }),
        ]
    "#,
    );
    assert_eq!(
        r.value,
        Some(json!([
            ["a", "z"],
            ["b", "b-x", "b2"],
            ["c", "d"],
            [["b", "function", ["c", "d"]], ["b-x", "function", []], ["b2", "function", []]],
            ["b", "b-x", "b2"],
            ["c", "d"],
            "[\"c\",\"d\"]",
            [true, false, true, true],
            [2, 0, 0],
            ["c", "d"],
        ])),
        "{r:?}"
    );
}

#[test]
fn reading_an_unknown_member_does_not_make_it_a_member() {
    let r = run(r#"
        const before = Reflect.ownKeys(tools.orders);
        const t = tools.orders.nope;
        tools.nope;
        return [before, Reflect.ownKeys(tools.orders), "nope" in tools.orders, "nope" in tools,
                Object.keys(tools), typeof t, typeof tools.nope, typeof tools.nope.deeper,
                typeof tools.orders, typeof tools.orders.lookup, typeof tools]
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            ["lookup"],
            ["lookup"],
            false,
            false,
            ["data", "demo", "orders"],
            "undefined",
            "undefined",
            "undefined",
            "function",
            "function",
            "object"
        ])),
        "{r:?}"
    );
}

#[test]
fn calling_an_unknown_member_is_an_unknown_tool_that_names_what_exists() {
    let r = run(r#"
        const out = [];
        for (const call of [() => tools.orders.nope({}), () => tools.nope(), () => tools.orders.lokup({})]) {
            try { await call() } catch (e) { out.push(e.message) }
        }
        const detached = tools.orders.nope;
        try { await detached() } catch (e) { out.push(e.message) }
        return out
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            "Unknown tool 'orders.nope'. Did you mean tools.orders.lookup? tools.orders has: lookup.",
            "Unknown tool 'nope'. tools has: data, demo, orders. Call search({ query }) to find tools \
             by what they do.",
            "Unknown tool 'orders.lokup'. Did you mean tools.orders.lookup?",
            "Unknown tool 'orders.nope'. Did you mean tools.orders.lookup? tools.orders has: lookup.",
        ])),
        "{r:?}"
    );
    let kinds: Vec<_> = r.tool_calls.iter().map(|c| c.failure.as_ref().map(|f| f.kind)).collect();
    assert_eq!(kinds, [Some(CallFailureKind::UnknownTool); 4]);

    let r = run("await tools.orders.nope({ id: 1 })");
    let error = r.error.unwrap();
    assert_eq!(error.kind, DiagnosticKind::UnknownTool);
    assert!(error.message.contains("Did you mean tools.orders.lookup?"), "{}", error.message);
}

#[test]
fn a_catalog_of_thousands_of_tools_is_declared_at_once() {
    let mut builder = CodeMode::builder();
    for i in 0..3000 {
        builder = builder.tool(format!("ns{}.tool{i}", i % 30), echo());
    }
    let rt = builder.build().unwrap();
    let started = std::time::Instant::now();
    let r = run_with(
        &rt,
        "return [Object.keys(tools).length, Object.keys(tools.ns7).length, typeof tools.ns7.tool7, \
         await tools.ns7.tool7(1)]",
    );
    assert_eq!(r.value, Some(json!([30, 100, "function", 1])), "{r:?}");
    // Generous for a debug build on a shared machine: the point is no quadratic start-up.
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
}
