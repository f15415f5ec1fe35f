//! `Iterator.from`, `Iterator.concat` (ES2026 iterator sequencing), `Iterator.zip` and
//! `Iterator.zipKeyed` (joint iteration), and the prototype of iterator helpers
//! (`%IteratorHelperPrototype%`). Node 20, the conformance oracle (`tests/conformance`), has none
//! of them (it has no `Iterator` global), so, as in `builtins_more.rs`, the expectations are
//! written from the specification; test262's `built-ins/Iterator` is the wider check.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::time::Duration;

use codemode::{ExecResult, Limits};
use serde_json::json;

fn run(source: &str) -> ExecResult {
    let rt = codemode::demo::builder()
        .limits(Limits::default().timeout(Duration::from_secs(20)))
        .build()
        .expect("build");
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    tokio.block_on(rt.execute(source))
}

#[test]
fn iterator_from_wraps_what_does_not_inherit_from_iterator_prototype() {
    let r = run(r#"
        const out = [];
        const plain = { i: 0, next() { this.i++; return { value: this.i, done: this.i > 3 }; } };
        const w = Iterator.from(plain);
        const Wrap = Object.getPrototypeOf(w);
        out.push(Wrap === Iterator.prototype, Object.getPrototypeOf(Wrap) === Iterator.prototype);
        out.push(w instanceof Iterator, w.map(x => x * 2).toArray());
        function* g() { yield 1; }
        const gen = g();
        out.push(Iterator.from(gen) === gen);
        const native = [1, 2].values();
        out.push(Iterator.from(native) === native);
        out.push(Iterator.from("a😀").toArray(), Iterator.from(new Set([3, 4])).toArray());
        out.push(Iterator.from({ [Symbol.iterator]() { return [7, 8].values(); } }).toArray());
        for (const bad of [5, null, { [Symbol.iterator]: 1 }, { [Symbol.iterator]() { return 1; } }]) {
            try { Iterator.from(bad); out.push("no error"); } catch (e) { out.push(e.constructor.name); }
        }
        out.push(Iterator.from({ next() { return { done: true }; } }).return());
        let closed = 0;
        const w2 = Iterator.from({
            next() { return { value: 1, done: false }; },
            return() { closed++; return { done: true, value: "r" }; },
        });
        out.push(w2.next(), w2.return(), closed);
        try { Wrap.next.call({}); } catch (e) { out.push(e.constructor.name); }
        try { Wrap.return.call([].values()); } catch (e) { out.push(e.constructor.name); }
        let reads = 0;
        Iterator.from({ get next() { reads++; return () => ({ done: true }); } }).next();
        out.push(reads);
        return out;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            false,
            true,
            true,
            [2, 4, 6],
            true,
            true,
            ["a", "😀"],
            [3, 4],
            [7, 8],
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            {"done": true},
            {"value": 1, "done": false},
            {"done": true, "value": "r"},
            1,
            "TypeError",
            "TypeError",
            1
        ])),
        "{r:?}"
    );
}

#[test]
fn iterator_concat_opens_each_iterable_in_turn() {
    let r = run(r#"
        const out = [];
        const once = { [Symbol.iterator]() { let n = 0; return { next() { return { value: "x", done: n++ > 0 }; } }; } };
        const c = Iterator.concat([1, 2], new Set([3]), once, "ab".split(""));
        out.push(Object.prototype.toString.call(c), [...c], c.next());
        out.push(Iterator.concat().next());
        for (const bad of [1, "ab", {}, { [Symbol.iterator]: 2 }]) {
            try { Iterator.concat([], bad); out.push("no error"); } catch (e) { out.push(e.constructor.name); }
        }
        const log = [];
        const source = (name, n) => ({
            [Symbol.iterator]() {
                log.push("open " + name);
                let i = 0;
                return {
                    next() { return { value: name + i, done: i++ >= n }; },
                    return() { log.push("close " + name); return {}; },
                };
            },
        });
        const it = Iterator.concat(source("a", 1), source("b", 5));
        out.push(log.length, it.return(), log.length);
        const it2 = Iterator.concat(source("a", 1), source("b", 5));
        out.push(it2.next().value, it2.next().value, log.splice(0));
        out.push(it2.return(), log.splice(0), it2.next(), it2.return(), log.length);
        return out;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            "[object Iterator Helper]",
            [1, 2, 3, "x", "a", "b"],
            {"done": true},
            {"done": true},
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            0,
            {"done": true},
            0,
            "a0",
            "b0",
            ["open a", "open b"],
            {"done": true},
            ["close b"],
            {"done": true},
            {"done": true},
            0
        ])),
        "{r:?}"
    );
}

