//! `using` and `await using` declarations and `AsyncDisposableStack` (ES2026 explicit resource
//! management). Node 20, the conformance oracle, has none of them, so every expectation here is
//! written by hand from the specification's DisposeResources: resources are disposed last
//! declared first on every way out of their block, a disposer's error while another is pending
//! becomes a `SuppressedError` (the new error as `error`, the pending one as `suppressed`), and
//! `await using` awaits each disposal (an `await using` of `null` still awaits once).

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::time::Duration;

use codemode::{DiagnosticKind, ExecResult, Limits};
use serde_json::json;

fn run(source: &str) -> ExecResult {
    let rt = codemode::demo::builder()
        .limits(Limits::default().timeout(Duration::from_secs(20)))
        .build()
        .expect("build");
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    tokio.block_on(rt.execute(source))
}

const SYNC_RESOURCE: &str = r#"
    const log = [];
    const res = (name, fail) => ({
        [Symbol.dispose]() { log.push("dispose " + name); if (fail) throw new Error(name); },
    });
"#;

#[test]
fn using_disposes_in_reverse_on_every_exit() {
    let r = run(&format!(
        "{SYNC_RESOURCE}{}",
        r#"
        {
            using a = res("a");
            using b = null, c = res("c");
            log.push("body");
        }
        function f() {
            using x = res("x");
            return "ret";
        }
        log.push(f());
        for (const n of [1, 2]) {
            using r = res("loop" + n);
            if (n === 1) continue;
            break;
        }
        for (using r of [res("it1"), res("it2")]) log.push("iter");
        function* g() { using r = res("gen"); yield 1; yield 2; }
        for (const v of g()) { log.push("v" + v); break; }
        const k = (() => { using k = res("k"); return k; })();
        log.push(typeof k[Symbol.dispose]);
        return log;
        "#
    ));
    assert_eq!(
        r.value,
        Some(json!([
            "body",
            "dispose c",
            "dispose a",
            "dispose x",
            "ret",
            "dispose loop1",
            "dispose loop2",
            "iter",
            "dispose it1",
            "iter",
            "dispose it2",
            "v1",
            "dispose gen",
            "dispose k",
            "function"
        ])),
        "{r:?}"
    );
}

#[test]
fn using_errors_chain_into_suppressed_error() {
    let r = run(&format!(
        "{SYNC_RESOURCE}{}",
        r#"
        try {
            using a = res("a1", true);
            using b = res("b1", true);
            throw new Error("body");
        } catch (e) {
            log.push(e.constructor.name, e.error.message, e.suppressed.constructor.name,
                e.suppressed.error.message, e.suppressed.suppressed.message);
        }
        try { using a = res("only", true); } catch (e) { log.push(e.constructor.name, e.message); }
        try { using a = {}; } catch (e) { log.push(e.constructor.name); }
        try { using a = 1; } catch (e) { log.push(e.constructor.name); }
        try { using a = { [Symbol.dispose]: 1 }; } catch (e) { log.push(e.constructor.name); }
        try { using a = res("early"); using b = {}; log.push("unreached"); } catch (e) { log.push(e.constructor.name); }
        try { using a = res("ret", true); log.push("no throw in body"); } catch (e) { log.push(e.message); }
        return log;
        "#
    ));
    assert_eq!(
        r.value,
        Some(json!([
            "dispose b1",
            "dispose a1",
            "SuppressedError",
            "a1",
            "SuppressedError",
            "b1",
            "body",
            "dispose only",
            "Error",
            "only",
            "TypeError",
            "TypeError",
            "TypeError",
            "dispose early",
            "TypeError",
            "no throw in body",
            "dispose ret",
            "ret"
        ])),
        "{r:?}"
    );
}

/// The program body is a function body: a top-level `using` is disposed when the program ends,
/// after its result is computed (the array is the same object, so the entry shows).
#[test]
fn top_level_using() {
    let r = run(&format!("{SYNC_RESOURCE}{}", "using top = res(\"top\"); log.push(\"end\"); return log;"));
    assert_eq!(r.value, Some(json!(["end", "dispose top"])), "{r:?}");
}

#[test]
fn await_using_awaits_each_disposal() {
    let r = run(r#"
        const log = [];
        const ares = (name, fail) => ({
            async [Symbol.asyncDispose]() {
                log.push("adispose " + name);
                await null;
                log.push("adone " + name);
                if (fail) throw new Error(name);
            },
        });
        // The fallback to [Symbol.dispose] does not await its result (this one never settles).
        const sres = (name) => ({
            [Symbol.dispose]() { log.push("sdispose " + name); return new Promise(() => {}); },
        });
        {
            await using a = ares("a");
            await using b = sres("b");
            await using n = null;
            log.push("body");
        }
        log.push("after");
        try {
            await using x = ares("x", true);
            await using y = ares("y", true);
        } catch (e) {
            log.push(e.constructor.name, e.error.message, e.suppressed.message);
        }
        try { await using z = {}; } catch (e) { log.push(e.constructor.name); }
        try { await using z = { [Symbol.asyncDispose]: 5 }; } catch (e) { log.push(e.constructor.name); }
        // An `await using` that ran awaits even for null; one never reached does not await.
        let flag = "before";
        const p = (async () => { { await using n = null; } flag = "after await"; })();
        const seen = flag;
        await p;
        let flag2 = "before";
        const p2 = (async () => { skip: { if (flag2) break skip; await using n = null; } flag2 = "no await"; })();
        const seen2 = flag2;
        await p2;
        log.push(seen, flag, seen2);
        for await (await using r of [ares("f1"), ares("f2")]) log.push("iter");
        return log;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            "body",
            "sdispose b",
            "adispose a",
            "adone a",
            "after",
            "adispose y",
            "adone y",
            "adispose x",
            "adone x",
            "SuppressedError",
            "x",
            "y",
            "TypeError",
            "TypeError",
            "before",
            "after await",
            "no await",
            "iter",
            "adispose f1",
            "adone f1",
            "iter",
            "adispose f2",
            "adone f2"
        ])),
        "{r:?}"
    );
}

