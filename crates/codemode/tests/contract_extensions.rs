//! The execution contract, continued: extensions (host globals, modules, functions inside
//! results). Split from `contract.rs` by topic; see `docs/contract.md`.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use codemode::{CodeMode, DiagnosticKind, ExecResult, Limits};
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
}

fn run_with(rt: &CodeMode, source: &str) -> ExecResult {
    runtime().block_on(rt.execute(source))
}

fn run(source: &str, limits: Limits) -> ExecResult {
    let rt = codemode::demo::builder().limits(limits).build().expect("build");
    run_with(&rt, source)
}

// ---------------------------------------------------------------------------------------------
// 7. Extensions: host globals
// ---------------------------------------------------------------------------------------------

fn extension_runtime() -> codemode::Builder {
    use codemode::{Extension, ToolError};
    let web =
        Extension::new("web").global("fetch", |args: Vec<Value>, ctx: codemode::CallContext| async move {
            let url = args.first().and_then(Value::as_str).unwrap_or_default().to_string();
            if url.starts_with("https://down.") {
                return Err(ToolError::failure(format!("cannot reach {url}")));
            }
            Ok(json!({ "url": url, "status": 200, "key": ctx.key }))
        });
    let fs = Extension::new("fs")
        .sync_global("fs.readFileSync", |args: Vec<Value>, _ctx| match args.first().and_then(Value::as_str) {
            Some("/etc/motd") => Ok(json!("hello")),
            other => Err(ToolError::failure(format!("ENOENT: no such file {other:?}"))),
        })
        .global("fs.promises.readFile", |args: Vec<Value>, _ctx| async move {
            Ok(json!(format!("async {}", args[0])))
        })
        .sync_global("sum", |args: Vec<Value>, _ctx| {
            Ok(json!(args.iter().filter_map(Value::as_f64).sum::<f64>()))
        })
        .module("fs", "fs")
        .module("node:fs/promises", "fs.promises");
    codemode::demo::builder().extension(web).extension(fs)
}

#[test]
fn extension_globals_are_sync_or_async_and_copy_values() {
    let rt = extension_runtime().limits(Limits::default().max_tool_calls(1)).build().unwrap();
    let source = r#"
        const page = await fetch("https://example.com", { method: "GET" });
        const text = fs.readFileSync("/etc/motd");
        let missing;
        try { fs.readFileSync("/nope") } catch (e) { missing = e.message }
        let down;
        try { await fetch("https://down.example") } catch (e) { down = e.message }
        const promised = fs.promises.readFile("/a");
        return [page.status, page.key, text, missing, down, await promised, sum(1, 2, 3), typeof fetch(), Object.keys(fs)]
    "#;
    let r = runtime().block_on(rt.execute_with(source, codemode::ExecuteOptions::new().run_id("x")));
    assert_eq!(
        r.value,
        Some(json!([
            200,
            "x:1",
            "hello",
            "ENOENT: no such file Some(\"/nope\")",
            "cannot reach https://down.example",
            "async \"/a\"",
            6,
            "object",
            ["readFileSync", "promises"]
        ])),
        "{r:?}"
    );
    // Outside the catalog, the tool-call limit (1 here) and the result's toolCalls.
    assert!(r.tool_calls.is_empty(), "{:?}", r.tool_calls);
    assert!(rt.tools().get("fetch").is_none());
}

/// Arguments of extension functions and of `search` convert as `JSON.stringify` does even
/// when that runs JavaScript (getters, `toJSON`), synchronous calls included; a cycle is still
/// refused, and a carrier of several arguments does not count as a level of nesting.
#[test]
fn extension_and_search_arguments_run_their_getters_and_to_json() {
    let rt = extension_runtime().build().unwrap();
    let source = r#"
        const path = { toJSON() { return "/etc/motd"; } };
        const text = fs.readFileSync(path);
        const total = sum({ toJSON: () => 2 }, 3, { get x() { return 1; } });
        const promised = await fs.promises.readFile({ get a() { return [1]; } });
        const found = search({ get query() { return "order"; }, limit: 1 });
        let cycle;
        const c = {}; c.c = c;
        try { fs.readFileSync({ toJSON: () => c }); } catch (e) { cycle = e.message; }
        let deep = [];
        for (let i = 0; i < 31; i++) deep = [deep];
        return [text, total, promised, found.items.length, cycle, sum(deep, { toJSON: () => 4 })];
    "#;
    let r = run_with(&rt, source);
    assert_eq!(
        r.value,
        Some(json!(["hello", 5, "async {\"a\":[1]}", 1, "Converting circular structure to JSON", 4])),
        "{r:?}"
    );
}

