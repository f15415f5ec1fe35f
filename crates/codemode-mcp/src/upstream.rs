//! The MCP client side: one connection to an upstream MCP server (a child process over stdio or
//! a streamable HTTP endpoint), its tool list (all pages, refreshed after
//! `notifications/tools/list_changed`) and `tools/call` routing with per-call timeouts.
//!
//! A call that is dropped before its answer (the run ended, timed out or was cancelled) sends
//! `notifications/cancelled` to the server (rmcp's cancel-on-drop requests). A server that has
//! gone away fails its calls with a [`ToolError::failure`] naming it; nothing panics.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use codemode::tools::ToolError;
use codemode::tools::mcp::{McpTool, call_result_value};
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, GetPromptRequestParams, Implementation,
    PaginatedRequestParams, ReadResourceRequestParams,
};
use rmcp::service::{NotificationContext, RunningService, ServiceError};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, Peer, RoleClient, ServiceExt};
use serde::Deserialize as _;
use serde_json::Value;
use tokio::sync::{Mutex, watch};

use crate::http_client::CheckedClient;
use crate::source::Source;
use crate::wire::{LineTransport, Side, UNREADABLE_ANSWER};

/// At most this many `tools/list` pages are followed (a server whose cursor never ends cannot
/// hang the host).
const MAX_PAGES: usize = 1_000;
/// At most this many tools are taken from one server.
const MAX_TOOLS: usize = 10_000;

/// How long one upstream call may take unless told otherwise: a server that never answers
/// fails the call with a `ToolFailure` after this, it does not hang the run.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// How to reach and talk to upstream servers.
#[derive(Debug, Clone)]
pub struct ClientOptions {
    /// How long connecting (spawning, `initialize`, the first `tools/list`) may take.
    pub connect_timeout: Duration,
    /// How long one `tools/call` may take ([`DEFAULT_CALL_TIMEOUT`] by default); `None` leaves
    /// it to the run's own timeout.
    pub call_timeout: Option<Duration>,
    /// Whether an upstream child process's standard error goes to ours (else it is discarded).
    pub inherit_stderr: bool,
    /// The first wait before restarting a server whose connection closed
    /// ([`RESTART_FIRST_DELAY`]); it doubles per failed attempt up to [`RESTART_MAX_DELAY`].
    pub restart_delay: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(60),
            call_timeout: Some(DEFAULT_CALL_TIMEOUT),
            inherit_stderr: true,
            restart_delay: RESTART_FIRST_DELAY,
        }
    }
}

/// Notes `notifications/tools/list_changed` so the next run lists the tools again, and tells
/// whoever watches the hub.
#[derive(Clone)]
struct Handler {
    changed: Arc<AtomicBool>,
    announce: Option<Arc<watch::Sender<u64>>>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("codemode", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.store(true, Ordering::SeqCst);
        if let Some(announce) = &self.announce {
            announce.send_modify(|generation| *generation = generation.wrapping_add(1));
        }
    }
}

/// One live connection to the server (replaced when it is restarted).
struct Conn {
    peer: Peer<RoleClient>,
    /// Keeps the connection alive; dropped (or cancelled) with it.
    service: Mutex<Option<RunningService<RoleClient, Handler>>>,
    /// The child process of a command source (killed when dropped).
    child: Mutex<Option<tokio::process::Child>>,
}

impl Conn {
    async fn close(&self) {
        if let Some(service) = self.service.lock().await.take() {
            let _ = service.cancel().await;
        }
        if let Some(mut child) = self.child.lock().await.take() {
            // Its standard input is closed: a well-behaved server has ended or is ending.
            if tokio::time::timeout(Duration::from_millis(500), child.wait()).await.is_err() {
                let _ = child.kill().await;
            }
        }
    }
}

/// The first wait before restarting a server whose connection closed; it doubles per failed
/// attempt up to [`RESTART_MAX_DELAY`].
pub const RESTART_FIRST_DELAY: Duration = Duration::from_millis(500);
/// The longest wait between two restart attempts.
pub const RESTART_MAX_DELAY: Duration = Duration::from_secs(30);
/// Restart attempts after one loss of the connection; then the server stays down until a call
/// asks for it again (which starts another round).
pub const MAX_RESTART_ATTEMPTS: u32 = 8;

