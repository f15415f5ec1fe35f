//! Built-ins newer than Node 20 (the conformance oracle), with expectations written by hand from
//! the specification (not run through a newer Node here): `Promise.withResolvers`, the Set
//! algebra methods, `Object.groupBy` and `Map.groupBy`, the iterator helpers. Also what the oracle cannot show
//! (`queueMicrotask`'s uncaught throw) and resource behaviour of `structuredClone` (deep
//! nesting, memory limit).

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::time::Duration;

use codemode::{ExecResult, Limits};
use serde_json::json;

fn run_with(source: &str, limits: Limits) -> ExecResult {
    let rt = codemode::demo::builder().limits(limits).build().expect("build");
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    tokio.block_on(rt.execute(source))
}

fn run(source: &str) -> ExecResult {
    run_with(source, Limits::default().timeout(Duration::from_secs(20)))
}

#[test]
fn promise_with_resolvers() {
    let r = run(r#"
        const { promise, resolve, reject } = Promise.withResolvers();
        resolve(42);
        resolve(43);
        const v = await promise;
        const r2 = Promise.withResolvers();
        r2.reject(new Error("no"));
        const e = await r2.promise.catch(e => e.message);
        return [v, e, typeof resolve, typeof reject, promise instanceof Promise, Object.keys(r2)];
    "#);
    assert_eq!(
        r.value,
        Some(json!([42, "no", "function", "function", true, ["promise", "resolve", "reject"]])),
        "{r:?}"
    );
}

#[test]
fn queue_microtask_calls_without_arguments_and_a_throw_is_uncaught() {
    let r = run(r#"
        const seen = [];
        queueMicrotask((...args) => seen.push(args.length));
        await null;
        return seen;
    "#);
    assert_eq!(r.value, Some(json!([0])), "{r:?}");
    let r = run(r#"
        queueMicrotask(() => { throw new Error("boom"); });
        await null;
        await null;
        return "finished";
    "#);
    assert!(!r.ok, "{r:?}");
    let message = r.error.as_ref().map(|e| e.message.clone()).unwrap_or_default();
    assert!(message.contains("Error: boom"), "{r:?}");
}

#[test]
fn set_algebra() {
    let r = run(r#"
        const a = new Set([1, 2, 3, 4]);
        const b = new Set([3, 4, 5]);
        const err = f => { try { f(); return "no error"; } catch (e) { return e.name; } };
        return {
            union: [...a.union(b)],
            intersection: [...a.intersection(b)],
            intersectionSmall: [...b.intersection(a)],
            intersectionOrder: [...new Set([5, 4, 3, 2, 1]).intersection(new Set([1, 3]))],
            difference: [...a.difference(b)],
            differenceBig: [...new Set([1, 2]).difference(new Set([2, 7, 8, 9]))],
            symmetricDifference: [...a.symmetricDifference(b)],
            subset: [new Set([1, 2]).isSubsetOf(a), a.isSubsetOf(b), new Set().isSubsetOf(b)],
            superset: [a.isSupersetOf(new Set([1, 4])), a.isSupersetOf(b), a.isSupersetOf(new Set())],
            disjoint: [a.isDisjointFrom(new Set([9])), a.isDisjointFrom(b)],
            withMap: [...a.intersection(new Map([[2, "x"], [7, "y"]]))],
            unionMap: [...b.union(new Map([[9, 0]]))],
            unchanged: [...a],
            fresh: a.union(new Set()) !== a,
            sizes: [a.union(b).size, a.difference(b).size, a.symmetricDifference(b).size],
            zero: [...new Set([-0]).union(new Set([0]))].length,
            nan: new Set([NaN]).isSubsetOf(new Set([NaN])),
            errors: [err(() => a.union([1])), err(() => a.union()), err(() => Set.prototype.union.call([], b))],
        };
    "#);
    assert_eq!(
        r.value,
        Some(json!({
            "union": [1, 2, 3, 4, 5],
            "intersection": [3, 4],
            "intersectionSmall": [3, 4],
            "intersectionOrder": [1, 3],
            "difference": [1, 2],
            "differenceBig": [1],
            "symmetricDifference": [1, 2, 5],
            "subset": [true, false, true],
            "superset": [true, false, true],
            "disjoint": [true, false],
            "withMap": [2],
            "unionMap": [3, 4, 5, 9],
            "unchanged": [1, 2, 3, 4],
            "fresh": true,
            "sizes": [5, 2, 3],
            "zero": 1,
            "nan": true,
            "errors": ["TypeError", "TypeError", "TypeError"],
        })),
        "{r:?}"
    );
}

#[test]
fn object_and_map_group_by() {
    let r = run(r#"
        const inventory = [
            { name: "asparagus", type: "vegetables", quantity: 5 },
            { name: "bananas", type: "fruit", quantity: 0 },
            { name: "goat", type: "meat", quantity: 23 },
            { name: "cherries", type: "fruit", quantity: 5 },
        ];
        const byType = Object.groupBy(inventory, ({ type }) => type);
        const m = Map.groupBy(inventory, ({ quantity }) => (quantity < 6 ? "restock" : "ok"));
        const err = f => { try { f(); return "no error"; } catch (e) { return e.name + ": " + e.message; } };
        const objKey = {};
        const byObj = Map.groupBy([1, 2, 3], x => (x > 1 ? objKey : "small"));
        return {
            keys: Object.keys(byType),
            fruit: byType.fruit.map(x => x.name),
            nullProto: Object.getPrototypeOf(byType) === null,
            mapKeys: [...m.keys()],
            restock: m.get("restock").map(x => x.name),
            isMap: m instanceof Map,
            indexArg: Object.groupBy("abc", (c, i) => i % 2),
            numKeys: Object.keys(Object.groupBy([1, 2, 3], x => x * 10)),
            zeroKey: Map.groupBy([1, 2], () => -0).get(0),
            objKey: byObj.get(objKey),
            fromSet: Object.groupBy(new Set([1, 2, 3, 4]), x => (x % 2 ? "odd" : "even")),
            empty: Object.keys(Object.groupBy([], x => x)),
            errors: [
                err(() => Object.groupBy(null, x => x)).split(":")[0],
                err(() => Object.groupBy([1], 5)).split(":")[0],
                err(() => Map.groupBy([1], () => { throw new Error("boom"); })),
            ],
        };
    "#);
    assert_eq!(
        r.value,
        Some(json!({
            "keys": ["vegetables", "fruit", "meat"],
            "fruit": ["bananas", "cherries"],
            "nullProto": true,
            "mapKeys": ["restock", "ok"],
            "restock": ["asparagus", "bananas", "cherries"],
            "isMap": true,
            "indexArg": { "0": ["a", "c"], "1": ["b"] },
            "numKeys": ["10", "20", "30"],
            "zeroKey": [1, 2],
            "objKey": [2, 3],
            "fromSet": { "odd": [1, 3], "even": [2, 4] },
            "empty": [],
            "errors": ["TypeError", "TypeError", "Error: boom"],
        })),
        "{r:?}"
    );
}

#[test]
fn structured_clone_of_deep_nesting_does_not_recurse() {
    // Node itself overflows its stack near 5 000 levels; the copy here is iterative.
    let r = run(r#"
        const root = {};
        let d = root;
        for (let i = 0; i < 100000; i++) { d.next = { i }; d = d.next; }
        d.next = root;
        let c = structuredClone(root);
        let depth = 0;
        const start = c;
        while (c.next !== start) { c = c.next; depth++; }
        return depth;
    "#);
    assert_eq!(r.value, Some(json!(100000)), "{r:?}");
}

#[test]
fn structured_clone_is_held_to_the_memory_limit() {
    let r = run_with(
        r#"
        const big = [];
        for (let i = 0; i < 20000; i++) big.push({ i, s: "x" });
        const copies = [];
        try {
            for (let k = 0; k < 1000; k++) copies.push(structuredClone(big));
            return "no error";
        } catch (e) {
            return [e.name, copies.length < 1000];
        }
    "#,
        Limits::default().timeout(Duration::from_secs(30)).memory_limit(32 << 20),
    );
    assert_eq!(r.value, Some(json!(["RangeError", true])), "{r:?}");
}

#[test]
fn iterator_helpers_are_lazy_and_close_what_they_stop_early() {
    let r = run(r#"
        function* nat() { let i = 0; while (true) yield i++; }
        const out = [];
        out.push(nat().map(x => x * 2).filter(x => x % 3 === 0).take(4).toArray());
        out.push([...nat().drop(5).take(3)]);
        for (const x of [1, 2, 3].values().map(x => x + 10)) out.push(x);
        out.push(nat().take(5).reduce((a, b) => a + b), nat().take(3).reduce((a, b) => a + b, 100));
        out.push(nat().some(x => x > 3), nat().take(3).every(x => x < 3), nat().find(x => x * x > 50));
        const seen = []; nat().take(3).forEach((x, i) => seen.push([x, i])); out.push(seen);
        out.push(["a", "b"].values().flatMap(s => [s, s.toUpperCase()]).toArray());
        out.push(new Map([[1, "x"]]).entries().map(([k, v]) => k + v).toArray());
        let closed = false;
        function* g() { try { yield 1; yield 2; yield 3 } finally { closed = true } }
        out.push(g().take(1).toArray(), closed);
        let pulled = 0;
        const counting = { __proto__: Iterator.prototype, next() { pulled++; return { value: pulled, done: false } } };
        const lazy = counting.map(x => x * 10);
        out.push(pulled, lazy.next().value, pulled);
        try { nat().take(-1) } catch (e) { out.push(e.constructor.name) }
        try { nat().map(5) } catch (e) { out.push(e.constructor.name) }
        try { [].values().reduce((a, b) => a) } catch (e) { out.push(e.constructor.name) }
        try { new Iterator() } catch (e) { out.push(e.constructor.name) }
        out.push(nat() instanceof Iterator, Object.prototype.toString.call(Iterator.prototype));
        return out;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            [0, 6, 12, 18],
            [5, 6, 7],
            11,
            12,
            13,
            10,
            103,
            true,
            true,
            8,
            [[0, 0], [1, 1], [2, 2]],
            ["a", "A", "b", "B"],
            ["1x"],
            [1],
            true,
            0,
            10,
            1,
            "RangeError",
            "TypeError",
            "TypeError",
            "TypeError",
            true,
            "[object Iterator]"
        ])),
        "{r:?}"
    );
}

#[test]
fn iterator_is_abstract_but_subclassable() {
    let r = run(r#"
        class Count extends Iterator {
            #i = 0;
            next() { return this.#i < 3 ? { value: this.#i++, done: false } : { value: undefined, done: true } }
        }
        const c = new Count();
        const out = [c instanceof Iterator, c.map(x => x * 2).toArray()];
        try { new Iterator() } catch (e) { out.push(e.constructor.name) }
        try { Iterator() } catch (e) { out.push(e.constructor.name) }
        return out;
    "#);
    assert_eq!(r.value, Some(json!([true, [0, 2, 4], "TypeError", "TypeError"])), "{r:?}");
}

/// Iterator chunking (ES2026 `iterator-chunking`) and `Iterator.prototype.includes`
/// (`iterator-includes`), expectations from the proposals' specification text.
#[test]
fn iterator_chunks_windows_includes() {
    let r = run(r#"
        function* g(n) { for (let i = 0; i < n; i++) yield i; }
        const out = [];
        out.push(g(7).chunks(3).toArray());
        out.push(g(6).chunks(3).toArray());
        out.push(g(2).chunks(5).toArray());
        out.push(g(5).windows(3).toArray());
        out.push(g(2).windows(3).toArray());
        out.push(g(2).windows(3, "allow-partial").toArray());
        out.push(g(4).windows(3, "allow-partial").toArray());
        const chunks = g(4).chunks(2);
        const a = chunks.next().value, b = chunks.next().value;
        out.push(a !== b, chunks.next().done);
        out.push(g(5).includes(3), g(5).includes(9), g(5).includes(1, 2), g(5).includes(2, 2),
          [NaN].values().includes(NaN), [-0].values().includes(0), g(5).includes(0, Infinity));
        for (const bad of [() => g(1).chunks(0), () => g(1).chunks(1.5), () => g(1).chunks("2"),
            () => g(1).windows(2, "partial"), () => g(1).includes(1, -1), () => g(1).includes(1, 0.5)]) {
          try { bad(); out.push("no error"); } catch (e) { out.push(e.constructor.name); }
        }
        let closed = 0;
        const it = { next() { return { done: false, value: 1 }; }, return() { closed++; return {}; },
          __proto__: Iterator.prototype };
        try { it.chunks(0); } catch {}
        out.push(closed, it.includes(1), closed);
        return out;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            [[0, 1, 2], [3, 4, 5], [6]],
            [[0, 1, 2], [3, 4, 5]],
            [[0, 1]],
            [[0, 1, 2], [1, 2, 3], [2, 3, 4]],
            [],
            [[0, 1]],
            [[0, 1, 2], [1, 2, 3]],
            true,
            true,
            true,
            false,
            false,
            true,
            true,
            true,
            false,
            "RangeError",
            "TypeError",
            "TypeError",
            "TypeError",
            "RangeError",
            "TypeError",
            1,
            true,
            2
        ])),
        "{r:?}"
    );
}

/// `Map`/`WeakMap` `getOrInsert` and `getOrInsertComputed` (ES2026 `upsert`), expectations from
/// the specification text.
#[test]
fn map_get_or_insert() {
    let r = run(r#"
        const m = new Map([["a", 1]]);
        const out = [m.getOrInsert("a", 9), m.getOrInsert("b", 2), [...m]];
        const calls = [];
        out.push(m.getOrInsertComputed("c", (k) => { calls.push(k); return 3; }));
        out.push(m.getOrInsertComputed("c", () => { calls.push("again"); return 4; }));
        // The callback inserted the key itself: the value it returns wins.
        out.push(m.getOrInsertComputed("d", (k) => { m.set(k, "inner"); return "outer"; }), m.get("d"));
        out.push(m.getOrInsert(-0, "zero"), Object.is([...m.keys()].at(-1), 0), calls);
        const w = new WeakMap(), key = {};
        out.push(w.getOrInsert(key, 1), w.getOrInsert(key, 2), w.getOrInsertComputed({}, () => 5));
        for (const bad of [() => m.getOrInsertComputed("x", 1), () => w.getOrInsert(1, 1),
            () => w.getOrInsertComputed(Symbol.for("s"), () => 1), () => Map.prototype.getOrInsert.call({}, 1, 1)]) {
          try { bad(); out.push("no error"); } catch (e) { out.push(e.constructor.name); }
        }
        return out;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            1,
            2,
            [["a", 1], ["b", 2]],
            3,
            3,
            "outer",
            "outer",
            "zero",
            true,
            ["c"],
            1,
            1,
            5,
            "TypeError",
            "TypeError",
            "TypeError",
            "TypeError"
        ])),
        "{r:?}"
    );
}

