//! `codemode mcp`: an MCP server with two tools in front of every configured source.
//!
//! - `execute({ code })` runs a program against `tools.*`; its description carries the
//!   TypeScript declarations of the whole API, or, when they would be longer than
//!   [`ServerOptions::max_description_chars`], the namespaces and a pointer to `search`.
//!   The result is the run's JSON (`{ ok, value | error, logs, toolCalls }`) once: as
//!   structured content with a one-line text summary for clients of protocol 2025-06-18 and
//!   later, as the only text block for older ones; a failed run is an `isError` result. At most
//!   [`ServerOptions::max_concurrent_runs`] runs go on at once; past it `execute` answers `Busy`. A request with a progress token
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
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::hub::{CallObserver, Hub};

/// The default bound on runs in progress at once ([`ServerOptions::max_concurrent_runs`]).
pub const DEFAULT_MAX_CONCURRENT_RUNS: usize = 16;

/// How the server presents itself and how much it takes on.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Longest `execute` description; larger APIs are described by namespace and `search`.
    pub max_description_chars: usize,
    /// Runs in progress at once (over all sessions); an `execute` past it is refused at once
    /// with a `Busy` error result instead of waiting.
    pub max_concurrent_runs: usize,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self { max_description_chars: 16_000, max_concurrent_runs: DEFAULT_MAX_CONCURRENT_RUNS }
    }
}

/// The MCP server over a [`Hub`]. Cheap to clone (clones share the bound on runs).
#[derive(Clone)]
pub struct CodeModeServer {
    hub: Arc<Hub>,
    options: ServerOptions,
    runs: Arc<tokio::sync::Semaphore>,
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
        let runs = Arc::new(tokio::sync::Semaphore::new(options.max_concurrent_runs.max(1)));
        Self { hub, options, runs }
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
            bounds.push(format!(
                "at most {bytes} bytes of value, logs, warnings and call list together (more is cut or summarized)"
            ));
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
        // Requests that cannot be decoded, or are over the size cap, get a JSON-RPC error.
        let transport = crate::wire::LineTransport::<RoleServer, _, _>::new(
            crate::wire::Side::Server,
            "the MCP client",
            tokio::io::stdin(),
            tokio::io::stdout(),
        );
        let service = self.serve(transport).await.map_err(|e| format!("MCP session failed to start: {e}"))?;
        let outcome = service.waiting().await;
        hub.close().await;
        outcome.map(|_| ()).map_err(|e| format!("MCP session ended with an error: {e}"))
    }

    /// Serves MCP over streamable HTTP on `addr` (any path; `/mcp` by convention) until the
    /// process ends. Calls `ready` with the bound address once it accepts connections.
    ///
    /// Refuses a non-loopback address without a bearer token. With a token, every request
    /// without `Authorization: Bearer <token>` gets `401`. A request whose `Origin` header is
    /// not a loopback origin or one of [`HttpAccess::allowed_origins`] gets `403`, as the MCP
    /// transport spec requires; so does one whose `Host` is not allowed (DNS rebinding).
    pub async fn serve_http(
        self,
        addr: SocketAddr,
        access: HttpAccess,
        ready: impl FnOnce(SocketAddr),
    ) -> Result<(), String> {
        check_http_access(addr, &access)?;
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let server = self.clone();
        let mut origins: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
            .iter()
            .flat_map(|host| [format!("http://{host}:*"), format!("https://{host}:*")])
            .collect();
        origins.extend(access.allowed_origins.iter().cloned());
        let mut config = StreamableHttpServerConfig::default()
            .with_allowed_origins(origins)
            // The same cap as one stdio message; rmcp answers a larger body with 413.
            .with_max_request_body_bytes(crate::wire::MAX_MESSAGE_BYTES);
        if !access.allowed_hosts.is_empty() {
            let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(str::to_owned).to_vec();
            hosts.extend(access.allowed_hosts.iter().cloned());
            config = config.with_allowed_hosts(hosts);
        } else if access.token.is_some() && !addr.ip().is_loopback() {
            // Reached by whatever name the network gives it; the token is what protects it
            // (a page a browser loads cannot read or send it).
            config = config.disable_allowed_hosts();
        }
        let service = Arc::new(StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            config,
        ));
        let token: Option<Arc<[u8]>> = access.token.map(|t| Arc::from(t.into_bytes()));
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
            let token = token.clone();
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let handler =
                    hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                        let service = Arc::clone(&service);
                        let token = token.clone();
                        async move {
                            if let Some(token) = &token
                                && !bearer_matches(request.headers(), token)
                            {
                                return Ok::<_, Infallible>(unauthorized());
                            }
                            // The request's handlers learn that its client went away: the
                            // sender lives in this future and then in the answer's body, and
                            // hyper drops both when the connection closes.
                            let (here, gone) = tokio::sync::watch::channel(());
                            let mut request = request;
                            request.extensions_mut().insert(ClientGone(gone));
                            let response = service.handle(request).await;
                            Ok::<_, Infallible>(response.map(|body| {
                                use http_body_util::BodyExt as _;
                                body.map_frame(move |frame| {
                                    let _ = &here;
                                    frame
                                })
                                .boxed()
                            }))
                        }
                    });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, handler).await;
            });
        }
    }
}