/// Whether the server can take calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Health {
    Up,
    /// The connection closed; attempt `attempt` of [`MAX_RESTART_ATTEMPTS`] is under way or
    /// waiting, after `last_error` (when an attempt failed).
    Restarting {
        attempt: u32,
        last_error: Option<String>,
    },
    /// Every attempt failed; the next call starts another round.
    Down {
        error: String,
    },
}

/// A connected upstream MCP server. A stdio server that exits (or an HTTP server whose session
/// ends) is restarted (reconnected) in the background with bounded exponential backoff; calls
/// meanwhile fail at once with a `ToolFailure` naming the server.
pub struct Upstream {
    /// The server's own name (`serverInfo.name`), or the source label when it gave none.
    server_name: String,
    label: String,
    source: Source,
    announce: Option<Arc<watch::Sender<u64>>>,
    /// The live connection; `None` while the server is down.
    conn: std::sync::Mutex<Option<Arc<Conn>>>,
    health: std::sync::Mutex<Health>,
    /// A restart round is running.
    restarting: AtomicBool,
    /// [`Upstream::close`] was called: no more restarts.
    closing: AtomicBool,
    changed: Arc<AtomicBool>,
    tools: Mutex<Vec<McpTool>>,
    options: ClientOptions,
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("server_name", &self.server_name)
            .field("label", &self.label)
            .finish()
    }
}

impl Upstream {
    /// Starts or reaches the server, initializes the session and lists its tools. A changed
    /// tool list bumps `announce`'s generation.
    pub async fn connect(
        source: &Source,
        options: &ClientOptions,
        announce: Option<Arc<watch::Sender<u64>>>,
    ) -> Result<Arc<Upstream>, String> {
        let changed = Arc::new(AtomicBool::new(false));
        let (conn, server_name, tools) = Self::open(source, options, &changed, announce.clone()).await?;
        let label = source.label();
        Ok(Arc::new(Upstream {
            server_name: server_name.unwrap_or_else(|| label.clone()),
            label,
            source: source.clone(),
            announce,
            conn: std::sync::Mutex::new(Some(Arc::new(conn))),
            health: std::sync::Mutex::new(Health::Up),
            restarting: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            changed,
            tools: Mutex::new(tools),
            options: options.clone(),
        }))
    }

    /// One connection, its server's name and its tools, within the connect timeout.
    async fn open(
        source: &Source,
        options: &ClientOptions,
        changed: &Arc<AtomicBool>,
        announce: Option<Arc<watch::Sender<u64>>>,
    ) -> Result<(Conn, Option<String>, Vec<McpTool>), String> {
        let label = source.label();
        let timeout = options.connect_timeout;
        match tokio::time::timeout(timeout, Self::open_inner(source, options, changed, announce)).await {
            Ok(result) => result,
            Err(_) => Err(format!("MCP server `{label}` did not start within {}s", timeout.as_secs())),
        }
    }

