//! Newline-delimited JSON-RPC over a byte stream (an upstream child's stdio, or `codemode mcp`'s
//! own stdin and stdout), as an rmcp [`Transport`] that never leaves a request waiting for an
//! answer it threw away.
//!
//! rmcp's own stdio transport drops a line it cannot decode (a number like `1e400`, nesting past
//! serde's limit, a line over the size cap) and the request it answered waits forever. Here every
//! line is read with a bounded buffer, and a line that cannot be decoded (or is too long to keep)
//! is scanned once, in linear time and without recursion, for its top-level `id` and `method`:
//!
//! - **Upstream answers** ([`Side::Client`]): the call it answered fails at once with a clear
//!   error. When the id cannot be read, or a (decodable) answer carries an id that was never sent,
//!   answers can no longer be matched to calls, so every call waiting on that server fails at
//!   once instead of waiting for its deadline.
//! - **Requests from the host** ([`Side::Server`]): a request whose id can be read gets a
//!   JSON-RPC error (`-32700` for a line that is not JSON or too deep, `-32600` for one over the
//!   size cap) naming the problem. A line without a readable id gets nothing (replying to
//!   garbage invites an error storm; the other MCP SDKs do the same).

use std::collections::{HashSet, VecDeque};
use std::marker::PhantomData;
use std::sync::Arc;

use rmcp::model::{ErrorCode, ErrorData, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, ServiceRole, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

/// The longest message (one line) read or accepted: 16 MiB, rmcp's own cap.
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// The `data` of the errors this transport makes up for calls whose answers it could not use,
/// so the caller can tell them from the server's own errors.
pub const UNREADABLE_ANSWER: &str = "codemode: unreadable answer";

/// Which end of the conversation this transport is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Talking to an upstream server: incoming lines are answers to our requests.
    Client,
    /// Serving a host: incoming lines are its requests.
    Server,
}

/// What a one-pass scan of a JSON object's text found at its top level.
#[derive(Debug, Default)]
pub struct Scan {
    depth: usize,
    in_string: bool,
    escaped: bool,
    expect_key: bool,
    reading_key: bool,
    key: Vec<u8>,
    last_key: Vec<u8>,
    id_open: bool,
    id_raw: Vec<u8>,
    id_seen: bool,
    /// A top-level `method` key was seen (a request or notification, not an answer).
    pub method: bool,
    /// Bytes scanned.
    pub bytes: usize,
}

/// Keys longer than this are not kept (only `id` and `method` matter).
const MAX_KEY: usize = 16;
/// An id longer than this is not read.
const MAX_ID: usize = 256;

impl Scan {
    /// Scans the next bytes of the text.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.bytes = self.bytes.saturating_add(bytes.len());
        for &b in bytes {
            if self.id_open {
                if self.depth == 1 && !self.in_string && (b == b',' || b == b'}') {
                    self.id_open = false;
                } else if (self.in_string || !b.is_ascii_whitespace()) && self.id_raw.len() <= MAX_ID {
                    self.id_raw.push(b);
                }
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                    self.push_key(b);
                } else if b == b'\\' {
                    self.escaped = true;
                    self.push_key(b);
                } else if b == b'"' {
                    self.in_string = false;
                    if self.reading_key {
                        self.reading_key = false;
                        self.last_key = std::mem::take(&mut self.key);
                    }
                } else {
                    self.push_key(b);
                }
                continue;
            }
            match b {
                b'"' => {
                    self.in_string = true;
                    if self.depth == 1 && self.expect_key {
                        self.reading_key = true;
                        self.expect_key = false;
                        self.key.clear();
                    }
                }
                b'{' | b'[' => {
                    self.depth = self.depth.saturating_add(1);
                    if self.depth == 1 && b == b'{' {
                        self.expect_key = true;
                    }
                }
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                b',' if self.depth == 1 => self.expect_key = true,
                b':' if self.depth == 1 => {
                    if self.last_key == b"id" {
                        self.id_open = true;
                        self.id_seen = true;
                        self.id_raw.clear();
                    } else if self.last_key == b"method" {
                        self.method = true;
                    }
                }
                _ => {}
            }
        }
    }

    fn push_key(&mut self, b: u8) {
        if self.reading_key && self.key.len() <= MAX_KEY {
            self.key.push(b);
        }
    }

    /// The top-level `id`, when there is one that is a number or a string.
    pub fn id(&self) -> Option<RequestId> {
        if !self.id_seen || self.id_raw.len() > MAX_ID {
            return None;
        }
        serde_json::from_slice(&self.id_raw).ok()
    }
}

