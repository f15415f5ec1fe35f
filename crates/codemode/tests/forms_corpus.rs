//! The program-forms corpus: programs in the shapes models hand in (markdown fences with prose,
//! whole-program arrows, `export default`, `main();` last, final expressions, un-awaited promises,
//! TypeScript), each `tests/forms/NAME.js` or `NAME.ts` run through `codemode::demo::builder()` and
//! compared with `NAME.json`, which Node wrote (`node xtask/forms/run.mjs`, which applies the rules
//! of docs/language.md for these shapes in Node).
//!
//! `tests/forms/KNOWN_FAILURES` lists the programs that do not match yet, one `NAME.ext  reason` a
//! line. The test fails when a program not on the list differs from Node, and when a program on the
//! list matches (remove it from the list: the list only shrinks).
//!
//! Compared: `ok`; for successes the `value` (exact JSON equality, key order included, numbers as
//! IEEE doubles) and the `logs`; for failures the error name (the facade's message starts with
//! `<Name>: ...`, or `Uncaught: ...` for a thrown non-Error) or, when the expectation has a `kind`,
//! the diagnostic kind; and the logs.
//!
//! Environment knobs: `FORMS_FILTER=substr` runs only the programs whose file name contains it;
//! `FORMS_OUT=dir` writes each actual `ExecResult` to `dir/NAME.json`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
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
/// The corpus is meant to stay at least this large.
const MIN_PROGRAMS: usize = 120;

fn forms_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/forms")
}

/// Program file names (`NAME.js`, `NAME.ts`), sorted.
fn programs() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(forms_dir())
        .expect("tests/forms exists")
        .map(|e| e.expect("readable dir entry").file_name().to_string_lossy().into_owned())
        .filter(|f| (f.ends_with(".js") || f.ends_with(".ts")) && !f.ends_with(".d.ts"))
        .collect();
    out.sort();
    out
}

fn stem(file: &str) -> &str {
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

/// `KNOWN_FAILURES`: file name → reason. Blank lines and `#` comments are skipped.
fn known_failures() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(forms_dir().join("KNOWN_FAILURES")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((name, reason)) => (name.to_string(), reason.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

#[test]
fn every_program_has_an_expectation_and_vice_versa() {
    let files = programs();
    assert!(files.len() >= MIN_PROGRAMS, "expected at least {MIN_PROGRAMS} programs, found {}", files.len());
    let stems: Vec<&str> = files.iter().map(|f| stem(f)).collect();
    let mut problems = Vec::new();
    for file in &files {
        if !forms_dir().join(format!("{}.json", stem(file))).exists() {
            problems.push(format!("{file} has no {}.json (run `node xtask/forms/run.mjs`)", stem(file)));
        }
    }
    for entry in std::fs::read_dir(forms_dir()).expect("tests/forms exists") {
        let name = entry.expect("dir entry").file_name().to_string_lossy().into_owned();
        if let Some(s) = name.strip_suffix(".json")
            && !s.starts_with("package")
            && !stems.contains(&s)
        {
            problems.push(format!("{name} has no program (stale expectation)"));
        }
    }
    for name in known_failures().keys() {
        if !files.contains(name) {
            problems.push(format!("KNOWN_FAILURES names {name}, which is not a program in tests/forms"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Runs one program on its own thread and current-thread runtime, so that a panic or a hang in one
/// program is reported as that program's failure and the others still run.
fn run(source: String) -> Result<ExecResult, String> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new().name("forms".into()).spawn(move || {
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
    short(&v.to_string(), 100)
}

/// The first difference between two JSON values as `path: expected X, got Y`, or `None` when equal.
/// Numbers compare as IEEE doubles (`1` equals `1.0`); object keys compare in order.
fn json_diff(path: &str, expected: &Value, actual: &Value) -> Option<String> {
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
fn error_name(message: &str) -> &str {
    message.split_once(':').map_or(message, |(name, _)| name).trim()
}

/// Compares one outcome with its expectation; returns the mismatches (empty when it matches).
fn compare(expected: &Value, actual: &ExecResult) -> Vec<String> {
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

#[test]
fn forms_match_node_except_the_known_failures() {
    let dir = forms_dir();
    let filter = std::env::var("FORMS_FILTER").unwrap_or_default();
    let out_dir = std::env::var_os("FORMS_OUT").map(PathBuf::from);
    if let Some(out) = &out_dir {
        std::fs::create_dir_all(out).expect("FORMS_OUT is creatable");
    }
    let known = known_failures();
    let files: Vec<String> = programs().into_iter().filter(|n| n.contains(filter.as_str())).collect();
    let mut unexpected = String::new();
    let mut fixed = String::new();
    let mut all_failing = String::new();
    let (mut passed, mut failed_known) = (0, 0);
    for file in &files {
        let source = std::fs::read_to_string(dir.join(file)).expect("program readable");
        let Ok(expected_text) = std::fs::read_to_string(dir.join(format!("{}.json", stem(file)))) else {
            continue; // reported by `every_program_has_an_expectation_and_vice_versa`
        };
        let expected: Value = serde_json::from_str(&expected_text).expect("expectation is JSON");
        let problems = match run(source) {
            Ok(actual) => {
                if let Some(out) = &out_dir {
                    let text = serde_json::to_string_pretty(&actual).expect("ExecResult serializes");
                    std::fs::write(out.join(format!("{}.json", stem(file))), text)
                        .expect("FORMS_OUT writable");
                }
                compare(&expected, &actual)
            }
            Err(e) => vec![e],
        };
        match (problems.is_empty(), known.contains_key(file)) {
            (true, false) => passed += 1,
            (true, true) => {
                let _ = writeln!(fixed, "  {file} (listed: {})", known[file]);
            }
            (false, true) => failed_known += 1,
            (false, false) => {
                let _ = writeln!(unexpected, "  {file}: {}", problems.join("; "));
            }
        }
        if !problems.is_empty() {
            let _ = writeln!(all_failing, "{file}  {}", short(&problems.join("; "), 160));
        }
    }
    eprintln!(
        "forms corpus: {} programs, {passed} match Node, {failed_known} known failures{}",
        files.len(),
        if filter.is_empty() { String::new() } else { format!(" (filter {filter:?})") }
    );
    let mut report = String::new();
    if !unexpected.is_empty() {
        let _ = writeln!(
            report,
            "programs that differ from Node and are not in tests/forms/KNOWN_FAILURES:\n{unexpected}"
        );
    }
    if !fixed.is_empty() {
        let _ = writeln!(
            report,
            "programs in tests/forms/KNOWN_FAILURES that now match Node (remove them from the list):\n{fixed}"
        );
    }
    if !report.is_empty() {
        let _ = writeln!(
            report,
            "every program that differs today, one line each (NAME  first difference):\n{all_failing}"
        );
    }
    assert!(report.is_empty(), "{report}");
}

#[test]
fn json_diff_compares_numbers_as_doubles_and_keys_in_order() {
    let a: Value = serde_json::from_str(r#"{"a":1,"b":[121932631112635260]}"#).unwrap();
    let b = serde_json::json!({"a": 1.0, "b": [121_932_631_112_635_264.0_f64]});
    assert_eq!(json_diff("value", &a, &b), None);
    let c = serde_json::json!({"b": [1], "a": 1});
    assert!(json_diff("value", &a, &c).unwrap().contains("expected keys"));
}
