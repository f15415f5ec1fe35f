//! [`Hub`]: every configured source mounted as one namespace of `tools`, and the
//! [`CodeMode`] runtimes built over them (one per run when a run wants to watch its calls).

use std::collections::BTreeSet;
use std::sync::Arc;

use codemode::tools::mcp::{McpImportOptions, import_tools};
use codemode::tools::{CallContext, DeclarationOptions, sanitize_identifier};
use codemode::{Builder, CodeMode, Limits, Namespace, Tool};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::openapi::{HttpOptions, OpenApiSource};
use crate::source::Source;
use crate::upstream::{ClientOptions, Request, Upstream};

/// What a run is told about each finished tool call: its path and whether it succeeded.
pub type CallObserver = Arc<dyn Fn(&str, bool) + Send + Sync>;

/// Everything a [`Hub`] needs besides its sources.
#[derive(Debug, Clone, Default)]
pub struct HubOptions {
    /// Limits of every run.
    pub limits: Limits,
    /// Upstream MCP connections.
    pub client: ClientOptions,
    /// OpenAPI requests.
    pub http: HttpOptions,
    /// Also mount the built-in demo tools (`orders`, `data`, `demo`).
    pub demo: bool,
    /// A semantic ranker `search` fuses with the lexical ranking (a sentence-embedding model);
    /// shared by every runtime the hub builds, so catalog vectors are kept across rebuilds.
    pub semantic: Option<Arc<codemode::tools::search::SemanticRanker>>,
}

enum Kind {
    Mcp(Arc<Upstream>),
    OpenApi(Arc<OpenApiSource>),
}

/// One mounted source.
struct Mounted {
    name: String,
    kind: Kind,
}

/// The configured sources, connected.
pub struct Hub {
    mounted: Vec<Mounted>,
    options: HubOptions,
    /// Bumped whenever an upstream announces a changed tool list.
    changes: Arc<watch::Sender<u64>>,
    /// The runtime without an observer, with the `changes` generation it was built at.
    cached: std::sync::Mutex<Option<(u64, CodeMode)>>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub").field("namespaces", &self.namespaces()).finish()
    }
}

/// The namespace name for a source: the explicit name, else the server's or document's own
/// name (its last `/`-separated part, as an identifier), unique among the mounted ones.
fn namespace_name(explicit: Option<&str>, own: Option<&str>, taken: &BTreeSet<String>) -> String {
    let base = match (explicit, own) {
        (Some(name), _) => sanitize_identifier(name),
        (None, Some(own)) => {
            let last = own.rsplit('/').find(|s| !s.trim().is_empty()).unwrap_or(own);
            let last = last.trim().trim_start_matches('@');
            sanitize_identifier(&last.to_ascii_lowercase().replace([' ', '-', '.'], "_"))
        }
        (None, None) => "api".to_owned(),
    };
    let base = if base.is_empty() || base == "_" { "api".to_owned() } else { base };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name) || (name == "search") {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}

impl Hub {
    /// Connects every source (MCP servers are started or reached, OpenAPI documents read).
    /// The first failure stops it, with a message naming the source.
    pub async fn connect(sources: &[Source], options: HubOptions) -> Result<Hub, String> {
        let mut taken: BTreeSet<String> = BTreeSet::new();
        if options.demo {
            taken.extend(["orders", "data", "demo"].map(str::to_owned));
        }
        let mut mounted = Vec::new();
        let mut hub_error = None;
        let changes = Arc::new(watch::Sender::new(0u64));
        for source in sources {
            let kind = match source {
                Source::Command { .. } | Source::Url { .. } => {
                    match Upstream::connect(source, &options.client, Some(Arc::clone(&changes))).await {
                        Ok(upstream) => Kind::Mcp(upstream),
                        Err(e) => {
                            hub_error = Some(e);
                            break;
                        }
                    }
                }
                Source::OpenApi { file, base_url, headers, credentials, .. } => {
                    match OpenApiSource::load(file, base_url.as_deref(), headers, credentials, &options.http)
                    {
                        Ok(api) => Kind::OpenApi(Arc::new(api)),
                        Err(e) => {
                            hub_error = Some(e);
                            break;
                        }
                    }
                }
            };
            let own = match &kind {
                Kind::Mcp(upstream) => Some(upstream.server_name().to_owned()),
                Kind::OpenApi(api) => api.title().map(str::to_owned),
            };
            let name = namespace_name(source.name(), own.as_deref(), &taken);
            taken.insert(name.clone());
            mounted.push(Mounted { name, kind });
        }
        let hub = Hub { mounted, options, changes, cached: std::sync::Mutex::new(None) };
        if let Some(error) = hub_error {
            hub.close().await;
            return Err(error);
        }
        Ok(hub)
    }

