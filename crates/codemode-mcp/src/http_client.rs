//! The HTTP client of streamable HTTP upstreams: rmcp's reqwest client, wrapped so that
//!
//! - **an answer that cannot be used fails its call at once.** rmcp hands a request's
//!   undecodable JSON body to the caller as a transport error (which looks like a lost
//!   connection), ends an SSE stream whose event does not decode with "stream closed", and
//!   drops an answer whose id no request had, leaving the call to wait for its deadline. Here
//!   each of those becomes a JSON-RPC error answer to the request that was posted (marked
//!   [`UNREADABLE_ANSWER`], as the stdio transport does), naming what was wrong;
//! - **credentials are supplied and renewed** ([`UpstreamAuth`]): a bearer token read from a
//!   file (read again when the server answers `401`, so a token another process rotates is
//!   picked up), or OAuth 2.1 client credentials (the MCP authorization spec's machine-to-machine
//!   flow): the token endpoint is discovered from the server's `401` challenge (RFC 9728
//!   protected-resource metadata, then RFC 8414 authorization-server metadata), or given; a
//!   token is fetched, renewed before it expires and after a `401` (with its refresh token when
//!   the server gave one). A `401` that no credential answers becomes an error naming the
//!   server, its challenge and what to pass.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt as _;
use futures::stream::BoxStream;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{
    ClientJsonRpcMessage, ErrorCode, ErrorData, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use serde_json::{Value, json};
use sse_stream::Sse;

use crate::wire::{UNREADABLE_ANSWER, scan};

/// How codemode authenticates to an HTTP upstream (beyond fixed `--header`s).
#[derive(Clone, PartialEq, Eq)]
pub enum UpstreamAuth {
    /// `Authorization: Bearer <the file's contents, trimmed>`, read at connect and again after
    /// a `401`.
    TokenFile(PathBuf),
    /// OAuth 2.1 client credentials grant.
    ClientCredentials {
        client_id: String,
        client_secret: String,
        /// Space-separated scopes to ask for (none by default).
        scope: Option<String>,
        /// The token endpoint; `None` discovers it from the server's `401` challenge.
        token_url: Option<String>,
    },
}

impl std::fmt::Debug for UpstreamAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UpstreamAuth::TokenFile(path) => f.debug_tuple("TokenFile").field(path).finish(),
            UpstreamAuth::ClientCredentials { client_id, scope, token_url, .. } => f
                .debug_struct("ClientCredentials")
                .field("client_id", client_id)
                .field("client_secret", &"<redacted>")
                .field("scope", scope)
                .field("token_url", token_url)
                .finish(),
        }
    }
}

/// Largest OAuth metadata or token response read.
const MAX_AUTH_BODY: usize = 256 << 10;
/// How long one OAuth request (metadata, token) may take.
const AUTH_TIMEOUT: Duration = Duration::from_secs(30);
/// A token is renewed this long before the expiry its server announced.
const EXPIRY_MARGIN: Duration = Duration::from_secs(30);

/// The token in use and how to get the next one.
#[derive(Default)]
struct TokenState {
    access: Option<String>,
    expires: Option<Instant>,
    refresh: Option<String>,
    token_url: Option<String>,
}

/// The client rmcp's streamable HTTP transport uses for one upstream (see the module docs).
#[derive(Clone)]
pub struct CheckedClient {
    inner: reqwest::Client,
    /// `MCP server at <url>`, for messages.
    who: Arc<str>,
    /// The `--upstream-url` name (or the URL), for the flags a message suggests.
    flag_name: Arc<str>,
    url: Arc<str>,
    auth: Option<Arc<UpstreamAuth>>,
    token: Arc<tokio::sync::Mutex<TokenState>>,
    /// The last "requires authorization" message, for a failed start.
    refusal: Arc<std::sync::Mutex<Option<String>>>,
}

