//! The resource sweep: every built-in of the table, by its stable name, called with each
//! amplifier (a huge string, astral text, many references to one big string, a deep DAG, an
//! array-like at the length cap, a cycle, proxies whose traps throw or recurse, thousands of getters, a
//! huge typed array) as receiver and arguments, and constructed when it is a constructor, each in
//! a process of its own under a 64 MiB limit and a 1 s timeout. A case passes when it ends with a
//! value or a diagnostic (never a crash) within twice its timeout plus a second, its peak RSS
//! within the limit plus 64 MiB.
//!
//! New built-ins join by being in the table ([`codemode_vm::builtin_entries`]). `sweep_sample`
//! (in `cargo test`) runs every entry whose index is a multiple of [`SAMPLE_EVERY`] with every
//! amplifier; `cargo xtask sweep` runs the whole table (`sweep_all`, ignored here;
//! `CODEMODE_SWEEP_ONLY=Object.,console.` keeps the entries whose names start so).

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::time::Duration;

use codemode::Limits;
use codemode_vm::BuiltinEntry;

mod isolated;

const CASE_VAR: &str = "CODEMODE_SWEEP_CASE";
const MEMORY_LIMIT: usize = 64 << 20;
const TIMEOUT: Duration = Duration::from_millis(1000);
/// `sweep_sample` takes every this-many-th entry of the table.
const SAMPLE_EVERY: usize = 37;