/// Closes when the HTTP request that carried an MCP request is gone (answered, or its client
/// disconnected).
#[derive(Clone)]
struct ClientGone(tokio::sync::watch::Receiver<()>);

/// Resolves when the HTTP client that sent this request went away (never for stdio).
async fn client_gone(context: &RequestContext<RoleServer>) {
    let gone = context
        .extensions
        .get::<hyper::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<ClientGone>())
        .cloned();
    match gone {
        Some(ClientGone(mut receiver)) => while receiver.changed().await.is_ok() {},
        None => std::future::pending().await,
    }
}

/// Who may use `codemode mcp --http`.
#[derive(Clone, Default)]
pub struct HttpAccess {
    /// The bearer token every request must carry (`Authorization: Bearer <token>`), compared
    /// in constant time. Required for a non-loopback address.
    pub token: Option<String>,
    /// Browser origins allowed besides the loopback ones (`https://app.example.com:443`,
    /// `http://localhost:*`); a request with any other `Origin` gets `403`.
    pub allowed_origins: Vec<String>,
    /// `Host` names (or `host:port`) allowed besides the loopback ones. When empty, a server
    /// with a token on a non-loopback address takes any `Host`; one on loopback only loopback
    /// names.
    pub allowed_hosts: Vec<String>,
}

impl std::fmt::Debug for HttpAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpAccess")
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("allowed_origins", &self.allowed_origins)
            .field("allowed_hosts", &self.allowed_hosts)
            .finish()
    }
}

/// Refuses a non-loopback address without a bearer token.
pub fn check_http_access(addr: SocketAddr, access: &HttpAccess) -> Result<(), String> {
    if !addr.ip().is_loopback() && access.token.is_none() {
        return Err(format!(
            "refusing to serve MCP on {addr} without authentication: anyone who can reach it could run \
             code with your servers' tools. Give a bearer token (--http-token-file or --http-token-env), \
             or listen on a loopback address (127.0.0.1); put TLS in front with a reverse proxy (docs/mcp.md)"
        ));
    }
    Ok(())
}

/// Whether the request carries `Authorization: Bearer <token>` (the scheme case-insensitive,
/// the token compared in constant time).
fn bearer_matches(headers: &hyper::HeaderMap, token: &[u8]) -> bool {
    use subtle::ConstantTimeEq as _;
    let Some(value) = headers.get(hyper::header::AUTHORIZATION) else { return false };
    let value = value.as_bytes();
    let Some((scheme, given)) = value.split_at_checked(7) else { return false };
    if !scheme.eq_ignore_ascii_case(b"bearer ") {
        return false;
    }
    // `ct_eq` is constant-time for equal lengths; a length mismatch says only the length.
    given.len() == token.len() && bool::from(given.ct_eq(token))
}

/// `401` with `WWW-Authenticate: Bearer` and a JSON-RPC error body.
fn unauthorized() -> hyper::Response<http_body_util::combinators::BoxBody<bytes::Bytes, Infallible>> {
    use http_body_util::BodyExt as _;
    let body = json!({
        "jsonrpc": "2.0",
        "error": { "code": -32001, "message": "Unauthorized: send `Authorization: Bearer <token>`" }
    })
    .to_string();
    let mut response = hyper::Response::new(http_body_util::Full::new(bytes::Bytes::from(body)).boxed());
    *response.status_mut() = hyper::StatusCode::UNAUTHORIZED;
    let headers = response.headers_mut();
    headers.insert(hyper::header::WWW_AUTHENTICATE, hyper::header::HeaderValue::from_static("Bearer"));
    headers.insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
    response
}

/// A tool result carrying `value` as structured content and as JSON text (for `search`).
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

/// Whether the client's protocol version has `structuredContent` (added in 2025-06-18; the
/// versions are dated, so they order as strings).
pub fn has_structured_content(version: Option<&ProtocolVersion>) -> bool {
    version.is_some_and(|v| v.as_str() >= ProtocolVersion::V_2025_06_18.as_str())
}

/// `execute`'s answer: the result exactly once. A client with structured content gets it as
/// `structuredContent` and a one-line text summary; an older client gets the compact JSON as
/// the only text block.
pub fn execute_answer(result: &ExecResult, structured: bool) -> Result<CallToolResult, String> {
    let mut value = serde_json::to_value(result).map_err(|e| e.to_string())?;
    // Images and audio in the value go to the client as content blocks of their own.
    let mut media = Vec::new();
    if let Some(inner) = value.get_mut("value") {
        take_media(inner, &mut media, 0);
    }
    let (content, structured_content) =
        if structured { (summary(result), Some(value)) } else { (value.to_string(), None) };
    let mut blocks = vec![ContentBlock::text(content)];
    blocks.extend(media);
    let mut answer = if result.ok { CallToolResult::success(blocks) } else { CallToolResult::error(blocks) };
    answer.structured_content = structured_content;
    Ok(answer)
}

/// At most this many image or audio blocks are taken out of one result.
const MAX_MEDIA_BLOCKS: usize = 16;