impl CheckedClient {
    pub fn new(url: &str, name: Option<&str>, auth: Option<UpstreamAuth>) -> Self {
        let token_url = match &auth {
            Some(UpstreamAuth::ClientCredentials { token_url, .. }) => token_url.clone(),
            _ => None,
        };
        CheckedClient {
            inner: reqwest::Client::new(),
            who: Arc::from(format!("MCP server at {url}")),
            flag_name: Arc::from(name.unwrap_or("NAME")),
            url: Arc::from(url),
            auth: auth.map(Arc::new),
            token: Arc::new(tokio::sync::Mutex::new(TokenState { token_url, ..TokenState::default() })),
            refusal: Arc::default(),
        }
    }

    /// The message of the last refusal of codemode's credentials (or of their absence).
    pub fn refusal(&self) -> Option<String> {
        self.refusal.lock().ok().and_then(|r| r.clone())
    }

    /// The bearer token to send: the caller's (rmcp's config), else ours when we have one that
    /// has not expired (fetched or read now when we know how).
    async fn bearer(&self, given: Option<String>) -> Result<Option<String>, String> {
        if given.is_some() {
            return Ok(given);
        }
        let Some(auth) = &self.auth else { return Ok(None) };
        let mut state = self.token.lock().await;
        let fresh = state.expires.is_none_or(|at| Instant::now() + EXPIRY_MARGIN < at);
        if let Some(access) = state.access.as_ref().filter(|_| fresh) {
            return Ok(Some(access.clone()));
        }
        match auth.as_ref() {
            UpstreamAuth::TokenFile(path) => {
                state.access = Some(read_token_file(path)?);
            }
            UpstreamAuth::ClientCredentials { .. } if state.token_url.is_some() => {
                self.fetch_token(&mut state).await?;
            }
            // The first request goes without; the server's challenge says where tokens come from.
            UpstreamAuth::ClientCredentials { .. } => return Ok(None),
        }
        Ok(state.access.clone())
    }

    /// After a `401` to `sent`: a new token when one can be had (`None` when not).
    async fn renew(&self, sent: Option<&str>, challenge: &str) -> Result<Option<String>, String> {
        let Some(auth) = &self.auth else { return Ok(None) };
        let mut state = self.token.lock().await;
        if state.access.is_some() && state.access.as_deref() != sent {
            // Another request renewed it meanwhile.
            return Ok(state.access.clone());
        }
        match auth.as_ref() {
            UpstreamAuth::TokenFile(path) => {
                let token = read_token_file(path)?;
                if Some(token.as_str()) == sent {
                    return Ok(None);
                }
                state.access = Some(token);
            }
            UpstreamAuth::ClientCredentials { .. } => {
                if state.token_url.is_none() {
                    state.token_url = Some(self.discover(challenge).await?);
                }
                self.fetch_token(&mut state).await?;
                if state.access.as_deref() == sent {
                    return Ok(None);
                }
            }
        }
        Ok(state.access.clone())
    }

