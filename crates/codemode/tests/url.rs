//! `URL`, `URLSearchParams` and Node's built-in modules `url`/`util`/`buffer`: what the Node
//! oracle cannot show (`tests/conformance/url_*.js` covers the semantics). The result and
//! tool-input boundary (a `URLSearchParams` crosses as its query string, while
//! `JSON.stringify` inside the program gives `{}` as in Node), `require` and static imports of
//! the built-in modules and the host's precedence over them, and URL state saved and restored
//! mid-run (and refused when corrupt).

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::time::Duration;

use codemode::{ExecResult, Limits};
use codemode_vm::{HostCall, Status, Vm, VmConfig};
use serde_json::{Value, json};

fn run_on(rt: &codemode::CodeMode, source: &str) -> ExecResult {
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    tokio.block_on(rt.execute(source))
}

fn run(source: &str) -> ExecResult {
    let limits = Limits::default().timeout(Duration::from_secs(20));
    let rt = codemode::demo::builder().limits(limits).build().expect("build");
    run_on(&rt, source)
}

#[test]
fn search_params_cross_the_result_boundary_as_their_query_string() {
    let r = run(r#"
        const p = new URLSearchParams({ a: "1 2" });
        const u = new URL("https://example.com/a b?q=x y");
        return {
            p,
            u,
            nested: [{ query: new URLSearchParams("x=1&x=2") }],
            inside: JSON.stringify(new URLSearchParams("a=1")),
            insideNested: JSON.stringify({ p, u }),
            linked: u.searchParams,
            iterator: p.entries(),
        };
    "#);
    assert_eq!(
        r.value,
        Some(json!({
            "p": "a=1+2",
            "u": "https://example.com/a%20b?q=x%20y",
            "nested": [{ "query": "x=1&x=2" }],
            "inside": "{}",
            "insideNested": "{\"p\":{},\"u\":\"https://example.com/a%20b?q=x%20y\"}",
            "linked": "q=x+y",
            "iterator": {},
        })),
        "{r:?}"
    );
    // A program's own toJSON still wins, as for any object.
    let r = run(r#"
        const p = new URLSearchParams("a=1");
        p.toJSON = () => "mine";
        return [p, JSON.stringify(p)];
    "#);
    assert_eq!(r.value, Some(json!(["mine", "\"mine\""])), "{r:?}");
}

#[test]
fn search_params_cross_to_a_tool_as_their_query_string() {
    // `demo.echo` returns its input: what the tool received. The second object has a getter,
    // which sends it through the resumable walk instead of the native pass.
    let r = run(r#"
        const p = new URLSearchParams({ q: "rust lang", page: 2 });
        const u = new URL("https://api.example.com/search");
        u.search = String(p);
        const plain = await tools.demo.echo({ p, u });
        const walked = await tools.demo.echo({ p, u, get g() { return u.searchParams; } });
        return { plain, walked };
    "#);
    let expected_u = "https://api.example.com/search?q=rust+lang&page=2";
    assert_eq!(
        r.value,
        Some(json!({
            "plain": { "p": "q=rust+lang&page=2", "u": expected_u },
            "walked": { "p": "q=rust+lang&page=2", "u": expected_u, "g": "q=rust+lang&page=2" },
        })),
        "{r:?}"
    );
}

#[test]
fn built_in_modules_load_with_require_and_static_imports() {
    let r = run(r#"
        import { URL as U, URLSearchParams as P } from "url";
        import * as util from "node:util";
        import { atob as decode } from "buffer";
        const { URLSearchParams } = require("node:url");
        const url = require("url");
        return [
            U === URL, P === URLSearchParams, URLSearchParams === globalThis.URLSearchParams,
            url === require("node:url"), util.TextEncoder === TextEncoder,
            require("util").TextDecoder === TextDecoder, decode("aGk="),
            Object.keys(require("buffer")), Object.keys(url),
            typeof require("url").fileURLToPath,
            new url.URL(`/p?${new P({ q: "a b" })}`, "https://h.org").href,
        ];
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            true,
            true,
            true,
            true,
            true,
            true,
            "hi",
            ["atob", "btoa"],
            ["URL", "URLSearchParams", "domainToASCII", "domainToUnicode"],
            "undefined",
            "https://h.org/p?q=a+b",
        ])),
        "{r:?}"
    );
}

