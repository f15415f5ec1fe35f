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

use serde_json::Value;

mod node_oracle;
use node_oracle::{compare, error_name, json_diff, run};

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
