//! `codemode mcp` as a shared server: one output budget for everything the model receives,
//! `execute`'s answer carrying the result once, runs that stop when cancelled, CPU-bound runs
//! that share the machine, and the bound on concurrent runs. Real processes: the `codemode`
//! binary over stdio, driven by rmcp's client, over the built-in demo tools (no node needed).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_mcp::rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig, ProtocolVersion};
use codemode_mcp::rmcp::service::RunningService;
use codemode_mcp::rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

type Session = RunningService<RoleClient, ClientConfig>;

/// `codemode mcp ARGS` as a child process (its pid for CPU readings) and a session to it.
async fn start(args: &[&str], version: Option<ProtocolVersion>) -> (Session, u32, tokio::process::Child) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_codemode"))
        .arg("mcp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("codemode mcp starts");
    let pid = child.id().expect("pid");
    let stdout = child.stdout.take().unwrap();
    let stdin = child.stdin.take().unwrap();
    let mut config = ClientConfig::default();
    if let Some(version) = version {
        config = config.with_protocol_version(version);
    }
    let session = config.serve((stdout, stdin)).await.expect("MCP session");
    (session, pid, child)
}

fn params(code: &str) -> CallToolRequestParams {
    CallToolRequestParams::new("execute")
        .with_arguments(json!({ "code": code }).as_object().cloned().unwrap())
}

async fn execute(session: &Session, code: &str) -> CallToolResult {
    session.call_tool(params(code)).await.expect("execute answers")
}

fn text(result: &CallToolResult) -> String {
    result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default()
}

