//! HTTP upstreams against a real process (`tests/mcp/stubs/unruly_http.mjs`, plain node, no
//! packages): answers that cannot be used fail their calls at once (JSON bodies and SSE events
//! with `1e400`, unknown ids, bodies that are not JSON, a wrong content type); servers that
//! require a token get it from a token file (read again after a 401, so a rotated token is
//! picked up) or through OAuth client credentials discovered from the 401 challenge; a server
//! that refuses codemode's credentials gets a diagnostic naming it and what to pass; audio
//! content reaches the program as a typed value. Skips (saying so) when node is missing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The stub server, started with `args`; killed when dropped.
struct Stub {
    child: Child,
    url: String,
    /// What it printed on standard error so far.
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Drop for Stub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn stub(args: &[&str]) -> Option<Stub> {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("SKIPPED: node is not installed");
        return None;
    }
    let mut child = Command::new("node")
        .arg(root().join("tests/mcp/stubs/unruly_http.mjs"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line.trim().strip_prefix("listening ").expect("the stub prints its port").to_owned();
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let lines = log.clone();
    std::thread::spawn(move || {
        for line in stderr.lines() {
            let Ok(line) = line else { break };
            eprintln!("{line}");
            lines.lock().unwrap().push(line);
        }
    });
    Some(Stub { child, url: format!("http://127.0.0.1:{port}/mcp"), log })
}

/// `codemode run` of `program` with `args`: the JSON result and standard error.
fn run(program: &str, args: &[&str]) -> (Value, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "-", "--json"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codemode starts");
    child.stdin.take().unwrap().write_all(program.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let result = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (result, stderr)
}

const OUTCOMES: &str = r#"
    const outcome = async (name) => {
      try { return { value: await tools.unruly[name]({}) }; }
      catch (e) { return { error: e.message }; }
    };
    const r = {};
    for (const name of NAMES) r[name] = await outcome(name);
    return r;
"#;

fn outcomes(names: &[&str]) -> String {
    format!("const NAMES = {};\n{OUTCOMES}", serde_json::to_string(names).unwrap())
}

#[test]
fn undecodable_http_answers_fail_their_calls_at_once() {
    let Some(server) = stub(&[]) else { return };
    let names = [
        "huge_number",
        "ok",
        "huge_number_sse",
        "wrong_id",
        "wrong_id_sse",
        "garbage",
        "garbage_sse",
        "wrong_type",
        "huge_body",
        "needs_scope",
        "ok_sse",
        "silent",
        "ok",
    ];
    let started = Instant::now();
    let source = format!("unruly={}", server.url);
    let (result, stderr) = run(
        &outcomes(&names),
        &["--call-timeout-ms", "5000", "--restart-delay-ms", "60000", "--upstream-url", &source],
    );
    assert_eq!(result["ok"], true, "{result}\n{stderr}");
    let r = &result["value"];
    let error = |name: &str| r[name]["error"].as_str().unwrap_or_default().to_owned();
    for name in ["huge_number", "huge_number_sse"] {
        assert!(
            error(name).contains(&format!("answered '{name}', but its answer could not be used"))
                && error(name).contains("number out of range"),
            "{name}: {r}"
        );
    }
    for name in ["wrong_id", "wrong_id_sse"] {
        assert!(error(name).contains("which no request had"), "{name}: {r}");
    }
    for name in ["garbage", "garbage_sse"] {
        assert!(error(name).contains("its answer could not be used"), "{name}: {r}");
    }
    assert!(error("wrong_type").contains("text/html, not JSON or an event stream"), "{r}");
    assert!(error("huge_body").contains("over the 16 MiB limit of one message"), "{r}");
    assert!(error("needs_scope").contains("refused the request for lack of scope (HTTP 403"), "{r}");
    assert!(error("needs_scope").contains("it needs the scope admin"), "{r}");
    assert!(error("silent").contains("did not answer 'silent' within 5000ms"), "{r}");
    assert_eq!(r["ok"]["value"], "fine", "{r}");
    assert_eq!(r["ok_sse"]["value"], "fine over sse", "{r}");
    // Only the silent call waited for its deadline (5 s); the others failed at once: one more
    // deadline would make the whole run take 10 s. (Measured from outside: `Date.now()` is
    // fixed for a whole run.) The connection was not taken for lost: the calls after them
    // went through.
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_millis(9_500), "took {elapsed:?}: {r}");
    assert!(!stderr.contains("restarting"), "{stderr}");
}

#[test]
fn a_server_that_wants_a_token_says_what_to_pass() {
    let Some(server) = stub(&["--token", "s3cret"]) else { return };
    let source = format!("unruly={}", server.url);
    let (result, stderr) = run("return 1", &["--connect-timeout-ms", "20000", "--upstream-url", &source]);
    assert_eq!(result, Value::Null, "{stderr}");
    for part in [
        "requires authorization (HTTP 401, WWW-Authenticate: Bearer error=\"invalid_token\", resource_metadata=",
        "codemode sent no credentials of its own",
        "--header 'unruly=Authorization: Bearer ${TOKEN}'",
        "--upstream-token-file 'unruly=PATH'",
        "--upstream-oauth 'unruly=client_id=ID,client_secret=${SECRET}'",
    ] {
        assert!(stderr.contains(part), "missing {part:?} in {stderr}");
    }
    // A wrong token given with --header is named as that.
    let (result, stderr) =
        run("return 1", &["--upstream-url", &source, "--header", "unruly=Authorization: Bearer wrong"]);
    assert_eq!(result, Value::Null, "{stderr}");
    assert!(stderr.contains("the Authorization header given with --header was refused"), "{stderr}");
    // The right one works.
    let (result, stderr) = run(
        "return await tools.unruly.ok({})",
        &["--upstream-url", &source, "--header", "unruly=Authorization: Bearer s3cret"],
    );
    assert_eq!(result["value"], "fine", "{result}\n{stderr}");
}

#[test]
fn a_missing_token_file_is_named() {
    let Some(server) = stub(&["--token", "s3cret"]) else { return };
    let source = format!("unruly={}", server.url);
    let missing = std::env::temp_dir().join("codemode-no-such-token-file");
    let token_file = format!("unruly={}", missing.display());
    let (result, stderr) =
        run("return 1", &["--upstream-url", &source, "--upstream-token-file", &token_file]);
    assert_eq!(result, Value::Null, "{stderr}");
    assert!(
        stderr.contains("codemode could not get credentials for the MCP server at http://127.0.0.1:"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("the token file {} cannot be read", missing.display())), "{stderr}");
}

#[test]
fn a_token_file_is_read_again_when_the_server_refuses_the_token() {
    // The first token is accepted for 5 requests (initialize, initialized, tools/list and the
    // program's first two calls), then refused the way an expired one is. While the second
    // call (`slow`, one second) runs, the token file is rewritten with the next token, as a
    // process renewing it would: the third call is refused, codemode reads the file again
    // and sends it again with the new token.
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("SKIPPED: node is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("codemode-token-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("token");
    std::fs::write(&file, "first\n").unwrap();
    let mut child = Command::new("node")
        .arg(root().join("tests/mcp/stubs/unruly_http.mjs"))
        .args(["--token", "first", "--expire-after", "5", "--next-token", "second"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line.trim().strip_prefix("listening ").expect("the stub prints its port").to_owned();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let server = Stub { child, url: format!("http://127.0.0.1:{port}/mcp"), log: Default::default() };
    let watcher = {
        let file = file.clone();
        std::thread::spawn(move || {
            for line in stderr.lines() {
                let Ok(line) = line else { break };
                if line.contains("authenticated request 4") {
                    std::fs::write(&file, "second\n").unwrap();
                }
            }
        })
    };
    let source = format!("unruly={}", server.url);
    let token_file = format!("unruly={}", file.display());
    let program = r#"
        const first = await tools.unruly.ok({});
        await tools.unruly.slow({});
        const third = await tools.unruly.ok_sse({});
        return { first, third };
    "#;
    let (result, stderr) = run(program, &["--upstream-url", &source, "--upstream-token-file", &token_file]);
    drop(server);
    let _ = watcher.join();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(result["ok"], true, "{result}\n{stderr}");
    assert_eq!(result["value"], serde_json::json!({ "first": "fine", "third": "fine over sse" }), "{result}");
}

#[test]
fn oauth_client_credentials_are_discovered_fetched_and_renewed() {
    // Tokens live 30 s, codemode's renewal margin: every request after the first token renews
    // it, with the refresh token the server gave.
    let Some(server) = stub(&["--oauth", "agent:pa ss", "--ttl", "30"]) else { return };
    let source = format!("unruly={}", server.url);
    let program = "return [await tools.unruly.ok({}), await tools.unruly.ok_sse({})]";
    let (result, stderr) = run(
        program,
        &[
            "--upstream-url",
            &source,
            "--upstream-oauth",
            "unruly=client_id=agent,client_secret=${CM_TEST_SECRET}",
        ],
    );
    // `${CM_TEST_SECRET}` is not set: a usage error naming it.
    assert_eq!(result, Value::Null);
    assert!(stderr.contains("CM_TEST_SECRET is not set"), "{stderr}");

    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "-", "--json", "--upstream-url", &source])
        .args(["--upstream-oauth", "unruly=client_id=agent,client_secret=${CM_TEST_SECRET},scope=tools"])
        .env("CM_TEST_SECRET", "pa ss")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(program.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let result: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(result["ok"], true, "{result}\n{stderr}");
    assert_eq!(result["value"], serde_json::json!(["fine", "fine over sse"]), "{result}");
    let log = server.log.lock().unwrap().join("\n");
    assert!(log.contains("issued access-1 (client_credentials, scope tools)"), "{log}");
    assert!(log.contains("(refresh_token, scope -)"), "{log}");

    // A wrong secret: the token endpoint's refusal is in the diagnostic.
    let (result, stderr) = run(
        "return 1",
        &["--upstream-url", &source, "--upstream-oauth", "unruly=client_id=agent,client_secret=wrong"],
    );
    assert_eq!(result, Value::Null, "{stderr}");
    assert!(stderr.contains("refused the request (HTTP 401 Unauthorized: invalid_client"), "{stderr}");
    assert!(stderr.contains("requires authorization"), "{stderr}");
}

#[test]
fn audio_from_an_http_upstream_is_a_typed_value() {
    let Some(server) = stub(&[]) else { return };
    let source = format!("unruly={}", server.url);
    let program = "const r = await tools.unruly.audio({}); return r";
    let (result, stderr) = run(program, &["--upstream-url", &source]);
    assert_eq!(result["ok"], true, "{result}\n{stderr}");
    let text = result["value"].to_string();
    assert!(text.contains("audio/wav"), "{result}");
}
