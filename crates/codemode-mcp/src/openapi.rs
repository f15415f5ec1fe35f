//! OpenAPI documents as tools whose calls are real HTTP requests: `codemode_tools::openapi`
//! turns operations into tools and requests, this module sends them with `reqwest` (rustls),
//! with a timeout per request and a bound on the response body.

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
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self { timeout: Duration::from_secs(30), max_body_bytes: 10 * 1024 * 1024, headers: Vec::new() }
    }
}

/// A loaded OpenAPI document with where its requests go.
#[derive(Debug)]
pub struct OpenApiSource {
    spec: Value,
    base_url: String,
    title: Option<String>,
    client: reqwest::Client,
    options: HttpOptions,
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
        options: &HttpOptions,
    ) -> Result<Self, String> {
        let size = std::fs::metadata(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?.len();
        if size > MAX_SPEC_BYTES {
            return Err(format!("{} is larger than {MAX_SPEC_BYTES} bytes", file.display()));
        }
        let text =
            std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let spec: Value = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{} is not a JSON OpenAPI document (YAML is not supported; convert it to JSON): {e}",
                file.display()
            )
        })?;
        let mut options = options.clone();
        options.headers.extend(headers.iter().cloned());
        Self::from_value(spec, base_url, &options).map_err(|e| format!("{}: {e}", file.display()))
    }

    /// Uses an already parsed document.
    pub fn from_value(spec: Value, base_url: Option<&str>, options: &HttpOptions) -> Result<Self, String> {
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
        Ok(Self { spec, base_url, title, client, options: options.clone() })
    }

    /// The document's `info.title`.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The document's `info.description`.
    pub fn description(&self) -> Option<&str> {
        self.spec.pointer("/info/description").and_then(Value::as_str)
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
    async fn send(&self, request: HttpRequest) -> Result<Value, ToolError> {
        let url = self.url(&request);
        let method = reqwest::Method::from_bytes(request.method.as_bytes())
            .map_err(|_| ToolError::failure(format!("unsupported HTTP method {}", request.method)))?;
        let mut builder = self.client.request(method, &url);
        for (name, value) in request.headers.iter().chain(self.options.headers.iter()) {
            builder = builder.header(name.as_str(), value.as_str());
        }
        builder = builder.header("accept", "application/json, text/plain;q=0.9, */*;q=0.5");
        if let Some(body) = &request.body {
            builder = builder.json(body);
        }
        let label = format!("{} {}", request.method, request.path);
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