    async fn open_inner(
        source: &Source,
        options: &ClientOptions,
        changed: &Arc<AtomicBool>,
        announce: Option<Arc<watch::Sender<u64>>>,
    ) -> Result<(Conn, Option<String>, Vec<McpTool>), String> {
        let label = source.label();
        let handler = Handler { changed: Arc::clone(changed), announce };
        let mut child = None;
        let service = match source {
            Source::Command { argv, .. } => {
                let Some((program, args)) = argv.split_first() else {
                    return Err("--upstream: the command line is empty".to_owned());
                };
                let mut command = tokio::process::Command::new(program);
                command.args(args);
                let stderr = if options.inherit_stderr { Stdio::inherit() } else { Stdio::null() };
                let mut spawned = command
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(stderr)
                    .kill_on_drop(true)
                    .spawn()
                    .map_err(|e| format!("cannot start MCP server `{label}`: {e}"))?;
                let (Some(stdout), Some(stdin)) = (spawned.stdout.take(), spawned.stdin.take()) else {
                    return Err(format!(
                        "cannot start MCP server `{label}`: its standard streams are missing"
                    ));
                };
                child = Some(spawned);
                let transport = LineTransport::<RoleClient, _, _>::new(
                    Side::Client,
                    format!("MCP server `{label}`"),
                    stdout,
                    stdin,
                );
                handler
                    .serve(transport)
                    .await
                    .map_err(|e| format!("MCP server `{label}` failed to initialize: {e}"))?
            }
            Source::Url { url, headers, auth, name } => {
                crate::install_crypto_provider();
                let mut custom = HashMap::new();
                for (name, value) in headers {
                    let name = HeaderName::from_bytes(name.as_bytes())
                        .map_err(|_| format!("{name:?} is not a header name"))?;
                    let value = HeaderValue::from_str(value)
                        .map_err(|_| format!("the value of header {name} is not valid"))?;
                    custom.insert(name, value);
                }
                let config =
                    StreamableHttpClientTransportConfig::with_uri(url.as_str()).custom_headers(custom);
                let client = CheckedClient::new(url, name.as_deref(), auth.clone());
                let transport = StreamableHttpClientTransport::with_client(client.clone(), config);
                handler.serve(transport).await.map_err(|e| match client.refusal() {
                    Some(refusal) => refusal,
                    None => format!("MCP server at {url} failed to initialize: {e}"),
                })?
            }
            Source::OpenApi { .. } => return Err("an OpenAPI document is not an MCP server".to_owned()),
        };
        let peer = service.peer().clone();
        let server_name = peer
            .peer_info()
            .and_then(|info| info.server_info.as_ref().map(|i| i.name.clone()))
            .filter(|name| !name.trim().is_empty());
        let tools = list_tools(&peer, &label).await.map_err(|e| format!("MCP server `{label}`: {e}"))?;
        let conn = Conn { peer, service: Mutex::new(Some(service)), child: Mutex::new(child) };
        Ok((conn, server_name, tools))
    }

    /// The server's own name (`serverInfo.name`).
    pub fn server_name(&self) -> &str {
        &self.server_name
    }

    /// The command line or URL it was reached by.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Whether it can take calls now.
    pub fn health(&self) -> Health {
        self.health.lock().map(|h| h.clone()).unwrap_or(Health::Up)
    }

    /// The live connection, unless it closed (then a restart round starts).
    fn live(self: &Arc<Self>) -> Option<Arc<Conn>> {
        let conn = self.conn.lock().ok().and_then(|c| c.clone());
        match conn {
            Some(conn) if !conn.peer.is_transport_closed() => Some(conn),
            _ => {
                self.connection_lost();
                None
            }
        }
    }

    fn set_health(&self, health: Health) {
        if let Ok(mut current) = self.health.lock() {
            *current = health;
        }
        // The namespace's description (and `search`) say whether it is available.
        if let Some(announce) = &self.announce {
            announce.send_modify(|generation| *generation = generation.wrapping_add(1));
        }
    }

