//! Faults at both ends of `codemode`'s MCP connections, with real processes: an upstream server
//! (`tests/mcp/stubs/unruly.mjs`, plain node, no packages) that answers with undecodable, huge,
//! misaddressed and no messages and lists tools that are empty-named, 100 levels deep or carry a
//! 100,000-value enum; and a host that sends `codemode mcp` request lines that are too long or
//! too deep. Nothing may hang: every call fails at once with a clear message, every bad request
//! gets a JSON-RPC error. Skips (saying so) when node is missing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn unruly() -> Option<String> {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("SKIPPED: node is not installed");
        return None;
    }
    Some(format!("node '{}'", root().join("tests/mcp/stubs/unruly.mjs").display()))
}

/// `codemode run` over the unruly server: every bad answer fails its call at once.
#[test]
fn undecodable_huge_misaddressed_and_missing_answers_fail_their_calls_with_clear_messages() {
    let Some(server) = unruly() else { return };
    let program = r#"
        const outcome = async (name) => {
          try { return { value: await tools.unruly[name]({}) }; }
          catch (e) { return { error: e.message }; }
        };
        const r = {};
        for (const name of ["huge_number", "huge_line", "wrong_id", "ok", "silent", "ok"]) {
          r[name] = await outcome(name);
        }
        return r;
    "#;
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "-", "--json", "--call-timeout-ms", "5000", "--upstream", &server])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codemode starts");
    child.stdin.take().unwrap().write_all(program.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let result: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("no result; stderr: {stderr}"));
    assert_eq!(result["ok"], true, "{result}\n{stderr}");
    let r = &result["value"];
    let error = |name: &str| r[name]["error"].as_str().unwrap_or_default().to_owned();
    assert!(
        error("huge_number").contains("answered 'huge_number', but its answer could not be used")
            && error("huge_number").contains("number out of range"),
        "{r}"
    );
    assert!(error("huge_line").contains("over the 16 MiB limit of one message"), "{r}");
    assert!(error("wrong_id").contains("which no request had"), "{r}");
    assert!(error("silent").contains("did not answer 'silent' within 5000ms"), "{r}");
    assert_eq!(r["ok"]["value"], "fine", "{r}");
    // Only the silent call waited for its deadline (5 s); the others failed at once: one more
    // deadline would make the whole run take 10 s. (Measured from outside: `Date.now()` is fixed
    // for a whole run, so the program cannot time its calls.)
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_millis(9_500), "took {elapsed:?}: {r}");
    // The bad tools cost only themselves.
    assert!(stderr.contains("tool #5 was skipped: its name is empty"), "{stderr}");
    assert!(stderr.contains("tool 'deep': its schema is more than"), "{stderr}");
    assert!(stderr.contains("tool 'big_enum': its schema is more than"), "{stderr}");
}

#[test]
fn bad_tools_are_skipped_or_simplified_and_the_server_starts_quickly() {
    let Some(server) = unruly() else { return };
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "--declarations", "--upstream", &server])
        .stderr(Stdio::null())
        .output()
        .unwrap();
    // Generous: the point is "not minutes" (a quadratic enum took 11 s, a deep schema hung).
    assert!(started.elapsed() < Duration::from_secs(30), "took {:?}", started.elapsed());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("ok(): Promise<unknown>;"), "{text}");
    assert!(text.contains("deep(input: Record<string, unknown>)"), "{text}");
    assert!(text.contains("big_enum(input: Record<string, unknown>)"), "{text}");
    assert!(!text.contains("value_99999"), "the enum was not simplified");
}

/// Reads lines from `codemode mcp` until one is the answer to `id`.
fn answer(lines: &mut impl Iterator<Item = std::io::Result<String>>, id: i64) -> Value {
    for line in lines {
        let line = line.expect("a line");
        let message: Value = serde_json::from_str(&line).expect("JSON from codemode");
        if message["id"] == json!(id) {
            return message;
        }
    }
    panic!("codemode mcp closed its output before answering {id}");
}

#[test]
fn too_long_and_too_deep_requests_get_json_rpc_errors() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["mcp", "--demo"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("codemode mcp starts");
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        for id in [1, 2, 3, 4] {
            let _ = tx.send(answer(&mut lines, id));
        }
    });
    let mut send = |text: String| {
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    send(json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}).to_string());
    let wait = |what: &str| {
        rx.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| panic!("no answer to {what}"))
    };
    assert!(wait("initialize")["result"]["serverInfo"]["name"] == "codemode");
    send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}).to_string());
    // 40 MB of code: over the 16 MiB cap, answered all the same.
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"execute","arguments":{{"code":"{}"}}}}}}"#,
        "x".repeat(40_000_000)
    );
    send(huge);
    let error = wait("the 40 MB request");
    assert_eq!(error["error"]["code"], -32600, "{error}");
    assert!(error["error"]["message"].as_str().unwrap_or("").contains("16 MiB"), "{error}");
    // Nested 10,000 levels: past the decoder's depth limit, answered all the same.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"execute","arguments":{{"code":{}1{}}}}}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    send(deep);
    let error = wait("the deep request");
    assert_eq!(error["error"]["code"], -32700, "{error}");
    assert!(error["error"]["message"].as_str().unwrap_or("").contains("recursion limit"), "{error}");
    // And the session goes on.
    send(json!({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"execute","arguments":{"code":"return 1 + 1"}}}).to_string());
    let ok = wait("a good request after the bad ones");
    assert_eq!(ok["result"]["structuredContent"]["value"], 2, "{ok}");
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
}