/// Scans a whole text.
pub fn scan(text: &[u8]) -> Scan {
    let mut scan = Scan::default();
    scan.feed(text);
    scan
}

/// Requests sent and not answered yet (client side), and the highest numeric id sent.
#[derive(Debug, Default)]
struct Outstanding {
    pending: HashSet<RequestId>,
    /// The pending `tools/list` requests: their answers may be pruned (see [`prune`]).
    listing: HashSet<RequestId>,
    max_sent: Option<i64>,
}

/// Nesting kept when a `tools/list` answer is too deep to decode: deeper objects and arrays
/// become `{}` and `[]` (an input schema `{}` accepts anything), and the tool whose schema was
/// cut is then simplified with a warning, instead of the whole list failing.
pub const LIST_PRUNE_DEPTH: usize = 64;

/// `text` with every object or array nested deeper than `max` replaced by an empty one, in one
/// pass without recursion. Strings are copied as they are.
pub fn prune(text: &[u8], max: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len().min(1 << 20));
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    // While skipping a too-deep value: the depth it opened at.
    let mut skip_from: Option<usize> = None;
    for &b in text {
        let skipping = skip_from.is_some();
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            if !skipping {
                out.push(b);
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > max && skip_from.is_none() {
                    skip_from = Some(depth);
                    out.extend_from_slice(if b == b'{' { b"{}" } else { b"[]" });
                }
            }
            b'}' | b']' => {
                if skip_from == Some(depth) {
                    skip_from = None;
                    depth = depth.saturating_sub(1);
                    continue;
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        if !skipping && skip_from.is_none() {
            out.push(b);
        }
    }
    out
}

impl Outstanding {
    /// Whether `id` is one we sent at some point (answered or not).
    fn was_sent(&self, id: &RequestId) -> bool {
        self.pending.contains(id)
            || matches!((id, self.max_sent), (RequestId::Number(n), Some(max)) if *n <= max && *n >= 0)
    }
}

/// How a line went wrong.
enum Bad {
    /// Not JSON, too deep, a number out of range, not a JSON-RPC message.
    Undecodable(String),
    /// Over [`MAX_MESSAGE_BYTES`].
    TooLong(usize),
}

impl Bad {
    fn describe(&self) -> String {
        match self {
            Bad::Undecodable(e) => format!("it is not a valid JSON-RPC message ({e})"),
            Bad::TooLong(n) => {
                format!(
                    "it is {n} bytes or more, over the {} MiB limit of one message",
                    MAX_MESSAGE_BYTES >> 20
                )
            }
        }
    }
}

/// The transport (see the module docs).
pub struct LineTransport<R: ServiceRole, Rd, W> {
    side: Side,
    /// Who is on the other end, for messages (`MCP server 'x'`).
    peer: String,
    read: BufReader<Rd>,
    line: Vec<u8>,
    /// Set while the rest of an over-long line is skipped (and scanned for its id).
    skipping: Option<Scan>,
    write: Arc<tokio::sync::Mutex<Option<W>>>,
    outstanding: Arc<std::sync::Mutex<Outstanding>>,
    /// Made-up messages to hand to rmcp before reading on.
    queued: VecDeque<RxJsonRpcMessage<R>>,
    _role: PhantomData<fn() -> R>,
}

impl<R, Rd, W> LineTransport<R, Rd, W>
where
    R: ServiceRole,
    Rd: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub fn new(side: Side, peer: impl Into<String>, read: Rd, write: W) -> Self {
        Self {
            side,
            peer: peer.into(),
            read: BufReader::new(read),
            line: Vec::new(),
            skipping: None,
            write: Arc::new(tokio::sync::Mutex::new(Some(write))),
            outstanding: Arc::new(std::sync::Mutex::new(Outstanding::default())),
            queued: VecDeque::new(),
            _role: PhantomData,
        }
    }

    /// Reads the next line into `self.line` (without its newline). `Ok(Err(bad))` for a line
    /// over the limit (already skipped, its scan in `bad`), `Err(())` at the end of the stream.
    async fn read_line(&mut self) -> Result<Result<(), (Bad, Scan)>, ()> {
        loop {
            let (consumed, finished) = {
                let available = match self.read.fill_buf().await {
                    Ok(available) if !available.is_empty() => available,
                    Ok(_) => return Err(()),
                    Err(e) => {
                        eprintln!("codemode: reading from {} failed: {e}", self.peer);
                        return Err(());
                    }
                };
                let newline = available.iter().position(|b| *b == b'\n');
                let take = newline.map_or(available.len(), |i| i + 1);
                let body = &available[..newline.unwrap_or(take)];
                if let Some(scan) = self.skipping.as_mut() {
                    scan.feed(body);
                } else if self.line.len() + body.len() > MAX_MESSAGE_BYTES {
                    let mut scan = Scan::default();
                    scan.feed(&self.line);
                    scan.feed(body);
                    self.line.clear();
                    self.skipping = Some(scan);
                } else {
                    self.line.extend_from_slice(body);
                }
                (take, newline.is_some())
            };
            self.read.consume(consumed);
            if finished {
                if let Some(scan) = self.skipping.take() {
                    return Ok(Err((Bad::TooLong(scan.bytes), scan)));
                }
                return Ok(Ok(()));
            }
        }
    }

    /// A made-up error answer to our request `id`.
    fn fail_call(&mut self, id: RequestId, why: &str) {
        if let Ok(mut outstanding) = self.outstanding.lock() {
            outstanding.pending.remove(&id);
        }
        let error = ErrorData::new(
            ErrorCode::INTERNAL_ERROR,
            format!("its answer could not be used: {why}"),
            Some(json!(UNREADABLE_ANSWER)),
        );
        self.queued.push_back(JsonRpcMessage::error(error, Some(id)));
    }

    /// Every call waiting on the server fails with `why`.
    fn fail_all(&mut self, why: &str) {
        let pending: Vec<RequestId> = match self.outstanding.lock() {
            Ok(outstanding) => outstanding.pending.iter().cloned().collect(),
            Err(_) => Vec::new(),
        };
        for id in pending {
            self.fail_call(id, why);
        }
    }

    /// An answer (client side) or request (server side) that could not be decoded.
    async fn bad_line(&mut self, bad: Bad, scan: &Scan) {
        let why = bad.describe();
        match self.side {
            Side::Client => {
                if scan.method {
                    // A request or notification of the server's own: no call waits on it.
                    eprintln!("codemode: ignored a message from {} that cannot be read: {why}", self.peer);
                    return;
                }
                let id = scan.id();
                let sent = match (&id, self.outstanding.lock()) {
                    (Some(id), Ok(o)) => Some((o.pending.contains(id), o.was_sent(id))),
                    _ => None,
                };
                eprintln!("codemode: {} sent a message codemode cannot use: {why}", self.peer);
                match (id, sent) {
                    (Some(id), Some((true, _))) => self.fail_call(id, &why),
                    // The answer to a call that was cancelled or timed out: nobody waits for it.
                    (Some(_), Some((false, true))) => {}
                    _ => self.fail_all(&format!("{why}, and it cannot be told which call it answered")),
                }
            }
            Side::Server => {
                let Some(id) = scan.id().filter(|_| scan.method) else {
                    eprintln!("codemode: ignored a message from {} without a readable id: {why}", self.peer);
                    return;
                };
                let code = match bad {
                    Bad::Undecodable(_) => ErrorCode::PARSE_ERROR,
                    Bad::TooLong(_) => ErrorCode::INVALID_REQUEST,
                };
                let error = ErrorData::new(code, format!("codemode cannot take this request: {why}"), None);
                let answer: TxJsonRpcMessage<R> = JsonRpcMessage::error(error, Some(id));
                if let Err(e) = write_message(&self.write, &answer).await {
                    eprintln!("codemode: answering {} failed: {e}", self.peer);
                }
            }
        }
    }

    /// Bookkeeping for a decoded incoming message (client side): answers settle their call; an
    /// answer to an id never sent fails every waiting call.
    fn received(&mut self, message: &RxJsonRpcMessage<R>) {
        if self.side != Side::Client {
            return;
        }
        let id = match message {
            JsonRpcMessage::Response(r) => Some(r.id.clone()),
            JsonRpcMessage::Error(e) => e.id.clone(),
            _ => return,
        };
        let known = match (&id, self.outstanding.lock()) {
            (Some(id), Ok(mut outstanding)) => {
                let known = outstanding.was_sent(id);
                outstanding.pending.remove(id);
                outstanding.listing.remove(id);
                known
            }
            (None, _) => false,
            (_, Err(_)) => true,
        };
        if !known {
            let shown = id.map_or_else(|| "no id".to_owned(), |id| format!("id {id}"));
            eprintln!("codemode: {} answered a request it was never sent ({shown})", self.peer);
            self.fail_all(&format!("the server answered with {shown}, which no request had"));
        }
    }
}

