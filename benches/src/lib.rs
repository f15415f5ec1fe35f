//! Benchmark support for `benches/benches/workloads.rs`: the shared workloads (`benches/workloads/*.js`,
//! copied from the project's shared benchmark set), codemode's harness, and, behind the `compare`
//! feature, the same workloads on QuickJS ([`quickjs`]) and Boa ([`boa`]) with the same demo tools.
//!
//! Every engine runs a workload as a whole: parse, compile, run (including tool calls) and turn the
//! result into JSON text, so that the numbers compare one `execute` with one `execute`.

use serde_json::{Value, json};

#[cfg(feature = "compare")]
pub mod boa;
#[cfg(feature = "compare")]
pub mod quickjs;

/// The workloads as `(name, program body)`: top-level `await` and `return` allowed.
pub const WORKLOADS: &[(&str, &str)] = &[
    ("startup", include_str!("../workloads/startup.js")),
    ("calls", include_str!("../workloads/calls.js")),
    ("fib", include_str!("../workloads/fib.js")),
    ("loop", include_str!("../workloads/loop.js")),
    ("closures", include_str!("../workloads/closures.js")),
    ("objects", include_str!("../workloads/objects.js")),
    ("strings", include_str!("../workloads/strings.js")),
    ("json", include_str!("../workloads/json.js")),
];

/// The Quick Start program (`examples/orders.js`), for the end-to-end benchmarks.
pub const QUICKSTART: &str = include_str!("../../examples/orders.js");

/// Runs programs through codemode with the demo tools on a current-thread tokio runtime.
pub struct Codemode {
    tokio: tokio::runtime::Runtime,
    runtime: codemode::CodeMode,
}

impl Codemode {
    /// A runtime with the demo tools and no limits, as a host would keep one for many runs.
    pub fn new() -> Result<Self, String> {
        let tokio = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("tokio: {e}"))?;
        let runtime = codemode::demo::builder().build().map_err(|e| format!("codemode: {e}"))?;
        Ok(Self { tokio, runtime })
    }

    /// One `execute`; the result JSON text, or the failure message.
    pub fn run(&self, source: &str) -> Result<String, String> {
        let result = self.tokio.block_on(self.runtime.execute(source));
        if result.ok {
            Ok(result.value.unwrap_or(Value::Null).to_string())
        } else {
            Err(result.error.map_or_else(|| "failed without a diagnostic".to_string(), |d| d.message))
        }
    }

    /// Builds a fresh runtime and runs `source` once: the whole cost a one-shot host pays.
    pub fn cold_run(source: &str) -> Result<String, String> {
        Self::new()?.run(source)
    }
}

/// The Quick Start program waiting on durable work first (the demo `demo.job`), so that it can be
/// suspended: the snapshot benchmarks save and restore it there.
pub const QUICKSTART_DURABLE: &str = concat!(
    "const ready = await tools.demo.job({ ms: 600000, value: true });\n",
    include_str!("../../examples/orders.js")
);

/// A program that builds about 1 MB of heap (as the VM accounts it) and then waits on durable
/// work.
pub const HEAP_1MB: &str = r#"
    const data = [];
    for (let i = 0; i < 1400; i++) data.push({ id: i, name: "item " + i, tags: ["a", "b"], score: i * 1.5 });
    const v = await tools.demo.job({ ms: 600000, value: 1 });
    return data.length + v;
"#;

impl Codemode {
    /// Starts `source` and runs it until it waits (on durable work, for the snapshot benchmarks).
    pub fn waiting(&self, source: &str) -> codemode::Execution {
        let mut execution = self.runtime.execute(source);
        self.tokio.block_on(async {
            tokio::select! {
                biased;
                _ = execution.result() => {}
                () = tokio::task::yield_now() => {}
            }
        });
        execution
    }

    /// Suspends a waiting run: its state's bytes and pending keys.
    pub fn suspend(execution: &mut codemode::Execution) -> Result<(Vec<u8>, Vec<String>), String> {
        match execution.suspend().map_err(|e| e.message)? {
            codemode::Outcome::Suspended(s) => {
                let bytes = s.state.to_bytes().map_err(|e| e.to_string())?;
                Ok((bytes, s.pending.into_iter().map(|p| p.key).collect()))
            }
            codemode::Outcome::Finished(r) => Err(format!("the run finished: {r:?}")),
        }
    }

