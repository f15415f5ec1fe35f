//! The MCP client against a real rmcp server served over streamable HTTP in this process: tool
//! lists over several pages, name mapping, `structuredContent`, text and `isError` answers,
//! cancellation of calls a run leaves behind, and `notifications/tools/list_changed`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode::Limits;
use codemode_mcp::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, JsonObject, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use codemode_mcp::rmcp::service::RequestContext;
use codemode_mcp::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use codemode_mcp::rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService,
};
use codemode_mcp::rmcp::{ErrorData, RoleServer, ServerHandler};
use codemode_mcp::{Hub, HubOptions, Source};
use serde_json::{Value, json};

#[derive(Clone, Default)]
struct State {
    cancelled: Arc<AtomicUsize>,
    grown: Arc<AtomicBool>,
    list_calls: Arc<AtomicUsize>,
}

#[derive(Clone)]
struct TestServer(State);

fn schema(value: Value) -> Arc<JsonObject> {
    Arc::new(value.as_object().cloned().unwrap())
}

fn tool(name: &str, description: &str, input: Value) -> Tool {
    Tool::new(name.to_owned(), description.to_owned(), schema(input))
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build())
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.0.list_calls.fetch_add(1, Ordering::SeqCst);
        let number = json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]});
        let empty = json!({"type": "object", "properties": {}});
        let cursor = request.and_then(|r| r.cursor);
        let (tools, next) = match cursor.as_deref() {
            None => (
                vec![tool("add", "Add two numbers", number), tool("slow-op", "Never answers", empty.clone())],
                Some("p2"),
            ),
            Some("p2") => (
                vec![
                    tool("structured", "Structured answer", empty.clone()),
                    tool("fails", "Always fails", empty.clone()),
                ],
                Some("p3"),
            ),
            Some("p3") => {
                let mut tools = vec![
                    tool("grow", "Adds a tool", empty.clone()),
                    tool("text.json", "JSON text", empty.clone()),
                    tool("whoami", "The Authorization header", empty.clone()),
                ];
                if self.0.grown.load(Ordering::SeqCst) {
                    tools.push(tool("added", "Appears after grow", empty));
                }
                (tools, None)
            }
            Some(other) => return Err(ErrorData::invalid_params(format!("bad cursor {other}"), None)),
        };
        let mut result = ListToolsResult::with_all_items(tools);
        result.next_cursor = next.map(str::to_owned);
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let result = match request.name.as_ref() {
            "add" => {
                let sum = args.get("a").and_then(Value::as_f64).unwrap_or(0.0)
                    + args.get("b").and_then(Value::as_f64).unwrap_or(0.0);
                let mut result = CallToolResult::success(vec![ContentBlock::text(format!("{sum}"))]);
                result.structured_content = Some(json!({ "sum": sum }));
                result
            }
            "structured" => {
                let mut result = CallToolResult::success(vec![ContentBlock::text("see structured")]);
                result.structured_content = Some(json!({ "nested": [1, 2] }));
                result
            }
            "text.json" => CallToolResult::success(vec![ContentBlock::text(r#"{"parsed": true}"#)]),
            "fails" => CallToolResult::error(vec![ContentBlock::text("the backend said no")]),
            "slow-op" => {
                tokio::select! {
                    () = context.ct.cancelled() => { self.0.cancelled.fetch_add(1, Ordering::SeqCst); }
                    () = tokio::time::sleep(Duration::from_secs(30)) => {}
                }
                CallToolResult::success(vec![ContentBlock::text("late")])
            }
            "grow" => {
                self.0.grown.store(true, Ordering::SeqCst);
                let _ = context.peer.notify_tool_list_changed().await;
                CallToolResult::success(vec![ContentBlock::text("grown")])
            }
            "added" => CallToolResult::success(vec![ContentBlock::text("new tool here")]),
            "whoami" => {
                let auth = context
                    .extensions
                    .get::<hyper::http::request::Parts>()
                    .and_then(|parts| parts.headers.get("authorization"))
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("nobody")
                    .to_owned();
                let mut result = CallToolResult::success(vec![]);
                result.structured_content = Some(json!({ "authorization": auth }));
                result
            }
            other => return Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        };
        Ok(result.into())
    }
}

/// Serves a [`TestServer`] over streamable HTTP; returns its URL.
async fn serve(state: State) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let service = Arc::new(StreamableHttpService::new(
        move || Ok(TestServer(state.clone())),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    ));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = Arc::clone(&service);
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request| {
                    let service = Arc::clone(&service);
                    async move { Ok::<_, Infallible>(service.handle(request).await) }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, handler).await;
            });
        }
    });
    url
}

