//! Hooks around every call the program makes into the host (tools and `search`), as the
//! reference's `tool.before` / `tool.after`.
//!
//! - A **before** hook sees [`CallStart`] (`name`, decoded `input`, `key`, the run's context)
//!   before the call reaches the host and may deny it with [`Deny`]: the host function is never
//!   called, and the program catches the denial as a thrown error (a tool call rejects its
//!   promise, `search` throws). Before hooks are async: a host may ask a person.
//! - An **after** hook sees [`CallEnd`]: how the call ended ([`CallOutcome`]: value, error, or
//!   interrupted because the run ended first) and how long it took. It cannot fail the run (it
//!   returns nothing; a panic in it is caught and ignored).
//!
//! Hooks run in the order they were added; the first denial wins.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use codemode_tools::RunContext;
use serde_json::Value as Json;

use crate::calls::CatchUnwind;
use crate::result::CallFailureKind;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;
pub(crate) type BeforeHook = Arc<dyn Fn(CallStart) -> BoxFuture<Result<(), Deny>> + Send + Sync>;
pub(crate) type AfterHook = Arc<dyn Fn(CallEnd) -> BoxFuture<()> + Send + Sync>;

/// What is being called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallKind {
    /// A tool (`tools.orders.lookup(...)`).
    Tool,
    /// The `search(...)` built-in.
    Search,
    /// An extension global (`fetch`, `fs.promises.readFile`); the input is its arguments' array.
    Extension,
}

/// A call about to reach the host, as a before hook sees it.
#[derive(Clone)]
#[non_exhaustive]
pub struct CallStart {
    /// The tool's path (`orders.lookup`), `search`, or an extension function's path
    /// (`fs.promises.readFile`).
    pub name: String,
    pub kind: CallKind,
    /// The decoded input (`{}` for an object tool called without one).
    pub input: Json,
    /// The call's idempotency key, `<runId>:<id>`.
    pub key: String,
    /// The run's context value (`ExecuteOptions::context`).
    pub context: Option<RunContext>,
}

impl std::fmt::Debug for CallStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallStart")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("input", &self.input)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl CallStart {
    /// The run's context value, if it is a `T`.
    pub fn context<T: std::any::Any>(&self) -> Option<&T> {
        self.context.as_deref().and_then(|c| c.downcast_ref::<T>())
    }
}

/// A denial from a before hook: `message` is what the program's error says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deny {
    pub message: String,
}

impl Deny {
    pub fn new(message: impl Into<String>) -> Self {
        Deny { message: message.into() }
    }
}

/// How a call ended, as an after hook sees it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CallOutcome {
    /// It succeeded with this value (as the program receives it).
    Value(Json),
    /// It failed: `message` is what the program saw; `kind` says how (denied, refused, ...).
    Error { kind: CallFailureKind, message: String },
    /// The run ended first and the call was interrupted.
    Interrupted,
}

/// A finished call, as an after hook sees it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CallEnd {
    pub name: String,
    pub kind: CallKind,
    pub input: Json,
    pub key: String,
    pub outcome: CallOutcome,
    /// From the call's start (before hooks included) to its end.
    pub duration: Duration,
}

/// The hooks of a runtime.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub(crate) before: Vec<BeforeHook>,
    pub(crate) after: Vec<AfterHook>,
}

impl Hooks {
    pub(crate) fn is_empty(&self) -> bool {
        self.before.is_empty() && self.after.is_empty()
    }

    /// Runs the before hooks in order; the first denial wins. A hook that panics denies.
    pub(crate) async fn before(&self, start: &CallStart) -> Result<(), Deny> {
        for hook in &self.before {
            match CatchUnwind(hook(start.clone())).await {
                Ok(Ok(())) => {}
                Ok(Err(deny)) => return Err(deny),
                Err(_panic) => return Err(Deny::new(format!("The call to '{}' was denied.", start.name))),
            }
        }
        Ok(())
    }

    /// Runs the after hooks in order; nothing they do fails the run.
    pub(crate) async fn after(&self, end: CallEnd) {
        for hook in &self.after {
            let _ = CatchUnwind(hook(end.clone())).await;
        }
    }
}