    /// Decodes a state and makes it ready to go on (not driven).
    pub fn restore(&self, bytes: &[u8], keys: &[String]) -> Result<codemode::Execution, String> {
        let state = codemode::Snapshot::from_bytes(bytes).map_err(|e| e.to_string())?;
        let outcomes = keys.iter().map(|k| (k.clone(), Ok(Value::Null)));
        self.runtime.resume(state, outcomes).map_err(|e| e.to_string())
    }

    /// The heap bytes the VM accounts for in a saved state.
    pub fn heap_bytes(bytes: &[u8]) -> Option<u64> {
        let json = codemode::Snapshot::from_bytes(bytes).ok()?.to_json().ok()?;
        json["vm"]["heap"]["bytes_used"].as_u64()
    }
}

/// Digits of `id` as a number (0 when there are none), as the demo `orders.lookup` defines it.
fn digits_of(id: &str) -> u64 {
    id.chars()
        .filter(char::is_ascii_digit)
        .fold(0u64, |n, d| n.wrapping_mul(10).wrapping_add(u64::from(d) - u64::from('0')))
}

/// The demo tools, for the comparison engines (codemode has its own in `codemode::demo`):
/// `orders.lookup`, `data.records`, `demo.echo`, `demo.fail`. Input and output are JSON values.
pub fn demo_tool(path: &str, input: &Value) -> Result<Value, String> {
    match path {
        "orders.lookup" => {
            let id = input["id"].as_str().unwrap_or_default();
            let n = digits_of(id);
            Ok(json!({
                "id": id,
                "status": if n.is_multiple_of(2) { "open" } else { "complete" },
                "total": ((n * 17) % 100) as f64 + 0.5,
                "customer": format!("c{}", n % 5),
            }))
        }
        "data.records" => {
            let n = input["n"].as_u64().unwrap_or(0);
            let records: Vec<Value> = (0..n)
                .map(|i| {
                    let status = ["open", "closed", "pending"][(i % 3) as usize];
                    json!({
                        "id": i,
                        "title": format!("Record {i}"),
                        "status": status,
                        "owner": format!("user{}", i % 40),
                        "tags": if i % 4 == 0 { json!(["priority", "x"]) } else { json!(["y"]) },
                        "score": (i * 37) % 101,
                        "meta": { "created": "2024-01-01T00:00:00Z", "n": i },
                    })
                })
                .collect();
            Ok(json!({ "records": records }))
        }
        "demo.echo" => Ok(input.clone()),
        "demo.fail" => Err(input["message"].as_str().unwrap_or("failed").to_string()),
        other => Err(format!("Unknown tool '{other}'")),
    }
}

/// The demo tools the comparison engines install as native functions, as
/// `(namespace, name, path for [`demo_tool`])`, grouped by namespace.
pub const TOOLS: &[(&str, &str, &str)] = &[
    ("orders", "lookup", "orders.lookup"),
    ("data", "records", "data.records"),
    ("demo", "echo", "demo.echo"),
    ("demo", "fail", "demo.fail"),
];

/// A program by name, for the peak RSS runs (`src/bin/rss.rs`): a workload or `quickstart`.
pub fn program(name: &str) -> Option<&'static str> {
    if name == "quickstart" {
        return Some(QUICKSTART);
    }
    WORKLOADS.iter().find(|(n, _)| *n == name).map(|(_, source)| *source)
}

/// With the environment variable `var` set, prints this process's pid and waits for a line on
/// stdin, so that a tool can read its `/proc/PID/pagemap` (which pages are resident) first; used
/// by `src/bin/rss.rs` and `src/bin/repeat.rs`.
pub fn pause_if_asked(var: &str) {
    if std::env::var_os(var).is_some() {
        println!("paused: {}", std::process::id());
        let _ = std::io::stdin().read_line(&mut String::new());
    }
}

