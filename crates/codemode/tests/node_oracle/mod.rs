//! The Node oracle's other half, shared by the suites whose expected results Node wrote
//! (`conformance.rs`, `forms_corpus.rs`): running one program in isolation and comparing its
//! `ExecResult` with the expectation, with a readable first difference.

use std::sync::mpsc;
use std::time::Duration;

use codemode::{ExecResult, Limits};
use serde_json::Value;

/// Per-program limit given to the runtime.
const PROGRAM_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the harness waits for a run before reporting it as hung (the runtime ignored its limit).
const HARNESS_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs one program on its own thread and current-thread runtime, so that a panic or a hang in one
/// program is reported as that program's failure and the others still run.
pub fn run(source: String) -> Result<ExecResult, String> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("oracle".into()).spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
        let cm = codemode::demo::builder()
            .limits(Limits::default().timeout(PROGRAM_TIMEOUT))
            .build()
            .expect("demo builder builds");
        // `// time-zone: NAME` on the first line: the run's zone (run.mjs sets Node's `TZ`).
        let mut options = codemode::ExecuteOptions::new();
        if let Some(zone) = source.lines().next().and_then(|l| l.strip_prefix("// time-zone: ")) {
            options = options.time_zone(zone.trim());
        }
        let result = rt.block_on(cm.execute_with(&source, options));
        let _ = tx.send(result);
    });
    if let Err(e) = spawned {
        return Err(format!("could not spawn a thread: {e}"));
    }
    match rx.recv_timeout(HARNESS_TIMEOUT) {
        Ok(result) => Ok(result),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!("no result after {HARNESS_TIMEOUT:?} (hung)")),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err("panicked (see the test's stderr)".into()),
    }
}

/// Shortens `s` to about `max` characters for a one-line report.
pub fn short(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max).collect();
        out.push('…');
        out
    }
}

fn show(v: &Value) -> String {
    short(&v.to_string(), 100)
}

/// The first difference between two JSON values as `path: expected X, got Y`, or `None` when equal.
/// Numbers compare as IEEE doubles (`1` equals `1.0`); object keys compare in order.
pub fn json_diff(path: &str, expected: &Value, actual: &Value) -> Option<String> {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => {
            (a.as_f64() != b.as_f64()).then(|| format!("{path}: expected {a}, got {b}"))
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if let Some(d) = json_diff(&format!("{path}[{i}]"), x, y) {
                    return Some(d);
                }
            }
            (a.len() != b.len()).then(|| {
                format!("{path}: expected array of {} items, got {}: {}", a.len(), b.len(), show(actual))
            })
        }
        (Value::Object(a), Value::Object(b)) => {
            let ka: Vec<&String> = a.keys().collect();
            let kb: Vec<&String> = b.keys().collect();
            if ka != kb {
                return Some(format!(
                    "{path}: expected keys {}, got {}",
                    short(&format!("{ka:?}"), 100),
                    short(&format!("{kb:?}"), 100)
                ));
            }
            a.iter().find_map(|(k, x)| json_diff(&format!("{path}.{k}"), x, &b[k]))
        }
        _ if expected == actual => None,
        _ => Some(format!("{path}: expected {}, got {}", show(expected), show(actual))),
    }
}

fn logs_diff(expected: &Value, actual: &[String]) -> Option<String> {
    let expected: Vec<&str> =
        expected.as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        if e != a {
            return Some(format!("logs[{i}]: expected {:?}, got {:?}", short(e, 80), short(a, 80)));
        }
    }
    (expected.len() != actual.len()).then(|| {
        format!(
            "logs: expected {} lines, got {}: {}",
            expected.len(),
            actual.len(),
            short(&format!("{actual:?}"), 120)
        )
    })
}

/// The error name at the start of a facade error message: `TypeError: x` → `TypeError`.
pub fn error_name(message: &str) -> &str {
    message.split_once(':').map_or(message, |(name, _)| name).trim()
}

/// Compares one outcome with its expectation; returns the mismatches (empty when it matches).
pub fn compare(expected: &Value, actual: &ExecResult) -> Vec<String> {
    let mut out = Vec::new();
    let want_ok = expected["ok"].as_bool().unwrap_or(false);
    let got_error = actual.error.as_ref().map(|d| format!("{:?}: {}", d.kind, short(&d.message, 140)));
    match (want_ok, actual.ok) {
        (true, false) => {
            out.push(format!(
                "expected ok with value {}, got error {}",
                show(&expected["value"]),
                got_error.unwrap_or_else(|| "(none)".into())
            ));
            return out;
        }
        (false, true) => {
            let want = expected.get("kind").or_else(|| expected.get("error")).cloned().unwrap_or(Value::Null);
            out.push(format!(
                "expected a failure {want}, got ok with value {}",
                show(actual.value.as_ref().unwrap_or(&Value::Null))
            ));
            return out;
        }
        (true, true) => {
            let got = actual.value.clone().unwrap_or(Value::Null);
            if let Some(d) = json_diff("value", &expected["value"], &got) {
                out.push(d);
            }
        }
        (false, false) => {
            let diagnostic = actual.error.as_ref();
            if let Some(kind) = expected.get("kind").and_then(Value::as_str) {
                let got = diagnostic.map(|d| format!("{:?}", d.kind)).unwrap_or_default();
                if got != kind {
                    out.push(format!(
                        "expected kind {kind}, got {}",
                        got_error.unwrap_or_else(|| "(none)".into())
                    ));
                }
            } else {
                let want = expected["error"].as_str().unwrap_or_default();
                let message = diagnostic.map(|d| d.message.as_str()).unwrap_or_default();
                if error_name(message) != want {
                    out.push(format!(
                        "expected error {want}, got {}",
                        got_error.unwrap_or_else(|| "(none)".into())
                    ));
                }
            }
        }
    }
    if let Some(d) = logs_diff(&expected["logs"], &actual.logs) {
        out.push(d);
    }
    out
}
