//! OpenAPI documents as tools whose calls are real HTTP requests: `codemode_tools::openapi`
//! turns operations into tools and requests, this module sends them with `reqwest` (rustls),
//! with a timeout per request and a bound on the response body.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use codemode::tools::{CallContext, ToolError};

use crate::hub::CallObserver;
use codemode::tools::openapi::{HttpRequest, OpenApiImport, Skipped, from_spec};
use serde_json::Value;

/// How OpenAPI calls are made.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The whole request, connect to last byte.
    pub timeout: Duration,
    /// Largest response body read; a larger one fails the call.
    pub max_body_bytes: usize,
    /// Extra headers sent with every request of every document (for example `Authorization`);
    /// [`crate::Source::OpenApi`] adds its own.
    pub headers: Vec<(String, String)>,
    /// Credentials by security scheme name; [`crate::Source::OpenApi`] adds its own.
    pub credentials: Vec<(String, String)>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(30),
            max_body_bytes: 10 * 1024 * 1024,
            headers: Vec::new(),
            credentials: Vec::new(),
        }
    }
}

/// Where an API key goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyIn {
    Header,
    Query,
    Cookie,
}

/// A security scheme of the document (`components.securitySchemes`), as codemode applies it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Scheme {
    /// `http` `bearer`, and `oauth2` / `openIdConnect` (the credential is an access token):
    /// `Authorization: Bearer <credential>`.
    Bearer,
    /// `http` `basic`: the credential is `user:password`.
    Basic,
    /// `apiKey` in a header, the query or a cookie, under `name`.
    ApiKey { location: KeyIn, name: String },
    /// Something codemode cannot send (`mutualTLS`, other HTTP schemes), and why.
    Unsupported(String),
}

fn parse_schemes(spec: &Value) -> BTreeMap<String, Scheme> {
    let mut schemes = BTreeMap::new();
    let Some(defined) = spec.pointer("/components/securitySchemes").and_then(Value::as_object) else {
        return schemes;
    };
    for (name, def) in defined {
        let kind = def.get("type").and_then(Value::as_str).unwrap_or("");
        let scheme = match kind {
            "http" => match def.get("scheme").and_then(Value::as_str).map(str::to_ascii_lowercase).as_deref()
            {
                Some("bearer") => Scheme::Bearer,
                Some("basic") => Scheme::Basic,
                other => Scheme::Unsupported(format!("HTTP authentication scheme {:?}", other.unwrap_or(""))),
            },
            "oauth2" | "openIdConnect" => Scheme::Bearer,
            "apiKey" => {
                let key = def.get("name").and_then(Value::as_str).unwrap_or("").to_owned();
                match def.get("in").and_then(Value::as_str) {
                    Some("header") if !key.is_empty() => {
                        Scheme::ApiKey { location: KeyIn::Header, name: key }
                    }
                    Some("query") if !key.is_empty() => Scheme::ApiKey { location: KeyIn::Query, name: key },
                    Some("cookie") if !key.is_empty() => {
                        Scheme::ApiKey { location: KeyIn::Cookie, name: key }
                    }
                    _ => Scheme::Unsupported("an apiKey scheme without a valid `in` and `name`".to_owned()),
                }
            }
            other => Scheme::Unsupported(format!("security scheme type {other:?}")),
        };
        schemes.insert(name.clone(), scheme);
    }
    schemes
}

/// The security requirement alternatives of an operation (its own, else the document's); each
/// lists scheme names, an empty one means "no authentication needed".
fn requirements(spec: &Value, op: &Value) -> Vec<Vec<String>> {
    let Some(Value::Array(alternatives)) = op.get("security").or_else(|| spec.get("security")) else {
        return Vec::new();
    };
    alternatives
        .iter()
        .filter_map(Value::as_object)
        .map(|alternative| alternative.keys().cloned().collect())
        .collect()
}

/// RFC 4648 base64 with padding (for HTTP basic credentials).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// What a request carries for its security requirements.
#[derive(Debug, Default, PartialEq, Eq)]
struct Applied {
    headers: Vec<(String, String)>,
    query: Vec<(String, String)>,
    cookies: Vec<String>,
}

/// A loaded OpenAPI document with where its requests go.
pub struct OpenApiSource {
    spec: Value,
    base_url: String,
    title: Option<String>,
    client: reqwest::Client,
    options: HttpOptions,
    schemes: BTreeMap<String, Scheme>,
    credentials: BTreeMap<String, String>,
    /// Operations whose security requirements no credential satisfies.
    missing: Vec<String>,
}

