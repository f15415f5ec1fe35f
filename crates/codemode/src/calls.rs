//! How one host call ends, and what the program and the host each learn about it.
//!
//! A handler's panic is caught where it happens ([`CatchUnwind`] around the handler's future, and
//! around the call that makes the future), so a panicking tool fails its own call, which the
//! program can catch as a `ToolFailure`, and never takes the host down or leaves the run waiting.
//! The program sees model-facing messages only; the private cause (a tool error's cause chain, a
//! panic's message) goes to the host on [`crate::ToolCall::failure`].

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};

use codemode_tools::{ToolError, ToolErrorKind};
use codemode_vm::{FailureKind, HostError};
use serde_json::Value as Json;

use crate::result::{CallFailure, CallFailureKind};

/// How a call ended.
#[derive(Clone, Debug)]
pub(crate) enum Ended {
    Value(Json),
    /// An extension's value with host functions in it (see [`crate::HostValue`]): the JSON, and
    /// each function with its path in it.
    HostValue(Json, Vec<(Vec<String>, crate::extension::HostFunction)>, Box<crate::HostValue>),
    /// The program called a function its run no longer has (lost in a suspend): a `TypeError`.
    Lost(String),
    Failed(ToolError),
    Panicked(String),
    /// A before hook denied it; the message is the program's.
    Denied(String),
}

impl Ended {
    /// What the program sees, and the host's record of a failure.
    pub(crate) fn split(self, path: &str) -> (Result<Json, HostError>, Option<CallFailure>) {
        match self {
            Ended::Value(v) | Ended::HostValue(v, _, _) => (Ok(v), None),
            Ended::Lost(message) => (
                Err(HostError { kind: FailureKind::Execution, message: format!("TypeError: {message}") }),
                Some(CallFailure { kind: CallFailureKind::Failed, message, cause: None }),
            ),
            Ended::Failed(e) => {
                let (kind, failure) = match e.kind() {
                    ToolErrorKind::InvalidInput => {
                        (FailureKind::InvalidToolInput, CallFailureKind::InvalidInput)
                    }
                    ToolErrorKind::InvalidOutput => {
                        (FailureKind::InvalidToolOutput, CallFailureKind::InvalidOutput)
                    }
                    ToolErrorKind::Refused => (FailureKind::ToolFailure, CallFailureKind::Refused),
                    ToolErrorKind::Internal => (FailureKind::ToolFailure, CallFailureKind::Internal),
                    _ => (FailureKind::ToolFailure, CallFailureKind::Failed),
                };
                let message = match e.kind() {
                    ToolErrorKind::InvalidInput if path == "search" => {
                        format!("Invalid input for search: {}", e.message())
                    }
                    _ => e.model_message(path),
                };
                let cause = e.cause().map(|c| cause_chain(c));
                (
                    Err(HostError { kind, message: message.clone() }),
                    Some(CallFailure { kind: failure, message, cause }),
                )
            }
            Ended::Panicked(panic) => {
                let message = codemode_tools::INTERNAL_MESSAGE.to_string();
                (
                    Err(HostError { kind: FailureKind::ToolFailure, message: message.clone() }),
                    Some(CallFailure { kind: CallFailureKind::Panicked, message, cause: Some(panic) }),
                )
            }
            Ended::Denied(message) => (
                Err(HostError { kind: FailureKind::ToolFailure, message: message.clone() }),
                Some(CallFailure { kind: CallFailureKind::Denied, message, cause: None }),
            ),
        }
    }
}

impl Ended {
    /// How the call ended, as an after hook sees it.
    pub(crate) fn outcome(self, path: &str) -> crate::hooks::CallOutcome {
        match self.split(path) {
            (Ok(value), _) => crate::hooks::CallOutcome::Value(value),
            (Err(e), failure) => crate::hooks::CallOutcome::Error {
                kind: failure.map_or(CallFailureKind::Failed, |f| f.kind),
                message: e.message,
            },
        }
    }
}

/// `error: its source: its source's source`.
fn cause_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut next = e.source();
    while let Some(source) = next {
        text.push_str(": ");
        text.push_str(&source.to_string());
        next = source.source();
    }
    text
}

/// A panic's message (`panic!("…")` payloads are `&str` or `String`).
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("the handler panicked: {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("the handler panicked: {s}")
    } else {
        "the handler panicked".to_string()
    }
}

/// A future that turns a panic while it is polled into `Err(message)`. Polled no more after that.
pub(crate) struct CatchUnwind<F>(pub(crate) F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = Pin::new(&mut self.0);
        match std::panic::catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Ok(v)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(panic_message(payload.as_ref()))),
        }
    }
}
