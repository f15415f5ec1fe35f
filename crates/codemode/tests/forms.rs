//! Forms of programs models write, through the library: each section names the slip or habit it
//! covers and what the runtime makes of it.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use codemode::{CallFailureKind, CodeMode, DiagnosticKind, ExecResult, Limits, Tool};
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

fn echo() -> Tool {
    Tool::from_json("Echoes its input", None, None, |input: Value, _ctx| async move { Ok(input) })
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
