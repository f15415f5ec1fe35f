//! `codemode mcp`: an MCP server with two tools in front of every configured source.
//!
//! - `execute({ code })` runs a program against `tools.*`; its description carries the
//!   TypeScript declarations of the whole API, or, when they would be longer than
//!   [`ServerOptions::max_description_chars`], the namespaces and a pointer to `search`.
//!   The result is the run's JSON (`{ ok, value | error, logs, toolCalls }`) as structured
//!   content and as text; a failed run is an `isError` result. A request with a progress token
//!   gets one `notifications/progress` per finished tool call; a cancelled request ends its run
//!   (and cancels the run's upstream calls).
//! - `search({ query, namespace, limit, offset })` finds tools and their signatures.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use codemode::ExecResult;
use codemode::tools::{DeclarationOptions, Mode};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::hub::{CallObserver, Hub};

/// How the server presents itself.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Longest `execute` description; larger APIs are described by namespace and `search`.
    pub max_description_chars: usize,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self { max_description_chars: 16_000 }
    }
}

/// The MCP server over a [`Hub`]. Cheap to clone.
#[derive(Clone)]
pub struct CodeModeServer {
    hub: Arc<Hub>,
    options: ServerOptions,
}

impl std::fmt::Debug for CodeModeServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeModeServer").field("hub", &self.hub).finish()
    }
}

const EXECUTE_INTRO: &str = "Run one JavaScript/TypeScript program that calls the tools below as \
`await tools.<namespace>.<tool>(input)` (start independent calls together with `Promise.all`), \
combines their results and `return`s one JSON value. `console.log` output is captured. The result \
is `{ ok, value }` or `{ ok: false, error: { kind, message } }`, with `logs` and `toolCalls`. \
Prefer one program doing all the work over many small calls. No network, files or timers beyond \
the tools.";

/// The JSON Schema of `search`'s input (the program's `search` built-in takes the same).
fn search_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": { "type": "string", "description": "What you are looking for, in words" },
            "namespace": { "type": "string", "description": "Only tools under this namespace" },
            "limit": { "type": "integer", "minimum": 1 },
            "offset": { "type": "integer", "minimum": 0 }
        }
    })
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

impl CodeModeServer {
    pub fn new(hub: Arc<Hub>, options: ServerOptions) -> Self {
        Self { hub, options }
    }

    /// The hub it serves.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// The two tools, with the `execute` description for the current tool set.
    pub async fn tools(&self) -> Result<Vec<Tool>, String> {
        let runtime = self.hub.runtime(None).await?;
        let tools = runtime.tools();
        let limits = self.hub.limits();
        let mut description = EXECUTE_INTRO.to_owned();
        let mut bounds = Vec::new();
        if let Some(timeout) = limits.timeout {
            bounds.push(format!("{}ms", timeout.as_millis()));
        }
        if let Some(max) = limits.max_tool_calls {
            bounds.push(format!("at most {max} tool calls"));
        }
        if let Some(bytes) = limits.max_output_bytes {
            bounds.push(format!("at most {bytes} bytes of result and logs (more is cut)"));
        }
        if !bounds.is_empty() {
            description.push_str(&format!(" Limits: {}.", bounds.join(", ")));
        }
        // The whole API with its documentation when it fits, else without, else a map.
        let max = self.options.max_description_chars;
        let declarations = [Mode::Pretty, Mode::Compact]
            .into_iter()
            .map(|mode| tools.declarations(&DeclarationOptions::default().mode(mode).with_search(true)))
            .find(|d| description.len() + d.len() + 16 <= max);
        if let Some(declarations) = declarations {
            description.push_str("\n\n```ts\n");
            description.push_str(&declarations);
            description.push_str("```\n");
        } else {
            let count = tools.catalog().len();
            description.push_str(&format!(
                "\n\nThe API has {count} tools, too many to list here. Find the ones you need with the \
                 `search` tool (or `await search({{ query }})` inside the program), which returns their \
                 paths and TypeScript signatures. Namespaces:\n"
            ));
            for namespace in tools.namespaces() {
                if namespace.path.contains('.') {
                    continue;
                }
                let about = namespace.description.as_deref().unwrap_or("");
                let line = format!("- tools.{}: {about}\n", namespace.path);
                if description.len() + line.len() > max {
                    description.push_str("- …\n");
                    break;
                }
                description.push_str(&line);
            }
        }
        let code = json!({
            "type": "object",
            "properties": { "code": { "type": "string", "description": "The program (JavaScript or TypeScript)" } },
            "required": ["code"]
        });
        let execute = Tool::new("execute", description, object(code)).with_title("Run a code-mode program");
        let search = Tool::new(
            "search",
            "Find tools for `execute` programs by what they do: returns `{ items: [{ path, description, \
             signature }], remaining, next }`, best first. Use it when the `execute` description does not \
             list the API, or to narrow a large namespace.",
            object(search_input_schema()),
        )
        .with_title("Search the tools");
        Ok(vec![search, execute])
    }

