//! Conformance against Node: runs every `tests/conformance/NAME.js` through
//! `codemode::demo::builder()` and compares the outcome with `NAME.json`, which Node wrote
//! (`cargo xtask conformance --bless`, see `xtask/conformance/run.mjs`).
//!
//! Compared: `ok`; for successes the `value` (exact JSON equality, key order included, numbers as
//! IEEE doubles) and the `logs`; for failures the error name (the facade's message starts with
//! `<Name>: ...`, or `Uncaught: ...` for a thrown non-Error) and the logs.
//!
//! Every mismatch is reported in one failure message, one line per program.
//!
//! Environment knobs for working on the runtime:
//! - `CONFORMANCE_FILTER=substr` runs only the programs whose name contains `substr`;
//! - `CONFORMANCE_OUT=dir` writes each actual `ExecResult` to `dir/NAME.json` for a full diff.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use codemode::{ExecResult, Limits};
use serde_json::Value;

/// Per-program limit given to the runtime.
const PROGRAM_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the harness waits for a run before reporting it as hung (the runtime ignored its limit).
const HARNESS_TIMEOUT: Duration = Duration::from_secs(30);

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance")
}

/// Program names (file stems) with the given extension, sorted.
fn stems(ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(conformance_dir())
        .expect("tests/conformance exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .map(|p| p.file_stem().expect("file name").to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

#[test]
fn every_program_has_an_expectation_and_vice_versa() {
    let js = stems("js");
    let json = stems("json");
    assert!(js.len() >= 70, "expected at least 70 conformance programs, found {}", js.len());
    let mut problems = Vec::new();
    for name in &js {
        if !json.contains(name) {
            problems.push(format!("{name}.js has no {name}.json (run `cargo xtask conformance --bless`)"));
        }
    }
    for name in &json {
        if !js.contains(name) {
            problems.push(format!("{name}.json has no {name}.js (stale expectation)"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Runs one program on its own thread and current-thread runtime, so that a panic or a hang in one
/// program is reported as that program's failure and the others still run.
fn run(source: String) -> Result<ExecResult, String> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("conformance".into()).spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
        let cm = codemode::demo::builder()
            .limits(Limits::default().timeout(PROGRAM_TIMEOUT))
            .build()
            .expect("demo builder builds");
        let result = rt.block_on(cm.execute(&source));
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
fn short(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max).collect();
        out.push('…');
        out
    }
}

fn show(v: &Value) -> String {
    short(&v.to_string(), 80)
}

/// The first difference between two JSON values as `path: expected X, got Y`, or `None` when equal.
/// Numbers compare as IEEE doubles (`1` equals `1.0`); object keys compare in order.
fn json_diff(path: &str, expected: &Value, actual: &Value) -> Option<String> {
    match (expected, actual) {
        (Value::Number(a), Value::Number(b)) => {
            if a.as_f64() == b.as_f64() {
                None
            } else {
                Some(format!("{path}: expected {a}, got {b}"))
            }
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
fn error_name(message: &str) -> &str {
    message.split_once(':').map_or(message, |(name, _)| name).trim()
}

/// Compares one outcome with its expectation; returns the mismatches (empty when it conforms).
fn compare(expected: &Value, actual: &ExecResult) -> Vec<String> {
    let mut out = Vec::new();
    let want_ok = expected["ok"].as_bool().unwrap_or(false);
    let got_error = actual.error.as_ref().map(|d| format!("{:?}: {}", d.kind, short(&d.message, 120)));
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
            out.push(format!(
                "expected a thrown {}, got ok with value {}",
                expected["error"],
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
            let want = expected["error"].as_str().unwrap_or_default();
            let message = actual.error.as_ref().map(|d| d.message.as_str()).unwrap_or_default();
            if error_name(message) != want {
                out.push(format!(
                    "expected error {want}, got {}",
                    got_error.unwrap_or_else(|| "(none)".into())
                ));
            }
        }
    }
    if let Some(d) = logs_diff(&expected["logs"], &actual.logs) {
        out.push(d);
    }
    out
}

#[test]
fn conformance_matches_node() {
    let dir = conformance_dir();
    let filter = std::env::var("CONFORMANCE_FILTER").unwrap_or_default();
    let out_dir = std::env::var_os("CONFORMANCE_OUT").map(PathBuf::from);
    if let Some(out) = &out_dir {
        std::fs::create_dir_all(out).expect("CONFORMANCE_OUT is creatable");
    }
    let names: Vec<String> = stems("js").into_iter().filter(|n| n.contains(filter.as_str())).collect();
    let mut report = String::new();
    let mut failed = 0;
    for name in &names {
        let source = std::fs::read_to_string(dir.join(format!("{name}.js"))).expect("program readable");
        let Ok(expected_text) = std::fs::read_to_string(dir.join(format!("{name}.json"))) else {
            continue; // reported by `every_program_has_an_expectation_and_vice_versa`
        };
        let expected: Value = serde_json::from_str(&expected_text).expect("expectation is JSON");
        let problems = match run(source) {
            Ok(actual) => {
                if let Some(out) = &out_dir {
                    let text = serde_json::to_string_pretty(&actual).expect("ExecResult serializes");
                    std::fs::write(out.join(format!("{name}.json")), text).expect("CONFORMANCE_OUT writable");
                }
                compare(&expected, &actual)
            }
            Err(e) => vec![e],
        };
        if !problems.is_empty() {
            failed += 1;
            let _ = writeln!(report, "  {name}: {}", problems.join("; "));
        }
    }
    assert!(
        failed == 0,
        "{failed} of {} conformance programs differ from Node (tests/conformance/NAME.js vs NAME.json):\n{report}",
        names.len()
    );
}

#[test]
fn json_diff_compares_numbers_as_doubles_and_keys_in_order() {
    let a: Value = serde_json::from_str(r#"{"a":1,"b":[121932631112635260]}"#).unwrap();
    let b = serde_json::json!({"a": 1.0, "b": [121_932_631_112_635_264.0_f64]});
    assert_eq!(json_diff("value", &a, &b), None);
    let c = serde_json::json!({"b": [1], "a": 1});
    assert!(json_diff("value", &a, &c).unwrap().contains("expected keys"));
    let d = serde_json::json!({"a": 2, "b": [121_932_631_112_635_264.0_f64]});
    assert_eq!(json_diff("value", &a, &d).unwrap(), "value.a: expected 1, got 2");
}

#[test]
fn error_name_is_the_message_prefix() {
    assert_eq!(error_name("TypeError: value is not a function. (line 2, col 8)"), "TypeError");
    assert_eq!(error_name("Uncaught: \"boom\""), "Uncaught");
}