#[test]
fn iterator_zip_modes_padding_and_closing() {
    let r = run(r#"
        const out = [];
        out.push(Iterator.zip([[1, 2, 3], ["a", "b"]]).toArray());
        out.push(Iterator.zip([[1, 2, 3], ["a"]], { mode: "longest", padding: [0, "z"] }).toArray());
        out.push(Iterator.zip([[1], []], { mode: "longest" }).toArray());
        out.push(Iterator.zip([[1, 2], new Set([3, 4])], { mode: "strict" }).toArray());
        try { Iterator.zip([[1, 2], [1]], { mode: "strict" }).toArray(); } catch (e) { out.push(e.constructor.name); }
        try { Iterator.zip([[1], [1, 2]], { mode: "strict" }).toArray(); } catch (e) { out.push(e.constructor.name); }
        for (const [iterables, options] of [[[["x"], "ab"]], [5], [[], { mode: "fast" }], [[], 1],
                                            [[], { mode: "longest", padding: 1 }]]) {
            try { Iterator.zip(iterables, options); out.push("no error"); } catch (e) { out.push(e.constructor.name); }
        }
        out.push(Iterator.zip([]).next(), Iterator.zip([[1]]).next().value);
        const log = [];
        const tracked = (name, n) => {
            let i = 0;
            return {
                next() { log.push("next " + name); return { value: i, done: i++ >= n }; },
                return() { log.push("return " + name); return {}; },
            };
        };
        const z = Iterator.zip([tracked("a", 1), tracked("b", 5), tracked("c", 5)]);
        out.push(z.next().value, z.next(), log.splice(0));
        const z2 = Iterator.zip([tracked("d", 5), tracked("e", 5)]);
        out.push(z2.return(), log.splice(0), z2.next());
        const z3 = Iterator.zip([tracked("f", 5), tracked("g", 5)]);
        z3.next();
        out.push(z3.return(), log.splice(0));
        const throwing = { next() { throw new RangeError("boom"); } };
        try { Iterator.zip([tracked("h", 5), throwing, tracked("i", 5)]).next(); } catch (e) { out.push(e.constructor.name); }
        out.push(log.splice(0));
        return out;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            [[1, "a"], [2, "b"]],
            [[1, "a"], [2, "z"], [3, "z"]],
            [[1, null]],
            [[1, 3], [2, 4]],
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError",
            {"done": true},
            [1],
            [0, 0, 0],
            {"done": true},
            ["next a", "next b", "next c", "next a", "return c", "return b"],
            {"done": true},
            ["return e", "return d"],
            {"done": true},
            {"done": true},
            ["next f", "next g", "return g", "return f"],
            "RangeError",
            ["next h", "return i", "return h"]
        ])),
        "{r:?}"
    );
}