/// Moves every `{ type: "image" | "audio", data, mimeType }` object in `value` (an upstream
/// tool's content block, as the program received it) into `blocks` as an MCP image or audio
/// block, leaving `{ type, mimeType, bytes, content: i }` (its index in the answer's `content`)
/// in its place. The base64 data counted against the output budget as part of the value.
fn take_media(value: &mut Value, blocks: &mut Vec<ContentBlock>, depth: usize) {
    // The boundary limits results to 32 levels; this bound only guards the recursion.
    if depth > 64 || blocks.len() >= MAX_MEDIA_BLOCKS {
        return;
    }
    match value {
        Value::Array(items) => {
            for item in items {
                take_media(item, blocks, depth + 1);
            }
        }
        Value::Object(map) => {
            let kind = map.get("type").and_then(Value::as_str).filter(|k| *k == "image" || *k == "audio");
            let data = map.get("data").and_then(Value::as_str);
            let mime = map.get("mimeType").and_then(Value::as_str);
            if let (Some(kind), Some(data), Some(mime)) = (kind, data, mime) {
                let bytes = data.trim_end_matches('=').len() * 3 / 4;
                let block = if kind == "image" {
                    ContentBlock::image(data, mime)
                } else {
                    ContentBlock::audio(data, mime)
                };
                let placeholder = json!({
                    "type": kind,
                    "mimeType": mime,
                    "bytes": bytes,
                    "content": blocks.len() + 1,
                });
                blocks.push(block);
                *value = placeholder;
                return;
            }
            for item in map.values_mut() {
                take_media(item, blocks, depth + 1);
            }
        }
        _ => {}
    }
}

/// At most this many characters of an error message go into the text summary.
const SUMMARY_MESSAGE_CHARS: usize = 300;

/// One line saying how the run ended, for hosts that show the text beside the structured result.
fn summary(result: &ExecResult) -> String {
    let total = result.tool_call_summary.as_ref().map_or(result.tool_calls.len() as u64, |s| s.total);
    let failed = match &result.tool_call_summary {
        Some(s) => s.by_path.iter().map(|p| p.error + p.interrupted).sum(),
        None => result.tool_calls.iter().filter(|c| c.status != codemode::CallStatus::Ok).count() as u64,
    };
    let mut text = match (&result.error, result.ok) {
        (Some(error), false) => {
            let message: String = error.message.chars().take(SUMMARY_MESSAGE_CHARS).collect();
            let more = if message.len() < error.message.len() { "…" } else { "" };
            format!("The program failed ({:?}): {message}{more}", error.kind)
        }
        _ => "The program finished; its value is in the structured result".to_owned(),
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    text.push_str(&format!(" ({}", plural(total, "tool call", "tool calls")));
    if failed > 0 {
        text.push_str(&format!(", {failed} not ok"));
    }
    if !result.logs.is_empty() {
        text.push_str(&format!(", {}", plural(result.logs.len() as u64, "log line", "log lines")));
    }
    if !result.warnings.is_empty() {
        text.push_str(&format!(", {}", plural(result.warnings.len() as u64, "warning", "warnings")));
    }
    if result.truncated {
        text.push_str(", output truncated to the output limit");
    }
    text.push_str(").");
    text
}

/// The answer to an `execute` past the bound on concurrent runs.
fn busy(max: usize, structured: bool) -> CallToolResult {
    let message = format!(
        "codemode is busy: {max} programs are already running (the server's --max-concurrent-runs). \
         Nothing was run; try again when one has finished."
    );
    let value = json!({ "ok": false, "error": { "kind": "Busy", "message": message } });
    if !structured {
        return CallToolResult::error(vec![ContentBlock::text(value.to_string())]);
    }
    let mut result = CallToolResult::error(vec![ContentBlock::text(message)]);
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
                let structured = has_structured_content(context.protocol_version().as_ref());
                let Ok(_permit) = Arc::clone(&self.runs).try_acquire_owned() else {
                    return Ok(busy(self.options.max_concurrent_runs.max(1), structured).into());
                };
                // The run yields after every fuel slice, so a cancellation (the host's
                // `notifications/cancelled`, or rmcp's when the HTTP client went away) is seen
                // within one slice: dropping the run stops its VM and cancels its calls.
                let run = self.execute(code, observer);
                let result = tokio::select! {
                    result = run => result,
                    () = context.ct.cancelled() => {
                        return Err(McpError::internal_error("execute was cancelled", None));
                    }
                    () = client_gone(&context) => {
                        return Err(McpError::internal_error("the HTTP client went away", None));
                    }
                };
                // The run's tools (and with them the observer) are gone: send the last progress
                // notifications before the result. Calls the run left behind may hold the
                // observer a little longer; they are not waited for.
                if let Some(forwarder) = forwarder {
                    let _ = tokio::time::timeout(Duration::from_millis(500), forwarder).await;
                }
                let result = result.map_err(|e| McpError::internal_error(e, None))?;
                let answer =
                    execute_answer(&result, structured).map_err(|e| McpError::internal_error(e, None))?;
                Ok(answer.into())
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
