//! The `codemode` binary: exit codes and output.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn codemode(args: &[&str], stdin: Option<&str>) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(args)
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codemode starts");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

#[test]
fn missing_file_is_a_usage_error() {
    let out = codemode(&["run", "does/not/exist.js"], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot read does/not/exist.js"), "{stderr}");
}

#[test]
fn bad_arguments_are_usage_errors() {
    assert_eq!(codemode(&["frobnicate"], None).status.code(), Some(2));
    assert_eq!(codemode(&["run"], None).status.code(), Some(2));
    assert_eq!(codemode(&["run", "-", "--timeout-ms", "soon"], None).status.code(), Some(2));
    assert_eq!(codemode(&["--help"], None).status.code(), Some(0));
}

#[test]
fn failing_program_exits_1_with_the_result_json() {
    let out = codemode(&["run", "-"], Some("throw new TypeError('nope');"));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(result["ok"], false, "{result}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn readme_quick_start_runs_examples_orders() {
    let out =
        codemode(&["run", "examples/orders.js", "--timeout-ms", "5000", "--max-tool-calls", "10"], None);
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["value"], serde_json::json!({ "open": ["b2"], "total": 103.5 }), "{result}");
    assert_eq!(result["logs"], serde_json::json!(["open: 1"]), "{result}");
    assert_eq!(result["toolCalls"].as_array().map(Vec::len), Some(3), "{result}");
    assert_eq!(out.status.code(), Some(0));
}
