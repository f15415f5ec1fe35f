//! Durable tools: work that outlives the run that started it (a build, an approval, a long
//! job), so that a run waiting on it can be suspended to bytes and resumed elsewhere.
//!
//! A durable tool splits a call in two: `start` launches the work under the call's key and
//! returns a JSON **handle** quickly; `attach` waits for the work's output given the handle.
//! While every call a run has in flight is attached durable work, the run can be suspended: the
//! host keeps the handles, waits on the work itself, and resumes the run with the outcomes.
//! Interrupting `attach` detaches (the work goes on); `cancel` stops the work, and the runtime
//! calls it only when a run ends with the call still running. `lookup` is for the host (find the
//! work by key); the runtime never calls it. `start` and `attach` may call
//! [`CallContext::suspend`] to suspend the run with this call pending (an approval).

use std::future::Future;
use std::sync::Arc;

use serde_json::Value;

use crate::context::CallContext;
use crate::error::ToolError;
use crate::tool::BoxFuture;

type StartFn = dyn Fn(Value, CallContext) -> BoxFuture<Result<Value, ToolError>> + Send + Sync;
type AttachFn = dyn Fn(Value, CallContext) -> BoxFuture<Result<Value, ToolError>> + Send + Sync;
type CancelFn = dyn Fn(Value) -> BoxFuture<()> + Send + Sync;
type LookupFn = dyn Fn(String) -> BoxFuture<Option<Value>> + Send + Sync;

/// The four operations of a durable tool (see the module docs). Cheap to clone.
#[derive(Clone)]
pub struct Durable {
    start: Arc<StartFn>,
    attach: Arc<AttachFn>,
    cancel: Option<Arc<CancelFn>>,
    lookup: Option<Arc<LookupFn>>,
}

impl std::fmt::Debug for Durable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Durable")
            .field("cancel", &self.cancel.is_some())
            .field("lookup", &self.lookup.is_some())
            .finish_non_exhaustive()
    }
}

impl Durable {
    /// `start(input, ctx)` launches the work and returns its handle; `attach(handle, ctx)` waits
    /// for its output.
    pub fn new<S, SF, A, AF>(start: S, attach: A) -> Self
    where
        S: Fn(Value, CallContext) -> SF + Send + Sync + 'static,
        SF: Future<Output = Result<Value, ToolError>> + Send + 'static,
        A: Fn(Value, CallContext) -> AF + Send + Sync + 'static,
        AF: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        Durable {
            start: Arc::new(move |input, ctx| Box::pin(start(input, ctx))),
            attach: Arc::new(move |handle, ctx| Box::pin(attach(handle, ctx))),
            cancel: None,
            lookup: None,
        }
    }

    /// `cancel(handle)` stops the work: called when a run ends with the call still running
    /// (never on suspend, never for work that finished).
    #[must_use]
    pub fn on_cancel<C, CF>(mut self, cancel: C) -> Self
    where
        C: Fn(Value) -> CF + Send + Sync + 'static,
        CF: Future<Output = ()> + Send + 'static,
    {
        self.cancel = Some(Arc::new(move |handle| Box::pin(cancel(handle))));
        self
    }

    /// `lookup(key)` finds the work a call started, by the call's key (for the host).
    #[must_use]
    pub fn with_lookup<L, LF>(mut self, lookup: L) -> Self
    where
        L: Fn(String) -> LF + Send + Sync + 'static,
        LF: Future<Output = Option<Value>> + Send + 'static,
    {
        self.lookup = Some(Arc::new(move |key| Box::pin(lookup(key))));
        self
    }

    /// Launches the work.
    pub fn start(&self, input: Value, ctx: CallContext) -> BoxFuture<Result<Value, ToolError>> {
        (self.start)(input, ctx)
    }

    /// Waits for the output of the work `handle` names.
    pub fn attach(&self, handle: Value, ctx: CallContext) -> BoxFuture<Result<Value, ToolError>> {
        (self.attach)(handle, ctx)
    }

    /// Stops the work `handle` names (nothing without a cancel operation).
    pub fn cancel(&self, handle: Value) -> BoxFuture<()> {
        match &self.cancel {
            Some(cancel) => cancel(handle),
            None => Box::pin(std::future::ready(())),
        }
    }

    /// The handle of the work started under `key`, when the tool can look it up.
    pub fn lookup(&self, key: String) -> Option<BoxFuture<Option<Value>>> {
        self.lookup.as_ref().map(|lookup| lookup(key))
    }
}

/// A call in flight that keeps a run from being suspended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockingCall {
    /// The call's idempotency key, `<runId>:<id>`.
    pub key: String,
    /// What the program called: `tools.orders.lookup`, `search`, `fetch`.
    pub path: String,
}

/// Why a run could not be suspended; the run goes on untouched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuspendError {
    pub message: String,
    /// The calls in flight that are not attached durable work (empty when something else
    /// refused: the host awaits the run directly, a state too large, an extension's encoder).
    pub blocking: Vec<BlockingCall>,
}

impl SuspendError {
    pub fn new(message: impl Into<String>) -> Self {
        SuspendError { message: message.into(), blocking: Vec::new() }
    }
}

impl std::fmt::Display for SuspendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A tool that gives up because it could not suspend its run fails with the reason, which the
/// program sees. (Like [`ToolError`], `SuspendError` does not implement `std::error::Error`, so
/// that this conversion does not clash with `ToolError`'s blanket one, which hides messages.)
impl From<SuspendError> for ToolError {
    fn from(e: SuspendError) -> Self {
        ToolError::failure(e.message)
    }
}

/// What [`CallContext::suspend`] calls: asks the run to suspend with this call pending. The
/// future ends only when the suspend failed; when it succeeds, the call's work is detached and
/// the future is dropped.
pub type Suspender = Arc<dyn Fn() -> BoxFuture<SuspendError> + Send + Sync>;