    /// The connection closed: drop it and restart the server in the background (one round of
    /// at most [`MAX_RESTART_ATTEMPTS`] attempts with growing waits), unless a round is running.
    fn connection_lost(self: &Arc<Self>) {
        if self.closing.load(Ordering::SeqCst) || self.restarting.swap(true, Ordering::SeqCst) {
            return;
        }
        let old = self.conn.lock().ok().and_then(|mut c| c.take());
        eprintln!("codemode: MCP server `{}` is gone; restarting it", self.label);
        self.set_health(Health::Restarting { attempt: 1, last_error: None });
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.restarting.store(false, Ordering::SeqCst);
            return;
        };
        let this = Arc::clone(self);
        runtime.spawn(async move {
            if let Some(old) = old {
                old.close().await;
            }
            this.restart_round().await;
            this.restarting.store(false, Ordering::SeqCst);
        });
    }

    async fn restart_round(self: &Arc<Self>) {
        let mut delay = self.options.restart_delay.min(RESTART_MAX_DELAY);
        let mut last_error = String::new();
        for attempt in 1..=MAX_RESTART_ATTEMPTS {
            self.set_health(Health::Restarting {
                attempt,
                last_error: (!last_error.is_empty()).then(|| last_error.clone()),
            });
            tokio::time::sleep(delay).await;
            if self.closing.load(Ordering::SeqCst) {
                return;
            }
            match Self::open(&self.source, &self.options, &self.changed, self.announce.clone()).await {
                Ok((conn, _, tools)) => {
                    *self.tools.lock().await = tools;
                    if let Ok(mut current) = self.conn.lock() {
                        *current = Some(Arc::new(conn));
                    }
                    eprintln!("codemode: MCP server `{}` was restarted (attempt {attempt})", self.label);
                    self.set_health(Health::Up);
                    return;
                }
                Err(e) => {
                    eprintln!(
                        "codemode: restarting MCP server `{}` failed (attempt {attempt}): {e}",
                        self.label
                    );
                    last_error = e;
                    delay = (delay * 2).min(RESTART_MAX_DELAY);
                }
            }
        }
        self.set_health(Health::Down { error: last_error });
    }

    /// Why calls fail now, for a message: `None` while it is up.
    pub fn unavailable_reason(&self) -> Option<String> {
        match self.health() {
            Health::Up => None,
            Health::Restarting { attempt, .. } => Some(format!(
                "its connection closed; codemode is restarting it (attempt {attempt} of {MAX_RESTART_ATTEMPTS})"
            )),
            Health::Down { error } => Some(format!(
                "it could not be restarted after {MAX_RESTART_ATTEMPTS} attempts ({error}); the next call tries again"
            )),
        }
    }

    fn unavailable(&self, name: &str) -> ToolError {
        let why = self.unavailable_reason().unwrap_or_else(|| "its connection closed".to_owned());
        ToolError::failure(format!(
            "MCP server '{}' is not available ({why}); '{name}' was not called.",
            self.server_name
        ))
    }

    /// The current tool list; listed again first when the server said it changed.
    pub async fn tools(self: &Arc<Self>) -> Vec<McpTool> {
        if self.changed.swap(false, Ordering::SeqCst)
            && let Some(conn) = self.live()
        {
            match list_tools(&conn.peer, &self.label).await {
                Ok(tools) => *self.tools.lock().await = tools,
                // Keep the last good list; calls to tools that are gone fail at the server.
                Err(e) => eprintln!("codemode: listing the tools of `{}` again failed: {e}", self.label),
            }
        }
        self.tools.lock().await.clone()
    }

    /// Whether the server announced a changed tool list that was not listed again yet.
    pub fn tools_changed(&self) -> bool {
        self.changed.load(Ordering::SeqCst)
    }

    /// Calls `name` with `arguments` (`tools/call`) and turns the answer into the program's
    /// value: `structuredContent`, else the text (JSON when it parses), else the content blocks;
    /// `isError` becomes a tool failure.
    pub async fn call(self: &Arc<Self>, name: String, arguments: Value) -> Result<Value, ToolError> {
        let arguments = match arguments {
            Value::Object(map) => Some(map),
            Value::Null => None,
            _ => {
                return Err(ToolError::invalid_input(
                    "at input: expected an object (MCP tool arguments are an object)",
                ));
            }
        };
        let mut params = CallToolRequestParams::new(name.clone());
        params.arguments = arguments;
        let Some(conn) = self.live() else {
            return Err(self.unavailable(&name));
        };
        let request = conn.peer.call_tool(params);
        let outcome = match self.options.call_timeout {
            Some(limit) => match tokio::time::timeout(limit, request).await {
                Ok(outcome) => outcome,
                Err(_) => {
                    return Err(ToolError::failure(format!(
                        "MCP server '{}' did not answer '{name}' within {}ms (the call was cancelled).",
                        self.server_name,
                        limit.as_millis()
                    )));
                }
            },
            None => request.await,
        };
        let result = outcome.map_err(|e| {
            if matches!(e, ServiceError::TransportClosed | ServiceError::TransportSend(_)) {
                self.connection_lost();
            }
            self.service_error(&name, e)
        })?;
        let value = serde_json::to_value(&result).map_err(ToolError::internal)?;
        call_result_value(value)
    }

    fn service_error(&self, name: &str, error: ServiceError) -> ToolError {
        let server = &self.server_name;
        let message = match error {
            ServiceError::McpError(e)
                if e.data.as_ref().and_then(Value::as_str) == Some(UNREADABLE_ANSWER) =>
            {
                format!("MCP server '{server}' answered '{name}', but {}", e.message)
            }
            ServiceError::McpError(e) => format!("MCP server '{server}' refused '{name}': {}", e.message),
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                format!(
                    "MCP server '{server}' is not available (its connection closed); '{name}' was not answered."
                )
            }
            ServiceError::Timeout { timeout } => {
                format!("MCP server '{server}' did not answer '{name}' within {}ms.", timeout.as_millis())
            }
            ServiceError::Cancelled { .. } => {
                format!("The call to '{name}' on MCP server '{server}' was cancelled.")
            }
            other => format!("MCP server '{server}' failed '{name}': {other}"),
        };
        ToolError::failure(message)
    }

    /// Whether the server offers resources and prompts (its `initialize` capabilities).
    pub fn offers(self: &Arc<Self>) -> (bool, bool) {
        let Some(conn) = self.conn.lock().ok().and_then(|c| c.clone()) else { return (false, false) };
        let Some(info) = conn.peer.peer_info() else { return (false, false) };
        (info.capabilities.resources.is_some(), info.capabilities.prompts.is_some())
    }

    /// One of the server's own requests besides `tools/call` (`resources/list`, `resources/read`,
    /// `prompts/list`, `prompts/get`), with the call deadline, as the program's value.
    pub async fn request(self: &Arc<Self>, what: Request, input: Value) -> Result<Value, ToolError> {
        let label = what.label();
        let Some(conn) = self.live() else {
            return Err(self.unavailable(label));
        };
        let text = |key: &str| input.get(key).and_then(Value::as_str).map(str::to_owned);
        let cursor = text("cursor");
        let page = || Some(PaginatedRequestParams::default().with_cursor(cursor.clone()));
        let peer = &conn.peer;
        let work = async {
            let value = match what {
                Request::ListResources => serde_json::to_value(peer.list_resources(page()).await?),
                Request::ListResourceTemplates => {
                    serde_json::to_value(peer.list_resource_templates(page()).await?)
                }
                Request::ReadResource => {
                    let Some(uri) = text("uri") else {
                        return Ok(Err(ToolError::invalid_input(
                            "at input.uri: expected a string (the resource's URI)",
                        )));
                    };
                    serde_json::to_value(peer.read_resource(ReadResourceRequestParams::new(uri)).await?)
                }
                Request::ListPrompts => serde_json::to_value(peer.list_prompts(page()).await?),
                Request::GetPrompt => {
                    let Some(name) = text("name") else {
                        return Ok(Err(ToolError::invalid_input(
                            "at input.name: expected a string (the prompt's name)",
                        )));
                    };
                    let mut params = GetPromptRequestParams::new(name);
                    params.arguments = input.get("arguments").and_then(Value::as_object).cloned();
                    serde_json::to_value(peer.get_prompt(params).await?)
                }
            };
            Ok::<_, ServiceError>(value.map_err(ToolError::internal))
        };
        let outcome = match self.options.call_timeout {
            Some(limit) => match tokio::time::timeout(limit, work).await {
                Ok(outcome) => outcome,
                Err(_) => {
                    return Err(ToolError::failure(format!(
                        "MCP server '{}' did not answer '{label}' within {}ms.",
                        self.server_name,
                        limit.as_millis()
                    )));
                }
            },
            None => work.await,
        };
        match outcome {
            Ok(value) => value,
            Err(e) => {
                if matches!(e, ServiceError::TransportClosed | ServiceError::TransportSend(_)) {
                    self.connection_lost();
                }
                Err(self.service_error(label, e))
            }
        }
    }

    /// Closes the session (and ends the child process); no restarts after it.
    pub async fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
        let conn = self.conn.lock().ok().and_then(|mut c| c.take());
        if let Some(conn) = conn {
            conn.close().await;
        }
    }
}