    /// The token endpoint, from the `401` challenge's `resource_metadata` (else the server's
    /// origin's `/.well-known/oauth-protected-resource`), then the authorization server's
    /// metadata.
    async fn discover(&self, challenge: &str) -> Result<String, String> {
        let origin = origin_of(&self.url).ok_or_else(|| format!("{} is not an http(s) URL", self.url))?;
        let resource_url = challenge_param(challenge, "resource_metadata")
            .unwrap_or_else(|| format!("{origin}/.well-known/oauth-protected-resource"));
        let resource = self.get_json(&resource_url).await?;
        let issuer = resource
            .get("authorization_servers")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)
            .ok_or_else(|| {
                format!("the protected-resource metadata at {resource_url} names no authorization server")
            })?
            .trim_end_matches('/')
            .to_owned();
        let issuer_origin = origin_of(&issuer)
            .ok_or_else(|| format!("authorization server {issuer:?} is not an http(s) URL"))?;
        let path = &issuer[issuer_origin.len()..];
        let candidates = [
            format!("{issuer_origin}/.well-known/oauth-authorization-server{path}"),
            format!("{issuer_origin}/.well-known/openid-configuration{path}"),
            format!("{issuer}/.well-known/openid-configuration"),
        ];
        let mut last = String::new();
        for url in candidates {
            match self.get_json(&url).await {
                Ok(metadata) => {
                    return metadata
                        .get("token_endpoint")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                        .ok_or_else(|| {
                            format!("the authorization server metadata at {url} has no token_endpoint")
                        });
                }
                Err(e) => last = e,
            }
        }
        Err(format!("the metadata of authorization server {issuer} could not be read: {last}"))
    }

    async fn get_json(&self, url: &str) -> Result<Value, String> {
        let request = self.inner.get(url).header(reqwest::header::ACCEPT, "application/json");
        let response = tokio::time::timeout(AUTH_TIMEOUT, request.send())
            .await
            .map_err(|_| format!("GET {url} did not answer within {}s", AUTH_TIMEOUT.as_secs()))?
            .map_err(|e| format!("GET {url} failed: {e}"))?;
        let status = response.status();
        let body = read_bounded(response).await.map_err(|e| format!("GET {url}: {e}"))?;
        if !status.is_success() {
            return Err(format!("GET {url} answered HTTP {status}"));
        }
        serde_json::from_slice(&body).map_err(|e| format!("GET {url} did not answer with JSON: {e}"))
    }

    /// One token request: the refresh token when there is one, else client credentials.
    async fn fetch_token(&self, state: &mut TokenState) -> Result<(), String> {
        let Some(UpstreamAuth::ClientCredentials { client_id, client_secret, scope, .. }) =
            self.auth.as_deref()
        else {
            return Ok(());
        };
        let Some(token_url) = state.token_url.clone() else {
            return Err("the token endpoint is not known".to_owned());
        };
        if let Some(refresh) = state.refresh.take() {
            let form = vec![
                ("grant_type", "refresh_token"),
                ("refresh_token", refresh.as_str()),
                ("client_id", client_id.as_str()),
                ("client_secret", client_secret.as_str()),
                ("resource", &*self.url),
            ];
            if self.token_request(&token_url, &form, state).await.is_ok() {
                return Ok(());
            }
        }
        let mut form = vec![
            ("grant_type", "client_credentials"),
            ("client_id", client_id.as_str()),
            ("client_secret", client_secret.as_str()),
            ("resource", &*self.url),
        ];
        if let Some(scope) = scope {
            form.push(("scope", scope.as_str()));
        }
        self.token_request(&token_url, &form, state).await
    }

    async fn token_request(
        &self,
        url: &str,
        form: &[(&str, &str)],
        state: &mut TokenState,
    ) -> Result<(), String> {
        let body =
            form.iter().map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v))).collect::<Vec<_>>();
        let request = self
            .inner
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(reqwest::header::ACCEPT, "application/json")
            .body(body.join("&"));
        let response = tokio::time::timeout(AUTH_TIMEOUT, request.send())
            .await
            .map_err(|_| {
                format!("the token endpoint {url} did not answer within {}s", AUTH_TIMEOUT.as_secs())
            })?
            .map_err(|e| format!("the token request to {url} failed: {e}"))?;
        let status = response.status();
        let body = read_bounded(response).await.map_err(|e| format!("the token endpoint {url}: {e}"))?;
        let answer: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        if !status.is_success() {
            let error = answer.get("error").and_then(Value::as_str).unwrap_or("no error code");
            let described = answer.get("error_description").and_then(Value::as_str).unwrap_or("");
            return Err(format!(
                "the token endpoint {url} refused the request (HTTP {status}: {error} {described})"
            ));
        }
        let Some(access) = answer.get("access_token").and_then(Value::as_str).filter(|t| !t.is_empty())
        else {
            return Err(format!("the token endpoint {url} answered without an access_token"));
        };
        if access.chars().any(char::is_control) {
            return Err(format!(
                "the token endpoint {url} answered with an access_token holding control characters"
            ));
        }
        state.access = Some(access.to_owned());
        state.expires = answer
            .get("expires_in")
            .and_then(Value::as_u64)
            .map(|secs| Instant::now() + Duration::from_secs(secs.min(365 * 24 * 3600)));
        state.refresh = answer.get("refresh_token").and_then(Value::as_str).map(str::to_owned);
        Ok(())
    }

    /// The error answer for a request codemode could not get credentials for.
    fn no_credentials(&self, id: RequestId, why: &str) -> ServerJsonRpcMessage {
        let message = format!("codemode could not get credentials for the {}: {why}", self.who);
        if let Ok(mut last) = self.refusal.lock() {
            *last = Some(message.clone());
        }
        let error =
            ErrorData::new(ErrorCode::INVALID_REQUEST, message, Some(json!("codemode: unauthorized")));
        JsonRpcMessage::error(error, Some(id))
    }

    /// The error answer for a request whose credentials the server refused.
    fn auth_refused(
        &self,
        id: RequestId,
        challenge: &str,
        why: Option<&str>,
        header: bool,
    ) -> ServerJsonRpcMessage {
        let name = &self.flag_name;
        let had = match self.auth.as_deref() {
            None if header => "the Authorization header given with --header was refused".to_owned(),
            None => "codemode sent no credentials of its own".to_owned(),
            Some(UpstreamAuth::TokenFile(path)) => {
                format!("the token in {} was refused (and the file holds no newer one)", path.display())
            }
            Some(UpstreamAuth::ClientCredentials { .. }) => {
                "the OAuth client-credentials token was refused".to_owned()
            }
        };
        let why = why.map(|w| format!(" ({w})")).unwrap_or_default();
        let message = format!(
            "{} requires authorization (HTTP 401, WWW-Authenticate: {challenge}); {had}{why}. Give it a token \
             with --header '{name}=Authorization: Bearer ${{TOKEN}}' or --upstream-token-file '{name}=PATH', \
             or OAuth client credentials with --upstream-oauth '{name}=client_id=ID,client_secret=${{SECRET}}' \
             (codemode cannot open a browser for an interactive login).",
            self.who
        );
        if let Ok(mut last) = self.refusal.lock() {
            *last = Some(message.clone());
        }
        JsonRpcMessage::error(
            ErrorData::new(ErrorCode::INVALID_REQUEST, message, Some(json!("codemode: unauthorized"))),
            Some(id),
        )
    }
}