/// CPU time (user + system) the process has used, in clock ticks, from `/proc`.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Ticks per second of CPU the process used over `window`.
async fn cpu_rate(pid: u32, window: Duration) -> Option<f64> {
    let before = cpu_ticks(pid)?;
    tokio::time::sleep(window).await;
    let after = cpu_ticks(pid)?;
    Some((after - before) as f64 / window.as_secs_f64())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_thousand_calls_under_a_one_kilobyte_budget_answer_in_two_kilobytes() {
    let (session, _, _child) = start(&["--demo", "--max-output-bytes", "1000"], None).await;
    let result = execute(
        &session,
        r#"
        let n = 0;
        for (let batch = 0; batch < 20; batch++) {
          const ids = Array.from({ length: 1000 }, (_, i) => batch * 1000 + i);
          const echoed = await Promise.all(ids.map((i) => tools.demo.echo(i)));
          n += echoed.length;
        }
        try { await tools.demo.fail({ message: "one failure" }); } catch (e) {}
        console.log("all done");
        return { n };
        "#,
    )
    .await;
    // The whole answer, as it went over the wire.
    let wire = serde_json::to_string(&result).unwrap();
    assert!(wire.len() <= 2048, "{} bytes: {wire}", wire.len());
    let value = result.structured_content.clone().expect("structured content");
    assert_eq!(value["ok"], true, "{value}");
    assert_eq!(value["value"], json!({ "n": 20000 }));
    assert_eq!(value["logs"], json!(["all done"]));
    assert_eq!(value["truncated"], true);
    let calls = value["toolCalls"].as_array().unwrap();
    assert_eq!(calls.first().unwrap()["id"], 1);
    assert_eq!(calls.last().unwrap(), &json!({ "id": 20001, "path": "demo.fail", "status": "error" }));
    let summary = &value["toolCallSummary"];
    assert_eq!(summary["total"], 20001, "{summary}");
    assert_eq!(summary["shown"], calls.len(), "{summary}");
    assert_eq!(
        summary["byPath"],
        json!([{ "path": "demo.echo", "ok": 20000 }, { "path": "demo.fail", "error": 1 }]),
        "{summary}"
    );
    // The result is carried once: the text is a one-line summary, not the JSON again.
    let text = text(&result);
    assert!(text.starts_with("The program finished"), "{text}");
    assert!(text.contains("20001 tool calls, 1 not ok"), "{text}");
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
    session.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_structured_content_gets_the_json_as_text_only() {
    let (session, _, _child) = start(&["--demo"], Some(ProtocolVersion::V_2025_03_26)).await;
    let result = execute(&session, "return await tools.demo.echo({ hello: 'old client' });").await;
    assert!(result.structured_content.is_none(), "{result:?}");
    assert_eq!(result.content.len(), 1);
    let value: Value = serde_json::from_str(&text(&result)).expect("the text is the result JSON");
    assert_eq!(value["value"], json!({ "hello": "old client" }));
    assert_eq!(value["toolCalls"], json!([{ "id": 1, "path": "demo.echo", "status": "ok" }]));
    // A failed run is an error result with the same single block.
    let failed = execute(&session, "throw new Error('nope')").await;
    assert_eq!(failed.is_error, Some(true));
    let value: Value = serde_json::from_str(&text(&failed)).unwrap();
    assert_eq!(value["error"]["kind"], "ExecutionFailure");
    session.cancel().await.ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_busy_run_stops_using_the_cpu() {
    if cpu_ticks(std::process::id()).is_none() {
        eprintln!("SKIPPED: no /proc to read CPU use from");
        return;
    }
    let (session, pid, _child) = start(&["--demo", "--timeout-ms", "600000"], None).await;
    let session = Arc::new(session);
    let busy = {
        let session = Arc::clone(&session);
        tokio::spawn(async move { session.call_tool(params("let n = 0; for (;;) n++;")).await })
    };
    // It burns CPU (generous: a shared machine may give it far less than a core).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let running = cpu_rate(pid, Duration::from_secs(1)).await.expect("/proc readable");
    assert!(running > 30.0, "the busy run used only {running} ticks/s");
    // Dropping rmcp's call sends `notifications/cancelled` for it.
    busy.abort();
    let _ = busy.await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = cpu_rate(pid, Duration::from_secs(1)).await.expect("/proc readable");
    assert!(after < 10.0, "still {after} ticks/s after the cancellation (was {running})");
    // And the server goes on serving.
    let result = execute(&session, "return 6 * 7").await;
    assert_eq!(result.structured_content.unwrap()["value"], 42);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_run_answers_while_eight_busy_runs_go_on() {
    let (session, _, _child) = start(&["--demo", "--timeout-ms", "120000"], None).await;
    let session = Arc::new(session);
    let mut busy = Vec::new();
    for _ in 0..8 {
        let session = Arc::clone(&session);
        busy.push(tokio::spawn(async move { session.call_tool(params("let n = 0; for (;;) n++;")).await }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let started = Instant::now();
    let quick = tokio::time::timeout(
        Duration::from_secs(20),
        execute(&session, "return await tools.demo.echo('quick')"),
    )
    .await
    .expect("the quick run answers while the busy ones go on");
    let took = started.elapsed();
    assert_eq!(quick.structured_content.unwrap()["value"], "quick");
    // The busy runs are still going (they have two minutes).
    assert!(busy.iter().all(|b| !b.is_finished()), "a busy run ended after {took:?}");
    for b in &busy {
        b.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_past_the_bound_are_refused_as_busy_and_mcp_runs_have_a_default_time_limit() {
    let (session, _, _child) = start(&["--demo", "--max-concurrent-runs", "2"], None).await;
    let tools = session.list_all_tools().await.unwrap();
    let description = tools[1].description.as_deref().unwrap_or("");
    assert!(description.contains("Limits: 60000ms"), "{description}");
    let session = Arc::new(session);
    let mut busy = Vec::new();
    for _ in 0..2 {
        let session = Arc::clone(&session);
        busy.push(tokio::spawn(async move { session.call_tool(params("for (;;) {}")).await }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let refused = execute(&session, "return 1").await;
    assert_eq!(refused.is_error, Some(true));
    assert_eq!(refused.structured_content.as_ref().unwrap()["error"]["kind"], "Busy", "{refused:?}");
    assert!(text(&refused).contains("2 programs are already running"), "{}", text(&refused));
    // Once one is cancelled, a run is admitted again.
    busy[0].abort();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let admitted = execute(&session, "return 1").await;
    assert_eq!(admitted.structured_content.unwrap()["value"], 1);
    busy[1].abort();
}