/// An MCP request other than `tools/call` a program can make (`tools.<server>.$resources.*`,
/// `tools.<server>.$prompts.*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    ListResources,
    ListResourceTemplates,
    ReadResource,
    ListPrompts,
    GetPrompt,
}

impl Request {
    /// The MCP method.
    pub fn label(self) -> &'static str {
        match self {
            Request::ListResources => "resources/list",
            Request::ListResourceTemplates => "resources/templates/list",
            Request::ReadResource => "resources/read",
            Request::ListPrompts => "prompts/list",
            Request::GetPrompt => "prompts/get",
        }
    }
}

/// Lists every page of tools (bounded), as the import's [`McpTool`]s.
async fn list_tools(peer: &Peer<RoleClient>, label: &str) -> Result<Vec<McpTool>, String> {
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let page = peer
            .list_tools(Some(PaginatedRequestParams::default().with_cursor(cursor.take())))
            .await
            .map_err(|e| format!("tools/list failed: {e}"))?;
        for tool in page.tools {
            let value = serde_json::to_value(&tool).map_err(|e| format!("tools/list: {e}"))?;
            tools.push(value);
        }
        if tools.len() > MAX_TOOLS {
            return Err(format!("the server lists more than {MAX_TOOLS} tools"));
        }
        match page.next_cursor {
            Some(next) if !next.is_empty() => cursor = Some(next),
            _ => {
                let (tools, warnings) = admit_tools(tools);
                for warning in warnings {
                    eprintln!("codemode: MCP server `{label}`: {warning}");
                }
                return Ok(tools);
            }
        }
    }
    Err(format!("tools/list did not end after {MAX_PAGES} pages"))
}