fn read_token_file(path: &std::path::Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("the token file {} cannot be read: {e}", path.display()))?;
    let token = text.trim();
    if token.is_empty() || token.len() > 64 << 10 || token.chars().any(char::is_control) {
        return Err(format!(
            "the token file {} must hold one token (not empty, one line, at most 64 KiB)",
            path.display()
        ));
    }
    Ok(token.to_owned())
}

async fn read_bounded(mut response: reqwest::Response) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| format!("reading the answer failed: {e}"))? {
        if body.len() + chunk.len() > MAX_AUTH_BODY {
            return Err(format!("the answer is over {} KiB", MAX_AUTH_BODY >> 10));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// `application/x-www-form-urlencoded` encoding of one key or value.
fn form_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => out.push(char::from(b)),
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// `scheme://host[:port]` of an http(s) URL.
fn origin_of(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .map(|r| ("https://", r))
        .or_else(|| url.strip_prefix("http://").map(|r| ("http://", r)))?;
    let host = rest.1.split(['/', '?', '#']).next().filter(|h| !h.is_empty())?;
    Some(format!("{}{host}", rest.0))
}

/// A parameter of a `WWW-Authenticate` challenge (`key="value"` or `key=value`).
fn challenge_param(challenge: &str, key: &str) -> Option<String> {
    let mut rest = challenge;
    while let Some(at) = rest.find(key) {
        let before_ok = at == 0 || matches!(rest.as_bytes()[at - 1], b' ' | b',');
        let after = rest[at + key.len()..].trim_start();
        if before_ok && let Some(value) = after.strip_prefix('=') {
            let value = value.trim_start();
            if let Some(quoted) = value.strip_prefix('"') {
                return quoted.split('"').next().map(str::to_owned);
            }
            return value.split([',', ' ']).next().map(str::to_owned);
        }
        rest = &rest[at + key.len()..];
    }
    None
}

/// An error answer to `id` for an answer that could not be used.
fn unreadable(id: RequestId, why: String) -> ServerJsonRpcMessage {
    let error = ErrorData::new(
        ErrorCode::INTERNAL_ERROR,
        format!("its answer could not be used: {why}"),
        Some(json!(UNREADABLE_ANSWER)),
    );
    JsonRpcMessage::error(error, Some(id))
}

/// The id a server message answers, when it is an answer.
fn answered_id(message: &ServerJsonRpcMessage) -> Option<Option<&RequestId>> {
    match message {
        JsonRpcMessage::Response(r) => Some(Some(&r.id)),
        JsonRpcMessage::Error(e) => Some(e.id.as_ref()),
        _ => None,
    }
}

fn shown(id: Option<&RequestId>) -> String {
    id.map_or_else(|| "no id".to_owned(), |id| format!("id {id}"))
}

/// Checks one SSE event of the stream answering request `id`: an event that does not decode or
/// answers another id becomes the error answer to `id`; an undecodable message of the server's
/// own (it has a `method`) is dropped.
fn check_event(mut event: Sse, id: &RequestId, who: &str) -> Option<Sse> {
    let Some(data) = event.data.as_deref().filter(|d| !d.trim().is_empty()) else {
        return Some(event);
    };
    let replacement = match serde_json::from_str::<ServerJsonRpcMessage>(data) {
        Ok(message) => match answered_id(&message) {
            Some(answered) if answered != Some(id) => {
                eprintln!("codemode: {who} answered request {id} with {}", shown(answered));
                unreadable(
                    id.clone(),
                    format!("the server answered with {}, which no request had", shown(answered)),
                )
            }
            _ => return Some(event),
        },
        Err(e) => {
            if scan(data.as_bytes()).method {
                eprintln!("codemode: ignored a message from {who} that cannot be read: {e}");
                return None;
            }
            eprintln!("codemode: {who} sent an answer codemode cannot use: {e}");
            unreadable(id.clone(), format!("it is not a valid JSON-RPC message ({e})"))
        }
    };
    event.data = serde_json::to_string(&replacement).ok();
    Some(event)
}

fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        JsonRpcMessage::Request(r) => Some(r.id.clone()),
        _ => None,
    }
}