#[test]
fn hooks_see_extension_calls_by_path_and_can_deny_them() {
    use std::sync::{Arc, Mutex};
    let names: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = names.clone();
    // Deny by default: only example.com may be fetched.
    let rt = extension_runtime()
        .before_call(move |call: codemode::CallStart| {
            sink.lock().unwrap().push(call.name.clone());
            async move {
                let allowed = match (call.kind, call.name.as_str()) {
                    (codemode::CallKind::Extension, "fetch") => {
                        call.input[0].as_str().is_some_and(|u| u.starts_with("https://example.com/"))
                    }
                    (codemode::CallKind::Extension, "fs.readFileSync") => false,
                    _ => true,
                };
                if allowed {
                    Ok(())
                } else {
                    Err(codemode::Deny::new(format!("{} is not allowed", call.name)))
                }
            }
        })
        .build()
        .unwrap();
    let source = r#"
        const ok = (await fetch("https://example.com/a")).status;
        let denied, thrown;
        try { await fetch("https://evil.example/") } catch (e) { denied = e.message }
        try { fs.readFileSync("/etc/motd") } catch (e) { thrown = e.message }
        return [ok, denied, thrown, await fs.promises.readFile("/b")]
    "#;
    let r = run_with(&rt, source);
    assert_eq!(
        r.value,
        Some(json!([200, "fetch is not allowed", "fs.readFileSync is not allowed", "async \"/b\""])),
        "{r:?}"
    );
    assert_eq!(*names.lock().unwrap(), ["fetch", "fetch", "fs.readFileSync", "fs.promises.readFile"]);
}

#[test]
fn an_extension_global_may_not_shadow_a_builtin_or_another_extension() {
    use codemode::{BuildError, Extension};
    let f = |_: Vec<Value>, _ctx| Ok(json!(1));
    let err =
        CodeMode::builder().extension(Extension::new("m").sync_global("Math", f)).build().err().unwrap();
    assert_eq!(err, BuildError::ShadowedGlobal { extension: "m".into(), name: "Math".into(), by: None });
    let err =
        CodeMode::builder().extension(Extension::new("t").sync_global("tools.x", f)).build().err().unwrap();
    assert!(matches!(err, BuildError::ShadowedGlobal { ref name, .. } if name == "tools"), "{err:?}");
    let err = CodeMode::builder()
        .extension(Extension::new("a").sync_global("fs.read", f))
        .extension(Extension::new("b").sync_global("fs.write", f))
        .build()
        .err()
        .unwrap();
    assert_eq!(
        err,
        BuildError::ShadowedGlobal { extension: "b".into(), name: "fs".into(), by: Some("a".into()) }
    );
    for bad in ["", "a..b", "1x", "a-b"] {
        let err =
            CodeMode::builder().extension(Extension::new("x").sync_global(bad, f)).build().err().unwrap();
        assert!(matches!(err, BuildError::InvalidExtensionGlobal { .. }), "{bad}: {err:?}");
    }
    let err = CodeMode::builder()
        .extension(Extension::new("x").sync_global("fs", f).sync_global("fs.read", f))
        .build()
        .err()
        .unwrap();
    assert!(matches!(err, BuildError::InvalidExtensionGlobal { .. }), "{err:?}");
}

#[test]
fn require_and_dynamic_import_give_mapped_extension_modules() {
    let rt = extension_runtime().build().unwrap();
    let r = run_with(
        &rt,
        r#"
        const fs = require("fs");
        const { readFileSync } = require("node:fs");
        const promises = await import("fs/promises");
        const viaImport = await import("node:fs");
        return [fs === globalThis.fs, readFileSync("/etc/motd"), await promises.readFile("/a"),
                viaImport === fs, typeof import("fs").then, require("node:fs/promises") === fs.promises]
    "#,
    );
    assert_eq!(r.value, Some(json!([true, "hello", "async \"/a\"", true, "function", true])), "{r:?}");
}