/// Writes one message and a newline, and flushes.
async fn write_message<T: serde::Serialize, W: AsyncWrite + Unpin>(
    write: &tokio::sync::Mutex<Option<W>>,
    message: &T,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    let mut guard = write.lock().await;
    let Some(writer) = guard.as_mut() else {
        return Err(std::io::Error::new(std::io::ErrorKind::NotConnected, "the transport is closed"));
    };
    writer.write_all(&bytes).await?;
    writer.flush().await
}

/// How a `tools/list` request looks serialized.
const LIST_METHOD: &[u8] = br#""method":"tools/list""#;

/// The request a `notifications/cancelled` (as JSON) cancels.
fn cancelled_request(bytes: &[u8]) -> Option<RequestId> {
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    if value.get("method")?.as_str()? != "notifications/cancelled" {
        return None;
    }
    serde_json::from_value(value.get("params")?.get("requestId")?.clone()).ok()
}

impl<R, Rd, W> Transport<R> for LineTransport<R, Rd, W>
where
    R: ServiceRole,
    Rd: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<R>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        let outstanding = Arc::clone(&self.outstanding);
        let side = self.side;
        async move {
            let bytes = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            if side == Side::Client
                && let Ok(mut outstanding) = outstanding.lock()
            {
                match &item {
                    JsonRpcMessage::Request(request) => {
                        if let RequestId::Number(n) = request.id {
                            outstanding.max_sent = Some(outstanding.max_sent.map_or(n, |m| m.max(n)));
                        }
                        outstanding.pending.insert(request.id.clone());
                        if bytes.windows(LIST_METHOD.len()).any(|w| w == LIST_METHOD) {
                            outstanding.listing.insert(request.id.clone());
                        }
                    }
                    JsonRpcMessage::Notification(_) => {
                        if let Some(id) = cancelled_request(&bytes) {
                            outstanding.pending.remove(&id);
                        }
                    }
                    _ => {}
                }
            }
            let mut guard = write.lock().await;
            let Some(writer) = guard.as_mut() else {
                return Err(std::io::Error::new(std::io::ErrorKind::NotConnected, "the transport is closed"));
            };
            writer.write_all(&bytes).await?;
            writer.write_all(b"\n").await?;
            writer.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<R>> {
        loop {
            if let Some(message) = self.queued.pop_front() {
                return Some(message);
            }
            // Cancel-safe: a partial line stays in `self.line` (or `self.skipping`).
            match self.read_line().await {
                Err(()) => return None,
                Ok(Err((bad, scan))) => {
                    self.bad_line(bad, &scan).await;
                    continue;
                }
                Ok(Ok(())) => {}
            }
            let line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\r").unwrap_or(&line);
            let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                self.line = line;
                self.line.clear();
                continue;
            }
            match serde_json::from_slice::<RxJsonRpcMessage<R>>(text) {
                Ok(message) => {
                    self.line = line;
                    self.line.clear();
                    self.received(&message);
                    if let Some(made_up) = self.queued.pop_front() {
                        self.queued.push_back(message);
                        return Some(made_up);
                    }
                    return Some(message);
                }
                Err(e) => {
                    let scan = scan(text);
                    if self.side == Side::Client
                        && e.to_string().contains("recursion limit")
                        && let Some(id) = scan.id()
                        && self.outstanding.lock().is_ok_and(|o| o.listing.contains(&id))
                    {
                        let pruned = prune(text, LIST_PRUNE_DEPTH);
                        if let Ok(message) = serde_json::from_slice::<RxJsonRpcMessage<R>>(&pruned) {
                            eprintln!(
                                "codemode: {} lists tools nested more than {LIST_PRUNE_DEPTH} levels deep; \
                                 the deeper parts were cut",
                                self.peer
                            );
                            self.line = line;
                            self.line.clear();
                            self.received(&message);
                            return Some(message);
                        }
                    }
                    // Notifications rmcp does not know (other protocols' chatter) are skipped
                    // quietly, as rmcp does.
                    let notification = scan.method && scan.id().is_none() && !scan.id_seen;
                    if !notification {
                        self.bad_line(Bad::Undecodable(e.to_string()), &scan).await;
                    }
                    self.line = line;
                    self.line.clear();
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        if let Some(mut writer) = self.write.lock().await.take() {
            let _ = writer.shutdown().await;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_top_level_id_and_method_in_one_pass() {
        let s = scan(br#"{"result":{"id":5,"x":[1e400,{"id":7}]},"jsonrpc":"2.0","id":3}"#);
        assert_eq!(s.id(), Some(RequestId::Number(3)));
        assert!(!s.method);
        let s = scan(br#"{ "jsonrpc": "2.0", "id" : "a,b}" , "method":"tools/call","params":{}}"#);
        assert_eq!(s.id(), Some(RequestId::String("a,b}".into())));
        assert!(s.method);
        let s = scan(br#"{"method":"x","params":{"id":1}}"#);
        assert_eq!(s.id(), None);
        // Deep nesting costs nothing but the scan.
        let mut deep = br#"{"id":9,"params":"#.to_vec();
        deep.extend(std::iter::repeat_n(b'[', 100_000));
        assert_eq!(scan(&deep).id(), Some(RequestId::Number(9)));
        // Keys with escapes, and an id after a long string.
        let s = scan(br#"{"m\"x":"\\\"","id":-4}"#);
        assert_eq!(s.id(), Some(RequestId::Number(-4)));
        assert_eq!(scan(b"not json").id(), None);
    }

    #[test]
    fn pruning_keeps_json_valid_and_shallow() {
        let text = br#"{"a":[1,{"b":{"c":[2]}},"x]{"],"d":{"e":"}"}}"#;
        let pruned = prune(text, 2);
        assert_eq!(String::from_utf8_lossy(&pruned), r#"{"a":[1,{},"x]{"],"d":{"e":"}"}}"#);
        let mut deep = Vec::new();
        deep.extend(std::iter::repeat_n(b'[', 10_000));
        deep.extend(std::iter::repeat_n(b']', 10_000));
        let pruned = prune(&deep, 64);
        assert!(serde_json::from_slice::<serde_json::Value>(&pruned).is_ok());
    }
}
