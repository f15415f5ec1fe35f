//! `codemode mcp --http` with authentication, against the official TypeScript SDK's client
//! (`tests/mcp/http_client.mjs`) and raw HTTP: a bearer token from the environment, `401` without
//! it, `403` for a foreign `Origin`, and no start on a non-loopback address without a token.
//! The SDK tests skip (saying so) when node or the npm packages are missing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead as _, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sdk() -> bool {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("SKIPPED: node is not installed");
        return false;
    }
    if !root().join("tests/mcp/node_modules/@modelcontextprotocol/sdk").exists() {
        eprintln!("SKIPPED: run `npm ci` in tests/mcp for the TypeScript SDK");
        return false;
    }
    true
}

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `codemode mcp --http 127.0.0.1:0 ARGS` with `TOKEN` in its environment; its URL.
fn serve(args: &[&str]) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["mcp", "--http", "127.0.0.1:0", "--demo"])
        .args(args)
        .env("CODEMODE_TEST_TOKEN", "s3cret-token")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codemode mcp --http starts");
    let stderr = child.stderr.take().unwrap();
    let server = Server(child);
    let mut lines = std::io::BufReader::new(stderr).lines();
    let url = loop {
        let line = lines.next().expect("codemode says where it listens").unwrap();
        if let Some(rest) = line.split("serving MCP on ").nth(1) {
            break rest.trim().to_owned();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    (server, url)
}

fn ts_client(url: &str, token: Option<&str>) -> Value {
    ts_run(url, token, "return await tools.demo.echo({ hi: 'over http' })")
}

fn ts_run(url: &str, token: Option<&str>, program: &str) -> Value {
    let out = Command::new("node")
        .arg(root().join("tests/mcp/http_client.mjs"))
        .arg(url)
        .arg(program)
        .args(token)
        .current_dir(root())
        .stderr(Stdio::inherit())
        .output()
        .expect("node runs");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("http_client.mjs: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn the_typescript_sdk_needs_the_bearer_token() {
    if !sdk() {
        return;
    }
    let (_server, url) = serve(&["--http-token-env", "CODEMODE_TEST_TOKEN"]);
    let with = ts_client(&url, Some("s3cret-token"));
    assert_eq!(with["tools"], json!(["search", "execute"]), "{with}");
    assert_eq!(with["result"]["structuredContent"]["value"], json!({ "hi": "over http" }), "{with}");
    let without = ts_client(&url, None);
    assert_eq!(without["code"], 401, "{without}");
    assert!(without["error"].as_str().unwrap_or("").contains("Unauthorized"), "{without}");
    // A run that takes a while is not mistaken for a client that went away.
    let slow =
        ts_run(&url, Some("s3cret-token"), "return await tools.demo.sleep({ ms: 1500, value: 'slept' })");
    assert_eq!(slow["result"]["structuredContent"]["value"], "slept", "{slow}");
    let wrong = ts_client(&url, Some("s3cret-tokeN"));
    assert_eq!(wrong["code"], 401, "{wrong}");
}

/// One raw HTTP/1.1 POST of an `initialize` request; the status code.
fn post(url: &str, headers: &[(&str, &str)]) -> u16 {
    let authority = url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
    let mut stream = std::net::TcpStream::connect(&authority).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let body = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}).to_string();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).unwrap();
    String::from_utf8_lossy(&head[9..12]).parse().unwrap()
}

#[test]
fn foreign_origins_and_missing_tokens_are_refused_over_raw_http() {
    let (_server, url) =
        serve(&["--http-token-env", "CODEMODE_TEST_TOKEN", "--allow-origin", "https://app.example.com:443"]);
    let auth = ("Authorization", "Bearer s3cret-token");
    assert_eq!(post(&url, &[auth]), 200);
    assert_eq!(post(&url, &[]), 401);
    assert_eq!(post(&url, &[("Authorization", "Basic czNjcmV0LXRva2Vu")]), 401);
    assert_eq!(post(&url, &[auth, ("Origin", "https://evil.example.com")]), 403);
    assert_eq!(post(&url, &[auth, ("Origin", "http://localhost:5173")]), 200);
    assert_eq!(post(&url, &[auth, ("Origin", "https://app.example.com")]), 200);
}