/// Each amplifier: a name and a JavaScript expression (evaluated once per case).
const AMPLIFIERS: &[(&str, &str)] = &[
    ("huge_string", r#""x".repeat(1 << 24)"#),
    ("astral_string", r#""😀".repeat(1 << 21)"#),
    ("many_refs", r#"new Array(1 << 16).fill("y".repeat(1 << 20))"#),
    (
        "deep_dag",
        "(() => { let v = { n: 1 }; for (let i = 0; i < 25; i++) v = { x: v, y: v }; return v; })()",
    ),
    ("array_like_at_cap", "({ length: 2 ** 53 - 1, 0: 1 })"),
    ("cycle", "(() => { const o = { a: [1] }; o.self = o; o.a.push(o); return o; })()"),
    (
        "proxy_throws",
        r#"new Proxy({}, new Proxy({}, { get() { return () => { throw new Error("trap"); }; } }))"#,
    ),
    (
        "proxy_recurses",
        "(() => { const h = {}; const p = new Proxy({}, new Proxy(h, { get: (_, k) => (...a) => Reflect[k](p, ...a.slice(1)) })); return p; })()",
    ),
    (
        "many_getters",
        r#"(() => { const o = {}; const s = "z".repeat(1 << 14); for (let i = 0; i < 10000; i++) Object.defineProperty(o, "g" + i, { get: () => s, enumerable: true }); return o; })()"#,
    ),
    ("huge_typed_array", "new Uint8Array(1 << 25)"),
];

/// How a program finds an owner of the table (`Array.prototype`, `TypedArray.prototype`, ...);
/// `None` for the internal helpers no program can name.
fn owner_expression(owner: &str) -> Option<String> {
    if owner.starts_with('#') {
        return None;
    }
    let (root, rest) = owner.split_once('.').map_or((owner, ""), |(r, rest)| (r, rest));
    let root = match root {
        "" => "globalThis".to_string(),
        "TypedArray" => "Object.getPrototypeOf(Uint8Array)".to_string(),
        "Generator" => {
            "{ prototype: Object.getPrototypeOf(Object.getPrototypeOf((function* () {})())) }".into()
        }
        "AsyncGenerator" => {
            "{ prototype: Object.getPrototypeOf(Object.getPrototypeOf((async function* () {})())) }".into()
        }
        "IteratorHelper" => "{ prototype: Object.getPrototypeOf([].values().map((x) => x)) }".into(),
        "WrapForValidIterator" => {
            "{ prototype: Object.getPrototypeOf(Iterator.from({ next() { return { done: true }; } })) }"
                .into()
        }
        "URLSearchParamsIterator" => {
            "{ prototype: Object.getPrototypeOf(new URLSearchParams().keys()) }".into()
        }
        other => format!("globalThis[{other:?}]"),
    };
    let path: String = rest.split('.').filter(|s| !s.is_empty()).map(|s| format!("?.[{s:?}]")).collect();
    Some(format!("({root}){path}"))
}

/// The property a table name stands for, and which part of it: `get x` → (`"x"`, `get`).
fn property(name: &str) -> (String, &'static str) {
    let (part, key) = match name.split_once(' ') {
        Some(("get", key)) => ("get", key),
        Some(("set", key)) => ("set", key),
        _ => ("value", name),
    };
    let key = match key.strip_prefix("@@") {
        Some(symbol) => format!("Symbol[{symbol:?}]"),
        None => format!("{key:?}"),
    };
    (key, part)
}

/// The program of one case: `None` for an internal helper.
fn program(entry: &BuiltinEntry, amplifier: &str) -> Option<String> {
    // %TypedArray% itself is no global: reach it as the prototype of a typed array constructor.
    let owner = if entry.owner.is_empty() && entry.name == "TypedArray" {
        "({ TypedArray: Object.getPrototypeOf(Uint8Array) })".to_string()
    } else {
        owner_expression(entry.owner)?
    };
    let (key, part) = property(entry.name);
    let construct = if entry.constructor { "calls.push(() => Reflect.construct(f, args));" } else { "" };
    Some(format!(
        r#"const owner = {owner};
const desc = owner == null ? undefined : Object.getOwnPropertyDescriptor(owner, {key});
const f = desc?.{part};
if (typeof f !== "function") return "unreachable";
const amp = {amplifier};
const args = new Array(Math.max(f.length, 2)).fill(amp);
const calls = [() => Reflect.apply(f, amp, args), () => Reflect.apply(f, owner, args)];
{construct}
const out = [];
for (const call of calls) {{
  try {{
    const r = call();
    if (r !== null && typeof r === "object" && typeof r.then === "function") await r;
    out.push("ok");
  }} catch (e) {{
    out.push(e instanceof Error ? e.name : typeof e);
  }}
}}
return out;"#
    ))
}

fn entries() -> Vec<BuiltinEntry> {
    codemode_vm::builtin_entries().collect()
}

/// The child side: runs the case `CODEMODE_SWEEP_CASE` names (`<entry index>:<amplifier>`).
#[test]
fn child_runs_one_sweep_case() {
    let Ok(case) = std::env::var(CASE_VAR) else { return };
    let (index, amplifier) = case.split_once(':').expect("index:amplifier");
    let entry = entries()[index.parse::<usize>().expect("index")];
    let (_, amp) = AMPLIFIERS.iter().find(|(name, _)| *name == amplifier).expect("amplifier");
    let source = program(&entry, amp).expect("a reachable entry");
    isolated::run_here(source, Limits::default().timeout(TIMEOUT).memory_limit(MEMORY_LIMIT));
}

/// Runs the cases of these entries and fails with every case that crashed, ran too long or held
/// too much; prints one line per case and how many entries no program could reach.
fn sweep(indices: impl Iterator<Item = usize>) {
    if std::env::var(CASE_VAR).is_ok() {
        return;
    }
    let all = entries();
    // `CODEMODE_SWEEP_ONLY=Object.,console.`: only the entries whose names start so.
    let only: Option<Vec<String>> =
        std::env::var("CODEMODE_SWEEP_ONLY").ok().map(|v| v.split(',').map(str::to_string).collect());
    let (mut failures, mut unreachable, mut cases) = (Vec::new(), Vec::new(), 0);
    let time_bound = TIMEOUT * 2 + Duration::from_secs(1);
    let rss_bound = MEMORY_LIMIT + isolated::RSS_ALLOWANCE;
    for index in indices {
        let entry = all[index];
        if owner_expression(entry.owner).is_none() {
            continue;
        }
        let label = format!("{}{}{}", entry.owner, if entry.owner.is_empty() { "" } else { "." }, entry.name);
        if only.as_ref().is_some_and(|only| !only.iter().any(|o| label.starts_with(o.as_str()))) {
            continue;
        }
        for (amplifier, _) in AMPLIFIERS {
            cases += 1;
            let summary = match isolated::run_in_child(
                "child_runs_one_sweep_case",
                CASE_VAR,
                &format!("{index}:{amplifier}"),
            ) {
                Err(why) => {
                    failures.push(format!("{label} × {amplifier}: {why}"));
                    continue;
                }
                Ok(ended) => {
                    if ended.result["value"] == "unreachable" {
                        unreachable.push(label.clone());
                        break;
                    }
                    let line = format!(
                        "{label} × {amplifier}: {:.2}s ({:.2}s of CPU), {} MiB, {}",
                        ended.elapsed.as_secs_f64(),
                        ended.cpu.as_secs_f64(),
                        ended.peak_rss >> 20,
                        ended.result.to_string().chars().take(160).collect::<String>()
                    );
                    if let Some(why) = ended.too_slow(time_bound) {
                        failures.push(format!("{line}: {why}"));
                    } else if ended.peak_rss > rss_bound {
                        failures.push(format!("{line}: too much memory (bound {} MiB)", rss_bound >> 20));
                    }
                    line
                }
            };
            eprintln!("{summary}");
        }
    }
    eprintln!("{cases} cases; {} failed; unreachable by name: {unreachable:?}", failures.len());
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
    assert!(unreachable.is_empty(), "entries no program can reach by their table name: {unreachable:?}");
}

/// A fixed sample of the table, every amplifier (part of `cargo test`).
#[test]
fn sweep_sample() {
    sweep((0..entries().len()).filter(|i| i % SAMPLE_EVERY == 0));
}

/// The whole table (`cargo xtask sweep`).
#[test]
#[ignore = "the whole table takes long: cargo xtask sweep"]
fn sweep_all() {
    sweep(0..entries().len());
}
