//! A `fetch`-like extension backed by the host's own HTTP client, and a deny-by-default URL
//! policy enforced through a before hook.
//!
//! ```ignore
//! let runtime = CodeMode::builder()
//!     .extension(codemode::fetch::extension(MyClient::new()))
//!     .before_call(codemode::fetch::UrlPolicy::deny_all().allow("https://docs.example.com/").into_hook())
//!     .build()?;
//! ```
//!
//! In the program, `await fetch(url, { method, headers, body })` gives
//! `{ url, status, ok, headers, body }` with the body as text (`JSON.parse(res.body)` for JSON):
//! values cross the boundary as copies, so there are no `text()`/`json()` methods.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use codemode_tools::{CallContext, ToolError};
use serde_json::{Value as Json, json};

use crate::extension::Extension;
use crate::hooks::{CallKind, CallStart, Deny};

/// A request the program made.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
}

/// What the host's client answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// The host's HTTP client: codemode does no I/O itself.
pub trait HttpClient: Send + Sync + 'static {
    fn send(
        &self,
        request: HttpRequest,
        ctx: CallContext,
    ) -> Pin<Box<dyn Future<Output = Result<HttpResponse, ToolError>> + Send + 'static>>;
}

/// An extension named `fetch` with one asynchronous global, `fetch(url, init?)`.
pub fn extension(client: impl HttpClient) -> Extension {
    let client = Arc::new(client);
    Extension::new("fetch").global("fetch", move |args: Vec<Json>, ctx| {
        let client = client.clone();
        async move {
            let request = request_from(&args)?;
            let url = request.url.clone();
            let response = client.send(request, ctx).await?;
            let headers: serde_json::Map<String, Json> = response
                .headers
                .into_iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), Json::String(v)))
                .collect();
            Ok(json!({
                "url": url,
                "status": response.status,
                "ok": (200..300).contains(&response.status),
                "headers": headers,
                "body": response.body,
            }))
        }
    })
}

/// `fetch(url, { method, headers, body })` from the program's arguments.
fn request_from(args: &[Json]) -> Result<HttpRequest, ToolError> {
    let Some(Json::String(url)) = args.first() else {
        return Err(ToolError::invalid_input("fetch expects a URL string as its first argument"));
    };
    let init = args.get(1).and_then(Json::as_object);
    let method =
        init.and_then(|i| i.get("method")).and_then(Json::as_str).unwrap_or("GET").to_ascii_uppercase();
    let headers = init
        .and_then(|i| i.get("headers"))
        .and_then(Json::as_object)
        .map(|h| {
            h.iter()
                .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string)))
                .collect()
        })
        .unwrap_or_default();
    let body = match init.and_then(|i| i.get("body")) {
        None | Some(Json::Null) => None,
        Some(Json::String(s)) => Some(s.clone()),
        Some(other) => Some(other.to_string()),
    };
    Ok(HttpRequest { method, url: url.clone(), headers, body })
}

/// Which URLs `fetch` may reach: none, unless allowed. An allowed entry is an origin with an
/// optional path prefix (`https://docs.example.com/api/`); a URL is allowed when its scheme and
/// host (and port) are exactly the entry's and its path starts with the entry's path at a `/`
/// boundary. URLs with user info (`https://allowed@evil`) or `..` in the path are never allowed.
#[derive(Clone, Debug, Default)]
pub struct UrlPolicy {
    allowed: Vec<(String, String)>,
}

impl UrlPolicy {
    /// Nothing is allowed.
    pub fn deny_all() -> Self {
        Self::default()
    }

    /// Also allows `prefix` (an origin with an optional path). An entry that is no URL allows
    /// nothing.
    #[must_use]
    pub fn allow(mut self, prefix: &str) -> Self {
        if let Some(entry) = split_url(prefix) {
            self.allowed.push(entry);
        }
        self
    }

    /// Whether `url` may be fetched.
    pub fn allows(&self, url: &str) -> bool {
        let Some((origin, path)) = split_url(url) else { return false };
        self.allowed.iter().any(|(o, p)| {
            *o == origin
                && path.starts_with(p.as_str())
                && (p.ends_with('/') || path.len() == p.len() || path[p.len()..].starts_with(['/', '?', '#']))
        })
    }

    /// A before hook that denies every `fetch` call whose URL this policy does not allow (other
    /// calls pass).
    pub fn into_hook(
        self,
    ) -> impl Fn(CallStart) -> Pin<Box<dyn Future<Output = Result<(), Deny>> + Send>> + Send + Sync + 'static
    {
        let policy = Arc::new(self);
        move |call: CallStart| {
            let policy = policy.clone();
            Box::pin(async move {
                if call.kind != CallKind::Extension || call.name != "fetch" {
                    return Ok(());
                }
                let url = call.input.get(0).and_then(Json::as_str).unwrap_or_default();
                if policy.allows(url) {
                    Ok(())
                } else {
                    Err(Deny::new(format!("fetch: {url} is not allowed by the host's URL policy")))
                }
            })
        }
    }
}

/// `(scheme://authority lowercased, path)` of an absolute http(s) URL; `None` for anything else
/// (other schemes, user info, no host).
fn split_url(url: &str) -> Option<(String, String)> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    if authority.is_empty() || authority.contains('@') || authority.contains('\\') {
        return None;
    }
    // `..` segments (also percent-encoded) could climb out of an allowed path prefix.
    let lower = path.to_ascii_lowercase();
    if lower.contains("..") || lower.contains("%2e") {
        return None;
    }
    let path = if path.is_empty() { "/".to_string() } else { path.to_string() };
    Some((format!("{scheme}://{}", authority.to_ascii_lowercase()), path))
}

#[cfg(test)]
mod tests {
    use super::UrlPolicy;

    #[test]
    fn the_policy_matches_origins_exactly_and_paths_at_boundaries() {
        let p = UrlPolicy::deny_all().allow("https://docs.example.com/api").allow("http://127.0.0.1:8080/");
        assert!(p.allows("https://docs.example.com/api"));
        assert!(p.allows("https://DOCS.example.com/api/v1?q=1"));
        assert!(p.allows("http://127.0.0.1:8080/anything"));
        assert!(!p.allows("https://docs.example.com/apis"));
        assert!(!p.allows("https://docs.example.com.evil.com/api"));
        assert!(!p.allows("https://docs.example.com@evil.com/api"));
        assert!(!p.allows("http://docs.example.com/api"));
        assert!(!p.allows("http://127.0.0.1:8081/"));
        assert!(!p.allows("file:///etc/passwd"));
        assert!(!p.allows("not a url"));
        assert!(!p.allows("https://docs.example.com/api/../admin"));
        assert!(!p.allows("https://docs.example.com/api/%2E%2E/admin"));
        assert!(!UrlPolicy::deny_all().allows("https://docs.example.com/"));
    }
}