#[test]
fn an_unmapped_module_throws_a_catchable_error_naming_what_is_available() {
    let rt = extension_runtime().build().unwrap();
    let r = run_with(
        &rt,
        r#"
        let sync, dynamic, code;
        try { require("lodash") } catch (e) { sync = e.message; code = e.code }
        try { await import("node:child_process") } catch (e) { dynamic = e.message }
        return [sync, dynamic, code]
    "#,
    );
    let available = "available modules: fs, fs/promises, url, util, buffer (a `node:` prefix is allowed)";
    assert_eq!(
        r.value,
        Some(json!([
            format!("Cannot find module 'lodash': this runtime has no packages; {available}"),
            format!("Cannot find module 'node:child_process': this runtime has no packages; {available}"),
            "MODULE_NOT_FOUND"
        ])),
        "{r:?}"
    );
    // Without any mapped module: only the built-in ones.
    let r = run(r#"require("fs")"#, Limits::default());
    assert_eq!(r.error.as_ref().map(|e| e.kind), Some(DiagnosticKind::ExecutionFailure), "{r:?}");
    let message = r.error.map(|e| e.message).unwrap_or_default();
    assert!(
        message.starts_with(
            "Error: Cannot find module 'fs': this runtime has no packages; available modules: url, util, buffer"
        ),
        "{message}"
    );
}

#[test]
fn static_imports_bind_mapped_modules_at_the_top_level() {
    let rt = extension_runtime().build().unwrap();
    let r = run_with(
        &rt,
        r#"
        import fs from "fs";
        import * as ns from "node:fs";
        import { readFileSync, readFileSync as read, default as whole } from "node:fs";
        import { readFile } from "fs/promises";
        import type { Stats } from "fs";
        import "fs";
        const text: string = readFileSync("/etc/motd");
        return [text, read === fs.readFileSync, ns === fs, whole === fs, await readFile("/b")]
    "#,
    );
    assert_eq!(r.value, Some(json!(["hello", true, true, true, "async \"/b\""])), "{r:?}");
    // In a fenced block after prose too.
    let fenced = "Here is the program:\n```ts\nimport { readFileSync } from \"fs\";\nreturn readFileSync(\"/etc/motd\")\n```\n";
    assert_eq!(run_with(&rt, fenced).value, Some(json!("hello")));
    // An unmapped static import fails the run with the same message, before anything else runs.
    let r = run_with(&rt, "console.log(\"first\")\nimport _ from \"lodash\"\nreturn 1");
    assert!(!r.ok);
    assert!(r.logs.is_empty(), "{r:?}");
    let error = r.error.unwrap();
    assert_eq!(error.kind, DiagnosticKind::ExecutionFailure);
    assert!(
        error
            .message
            .starts_with("Error: Cannot find module 'lodash': this runtime has no packages; available"),
        "{error:?}"
    );
    assert_eq!(error.location.map(|l| l.line), Some(2), "{error:?}");
    // `export` in front of a declaration is dropped; re-exports stay unsupported; a syntax error
    // after imports is reported as itself.
    let r = run_with(&rt, "import fs from \"fs\"\nexport const x = 1\nx + (fs ? 1 : 0)");
    assert_eq!(r.value, Some(json!(2)), "{r:?}");
    let r = run_with(&rt, "import fs from \"fs\"\nexport * from \"fs\"");
    assert_eq!(r.error.map(|e| e.kind), Some(DiagnosticKind::UnsupportedSyntax));
    let r = run_with(&rt, "import fs from \"fs\"\nconst = 1");
    let error = r.error.unwrap();
    assert_eq!(error.kind, DiagnosticKind::ParseError, "{error:?}");
    assert_eq!(error.location.map(|l| l.line), Some(2), "{error:?}");
}

#[test]
fn a_module_must_map_to_one_of_its_extension_globals_once() {
    use codemode::{BuildError, Extension};
    let f = |_: Vec<Value>, _ctx| Ok(json!(1));
    for ext in [
        Extension::new("x").sync_global("fs.read", f).module("fs", "os"),
        Extension::new("x").sync_global("fs.read", f).module("fs", "f"),
        Extension::new("x").sync_global("fs.read", f).module("node:", "fs"),
        Extension::new("x").sync_global("fs.read", f).module("fs", "fs").module("node:fs", "fs.read"),
    ] {
        let err = CodeMode::builder().extension(ext).build().err().unwrap();
        assert!(matches!(err, BuildError::InvalidModule { .. }), "{err:?}");
    }
}

fn db_extension() -> codemode::Extension {
    use codemode::{Extension, HostValue, ToolError};
    Extension::new("db")
        .sync_global("db.open", |_args: Vec<Value>, _ctx| {
            Ok::<_, ToolError>(HostValue::object([(
                "get",
                HostValue::sync_function(|args: Vec<Value>, _ctx| Ok(json!(format!("got {}", args[0])))),
            )]))
        })
        .global("db.connect", |args: Vec<Value>, _ctx| async move {
            let name = args.first().and_then(Value::as_str).unwrap_or("main").to_string();
            let query_name = name.clone();
            Ok::<_, ToolError>(HostValue::object([
                ("name", HostValue::from(json!(name))),
                (
                    "query",
                    HostValue::function(move |args: Vec<Value>, _ctx| {
                        let db = query_name.clone();
                        async move {
                            let sql = args.first().and_then(Value::as_str).unwrap_or_default().to_string();
                            if sql.is_empty() {
                                return Err(ToolError::failure("empty query"));
                            }
                            Ok(HostValue::object([
                                ("rows", HostValue::from(json!([{ "db": db, "sql": sql }]))),
                                // A function in a function's result stays callable too.
                                ("next", HostValue::sync_function(|_args, _ctx| Ok(json!("page 2")))),
                            ]))
                        }
                    }),
                ),
                ("close", HostValue::sync_function(|_args, _ctx| Ok(json!(true)))),
                (
                    "helpers",
                    HostValue::array([HostValue::sync_function(|args: Vec<Value>, _ctx| {
                        Ok(json!(args.len()))
                    })]),
                ),
            ]))
        })
}

#[test]
fn functions_inside_extension_results_stay_callable() {
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let rt = codemode::demo::builder()
        .extension(db_extension())
        .limits(Limits::default().max_tool_calls(1))
        .before_call(move |call: codemode::CallStart| {
            record.lock().unwrap().push((call.name.clone(), call.kind, call.input.clone()));
            async { Ok(()) }
        })
        .build()
        .unwrap();
    let r = run_with(
        &rt,
        r#"
        const conn = await db.connect("orders");
        const result = await conn.query("select 1");
        let failed;
        try { await conn.query("") } catch (e) { failed = e.message }
        return [conn.name, Object.keys(conn), typeof conn.query, result.rows, result.next(),
                conn.helpers[0](1, 2), conn.close(), failed, JSON.stringify(conn)]
    "#,
    );
    assert_eq!(
        r.value,
        Some(json!([
            "orders",
            ["name", "query", "close", "helpers"],
            "function",
            [{ "db": "orders", "sql": "select 1" }],
            "page 2",
            2,
            true,
            "empty query",
            r#"{"name":"orders","helpers":[null]}"#
        ])),
        "{r:?}"
    );
    assert!(r.tool_calls.is_empty(), "{r:?}");
    let names: Vec<String> = seen.lock().unwrap().iter().map(|(name, _, _)| name.clone()).collect();
    assert_eq!(
        names,
        [
            "db.connect",
            "db.connect().query",
            "db.connect().query",
            "db.connect().query().next",
            "db.connect().helpers.0",
            "db.connect().close"
        ]
    );
    assert!(seen.lock().unwrap().iter().all(|(_, kind, _)| *kind == codemode::CallKind::Extension));
    assert_eq!(seen.lock().unwrap()[1].2, json!(["select 1"]));
    // Without hooks, handlers are called directly.
    let rt = codemode::demo::builder().extension(db_extension()).build().unwrap();
    let r = run_with(
        &rt,
        r#"const c = await db.connect("x"); const q = await c.query("s"); const o = db.open();
           return [q.rows[0].db, q.next(), c.close(), o.get(1), Object.keys(o)]"#,
    );
    assert_eq!(r.value, Some(json!(["x", "page 2", true, "got 1", ["get"]])), "{r:?}");
}

#[test]
fn a_denied_call_of_a_result_function_rejects() {
    let rt = codemode::demo::builder()
        .extension(db_extension())
        .before_call(|call: codemode::CallStart| async move {
            if call.name.ends_with(".query") { Err(codemode::Deny::new("no queries")) } else { Ok(()) }
        })
        .build()
        .unwrap();
    let r = run_with(
        &rt,
        r#"const c = await db.connect(); try { await c.query("x") } catch (e) { return [e.message, c.close()] }"#,
    );
    assert_eq!(r.value, Some(json!(["no queries", true])), "{r:?}");
}