    /// The mounted namespaces, in order.
    pub fn namespaces(&self) -> Vec<String> {
        self.mounted.iter().map(|m| m.name.clone()).collect()
    }

    /// Changes whenever an upstream server announces a changed tool list
    /// (`notifications/tools/list_changed`).
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// The limits every run gets.
    pub fn limits(&self) -> &Limits {
        &self.options.limits
    }

    /// A runtime over the current tools (MCP tool lists are listed again when a server said
    /// they changed). With an observer, every finished call of its runs is reported to it.
    pub async fn runtime(&self, observer: Option<CallObserver>) -> Result<CodeMode, String> {
        if observer.is_some() {
            return self.build(observer).await;
        }
        // Read before building: a change that arrives meanwhile makes the next call build again.
        let generation = *self.changes.borrow();
        if let Ok(cached) = self.cached.lock()
            && let Some((built_at, runtime)) = cached.as_ref()
            && *built_at == generation
        {
            return Ok(runtime.clone());
        }
        let runtime = self.build(None).await?;
        if let Ok(mut cached) = self.cached.lock() {
            *cached = Some((generation, runtime.clone()));
        }
        Ok(runtime)
    }

    async fn build(&self, observer: Option<CallObserver>) -> Result<CodeMode, String> {
        let mut builder: Builder =
            if self.options.demo { codemode::demo::builder() } else { CodeMode::builder() };
        for (name, namespace) in self.mounted_namespaces(observer).await? {
            builder = builder.namespace(name, namespace);
        }
        if let Some(ranker) = &self.options.semantic {
            builder = builder.semantic_ranker(Arc::clone(ranker));
        }
        builder.limits(self.options.limits.clone()).build().map_err(|e| format!("invalid tool set: {e}"))
    }

    /// Every source's current tools as `(namespace name, namespace)`, in order, for a host
    /// that builds its own runtime with tools of its own beside them.
    pub async fn mounted_namespaces(
        &self,
        observer: Option<CallObserver>,
    ) -> Result<Vec<(String, Namespace)>, String> {
        let mut out = Vec::with_capacity(self.mounted.len());
        for mounted in &self.mounted {
            let namespace = match &mounted.kind {
                Kind::Mcp(upstream) => mcp_namespace(upstream, observer.clone()).await?,
                Kind::OpenApi(api) => {
                    let import =
                        api.import(observer.clone()).map_err(|e| format!("{}: {e}", mounted.name))?;
                    let mut namespace = import.namespace;
                    let about = api.title().map(str::to_owned).unwrap_or_else(|| "HTTP API".to_owned());
                    let about = match api.description() {
                        Some(d) if !d.trim().is_empty() => format!("{about}: {d}"),
                        _ => about,
                    };
                    namespace = namespace.description(about);
                    namespace
                }
            };
            out.push((mounted.name.clone(), namespace));
        }
        Ok(out)
    }

    /// The whole API as TypeScript declarations (`declare const tools: …`), with `search`.
    pub async fn declarations(&self) -> Result<String, String> {
        let runtime = self.runtime(None).await?;
        Ok(runtime.tools().declarations(&DeclarationOptions::default().with_search(true)))
    }

    /// OpenAPI operations whose security requirements no given credential satisfies, as
    /// `namespace: METHOD /path (operationId) needs …` lines.
    pub fn missing_credentials(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for mounted in &self.mounted {
            if let Kind::OpenApi(api) = &mounted.kind {
                for missing in api.missing_credentials() {
                    lines
                        .push(format!("{}: {missing} (give --auth {}.SCHEME=…)", mounted.name, mounted.name));
                }
            }
        }
        lines
    }

    /// OpenAPI operations that were left out, as `namespace: METHOD /path: reason` lines.
    pub fn skipped_operations(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for mounted in &self.mounted {
            if let Kind::OpenApi(api) = &mounted.kind {
                for skipped in api.skipped() {
                    lines.push(format!("{}: {}: {}", mounted.name, skipped.operation, skipped.reason));
                }
            }
        }
        lines
    }

    /// Closes every upstream connection (child processes end).
    pub async fn close(&self) {
        for mounted in &self.mounted {
            if let Kind::Mcp(upstream) = &mounted.kind {
                upstream.close().await;
            }
        }
    }
}