impl std::fmt::Debug for OpenApiSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenApiSource")
            .field("base_url", &self.base_url)
            .field("title", &self.title)
            .field("credentials", &self.credentials.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// Largest OpenAPI document read from disk.
const MAX_SPEC_BYTES: u64 = 64 * 1024 * 1024;

impl OpenApiSource {
    /// Reads a JSON OpenAPI 3.x document. `base_url` defaults to the document's first absolute
    /// `servers[].url`.
    pub fn load(
        file: &Path,
        base_url: Option<&str>,
        headers: &[(String, String)],
        credentials: &[(String, String)],
        options: &HttpOptions,
    ) -> Result<Self, String> {
        let size = std::fs::metadata(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?.len();
        if size > MAX_SPEC_BYTES {
            return Err(format!("{} is larger than {MAX_SPEC_BYTES} bytes", file.display()));
        }
        let text =
            std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let spec = parse_document(file, &text)?;
        let mut options = options.clone();
        options.headers.extend(headers.iter().cloned());
        options.credentials.extend(credentials.iter().cloned());
        Self::from_value(spec, base_url, &options).map_err(|e| format!("{}: {e}", file.display()))
    }

    /// Uses an already parsed document. A credential for a scheme the document does not define
    /// is an error; operations whose security requirements no credential satisfies are listed by
    /// [`OpenApiSource::missing_credentials`] and their descriptions say so.
    pub fn from_value(
        mut spec: Value,
        base_url: Option<&str>,
        options: &HttpOptions,
    ) -> Result<Self, String> {
        if spec.get("paths").and_then(Value::as_object).is_none() {
            return Err("invalid OpenAPI document: the document has no `paths` object".to_owned());
        }
        let servers = spec.get("servers").and_then(Value::as_array).cloned().unwrap_or_default();
        let from_servers = servers
            .iter()
            .filter_map(|s| s.get("url").and_then(Value::as_str))
            .find(|u| u.starts_with("http://") || u.starts_with("https://"))
            .map(str::to_owned);
        let base_url = match base_url {
            Some(base) => base.to_owned(),
            None => from_servers.ok_or(
                "no --base-url given and the document names no absolute server URL (`servers[].url`)",
            )?,
        };
        if let Err(e) = reqwest::Url::parse(&base_url) {
            return Err(format!("the base URL {base_url:?} is not a URL: {e}"));
        }
        let title = spec.pointer("/info/title").and_then(Value::as_str).map(str::to_owned);
        crate::install_crypto_provider();
        let client = reqwest::Client::builder()
            .timeout(options.timeout)
            .connect_timeout(options.timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| format!("cannot set up the HTTP client: {e}"))?;
        let schemes = parse_schemes(&spec);
        let mut credentials = BTreeMap::new();
        for (scheme, value) in &options.credentials {
            match schemes.get(scheme) {
                Some(Scheme::Unsupported(why)) => {
                    return Err(format!("--auth {scheme}: codemode cannot send {why}"));
                }
                Some(_) => {
                    credentials.insert(scheme.clone(), value.clone());
                }
                None => {
                    let defined: Vec<&str> = schemes.keys().map(String::as_str).collect();
                    return Err(format!(
                        "--auth {scheme}: the document defines no security scheme {scheme:?} (it defines: {})",
                        if defined.is_empty() { "none".to_owned() } else { defined.join(", ") }
                    ));
                }
            }
        }
        let missing = mark_missing(&mut spec, &schemes, &credentials);
        Ok(Self { spec, base_url, title, client, options: options.clone(), schemes, credentials, missing })
    }

    /// The document's `info.title`.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The document's `info.description`.
    pub fn description(&self) -> Option<&str> {
        self.spec.pointer("/info/description").and_then(Value::as_str)
    }

    /// Operations that need a credential codemode was not given (`METHOD /path (id) needs …`);
    /// calling one fails without sending the request.
    pub fn missing_credentials(&self) -> &[String] {
        &self.missing
    }

    /// The first alternative of `security` whose schemes all have credentials, applied; none
    /// needed when there are no requirements or one alternative is empty.
    fn authenticate(&self, label: &str, security: &[Vec<String>]) -> Result<Applied, ToolError> {
        if security.is_empty() || security.iter().any(Vec::is_empty) && !self.satisfiable(security) {
            return Ok(Applied::default());
        }
        let Some(alternative) = security
            .iter()
            .find(|alt| !alt.is_empty() && alt.iter().all(|s| self.credentials.contains_key(s)))
        else {
            let wanted: Vec<String> = security.iter().map(|alt| alt.join(" + ")).collect();
            return Err(ToolError::failure(format!(
                "{label} needs credentials for the security scheme {} and codemode was given none, so the \
                 request was not sent (the host gives them with --auth SOURCE.SCHEME=…).",
                wanted.join(" or ")
            )));
        };
        let mut applied = Applied::default();
        for name in alternative {
            let (Some(scheme), Some(value)) = (self.schemes.get(name), self.credentials.get(name)) else {
                continue;
            };
            match scheme {
                Scheme::Bearer => applied.headers.push(("authorization".into(), format!("Bearer {value}"))),
                Scheme::Basic => {
                    applied
                        .headers
                        .push(("authorization".into(), format!("Basic {}", base64(value.as_bytes()))));
                }
                Scheme::ApiKey { location: KeyIn::Header, name } => {
                    applied.headers.push((name.clone(), value.clone()))
                }
                Scheme::ApiKey { location: KeyIn::Query, name } => {
                    applied.query.push((name.clone(), value.clone()))
                }
                Scheme::ApiKey { location: KeyIn::Cookie, name } => {
                    applied.cookies.push(format!("{name}={value}"))
                }
                Scheme::Unsupported(_) => {}
            }
        }
        Ok(applied)
    }

    fn satisfiable(&self, security: &[Vec<String>]) -> bool {
        security.iter().any(|alt| !alt.is_empty() && alt.iter().all(|s| self.credentials.contains_key(s)))
    }

    /// Where requests go.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The tools (one per supported operation) and the operations left out.
    /// With an observer, every finished call is reported to it.
    pub fn import(self: &Arc<Self>, observer: Option<CallObserver>) -> Result<OpenApiImport, String> {
        let source = Arc::clone(self);
        from_spec(&self.spec, move |request, ctx: CallContext| {
            let source = Arc::clone(&source);
            let observer = observer.clone();
            async move {
                let outcome = source.send(request).await;
                if let Some(observer) = &observer {
                    observer(&ctx.path, outcome.is_ok());
                }
                outcome
            }
        })
        .map_err(|e| e.to_string())
    }

    /// The operations that are not tools, and why.
    pub fn skipped(self: &Arc<Self>) -> Vec<Skipped> {
        self.import(None).map(|i| i.skipped).unwrap_or_default()
    }

    /// Sends one request and decodes the answer (JSON, else text; empty is `null`). A non-2xx
    /// status is a tool failure quoting the start of the body.
    async fn send(&self, mut request: HttpRequest) -> Result<Value, ToolError> {
        let label = format!("{} {}", request.method, request.path);
        let applied = self.authenticate(&label, &request.security)?;
        request.query.extend(applied.query);
        let url = self.url(&request);
        let method = reqwest::Method::from_bytes(request.method.as_bytes())
            .map_err(|_| ToolError::failure(format!("unsupported HTTP method {}", request.method)))?;
        let mut builder = self.client.request(method, &url);
        for (name, value) in
            request.headers.iter().chain(self.options.headers.iter()).chain(applied.headers.iter())
        {
            builder = builder.header(name.as_str(), value.as_str());
        }
        if !applied.cookies.is_empty() {
            builder = builder.header("cookie", applied.cookies.join("; "));
        }
        builder = builder.header("accept", "application/json, text/plain;q=0.9, */*;q=0.5");
        if let Some(body) = &request.body {
            builder = builder.json(body);
        }
        let mut response = builder.send().await.map_err(|e| {
            let why = if e.is_timeout() {
                format!("no answer within {}ms", self.options.timeout.as_millis())
            } else if e.is_connect() {
                "cannot connect".to_owned()
            } else {
                "the request failed".to_owned()
            };
            ToolError::failure(format!("{label}: {why}")).with_cause(e)
        })?;
        let status = response.status();
        let is_json = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                let media = v.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
                media == "application/json" || media.ends_with("+json")
            })
            .unwrap_or(false);
        let mut body: Vec<u8> = Vec::new();
        loop {
            let chunk = response.chunk().await.map_err(|e| {
                let why =
                    if e.is_timeout() { "the answer took too long" } else { "reading the answer failed" };
                ToolError::failure(format!("{label}: {why}")).with_cause(e)
            })?;
            let Some(chunk) = chunk else { break };
            if body.len() + chunk.len() > self.options.max_body_bytes {
                return Err(ToolError::failure(format!(
                    "{label}: the answer is larger than {} bytes",
                    self.options.max_body_bytes
                )));
            }
            body.extend_from_slice(&chunk);
        }
        let text = String::from_utf8_lossy(&body);
        if !status.is_success() {
            let excerpt: String = text.chars().take(500).collect();
            let reason = status.canonical_reason().unwrap_or("");
            return Err(ToolError::failure(format!("{label}: HTTP {} {reason}: {excerpt}", status.as_u16())));
        }
        if body.is_empty() {
            return Ok(Value::Null);
        }
        match serde_json::from_slice::<Value>(&body) {
            Ok(value) => Ok(value),
            Err(_) if is_json => {
                Err(ToolError::invalid_output(format!("{label}: the answer is not valid JSON")))
            }
            Err(_) => Ok(Value::String(text.into_owned())),
        }
    }

    fn url(&self, request: &HttpRequest) -> String {
        let mut url = format!("{}{}", self.base_url.trim_end_matches('/'), request.path);
        for (i, (name, value)) in request.query.iter().enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            url.push_str(&encode_query(name));
            url.push('=');
            url.push_str(&encode_query(value));
        }
        url
    }
}