/// `DisposableStack`, `SuppressedError` and `Error.isError` (ES2026 explicit resource
/// management; ES2026 `Error.isError`), expectations from the specification text: disposers run
/// last added first, every one runs, and a later error wraps the earlier as `suppressed`.
#[test]
fn disposable_stack() {
    let r = run(r#"
        const log = [];
        const s = new DisposableStack();
        s.defer(() => log.push("defer1"));
        s.use({ [Symbol.dispose]() { log.push("use"); throw new Error("e1"); } });
        s.adopt(42, (v) => { log.push("adopt " + v); throw new Error("e2"); });
        s.use(null);
        log.push(s.disposed);
        try { s.dispose(); } catch (e) { log.push(e.constructor.name, e.error.message, e.suppressed.message); }
        log.push(s.disposed, s.dispose());
        try { s.use({}); } catch (e) { log.push(e.constructor.name); }
        try { new DisposableStack().use({}); } catch (e) { log.push(e.constructor.name); }
        const t = new DisposableStack();
        t.defer(() => log.push("moved"));
        const u = t.move();
        log.push(t.disposed, u.disposed);
        u[Symbol.dispose]();
        log.push(DisposableStack.prototype[Symbol.dispose] === DisposableStack.prototype.dispose,
          Object.prototype.toString.call(u), typeof Symbol.dispose, typeof Symbol.asyncDispose);
        const se = new SuppressedError(1, 2, "m");
        log.push(se.error, se.suppressed, se.message, se instanceof Error);
        log.push(Error.isError(se), Error.isError(new TypeError()), Error.isError({ __proto__: Error.prototype }));
        return log;
    "#);
    assert_eq!(
        r.value,
        Some(json!([
            false,
            "adopt 42",
            "use",
            "defer1",
            "SuppressedError",
            "e1",
            "e2",
            true,
            null,
            "ReferenceError",
            "TypeError",
            true,
            false,
            "moved",
            true,
            "[object DisposableStack]",
            "symbol",
            "symbol",
            1,
            2,
            "m",
            true,
            true,
            true,
            false
        ])),
        "{r:?}"
    );
}

/// `JSON.rawJSON`/`JSON.isRawJSON` (ES2025's JSON.parse source text access; Node 20 lacks them):
/// the text of a primitive, frozen in a prototype-less object, written verbatim by `stringify`
/// (every digit of a number past 2^53 kept), refused with a `SyntaxError` when empty, padded,
/// an object or array, or not JSON.
#[test]
fn json_raw_json() {
    let r = run(r#"
        const out = [];
        const r = JSON.rawJSON("12345678901234567890");
        out.push(JSON.stringify({ n: r, list: [JSON.rawJSON('"s"'), JSON.rawJSON("null"), JSON.rawJSON("-0.5e-3")] }));
        out.push(JSON.isRawJSON(r), JSON.isRawJSON({ rawJSON: "1" }), JSON.isRawJSON(1), Object.isFrozen(r),
          Object.getPrototypeOf(r), Object.keys(r).join(), r.rawJSON);
        for (const bad of ["", " 1", "1 ", "{}", "[1]", "x", "\t1"]) {
          try { JSON.rawJSON(bad); out.push("no error: " + bad); } catch (e) { out.push(e.name); }
        }
        out.push(JSON.rawJSON.length, JSON.isRawJSON.length, JSON.stringify({ a: r }, ["a"]), JSON.stringify(r, null, 2));
        return out;
    "#);
    let syntax = "SyntaxError";
    assert_eq!(
        r.value,
        Some(json!([
            "{\"n\":12345678901234567890,\"list\":[\"s\",null,-0.5e-3]}",
            true,
            false,
            false,
            true,
            null,
            "rawJSON",
            "12345678901234567890",
            syntax,
            syntax,
            syntax,
            syntax,
            syntax,
            syntax,
            syntax,
            1,
            1,
            "{\"a\":12345678901234567890}",
            "12345678901234567890"
        ])),
        "{r:?}"
    );
}

/// No silent wrong answer: reading `o[k]` or `k in o` with an object key whose conversion is a
/// program function would use "[object Object]"; they fail with a diagnostic that says what to
/// write instead. Computed keys in literals and classes, assignments and `delete` convert it.
#[test]
fn an_object_key_with_a_program_to_string_is_converted_or_refused() {
    for access in ["o[k]", "k in o"] {
        let r = run(&format!(
            "const k = {{ toString() {{ return 'a'; }} }}; const o = {{ a: 1 }}; return {access};"
        ));
        assert!(!r.ok, "{access}: {r:?}");
        let message = r.error.as_ref().map(|e| e.message.clone()).unwrap_or_default();
        assert!(message.contains("convert it first (obj[String(key)])"), "{access}: {r:?}");
    }
    let r = run(r#"
        const k = { toString() { return "a"; } };
        const s = Symbol("s");
        const w = { [Symbol.toPrimitive]() { return s; } };
        class C { [k] = 1; static [w] = 2; }
        const o = { a: 3 };
        const read = o[String(k)];
        o[k] = 4;
        o[k] += 1;
        const written = o.a;
        return [{ [k]: 1 }.a, new C().a, C[s], read, written, delete o[k], "a" in o];
    "#);
    assert_eq!(r.value, Some(json!([1, 1, 2, 3, 5, true, false])), "{r:?}");
}

/// Iterator helpers read an iterator result's `done` and `value` through their getters, as the
/// protocol does (`done` first, `value` only when not done): a `done` getter that throws
/// propagates (it made `find`/`some`/`toArray`/`reduce` loop until the time limit, reading it
/// as `undefined`), and getters that answer are honoured. Expected values follow the
/// specification (IteratorComplete, IteratorValue); Node 20, the conformance oracle, has no
/// iterator helpers.
#[test]
fn iterator_helpers_read_result_getters() {
    let r = run_with(
        r#"
        const throwing = () => ({ __proto__: Iterator.prototype, next() { return { get done() { throw new Error("done!"); }, value: 1 }; } });
        const counted = (n) => {
            let i = 0;
            return { __proto__: Iterator.prototype, next() { i++; return { get done() { return i > n; }, get value() { return i * 10; } }; } };
        };
        const out = [];
        for (const m of ["find", "some", "every", "toArray", "forEach", "reduce"]) {
            try { Iterator.prototype[m].call(throwing(), m === "reduce" ? (a) => a : () => false, 0); out.push("no error"); }
            catch (e) { out.push(e.message); }
        }
        try { throwing().map((x) => x).next(); out.push("no error"); } catch (e) { out.push(e.message); }
        out.push(counted(3).toArray(), counted(4).map((x) => x + 1).toArray(), counted(5).find((x) => x > 20));
        out.push(counted(2).flatMap((x) => counted(2).map((y) => x + y)).toArray());
        return out;
    "#,
        Limits::default().timeout(Duration::from_secs(5)),
    );
    assert_eq!(
        r.value,
        Some(json!([
            "done!",
            "done!",
            "done!",
            "done!",
            "done!",
            "done!",
            "done!",
            [10, 20, 30],
            [11, 21, 31, 41],
            30,
            [20, 30, 30, 40]
        ])),
        "{r:?}"
    );
}

/// What codemode does not support is refused out loud: an accessor or a read-only element on an
/// array was silently dropped (`arr[2]` undefined, `arr.length` 0 where Node has 12 and 3).
#[test]
fn array_elements_that_are_not_plain_values_are_refused() {
    for descriptor in
        ["{ get() { return 12; } }", "{ value: 1, writable: false }", "{ value: 1, enumerable: false }"]
    {
        let r = run(&format!(
            "const arr = []; Object.defineProperty(arr, '2', {descriptor}); return [arr.length, arr[2]];"
        ));
        let message = r.error.as_ref().map(|e| e.message.clone()).unwrap_or_default();
        assert!(message.contains("TypeError: Cannot define array element 2"), "{descriptor}: {r:?}");
    }
    // Plain elements are still defined, and Reflect answers false for the refused ones.
    let r = run(r#"
        const arr = [];
        Object.defineProperty(arr, "1", { value: 7, writable: true, enumerable: true, configurable: true });
        const refused = Reflect.defineProperty(arr, "0", { get() { return 1; } });
        return [arr.length, arr[1], refused];
    "#);
    assert_eq!(r.value, Some(json!([2, 7, false])), "{r:?}");
}

/// A zone's name in a locale ("EST") needs CLDR data that is not bundled: asking for one is a
/// RangeError that says what works, never a guessed or offset-only name in its place.
#[test]
fn time_zone_names_without_their_data_are_refused_with_what_works_instead() {
    let r = run(r#"
        const d = new Date(Date.UTC(2024, 0, 15, 14, 30));
        const tries = [
            { timeZone: "America/New_York", timeZoneName: "short" },
            { timeZone: "Europe/Berlin", timeZoneName: "long" },
            { timeZone: "Asia/Kolkata", timeZoneName: "shortGeneric" },
            { timeZone: "Europe/Berlin", timeStyle: "long" },
        ];
        const out = tries.map((o) => {
            try { return d.toLocaleString("en-US", o); } catch (e) { return e.name + ": " + e.message; }
        });
        out.push(d.toLocaleString("en-US", { timeZone: "America/New_York", timeZoneName: "shortOffset" }));
        return out;
    "#);
    let Some(serde_json::Value::Array(out)) = r.value.clone() else { panic!("{r:?}") };
    for (i, zone) in
        [(0, "America/New_York"), (1, "Europe/Berlin"), (2, "Asia/Kolkata"), (3, "Europe/Berlin")]
    {
        let text = out[i].as_str().unwrap_or_default();
        assert!(text.starts_with("RangeError: timeZoneName '"), "{text}");
        assert!(text.contains(zone) && text.contains("'shortOffset' or 'longOffset'"), "{text}");
    }
    assert_eq!(out[4], json!("1/15/2024, 9:30:00 AM GMT-5"));
}

/// Set methods take any set-like argument (GetSetRecord: `size`, `has`, `keys`). Node 20 has no
/// Set methods, so the expected values are the specification's, worked by hand: which side is
/// walked follows the sizes, and an early answer closes the argument's iterator.
#[test]
fn set_methods_take_set_like_arguments_as_the_specification_says() {
    let r = run(r#"
// Set methods take any set-like argument (size, has, keys), as the specification says: a
// wrapper over an array, a Map, a class with its own has/keys; the calls they make, in order.
const calls = [];
class Ids {
  constructor(ids) { this.ids = ids; }
  get size() { calls.push("size"); return this.ids.length; }
  has(v) { calls.push(`has(${v})`); return this.ids.includes(v); }
  keys() {
    calls.push("keys");
    let i = 0;
    const ids = this.ids;
    return { next() { calls.push("next"); return i < ids.length ? { value: ids[i++], done: false } : { value: undefined, done: true }; },
             return() { calls.push("return"); return {}; } };
  }
}
const active = new Set([1, 2, 3, 4]);
const out = {};
for (const [name, other] of [["small", new Ids([2, 4, 9])], ["large", new Ids([0, 1, 2, 3, 4, 5, 6])]]) {
  for (const m of ["union", "intersection", "difference", "symmetricDifference", "isSubsetOf", "isSupersetOf", "isDisjointFrom"]) {
    calls.length = 0;
    const r = active[m](other);
    out[`${name}.${m}`] = [r instanceof Set ? [...r] : r, calls.join(" ")];
  }
}
out.map = [...new Set(["a", "b"]).union(new Map([["c", 1]]))];
out.negZero = [...new Set([0]).union(new Ids([-0]))].map((x) => Object.is(x, -0));
const errors = [];
for (const bad of [[1, 2], { size: "x", has() {}, keys() {} }, { size: -1, has() {}, keys() {} }, { size: 1, has: 1, keys() {} }, { size: 1, has() {} }, null]) {
  try { active.union(bad); errors.push("no error"); } catch (e) { errors.push(e.name); }
}
out.errors = errors;
return out;
    "#);
    let expected = json!({
        "small.union": [[1, 2, 3, 4, 9], "size keys next next next next"],
        "small.intersection": [[2, 4], "size keys next next next next"],
        "small.difference": [[1, 3], "size keys next next next next"],
        "small.symmetricDifference": [[1, 3, 9], "size keys next next next next"],
        "small.isSubsetOf": [false, "size"],
        "small.isSupersetOf": [false, "size keys next next next return"],
        "small.isDisjointFrom": [false, "size keys next return"],
        "large.union": [[1, 2, 3, 4, 0, 5, 6], "size keys next next next next next next next next"],
        "large.intersection": [[1, 2, 3, 4], "size has(1) has(2) has(3) has(4)"],
        "large.difference": [[], "size has(1) has(2) has(3) has(4)"],
        "large.symmetricDifference": [[0, 5, 6], "size keys next next next next next next next next"],
        "large.isSubsetOf": [true, "size has(1) has(2) has(3) has(4)"],
        "large.isSupersetOf": [false, "size"],
        "large.isDisjointFrom": [false, "size has(1)"],
        "map": ["a", "b", "c"],
        "negZero": [false],
        "errors": ["TypeError", "TypeError", "RangeError", "TypeError", "TypeError", "TypeError"],
    });
    assert_eq!(r.value, Some(expected), "{r:?}");
}