/// An upstream's tools as a namespace whose calls go to it.
async fn mcp_namespace(
    upstream: &Arc<Upstream>,
    observer: Option<CallObserver>,
) -> Result<Namespace, String> {
    let mut tools = upstream.tools().await;
    // While it is down, its tools say so (in the declarations and in `search` results).
    let unavailable = upstream.unavailable_reason();
    if let Some(why) = &unavailable {
        for tool in &mut tools {
            let about = tool.description.take().unwrap_or_default();
            tool.description = Some(format!("[unavailable: {why}] {about}").trim_end().to_owned());
        }
    }
    let route = Arc::clone(upstream);
    let call_observer = observer.clone();
    let import = import_tools(
        tools,
        McpImportOptions::default(),
        move |name: String, arguments: Value, ctx: CallContext| {
            let upstream = Arc::clone(&route);
            let observer = call_observer.clone();
            async move {
                let outcome = upstream.call(name, arguments).await;
                if let Some(observer) = &observer {
                    observer(&ctx.path, outcome.is_ok());
                }
                outcome
            }
        },
    )
    .map_err(|e| format!("MCP server `{}`: {e}", upstream.label()))?;
    let mut namespace = import.namespace;
    let (resources, prompts) = upstream.offers();
    let taken =
        |name: &str| import.names.keys().any(|path| path == name || path.starts_with(&format!("{name}.")));
    if resources && !taken("$resources") {
        let cursor = json!({ "type": "object", "properties": { "cursor": { "type": "string", "description": "`nextCursor` of the previous page" } } });
        let read =
            json!({ "type": "object", "properties": { "uri": { "type": "string" } }, "required": ["uri"] });
        let group = Namespace::with_description(format!("Resources of the MCP server {}", upstream.server_name()))
            .tool("list", request_tool(upstream, &observer, Request::ListResources, "List the server's resources: `{ resources: [{ uri, name, mimeType?, description? }], nextCursor? }`.", cursor.clone()))
            .tool("templates", request_tool(upstream, &observer, Request::ListResourceTemplates, "List the server's resource templates: `{ resourceTemplates: [{ uriTemplate, name, … }], nextCursor? }`.", cursor))
            .tool("read", request_tool(upstream, &observer, Request::ReadResource, "Read one resource: `{ contents: [{ uri, mimeType?, text? | blob? }] }` (`blob` is base64).", read));
        namespace.add_namespace("$resources", group);
    }
    if prompts && !taken("$prompts") {
        let cursor = json!({ "type": "object", "properties": { "cursor": { "type": "string", "description": "`nextCursor` of the previous page" } } });
        let get = json!({ "type": "object", "properties": { "name": { "type": "string" }, "arguments": { "type": "object", "additionalProperties": { "type": "string" } } }, "required": ["name"] });
        let group = Namespace::with_description(format!("Prompts of the MCP server {}", upstream.server_name()))
            .tool("list", request_tool(upstream, &observer, Request::ListPrompts, "List the server's prompts: `{ prompts: [{ name, description?, arguments? }], nextCursor? }`.", cursor))
            .tool("get", request_tool(upstream, &observer, Request::GetPrompt, "Get one prompt with its arguments filled in: `{ description?, messages: [{ role, content }] }`.", get));
        namespace.add_namespace("$prompts", group);
    }
    let about = match unavailable {
        None => format!("Tools of the MCP server {}", upstream.server_name()),
        Some(why) => format!("Tools of the MCP server {} (unavailable: {why})", upstream.server_name()),
    };
    Ok(namespace.description(about))
}

/// A tool that makes one of the server's other requests (resources, prompts).
fn request_tool(
    upstream: &Arc<Upstream>,
    observer: &Option<CallObserver>,
    request: Request,
    description: &str,
    input: Value,
) -> Tool {
    let upstream = Arc::clone(upstream);
    let observer = observer.clone();
    Tool::from_json(
        description,
        Some(input),
        Some(Value::Bool(true)),
        move |input: Value, ctx: CallContext| {
            let upstream = Arc::clone(&upstream);
            let observer = observer.clone();
            async move {
                let outcome = upstream.request(request, input).await;
                if let Some(observer) = &observer {
                    observer(&ctx.path, outcome.is_ok());
                }
                outcome
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_servers_and_stay_unique() {
        let mut taken = BTreeSet::new();
        assert_eq!(namespace_name(None, Some("mcp-servers/everything"), &taken), "everything");
        taken.insert("everything".to_owned());
        assert_eq!(namespace_name(None, Some("everything"), &taken), "everything_2");
        assert_eq!(namespace_name(Some("gh"), Some("x"), &taken), "gh");
        assert_eq!(namespace_name(None, Some("Pet Store API"), &taken), "pet_store_api");
        assert_eq!(namespace_name(None, None, &taken), "api");
        // Names that would shadow a global are sanitized like tool names.
        assert_eq!(namespace_name(None, Some("search"), &taken), "search_");
        assert_eq!(namespace_name(Some("console"), None, &taken), "console_");
    }
}