/// JavaScript for the comparison engines, around a program body: the engine has installed a global
/// `tools` object of native functions ([`TOOLS`]; each returns a promise, as tool calls do in
/// codemode); this adds a `console` that captures lines as codemode's does, and a runner that
/// stores the program's result as JSON text in `globalThis.__result` or its failure in
/// `globalThis.__error`.
pub fn wrap_for_engine(body: &str) -> String {
    format!(
        r#"(() => {{
  const logs = [];
  const show = (v) => (typeof v === "string" ? v : String(JSON.stringify(v)));
  const line = (prefix) => (...args) => {{ logs.push(prefix + args.map(show).join(" ")); }};
  const console = {{ log: line(""), info: line(""), warn: line("[warn] "), error: line("[error] "), debug: line("[debug] ") }};
  globalThis.__result = undefined;
  globalThis.__error = undefined;
  (async (tools, console) => {{
{body}
  }})(globalThis.tools, console).then(
    (v) => {{ const s = JSON.stringify(v); globalThis.__result = s === undefined ? "null" : s; }},
    (e) => {{ globalThis.__error = String(e); }},
  );
}})();
"#
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn demo_tools_match_the_documented_shapes() {
        let order = demo_tool("orders.lookup", &json!({ "id": "order_42" })).unwrap();
        assert_eq!(order, json!({ "id": "order_42", "status": "open", "total": 14.5, "customer": "c2" }));
        let records = demo_tool("data.records", &json!({ "n": 5 })).unwrap();
        assert_eq!(records["records"].as_array().unwrap().len(), 5);
        assert_eq!(records["records"][4]["tags"], json!(["priority", "x"]));
        assert_eq!(demo_tool("demo.fail", &json!({ "message": "m" })), Err("m".to_string()));
        for (namespace, name, path) in TOOLS {
            assert_eq!(format!("{namespace}.{name}"), *path);
        }
    }

    #[test]
    fn every_workload_ends_with_a_return() {
        for (name, body) in WORKLOADS {
            assert!(body.contains("return "), "{name}");
        }
    }

    /// The comparison engines give Node's results (the conformance expectations) on the same programs.
    #[cfg(feature = "compare")]
    #[test]
    fn comparison_engines_agree_with_node() {
        let cases = [
            ("quickstart_orders", QUICKSTART),
            ("workload_startup", include_str!("../workloads/startup.js")),
            ("workload_fib", include_str!("../../tests/conformance/workload_fib.js")),
            ("workload_json", include_str!("../../tests/conformance/workload_json.js")),
        ];
        for (name, source) in cases {
            let path = format!("{}/../tests/conformance/{name}.json", env!("CARGO_MANIFEST_DIR"));
            let expected: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            let q: Value = serde_json::from_str(&quickjs::run(source).unwrap()).unwrap();
            let b: Value = serde_json::from_str(&boa::run(source).unwrap()).unwrap();
            assert_eq!(q, expected["value"], "{name} on QuickJS");
            assert_eq!(b, expected["value"], "{name} on Boa");
        }
        assert!(quickjs::run("throw new TypeError('x')").unwrap_err().contains("TypeError"));
        assert!(boa::run("throw new TypeError('x')").unwrap_err().contains("TypeError"));
        // A failing tool makes the awaited call throw an Error with the tool's message, catchable.
        let fail = "try { await tools.demo.fail({ message: 'no such order' }); return 'no throw'; } \
                    catch (e) { return [e instanceof Error, e.message]; }";
        let caught = json!([true, "no such order"]).to_string();
        assert_eq!(quickjs::run(fail).unwrap(), caught);
        assert_eq!(boa::run(fail).unwrap(), caught);
        assert_eq!(quickjs::run("await tools.demo.fail({ message: 'm' })").unwrap_err(), "Error: m");
        assert_eq!(boa::run("await tools.demo.fail({ message: 'm' })").unwrap_err(), "Error: m");
        // Input objects reach the host as JSON values and come back as fresh objects.
        let echo = "const input = { a: [1, 2.5, 'x', null, true], b: { c: {} }, skip: undefined }; \
                    const out = await tools.demo.echo(input); return [out, out === input];";
        let echoed = json!([{ "a": [1, 2.5, "x", null, true], "b": { "c": {} } }, false]).to_string();
        assert_eq!(quickjs::run(echo).unwrap(), echoed);
        assert_eq!(boa::run(echo).unwrap(), echoed);
    }
}