/// An OpenAPI document as JSON: JSON when it looks like JSON (or the file is `.json`), else YAML
/// (`.yaml`/`.yml` or anything else), read by `serde_yaml_ng` (its own limits on nesting and on
/// alias expansion apply) into a JSON value. YAML-only things JSON cannot hold (non-string keys,
/// tags) are errors naming the file.
fn parse_document(file: &Path, text: &str) -> Result<Value, String> {
    let extension = file.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let looks_json = text.trim_start().starts_with('{');
    if extension.as_deref() == Some("json")
        || (looks_json && extension.as_deref() != Some("yaml") && extension.as_deref() != Some("yml"))
    {
        return serde_json::from_str(text)
            .map_err(|e| format!("{} is not a valid JSON OpenAPI document: {e}", file.display()));
    }
    serde_yaml_ng::from_str::<Value>(text)
        .map_err(|e| format!("{} is not a valid YAML OpenAPI document: {e}", file.display()))
}

/// The operations of `spec` whose security requirements no credential satisfies; each gets a
/// note at the start of its description (what the declarations and `search` show).
fn mark_missing(
    spec: &mut Value,
    schemes: &BTreeMap<String, Scheme>,
    credentials: &BTreeMap<String, String>,
) -> Vec<String> {
    const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
    let mut missing = Vec::new();
    let mut notes: Vec<(String, &str, String)> = Vec::new();
    if let Some(paths) = spec.get("paths").and_then(Value::as_object) {
        for (path, item) in paths {
            for method in METHODS {
                let Some(op) = item.get(method) else { continue };
                let security = requirements(spec, op);
                let usable = |name: &String| {
                    credentials.contains_key(name)
                        && !matches!(schemes.get(name), Some(Scheme::Unsupported(_)) | None)
                };
                if security.is_empty() || security.iter().any(|alt| alt.is_empty() || alt.iter().all(usable))
                {
                    continue;
                }
                let wanted: Vec<String> = security.iter().map(|alt| alt.join(" + ")).collect();
                let id = op
                    .get("operationId")
                    .and_then(Value::as_str)
                    .map(|id| format!(" ({id})"))
                    .unwrap_or_default();
                missing.push(format!("{} {path}{id} needs {}", method.to_uppercase(), wanted.join(" or ")));
                notes.push((path.clone(), method, wanted.join(" or ")));
            }
        }
    }
    for (path, method, wanted) in notes {
        if let Some(op) = spec.get_mut("paths").and_then(|p| p.get_mut(&path)).and_then(|i| i.get_mut(method))
            && let Some(op) = op.as_object_mut()
        {
            let about =
                op.get("description").or_else(|| op.get("summary")).and_then(Value::as_str).unwrap_or("");
            let note =
                format!("[needs credentials ({wanted}) that codemode was not given; calls fail] {about}");
            op.insert("description".into(), Value::String(note.trim_end().to_owned()));
        }
    }
    missing
}