    /// Runs `code`; with an observer, every finished tool call is reported.
    pub async fn execute(&self, code: &str, observer: Option<CallObserver>) -> Result<ExecResult, String> {
        let runtime = self.hub.runtime(observer).await?;
        Ok(runtime.execute(code).await)
    }

    /// Serves MCP over standard input and output until the client closes them.
    pub async fn serve_stdio(self) -> Result<(), String> {
        let hub = Arc::clone(&self.hub);
        let service = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("MCP session failed to start: {e}"))?;
        let outcome = service.waiting().await;
        hub.close().await;
        outcome.map(|_| ()).map_err(|e| format!("MCP session ended with an error: {e}"))
    }

    /// Serves MCP over streamable HTTP on `addr` (any path; `/mcp` by convention) until the
    /// process ends. Calls `ready` with the bound address once it accepts connections.
    pub async fn serve_http(self, addr: SocketAddr, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let server = self.clone();
        let service = Arc::new(StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        ));
        ready(local);
        loop {
            let (stream, _) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    eprintln!("codemode: accepting a connection failed: {e}");
                    continue;
                }
            };
            let service = Arc::clone(&service);
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let handler = hyper::service::service_fn(move |request| {
                    let service = Arc::clone(&service);
                    async move { Ok::<_, Infallible>(service.handle(request).await) }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, handler).await;
            });
        }
    }
}

/// A tool result carrying `value` as structured content and as JSON text.
fn json_result(value: Value, is_error: bool) -> CallToolResult {
    let text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string());
    let mut result = if is_error {
        CallToolResult::error(vec![ContentBlock::text(text)])
    } else {
        CallToolResult::success(vec![ContentBlock::text(text)])
    };
    result.structured_content = Some(value);
    result
}

impl ServerHandler for CodeModeServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build())
            .with_server_info(Implementation::new("codemode", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Code mode: instead of calling tools one at a time, write one program for `execute` \
                 that calls them (`tools.<namespace>.<tool>`) and returns the combined result. Use \
                 `search` to find tools when the API is large.",
            )
    }

    /// From now on, an upstream's changed tool list (which changes `execute`'s description) is
    /// passed on to this client as `notifications/tools/list_changed`.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let mut changes = self.hub.changes();
        let peer = context.peer;
        tokio::spawn(async move {
            while changes.changed().await.is_ok() {
                if peer.notify_tool_list_changed().await.is_err() {
                    break;
                }
            }
        });
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools = self.tools().await.map_err(|e| McpError::internal_error(e, None))?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let arguments = request.arguments.unwrap_or_default();
        match request.name.as_ref() {
            "execute" => {
                let Some(code) = arguments.get("code").and_then(Value::as_str) else {
                    return Err(McpError::invalid_params("execute: `code` (a string) is required", None));
                };
                let mut forwarder = None;
                let observer = context.meta.get_progress_token().map(|token| {
                    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel::<(String, bool)>();
                    let peer = context.peer.clone();
                    forwarder = Some(tokio::spawn(async move {
                        let mut finished = 0u32;
                        while let Some((path, ok)) = receiver.recv().await {
                            finished += 1;
                            let message = format!("{path} {}", if ok { "done" } else { "failed" });
                            let progress = ProgressNotificationParam::new(token.clone(), f64::from(finished))
                                .with_message(message);
                            let _ = peer.notify_progress(progress).await;
                        }
                    }));
                    let observer: CallObserver = Arc::new(move |path: &str, ok: bool| {
                        let _ = sender.send((path.to_owned(), ok));
                    });
                    observer
                });
                let run = self.execute(code, observer);
                let result = tokio::select! {
                    result = run => result,
                    () = context.ct.cancelled() => {
                        return Err(McpError::internal_error("execute was cancelled", None));
                    }
                };
                // The run's tools (and with them the observer) are gone: send the last progress
                // notifications before the result. Calls the run left behind may hold the
                // observer a little longer; they are not waited for.
                if let Some(forwarder) = forwarder {
                    let _ = tokio::time::timeout(Duration::from_millis(500), forwarder).await;
                }
                let result = result.map_err(|e| McpError::internal_error(e, None))?;
                let value = serde_json::to_value(&result)
                    .map_err(|e| McpError::internal_error(e.to_string(), None))?;
                Ok(json_result(value, !result.ok).into())
            }
            "search" => {
                let runtime = self.hub.runtime(None).await.map_err(|e| McpError::internal_error(e, None))?;
                let outcome = runtime.tools().search_json(&Value::Object(arguments));
                Ok(match outcome {
                    Ok(value) => json_result(value, false),
                    Err(e) => json_result(json!({ "error": e.model_message("search") }), true),
                }
                .into())
            }
            other => Err(McpError::invalid_params(
                format!("unknown tool '{other}': this server has `execute` and `search`"),
                None,
            )),
        }
    }
}