#[test]
fn iterator_zip_keyed_builds_null_prototype_objects() {
    let r = run(r#"
        const out = [];
        out.push(Iterator.zipKeyed({ a: [1, 2], b: [3, 4, 5] }).toArray());
        out.push(Iterator.zipKeyed({ a: [1], b: [3, 4] }, { mode: "longest", padding: { a: 0 } }).toArray());
        const first = Iterator.zipKeyed({ x: [1], y: undefined }).next().value;
        out.push(Object.getPrototypeOf(first) === null, Object.keys(first));
        const sym = Symbol("s");
        const hidden = Object.defineProperty({ [sym]: [9] }, "h", { value: [8], enumerable: false });
        const v = Iterator.zipKeyed(hidden).next().value;
        out.push(v[sym], Object.keys(v).length);
        try { Iterator.zipKeyed({ a: "no" }); } catch (e) { out.push(e.constructor.name); }
        try { Iterator.zipKeyed({ a: [1], b: [] }, { mode: "strict" }).next(); } catch (e) { out.push(e.constructor.name); }
        return out;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            [{"a": 1, "b": 3}, {"a": 2, "b": 4}],
            [{"a": 1, "b": 3}, {"a": 0, "b": 4}],
            true,
            ["x"],
            9,
            0,
            "TypeError",
            "TypeError"
        ])),
        "{r:?}"
    );
}

#[test]
fn iterator_helpers_have_the_helper_prototype() {
    let r = run(r#"
        const out = [];
        const Helper = Object.getPrototypeOf([].values().map(x => x));
        out.push(Helper === Iterator.prototype, Object.getPrototypeOf(Helper) === Iterator.prototype);
        out.push(Helper === Object.getPrototypeOf(Iterator.concat()), Helper === Object.getPrototypeOf(Iterator.zip([])));
        out.push(Helper[Symbol.toStringTag], Object.prototype.toString.call([].values().filter(Boolean)));
        out.push(Object.getOwnPropertyNames(Helper).sort(), Helper.next.length, Helper.return.name);
        try { Helper.next.call([].values()); } catch (e) { out.push(e.constructor.name); }
        try { Helper.return.call({}); } catch (e) { out.push(e.constructor.name); }
        let r0 = 0;
        const src0 = { __proto__: Iterator.prototype,
            next() { return { value: 1, done: false }; },
            return() { r0++; return {}; } };
        const m = src0.map(x => x * 10);
        out.push(m.return(), r0, m.next(), m.return(), r0);
        let closed = false;
        function* g() { try { yield 1; yield 2; } finally { closed = true; } }
        const t = g().take(5);
        out.push(t.next().value, t.return(), closed);
        closed = false;
        for (const x of g().filter(x => x > 0)) break;
        out.push(closed);
        let h;
        const reentrant = { __proto__: Iterator.prototype, next() {
            try { h.next(); return { value: "no error", done: false }; }
            catch (e) { return { value: e.constructor.name, done: false }; }
        } };
        h = reentrant.map(x => x);
        out.push(h.next().value);
        let returned = 0;
        const counting = { __proto__: Iterator.prototype,
            next() { return { value: 1, done: false }; },
            return() { returned++; return {}; } };
        try { counting.map(() => { throw new RangeError("mapper"); }).next(); } catch (e) { out.push(e.constructor.name); }
        try { counting.map(5); } catch (e) { out.push(e.constructor.name); }
        try { counting.forEach(() => { throw new RangeError("fn"); }); } catch (e) { out.push(e.constructor.name); }
        out.push(returned);
        const log = [];
        const inner = { next() { return { value: "in", done: false }; }, return() { log.push("inner"); return {}; } };
        const outer = { __proto__: Iterator.prototype, next() { return { value: 0, done: false }; },
            return() { log.push("outer"); return {}; } };
        const fm = outer.flatMap(() => inner);
        out.push(fm.next().value, fm.return(), log);
        return out;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            false,
            true,
            true,
            true,
            "Iterator Helper",
            "[object Iterator Helper]",
            ["next", "return"],
            0,
            "return",
            "TypeError",
            "TypeError",
            {"done": true},
            1,
            {"done": true},
            {"done": true},
            1,
            1,
            {"done": true},
            true,
            true,
            "TypeError",
            "RangeError",
            "TypeError",
            "RangeError",
            3,
            "in",
            {"done": true},
            ["inner", "outer"]
        ])),
        "{r:?}"
    );
}