#[test]
fn async_disposable_stack() {
    let r = run(r#"
        const log = [];
        const s = new AsyncDisposableStack();
        s.defer(async () => { log.push("defer"); });
        s.use({ async [Symbol.asyncDispose]() { log.push("use"); throw new Error("u"); } });
        s.adopt(7, async (v) => { log.push("adopt " + v); });
        s.use(null);
        s.use({ [Symbol.dispose]() { log.push("sync"); } });
        log.push(s.disposed);
        try { await s.disposeAsync(); } catch (e) { log.push(e.message); }
        log.push(s.disposed, await s.disposeAsync());
        try { s.use({}); } catch (e) { log.push(e.constructor.name); }
        try { new AsyncDisposableStack().use({}); } catch (e) { log.push(e.constructor.name); }
        log.push(await AsyncDisposableStack.prototype.disposeAsync.call({}).catch((e) => e.constructor.name));
        const t = new AsyncDisposableStack();
        t.defer(() => log.push("moved"));
        const u = t.move();
        log.push(t.disposed, u.disposed);
        await u[Symbol.asyncDispose]();
        log.push(AsyncDisposableStack.prototype[Symbol.asyncDispose] === AsyncDisposableStack.prototype.disposeAsync,
            Object.prototype.toString.call(u));
        try { AsyncDisposableStack(); } catch (e) { log.push(e.constructor.name); }
        try { DisposableStack.prototype.use.call(new AsyncDisposableStack(), null); } catch (e) { log.push(e.constructor.name); }
        {
            await using st = new AsyncDisposableStack();
            st.defer(() => log.push("scoped"));
        }
        return log;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            false,
            "sync",
            "adopt 7",
            "use",
            "defer",
            "u",
            true,
            null,
            "ReferenceError",
            "TypeError",
            "TypeError",
            true,
            false,
            "moved",
            true,
            "[object AsyncDisposableStack]",
            "TypeError",
            "TypeError",
            "scoped"
        ])),
        "{r:?}"
    );
}

/// (`using [a] = b` is not among them: it is an assignment to the element `a` of `using`.)
#[test]
fn using_early_errors() {
    for source in [
        "{ using x; }",
        "{ using { a } = {}; }",
        "if (true) using x = null;",
        "switch (1) { case 1: using x = null; }",
        "for (using x in {}) {}",
    ] {
        let r = run(source);
        assert_eq!(r.error.as_ref().map(|e| e.kind), Some(DiagnosticKind::ParseError), "{source}: {r:?}");
    }
}

/// `Iterator.prototype[Symbol.dispose]` calls `return()`, so `using` closes a generator.
#[test]
fn using_an_iterator_closes_it() {
    let r = run(r#"
        const log = [];
        function* g() { try { yield 1; yield 2; } finally { log.push("closed"); } }
        {
            using it = g();
            log.push(it.next().value);
        }
        log.push(Iterator.prototype[Symbol.dispose].call({}) === undefined);
        return log;
    "#);
    assert_eq!(r.value, Some(json!([1, "closed", true])), "{r:?}");
}

/// Disposers that run long enough to span several slices (with `CODEMODE_ROUNDTRIP=1` the run is
/// saved and restored between slices, so this suspends mid-disposal): the order and the error
/// chain are the same.
#[test]
fn disposal_across_slices() {
    let r = run(r#"
        const log = [];
        const spin = () => { let s = 0; for (let i = 0; i < 5000; i++) s += i; return s; };
        const r = (n) => ({ async [Symbol.asyncDispose]() { spin(); await null; spin(); log.push(n); } });
        const q = (n) => ({ [Symbol.dispose]() { spin(); log.push(n); throw new Error(n); } });
        try {
            await using a = r("a");
            using b = q("b");
            await using c = r("c");
            using d = q("d");
            spin();
        } catch (e) {
            log.push(e.constructor.name, e.error.message, e.suppressed.message);
        }
        const s = new AsyncDisposableStack();
        s.use(r("s1"));
        s.defer(async () => { spin(); log.push("s2"); });
        await s.disposeAsync();
        return log;
    "#);
    assert_eq!(r.value, Some(json!(["d", "c", "b", "a", "SuppressedError", "b", "d", "s2", "s1"])), "{r:?}");
}