#[test]
fn a_non_loopback_address_needs_a_token() {
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["mcp", "--http", "0.0.0.0:0", "--demo"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("refusing to serve MCP on 0.0.0.0:0 without authentication"), "{stderr}");
    // An empty token is no token.
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["mcp", "--http", "0.0.0.0:0", "--demo", "--http-token-env", "CODEMODE_EMPTY"])
        .env("CODEMODE_EMPTY", "  ")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is empty"));
}

#[test]
fn a_token_file_protects_a_server_on_every_interface() {
    let dir = std::env::temp_dir().join(format!("codemode-token-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("token");
    std::fs::write(&file, "file-token\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["mcp", "--http", "0.0.0.0:0", "--demo", "--http-token-file"])
        .arg(&file)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let _server = Server(child);
    // Other lines (which model search uses) may come first.
    let line = std::io::BufReader::new(stderr)
        .lines()
        .map(Result::unwrap)
        .find(|line| line.contains("serving MCP on"))
        .unwrap();
    let port = line.rsplit(':').next().unwrap().trim_end_matches("/mcp").to_owned();
    let url = format!("http://127.0.0.1:{port}/mcp");
    assert_eq!(post(&url, &[]), 401);
    assert_eq!(post(&url, &[("Authorization", "Bearer file-token")]), 200);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reads an HTTP response head (status line and headers) from `stream`.
fn read_head(stream: &mut std::net::TcpStream) -> (u16, Vec<(String, String)>) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).unwrap_or(0) == 0 {
            break;
        }
        head.push(byte[0]);
    }
    let text = String::from_utf8_lossy(&head).into_owned();
    let mut lines = text.split("\r\n");
    let status = lines.next().unwrap_or("").split(' ').nth(1).unwrap_or("0").parse().unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (status, headers)
}

/// Sends one JSON-RPC POST on a fresh connection; the connection (response head read) back.
fn send(url: &str, session: Option<&str>, body: &Value) -> (std::net::TcpStream, u16, Vec<(String, String)>) {
    let authority = url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
    let mut stream = std::net::TcpStream::connect(&authority).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let body = body.to_string();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nMCP-Protocol-Version: 2025-06-18\r\n",
        body.len()
    );
    if let Some(session) = session {
        request.push_str(&format!("Mcp-Session-Id: {session}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).unwrap();
    let (status, headers) = read_head(&mut stream);
    (stream, status, headers)
}

/// CPU time (user + system) of a process in clock ticks, from `/proc`.
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields.get(11).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0)
        + fields.get(12).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0)
}

fn cpu_rate(pid: u32) -> f64 {
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(1));
    (cpu_ticks(pid) - before) as f64
}

#[test]
fn a_busy_run_stops_when_its_http_client_goes_away() {
    if !Path::new("/proc/self/stat").exists() {
        eprintln!("SKIPPED: no /proc to read CPU use from");
        return;
    }
    let (server, url) = serve(&["--timeout-ms", "600000"]);
    let pid = server.0.id();
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}});
    let (_, status, headers) = send(&url, None, &init);
    assert_eq!(status, 200);
    let session = headers.iter().find(|(n, _)| n == "mcp-session-id").map(|(_, v)| v.clone());
    let (_, status, _) =
        send(&url, session.as_deref(), &json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
    assert_eq!(status, 202);
    let call = json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"execute","arguments":{"code":"let n = 0; for (;;) n++;"}}});
    let (stream, status, _) = send(&url, session.as_deref(), &call);
    assert_eq!(status, 200);
    std::thread::sleep(Duration::from_millis(300));
    let busy = cpu_rate(pid);
    // A busy run takes a core (100 ticks/s) on an idle machine, and a good share of one beside
    // other work (26 beside a build, CI at cbb80b6).
    assert!(busy > 15.0, "the run used only {busy} ticks/s");
    // The client goes away: its connection closes with the answer still streaming.
    drop(stream);
    std::thread::sleep(Duration::from_millis(300));
    let after = cpu_rate(pid);
    assert!(after < 10.0, "still {after} ticks/s after the client went away (was {busy})");
}

#[test]
fn a_request_body_over_the_cap_gets_413() {
    let (_server, url) = serve(&[]);
    let authority = url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
    let mut stream = std::net::TcpStream::connect(&authority).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let size = 17 * 1024 * 1024;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {size}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).unwrap();
    // The server may answer (and stop reading) before all of it is sent.
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..17 {
        if stream.write_all(&chunk).is_err() {
            break;
        }
    }
    let (status, _) = read_head(&mut stream);
    assert_eq!(status, 413);
}