#[test]
fn buffer_is_a_clear_error_where_a_program_reads_it() {
    let r = run(r#"
        let message;
        try { const { Buffer } = require("buffer"); Buffer.from("x"); } catch (e) { message = `${e.name}: ${e.message}` }
        return [message, typeof Buffer, { ...require("node:buffer") }.atob === atob];
    "#);
    let value = r.value.clone().unwrap_or_default();
    let message = value[0].as_str().unwrap_or_default();
    assert!(
        message.starts_with("TypeError: Buffer is not available in this runtime: use Uint8Array"),
        "{r:?}"
    );
    assert!(message.contains("TextEncoder/TextDecoder") && message.contains("toBase64"), "{message}");
    assert_eq!(value[1], json!("undefined"));
    assert_eq!(value[2], json!(true));
    // A static import of it fails the run at the import's line with the same message.
    let r = run("const x = 1;\nimport { Buffer } from \"node:buffer\";\nreturn Buffer.from('a')");
    let error = r.error.expect("fails");
    assert!(error.message.starts_with("TypeError: Buffer is not available"), "{error:?}");
    assert_eq!(error.location.map(|l| l.line), Some(2), "{error:?}");
}

#[test]
fn a_module_the_host_maps_wins_over_the_built_in_one() {
    use codemode::Extension;
    let ext = Extension::new("shim")
        .sync_global("myurl.parse", |args: Vec<Value>, _ctx| Ok(json!({ "parsed": args })))
        .module("node:url", "myurl");
    let rt = codemode::demo::builder().extension(ext).build().expect("build");
    let r = run_on(
        &rt,
        r#"
        const url = require("url");
        let missing;
        try { require("querystring") } catch (e) { missing = e.message }
        return [url === myurl, url.URL, url.parse("x"), require("util").TextEncoder === TextEncoder, missing];
    "#,
    );
    assert_eq!(
        r.value,
        Some(json!([
            true,
            null,
            { "parsed": ["x"] },
            true,
            "Cannot find module 'querystring': this runtime has no packages; available modules: url, util, buffer (a `node:` prefix is allowed)",
        ])),
        "{r:?}"
    );
}

// ---- saved state ----

const HOLDING_A_URL: &str = r#"
    const u = new URL("https://例え.jp/path?a=1&b=2");
    const params = u.searchParams;
    const keys = params.keys();
    const first = keys.next().value;
    const seen = [];
    params.forEach((v, k) => { seen.push(k + "=" + v); if (k === "a") params.append("c", "3"); });
    const got = await tools.x.get({ n: params.size });
    params.set("n", String(got.n));
    u.hash = "done";
    return { href: u.href, first, rest: [...keys], seen, same: params === u.searchParams, json: JSON.stringify(params) };
"#;

fn vm(source: &str) -> Vm {
    let ir = codemode_syntax::compile_to_ir(source).expect("parses");
    let module = codemode_compiler::compile(&ir).expect("compiles");
    Vm::new(module, VmConfig::default()).expect("starts")
}

fn answer(vm: &mut Vm, call: &HostCall) {
    assert!(vm.complete(call.id, Ok(call.input.clone())));
}

/// Runs in small fuel slices, saving and restoring the VM after each one (and at each wait).
fn run_saving_every_slice(source: &str, fuel: u64) -> Value {
    let mut vm = vm(source);
    loop {
        match vm.run(fuel) {
            Status::OutOfFuel => {}
            Status::Waiting => {
                let bytes = serde_json::to_vec(&vm).expect("serializes");
                vm = serde_json::from_slice(&bytes).expect("deserializes");
                for call in vm.take_host_calls() {
                    answer(&mut vm, &call);
                }
            }
            Status::Done => return vm.result_json().expect("result"),
            Status::Threw => panic!("threw: {:?}", vm.error_report()),
        }
        let bytes = serde_json::to_vec(&vm).expect("serializes");
        vm = serde_json::from_slice(&bytes).expect("deserializes");
    }
}

#[test]
fn a_run_holding_urls_and_live_iterators_is_saved_and_restored() {
    let expected = json!({
        "href": "https://xn--r8jz45g.jp/path?a=1&b=2&c=3&n=3#done",
        "first": "a",
        "rest": ["b", "c", "n"],
        "seen": ["a=1", "b=2", "c=3"],
        "same": true,
        "json": "{}",
    });
    assert_eq!(run_saving_every_slice(HOLDING_A_URL, 1_000_000), expected);
    // Saved inside `forEach`'s callbacks and the URL's methods too.
    assert_eq!(run_saving_every_slice(HOLDING_A_URL, 7), expected);
}

/// Replaces every JSON string equal to `from` with `to`; how many it replaced.
fn replace_strings(v: &mut Value, from: &str, to: &str) -> usize {
    match v {
        Value::String(s) if s == from => {
            *s = to.to_string();
            1
        }
        Value::Array(items) => items.iter_mut().map(|i| replace_strings(i, from, to)).sum(),
        Value::Object(map) => map.values_mut().map(|i| replace_strings(i, from, to)).sum(),
        _ => 0,
    }
}

#[test]
fn a_saved_url_that_is_not_a_url_is_refused() {
    let mut first = vm(HOLDING_A_URL);
    assert_eq!(first.run(1_000_000), Status::Waiting);
    let mut saved = serde_json::to_value(&first).expect("serializes");
    assert!(serde_json::from_value::<Vm>(saved.clone()).is_ok());
    let href = "https://xn--r8jz45g.jp/path?a=1&b=2&c=3";
    assert_eq!(replace_strings(&mut saved, href, "not a url"), 1, "the URL's text is in the snapshot");
    let refused = serde_json::from_value::<Vm>(saved).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(refused.contains("a URL whose text is not a URL"), "{refused}");
}

#[test]
fn growing_search_params_and_urls_end_at_the_memory_limit() {
    let limits = Limits::default().timeout(Duration::from_secs(30)).memory_limit(8 << 20);
    let rt = codemode::demo::builder().limits(limits).build().expect("build");
    for source in [
        // Pairs held by one object.
        r#"const p = new URLSearchParams(); const k = "k".repeat(4096); for (;;) p.append(k, k);"#,
        // A URL's query, rewritten through its linked searchParams.
        r#"const u = new URL("https://a.com/"); const v = "é".repeat(2048); for (let i = 0; ; i++) u.searchParams.append("k" + i, v);"#,
        // A URL's text set directly.
        r#"const u = new URL("https://a.com/"); for (;;) u.hash = u.hash + u.href;"#,
    ] {
        let r = run_on(&rt, source);
        let error = r.error.expect("ends with an error");
        assert!(
            error.message.contains("out of memory") || error.message.contains("memory"),
            "{source}: {error:?}"
        );
    }
}