/// Percent-encodes a query name or value (RFC 3986 unreserved characters stay).
fn encode_query(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_credentials_are_base64() {
        assert_eq!(base64(b"user:pass"), "dXNlcjpwYXNz");
        assert_eq!(base64(b"a"), "YQ==");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b""), "");
    }

    #[test]
    fn query_is_encoded() {
        assert_eq!(encode_query("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
    }

    #[test]
    fn base_url_comes_from_servers_or_fails_clearly() {
        let spec = serde_json::json!({"openapi": "3.0.0", "paths": {}, "servers": [{"url": "/rel"}, {"url": "http://h:1/v1"}]});
        let source = OpenApiSource::from_value(spec.clone(), None, &HttpOptions::default());
        assert_eq!(source.map(|s| s.base_url().to_owned()).ok(), Some("http://h:1/v1".to_owned()));
        let no_servers = serde_json::json!({"openapi": "3.0.0", "paths": {}});
        let error = OpenApiSource::from_value(no_servers, None, &HttpOptions::default()).err();
        assert!(error.is_some_and(|e| e.contains("--base-url")));
        let bad = OpenApiSource::from_value(spec, Some("http://exa mple"), &HttpOptions::default()).err();
        assert!(bad.is_some_and(|e| e.contains("is not a URL")));
        let error = OpenApiSource::from_value(serde_json::json!({}), None, &HttpOptions::default()).err();
        assert!(error.is_some_and(|e| e.contains("paths")));
    }
}