async fn hub(state: &State, limits: Limits) -> Hub {
    let url = serve(state.clone()).await;
    let options = HubOptions { limits, ..HubOptions::default() };
    Hub::connect(&[Source::url(&format!("t={url}")).unwrap()], options).await.expect("connects")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_is_listed_and_names_are_mapped() {
    let state = State::default();
    let hub = hub(&state, Limits::default()).await;
    assert_eq!(hub.namespaces(), ["t"]);
    let declarations = hub.declarations().await.unwrap();
    for name in
        ["add(input: {", "slow_op(): Promise<unknown>;", "structured()", "fails()", "grow()", "text_json()"]
    {
        assert!(declarations.contains(name), "{name} missing from\n{declarations}");
    }
    assert_eq!(state.list_calls.load(Ordering::SeqCst), 3, "three pages, listed once");
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_become_values_or_tool_failures() {
    let state = State::default();
    let hub = hub(&state, Limits::default()).await;
    let runtime = hub.runtime(None).await.unwrap();
    let result = runtime
        .execute(
            r#"
            const [sum, structured, parsed] = await Promise.all([
              tools.t.add({ a: 2, b: 40 }), tools.t.structured(), tools.t.text_json(),
            ]);
            let failure;
            try { await tools.t.fails(); } catch (e) { failure = e.message; }
            return { sum, structured, parsed, failure };
            "#,
        )
        .await;
    assert!(result.ok, "{result:?}");
    let value = result.value.unwrap();
    assert_eq!(value["sum"], json!({ "sum": 42 }));
    assert_eq!(value["structured"], json!({ "nested": [1, 2] }));
    assert_eq!(value["parsed"], json!({ "parsed": true }));
    assert!(value["failure"].as_str().unwrap().contains("the backend said no"), "{value}");
    // Arguments that are not an object never reach the server.
    let result = runtime.execute("return await tools.t.add(5);").await;
    assert_eq!(result.error.map(|e| e.kind), Some(codemode::DiagnosticKind::InvalidToolInput));
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_times_out_cancels_its_upstream_calls() {
    let state = State::default();
    let hub = hub(&state, Limits::default().timeout(Duration::from_millis(400))).await;
    let runtime = hub.runtime(None).await.unwrap();
    let result = runtime.execute("return await Promise.all([tools.t.slow_op(), tools.t.slow_op()]);").await;
    assert_eq!(result.error.map(|e| e.kind), Some(codemode::DiagnosticKind::TimeoutExceeded));
    let deadline = Instant::now() + Duration::from_secs(5);
    while state.cancelled.load(Ordering::SeqCst) < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        state.cancelled.load(Ordering::SeqCst),
        2,
        "the server saw notifications/cancelled for both calls"
    );
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_tool_list_is_listed_again() {
    let state = State::default();
    let hub = hub(&state, Limits::default()).await;
    let runtime = hub.runtime(None).await.unwrap();
    let before = runtime.execute("return await tools.t.added();").await;
    assert_eq!(before.error.map(|e| e.kind), Some(codemode::DiagnosticKind::UnknownTool));
    let grown = runtime.execute("return await tools.t.grow();").await;
    assert!(grown.ok, "{grown:?}");
    // The notification arrives asynchronously.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut after = None;
    while Instant::now() < deadline {
        let runtime = hub.runtime(None).await.unwrap();
        if runtime.tools().get("t.added").is_some() {
            after = Some(runtime.execute("return await tools.t.added();").await);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let after = after.expect("the new tool appears");
    assert_eq!(after.value, Some(json!("new tool here")));
    hub.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_url_is_a_clear_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    drop(listener);
    let error = Hub::connect(&[Source::url(&url).unwrap()], HubOptions::default()).await.err().unwrap();
    assert!(error.contains(&format!("MCP server at {url} failed to initialize")), "{error}");
}

/// A host that cancels its `execute` request (here: drops it, which makes rmcp send
/// `notifications/cancelled`) ends the run, and the run's upstream calls are cancelled too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_execute_cancels_its_upstream_calls() {
    use codemode_mcp::rmcp::ServiceExt as _;
    use codemode_mcp::{CodeModeServer, ServerOptions};

    let state = State::default();
    let hub = Arc::new(hub(&state, Limits::default()).await);
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = CodeModeServer::new(Arc::clone(&hub), ServerOptions::default());
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_io).await.expect("MCP session");
    let params = CallToolRequestParams::new("execute")
        .with_arguments(json!({ "code": "return await tools.t.slow_op();" }).as_object().cloned().unwrap());
    let abandoned = tokio::time::timeout(Duration::from_millis(500), client.call_tool(params)).await;
    assert!(abandoned.is_err(), "slow_op never answers");
    let deadline = Instant::now() + Duration::from_secs(5);
    while state.cancelled.load(Ordering::SeqCst) < 1 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(state.cancelled.load(Ordering::SeqCst), 1, "the upstream call was cancelled");
    // The session still works.
    let params = CallToolRequestParams::new("execute").with_arguments(
        json!({ "code": "return await tools.t.add({ a: 1, b: 2 });" }).as_object().cloned().unwrap(),
    );
    let result = client.call_tool(params).await.expect("execute answers");
    assert_eq!(result.structured_content.map(|v| v["value"].clone()), Some(json!({ "sum": 3 })));
    client.cancel().await.ok();
    hub.close().await;
}

#[derive(Clone, Default)]
struct Host {
    list_changed: Arc<AtomicUsize>,
}

impl codemode_mcp::rmcp::ClientHandler for Host {
    async fn on_tool_list_changed(
        &self,
        _context: codemode_mcp::rmcp::service::NotificationContext<codemode_mcp::rmcp::RoleClient>,
    ) {
        self.list_changed.fetch_add(1, Ordering::SeqCst);
    }
}

/// An upstream's `list_changed` is passed on to the host, and `execute`'s description then
/// declares the new tool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_upstream_list_is_announced_to_the_host() {
    use codemode_mcp::rmcp::ServiceExt as _;
    use codemode_mcp::{CodeModeServer, ServerOptions};

    let state = State::default();
    let hub = Arc::new(hub(&state, Limits::default()).await);
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let server = CodeModeServer::new(Arc::clone(&hub), ServerOptions::default());
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let host = Host::default();
    let client = host.clone().serve(client_io).await.expect("MCP session");
    let description = |tools: &[Tool]| tools[1].description.as_deref().unwrap_or("").to_owned();
    let before = client.list_all_tools().await.unwrap();
    assert!(!description(&before).contains("added()"), "{}", description(&before));
    let params = CallToolRequestParams::new("execute")
        .with_arguments(json!({ "code": "return await tools.t.grow();" }).as_object().cloned().unwrap());
    client.call_tool(params).await.expect("execute answers");
    let deadline = Instant::now() + Duration::from_secs(5);
    while host.list_changed.load(Ordering::SeqCst) < 1 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(host.list_changed.load(Ordering::SeqCst), 1, "the host heard of the change");
    let after = client.list_all_tools().await.unwrap();
    assert!(description(&after).contains("added(): Promise<unknown>;"), "{}", description(&after));
    client.cancel().await.ok();
    hub.close().await;
}

/// Headers given to an `--upstream-url` source go with every request to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn url_sources_send_their_headers() {
    let url = serve(State::default()).await;
    let mut source = Source::url(&format!("t={url}")).unwrap();
    source.add_header("Authorization", "Bearer s3cret").unwrap();
    let hub = Hub::connect(&[source], HubOptions::default()).await.expect("connects");
    let result = hub.runtime(None).await.unwrap().execute("return await tools.t.whoami();").await;
    assert_eq!(result.value, Some(json!({ "authorization": "Bearer s3cret" })), "{result:?}");
    hub.close().await;
}