type PostResult = Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>>;

impl CheckedClient {
    async fn post(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> PostResult {
        let id = request_id(&message);
        let token = match self.bearer(auth_header).await {
            Ok(token) => token,
            Err(why) => {
                return match id {
                    Some(id) => Ok(StreamableHttpPostResponse::Json(self.no_credentials(id, &why), None)),
                    None => Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(why))),
                };
            }
        };
        let send = |token: Option<String>| {
            self.inner.post_message_with_response_limits(
                uri.clone(),
                message.clone(),
                session_id.clone(),
                token,
                custom_headers.clone(),
                limits,
            )
        };
        let mut result = send(token.clone()).await;
        let mut renew_error = None;
        let challenge = match &result {
            Err(StreamableHttpError::AuthRequired(c)) => Some(c.www_authenticate_header.clone()),
            _ => None,
        };
        if let Some(challenge) = challenge {
            match self.renew(token.as_deref(), &challenge).await {
                Ok(Some(fresh)) => result = send(Some(fresh)).await,
                Ok(None) => {}
                Err(why) => renew_error = Some(why),
            }
        }
        let Some(id) = id else { return result };
        let who = &self.who;
        let header = custom_headers.contains_key(&reqwest::header::AUTHORIZATION);
        match result {
            Ok(StreamableHttpPostResponse::Json(answer, session)) => {
                let answer = match answered_id(&answer) {
                    Some(answered) if answered != Some(&id) => {
                        eprintln!("codemode: {who} answered request {id} with {}", shown(answered));
                        unreadable(
                            id,
                            format!("the server answered with {}, which no request had", shown(answered)),
                        )
                    }
                    _ => answer,
                };
                Ok(StreamableHttpPostResponse::Json(answer, session))
            }
            Ok(StreamableHttpPostResponse::Sse(stream, session)) => {
                let who = Arc::clone(&self.who);
                let checked: BoxStream<'static, Result<Sse, SseError>> = stream
                    .filter_map(move |event| {
                        let checked = match event {
                            Ok(event) => check_event(event, &id, &who).map(Ok),
                            Err(e) => Some(Err(e)),
                        };
                        std::future::ready(checked)
                    })
                    .boxed();
                Ok(StreamableHttpPostResponse::Sse(checked, session))
            }
            Err(StreamableHttpError::AuthRequired(challenge)) => Ok(StreamableHttpPostResponse::Json(
                self.auth_refused(id, &challenge.www_authenticate_header, renew_error.as_deref(), header),
                None,
            )),
            Err(StreamableHttpError::InsufficientScope(refusal)) => {
                let scope = refusal.required_scope.as_deref().unwrap_or("one it did not name");
                let message = format!(
                    "{who} refused the request for lack of scope (HTTP 403, WWW-Authenticate: {}); it needs the \
                     scope {scope} (with --upstream-oauth, ask for it with scope=…)",
                    refusal.www_authenticate_header
                );
                let error = ErrorData::new(
                    ErrorCode::INVALID_REQUEST,
                    message,
                    Some(json!("codemode: unauthorized")),
                );
                Ok(StreamableHttpPostResponse::Json(JsonRpcMessage::error(error, Some(id)), None))
            }
            Err(StreamableHttpError::UnexpectedServerResponse(why)) if why.starts_with("HTTP 401") => Ok(
                StreamableHttpPostResponse::Json(self.auth_refused(id, "(none)", Some(&why), header), None),
            ),
            Err(StreamableHttpError::UnexpectedServerResponse(why)) => {
                eprintln!("codemode: {who} sent an answer codemode cannot use: {why}");
                Ok(StreamableHttpPostResponse::Json(unreadable(id, why.into_owned()), None))
            }
            Err(StreamableHttpError::UnexpectedContentType(kind)) => {
                let kind = kind.unwrap_or_else(|| "none".to_owned());
                eprintln!("codemode: {who} answered with content type {kind}");
                let why = format!("it came as {kind}, not JSON or an event stream");
                Ok(StreamableHttpPostResponse::Json(unreadable(id, why), None))
            }
            Err(StreamableHttpError::ResponseBodyTooLarge { max_size }) => {
                let why = format!("it is over the {} MiB limit of one message", max_size >> 20);
                Ok(StreamableHttpPostResponse::Json(unreadable(id, why), None))
            }
            other => other,
        }
    }
}

