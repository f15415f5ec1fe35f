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

#[test]
fn max_output_bytes_cuts_the_value_and_the_logs() {
    let out = codemode(&["run", "-", "--max-output-bytes", "1000"], Some(r#"return "y".repeat(1000000)"#));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["truncated"], true, "{result}");
    let value = result["value"].as_str().expect("a string");
    assert!(value.len() <= 1000 && value.ends_with("return a smaller value]"), "{value}");
    assert_eq!(out.status.code(), Some(0));

    let program = r#"for (let i = 0; i < 100000; i++) console.log("line " + i); return 1"#;
    let out = codemode(&["run", "-", "--max-output-bytes", "1KiB", "--json"], Some(program));
    assert!(out.stdout.len() < 2000, "{} bytes", out.stdout.len());
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    let last = result["logs"].as_array().and_then(|l| l.last()).and_then(|l| l.as_str()).unwrap_or("");
    assert!(last.starts_with("[logs truncated: showing ") && last.ends_with(" of 100000 lines]"), "{result}");
}

#[test]
fn invalid_limits_are_usage_errors() {
    for flag in
        ["--max-tool-calls", "--max-output-bytes", "--max-call-depth", "--timeout-ms", "--max-source-bytes"]
    {
        let out = codemode(&["run", "-", flag, "0"], None);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("invalid limits:") && stderr.contains("must be at least"), "{stderr}");
    }
    // A program over the source limit is the run's ParseError, before anything is parsed.
    let out = codemode(&["run", "-", "--max-source-bytes", "16"], Some("return 'a long enough program';"));
    assert_eq!(out.status.code(), Some(1));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(result["error"]["kind"], "ParseError", "{result}");
}

/// A run moves between processes: `run --state-out` suspends at the durable `demo.approve` and
/// prints the pending key; `resume` in a new process finishes it with the decision.
#[test]
fn a_suspended_run_is_resumed_in_another_process() {
    let dir = std::env::temp_dir().join(format!("codemode-cli-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("run.state");
    let state = state.to_str().unwrap();
    let out = codemode(&["run", "examples/approval.js", "--state-out", state, "--timeout-ms", "5000"], None);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let suspended: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    assert_eq!(suspended["ok"], "suspended", "{suspended}");
    assert_eq!(suspended["pending"][0]["path"], "demo.approve", "{suspended}");
    let key = suspended["pending"][0]["key"].as_str().unwrap().to_string();

    let missing = codemode(&["resume", state], None);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no outcome was given"));
    let bad = codemode(&["resume", state, "--outcome", "just-text"], None);
    assert_eq!(bad.status.code(), Some(2));

    let outcome = format!(r#"{key}={{"ok":true,"value":{{"approved":true}}}}"#);
    let out = codemode(&["resume", state, "--outcome", &outcome], None);
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["value"], serde_json::json!({ "order": "A-1001", "refunded": true, "amount": 17.5 }));
    assert_eq!(out.status.code(), Some(0));

    let declined = format!(r#"{key}={{"ok":false,"error":"no refunds on Sundays"}}"#);
    let out = codemode(&["resume", state, "--outcome", &declined], None);
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(result["ok"], false, "{result}");
    assert!(result["error"]["message"].as_str().unwrap().contains("no refunds on Sundays"), "{result}");
    // A typo in an outcome is refused, not read as a missing value.
    let typo = format!(r#"{key}={{"ok":true,"valeu":{{"approved":true}}}}"#);
    let out = codemode(&["resume", state, "--outcome", &typo], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown field 'valeu'"), "{out:?}");
    let bytes = std::fs::read(state).unwrap();
    let mut truncated = bytes.clone();
    truncated.truncate(bytes.len() / 2);
    std::fs::write(state, &truncated).unwrap();
    let out = codemode(&["resume", state, "--outcome", &outcome], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("malformed snapshot"), "{out:?}");
    std::fs::write(state, b"garbage, not a state").unwrap();
    let out = codemode(&["resume", state, "--outcome", &outcome], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a codemode run state"), "{out:?}");
    // A device that never ends is refused after its first bytes; a state larger than the memory
    // limit allows is refused before it is read.
    let out = codemode(&["resume", "/dev/zero", "--outcome", &outcome], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a codemode run state"), "{out:?}");
    let mut huge = bytes[..8].to_vec();
    huge.resize(20 << 20, 0);
    std::fs::write(state, &huge).unwrap();
    let out = codemode(&["resume", state, "--outcome", &outcome, "--memory-limit", "4MiB"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is larger than"), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A state cannot raise the host's limits: a run saved without a time limit that loops forever
/// once resumed is stopped by `resume --timeout-ms`.
#[test]
fn a_resumed_run_keeps_the_smaller_of_its_saved_limits_and_the_hosts() {
    let dir = std::env::temp_dir().join(format!("codemode-cli-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("run.state");
    let state = state.to_str().unwrap();
    let program = "const d = await tools.demo.approve({ action: 'spin' });\nlet n = 0;\nfor (;;) n++;";
    let out = codemode(&["run", "-", "--state-out", state], Some(program));
    let suspended: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let key = suspended["pending"][0]["key"].as_str().expect("a pending key").to_string();
    let outcome = format!(r#"{key}={{"ok":true,"value":{{"approved":true}}}}"#);
    let started = std::time::Instant::now();
    let out = codemode(&["resume", state, "--outcome", &outcome, "--timeout-ms", "300"], None);
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(result["error"]["kind"], "TimeoutExceeded", "{result}");
    // Generous: the point is that it ends at all.
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A signed state (`--state-key-file`) resumes only under its key and unchanged: one flipped
/// byte, another key or an unsigned state is refused before anything is decoded.
#[test]
fn a_signed_state_resumes_only_unchanged_and_under_its_key() {
    let dir = std::env::temp_dir().join(format!("codemode-cli-signed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (state, key, other_key, unsigned) =
        (path("run.state"), path("key"), path("other"), path("plain.state"));
    std::fs::write(&key, "3f1c0a9e5b7d2468\n").unwrap();
    std::fs::write(&other_key, "another key").unwrap();
    let args = ["run", "examples/approval.js", "--timeout-ms", "5000", "--state-out"];
    let out = codemode(&[&args[..], &[state.as_str(), "--state-key-file", key.as_str()]].concat(), None);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let suspended: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let pending_key = suspended["pending"][0]["key"].as_str().unwrap().to_string();
    let outcome = format!(r#"{pending_key}={{"ok":true,"value":{{"approved":true}}}}"#);
    let resume = |state: &str, key: Option<&str>| {
        let mut args = vec!["resume", state, "--outcome", outcome.as_str()];
        args.extend(key.map(|k| ["--state-key-file", k]).into_iter().flatten());
        codemode(&args, None)
    };
    let refused = |out: &std::process::Output| {
        out.status.code() == Some(2)
            && String::from_utf8_lossy(&out.stderr).contains("not authenticated by this key")
    };
    let signed = std::fs::read(&state).unwrap();
    // Another key; one byte changed in the middle; no tag at all.
    assert!(refused(&resume(&state, Some(&other_key))));
    let mut changed = signed.clone();
    let middle = changed.len() / 2;
    changed[middle] ^= 1;
    std::fs::write(&state, &changed).unwrap();
    assert!(refused(&resume(&state, Some(&key))));
    let out = codemode(&[&args[..], &[unsigned.as_str()]].concat(), None);
    assert_eq!(out.status.code(), Some(0));
    assert!(refused(&resume(&unsigned, Some(&key))));
    // The state as saved, under its key.
    std::fs::write(&state, &signed).unwrap();
    let out = resume(&state, Some(&key));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(result["value"]["refunded"], true, "{result}");
    // An empty key file is a usage error, not an empty key.
    std::fs::write(&other_key, "\n").unwrap();
    let out = resume(&state, Some(&other_key));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is empty"), "{out:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn discovery_slips_are_answered_with_what_exists() {
    let program = r#"
        const found = await tools.search({ query: "orders" });
        let message;
        try { await tools.orders.nope({}) } catch (e) { message = e.message }
        return [found.items[0].path, Object.keys(tools.orders), typeof tools.nope, message]
    "#;
    let out = codemode(&["run", "-"], Some(program));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is the result JSON");
    assert_eq!(
        result["value"],
        serde_json::json!([
            "tools.orders.lookup",
            ["lookup"],
            "undefined",
            "Unknown tool 'orders.nope'. Did you mean tools.orders.lookup? tools.orders has: lookup."
        ]),
        "{result}"
    );
    assert_eq!(out.status.code(), Some(0));
}
