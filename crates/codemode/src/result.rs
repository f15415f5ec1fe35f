//! The run's outcome as the host and the model see it: [`ExecResult`], [`Diagnostic`], [`ToolCall`].
//!
//! Serializes to the reference runtime's JSON shape:
//! `{"ok":true,"value":..,"logs":[..],"warnings":[..],"toolCalls":[..]}` or
//! `{"ok":false,"error":{"kind":..,"message":..,"location":{"line":..,"column":..}},..}`.

use serde::{Deserialize, Serialize};

/// What kind of failure a [`Diagnostic`] reports (the reference runtime's taxonomy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// Source is empty or cannot be parsed.
    ParseError,
    /// Parsed JavaScript is outside the supported subset.
    UnsupportedSyntax,
    /// The program referenced an unavailable tool.
    UnknownTool,
    /// Tool input failed schema decoding or safe-data copying.
    InvalidToolInput,
    /// Tool output failed schema decoding or safe-data copying.
    InvalidToolOutput,
    /// Program data violated the plain-data contract.
    InvalidDataValue,
    /// The program exceeded `max_tool_calls`.
    ToolCallLimitExceeded,
    /// Execution timed out; as a warning, background work was interrupted after the program returned.
    TimeoutExceeded,
    /// A tool refused or failed.
    ToolFailure,
    /// The program threw or another execution error occurred.
    ExecutionFailure,
    /// Warning only: additional warnings were omitted by the output limit.
    Truncated,
    /// The host cancelled the run (`ExecuteOptions::cancel`). Not in the reference, where
    /// interruption is no diagnostic: a Rust caller that drops the future gets nothing at all.
    Cancelled,
}

/// A 1-based source location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Location {
    pub line: u32,
    pub column: u32,
}

/// A failure (or, in `warnings`, a non-fatal problem) with its kind, a message a model can act
/// on, and where in the source it happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Diagnostic {
    pub kind: DiagnosticKind,
    /// A message a model can act on, e.g. `TypeError: value is not a function. (line 2, col 8)`.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

/// How an admitted tool call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum CallStatus {
    Ok,
    Error,
    /// Still running when the run ended, and interrupted.
    Interrupted,
}

/// One admitted tool call, in program order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolCall {
    /// 1, 2, 3, ... in program order; the idempotency key is `<runId>:<id>`.
    pub id: u32,
    /// The tool's path without the `tools.` root, e.g. `orders.lookup`.
    pub path: String,
    pub status: CallStatus,
    /// Why the call failed, for the host only: never serialized, so a result handed to the model
    /// as JSON does not carry it.
    #[serde(skip)]
    pub failure: Option<CallFailure>,
}

/// How a call failed, as only the host sees it: refused and failed apart, the private cause.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallFailure {
    pub kind: CallFailureKind,
    /// What the program saw (the rejected Error's message).
    pub message: String,
    /// The private cause: a tool error's cause chain or a panic's message. Never shown to the
    /// model.
    pub cause: Option<String>,
}

/// Why a call failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallFailureKind {
    /// The input failed the tool's schema (or could not be copied).
    InvalidInput,
    /// The output failed the tool's schema (or could not be copied).
    InvalidOutput,
    /// The tool declined ([`codemode_tools::ToolError::refused`]).
    Refused,
    /// The tool tried and failed ([`codemode_tools::ToolError::failure`]).
    Failed,
    /// An unexpected host error ([`codemode_tools::ToolError::internal`]); the model saw a generic
    /// message.
    Internal,
    /// The handler panicked; the model saw a generic message.
    Panicked,
    /// A `before` hook denied the call; the host function was not called.
    Denied,
    /// No tool at that path.
    UnknownTool,
}

/// The outcome of one execution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExecResult {
    pub ok: bool,
    /// The program's JSON-safe result (`undefined` becomes `null`); absent when `ok` is false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Diagnostic>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub warnings: Vec<Diagnostic>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub logs: Vec<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub truncated: bool,
    pub tool_calls: Vec<ToolCall>,
    /// Present when the output budget (`Limits::max_output_bytes`) left out tool calls:
    /// `tool_calls` then holds only the first and the last calls, and this counts all of them
    /// by path and status.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tool_call_summary: Option<ToolCallSummary>,
    /// The run's id (the host's, or the one made for it); call keys are `<runId>:<id>`. Not
    /// serialized: the model does not need it.
    #[serde(skip)]
    pub run_id: String,
}

/// All the tool calls of a run whose record the output budget cut: how many there were, how
/// many `toolCalls` still shows, and the counts by path (most called first; past
/// [`crate::MAX_SUMMARY_PATHS`] paths the rest are counted together under `"(N other paths)"`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolCallSummary {
    pub total: u64,
    pub shown: u64,
    pub by_path: Vec<PathCalls>,
}

/// The calls to one path, by status (zero counts are left out of the JSON).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PathCalls {
    pub path: String,
    #[serde(skip_serializing_if = "is_zero", default)]
    pub ok: u64,
    #[serde(skip_serializing_if = "is_zero", default)]
    pub error: u64,
    #[serde(skip_serializing_if = "is_zero", default)]
    pub interrupted: u64,
}

impl PathCalls {
    /// All calls to the path.
    pub fn total(&self) -> u64 {
        self.ok + self.error + self.interrupted
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
