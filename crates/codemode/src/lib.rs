//! `codemode`: run one model-written JavaScript/TypeScript program against host tools, under hard
//! limits, and get one JSON-safe [`ExecResult`].

mod calls;
pub mod demo;
mod dispatch;
mod driver;
mod durable_start;
mod execution;
mod extension;
pub mod fetch;
mod hooks;
mod limits;
mod options;
mod output;
mod result;
mod runtime;
mod snapshot;
mod suspend;

pub use codemode_tools as tools;
pub use codemode_tools::{
    BlockingCall, CallContext, Durable, Namespace, RunContext, SuspendError, Tool, ToolError, ToolSet,
};
pub use execution::{Execution, Outcome, PendingCall, Suspended};
pub use extension::{Extension, HostValue};
pub use hooks::{CallEnd, CallKind, CallOutcome, CallStart, Deny};
pub use limits::{
    DEFAULT_MAX_CALL_DEPTH, DEFAULT_MAX_SOURCE_BYTES, DEFAULT_MEMORY_LIMIT, LimitName, Limits,
    MIN_MEMORY_LIMIT,
};
pub use options::{CancelToken, ExecuteOptions, Program};
pub use output::MAX_SUMMARY_PATHS;
pub use result::{
    CallFailure, CallFailureKind, CallStatus, Diagnostic, DiagnosticKind, ExecResult, Location, PathCalls,
    ToolCall, ToolCallSummary,
};
pub use runtime::{BuildError, Builder, CodeMode};
pub use snapshot::{Snapshot, SnapshotError};