/// Deepest JSON nesting of a tool's schema taken as it is.
pub const MAX_SCHEMA_DEPTH: usize = 48;
/// Most JSON values (objects, arrays, strings, numbers, …) in one tool's schema taken as it is.
pub const MAX_SCHEMA_VALUES: usize = 10_000;
/// Longest tool name taken.
pub const MAX_TOOL_NAME: usize = 256;

/// The nesting depth and the number of values of a JSON document, without recursion (stops
/// counting past the caps).
fn measure(value: &Value) -> (usize, usize) {
    let mut stack = vec![(value, 1usize)];
    let (mut depth, mut count) = (0usize, 0usize);
    while let Some((value, level)) = stack.pop() {
        depth = depth.max(level);
        count += 1;
        if depth > MAX_SCHEMA_DEPTH || count > MAX_SCHEMA_VALUES {
            break;
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, level + 1))),
            Value::Object(map) => stack.extend(map.values().map(|v| (v, level + 1))),
            _ => {}
        }
    }
    (depth, count)
}

/// The tools codemode can offer, and a warning for each it left out or simplified. A tool
/// without a usable name is left out; one whose schemas are past [`MAX_SCHEMA_DEPTH`] or
/// [`MAX_SCHEMA_VALUES`] keeps working with its input declared as any object (the server still
/// checks it) and no output schema. One bad tool never costs the others.
pub fn admit_tools(raw: Vec<Value>) -> (Vec<McpTool>, Vec<String>) {
    let mut tools = Vec::with_capacity(raw.len());
    let mut warnings = Vec::new();
    for (index, entry) in raw.into_iter().enumerate() {
        let mut tool = match McpTool::deserialize(entry) {
            Ok(tool) => tool,
            Err(e) => {
                warnings.push(format!("tool #{index} was skipped: {e}"));
                continue;
            }
        };
        if tool.name.trim().is_empty() {
            warnings.push(format!("tool #{index} was skipped: its name is empty"));
            continue;
        }
        if tool.name.len() > MAX_TOOL_NAME || tool.name.chars().any(char::is_control) {
            let shown: String = tool.name.chars().take(40).collect();
            warnings.push(format!(
                "tool #{index} ({shown:?}…) was skipped: its name is longer than {MAX_TOOL_NAME} bytes or has control characters"
            ));
            continue;
        }
        let too_big = |schema: &Option<Value>| {
            schema.as_ref().map(measure).filter(|(d, n)| *d > MAX_SCHEMA_DEPTH || *n > MAX_SCHEMA_VALUES)
        };
        if too_big(&tool.input_schema).is_some() || too_big(&tool.output_schema).is_some() {
            warnings.push(format!(
                "tool '{}': its schema is more than {MAX_SCHEMA_DEPTH} levels deep or has more than \
                 {MAX_SCHEMA_VALUES} values; its input is declared as any object (the server still checks it)",
                tool.name
            ));
            tool.input_schema = Some(serde_json::json!({ "type": "object", "additionalProperties": {} }));
            tool.output_schema = None;
            let note =
                "(Its input schema is too large to declare here: pass the object the server documents.)";
            tool.description = Some(match tool.description.take() {
                Some(d) if !d.trim().is_empty() => format!("{d} {note}"),
                _ => note.to_owned(),
            });
        }
        tools.push(tool);
    }
    (tools, warnings)
}