impl StreamableHttpClient for CheckedClient {
    type Error = reqwest::Error;

    fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> impl Future<Output = PostResult> + Send + '_ {
        self.post(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
    }

    fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> impl Future<Output = PostResult> + Send + '_ {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post(uri, message, session_id, auth_header, custom_headers, limits)
    }

    fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> impl Future<Output = PostResult> + Send + '_ {
        self.post(uri, message, session_id, auth_header, custom_headers, limits)
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<Self::Error>> {
        let token = self.bearer(auth_header).await.ok().flatten();
        self.inner.delete_session(uri, session_id, token, custom_headers).await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default().max_sse_event_size,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<Self::Error>> {
        let token = self.bearer(auth_header).await.ok().flatten();
        self.inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                token,
                custom_headers,
                max_sse_event_size,
            )
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_and_origins_are_read() {
        let c = r#"Bearer error="invalid_token", resource_metadata="http://h:1/.well-known/oauth-protected-resource""#;
        assert_eq!(
            challenge_param(c, "resource_metadata").as_deref(),
            Some("http://h:1/.well-known/oauth-protected-resource")
        );
        assert_eq!(challenge_param(c, "error").as_deref(), Some("invalid_token"));
        assert_eq!(challenge_param("Bearer realm=x, scope=a", "scope").as_deref(), Some("a"));
        assert_eq!(challenge_param("Bearer", "scope"), None);
        assert_eq!(origin_of("https://a.b:8/x/y?z").as_deref(), Some("https://a.b:8"));
        assert_eq!(origin_of("ftp://a"), None);
        assert_eq!(form_encode("a b&c=d/é"), "a+b%26c%3Dd%2F%C3%A9");
    }
}
