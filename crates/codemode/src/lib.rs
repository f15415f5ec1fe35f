//! `codemode`: run one model-written JavaScript/TypeScript program against host tools, under hard
//! limits, and get one JSON-safe [`ExecResult`].

mod result;

pub use result::{CallStatus, Diagnostic, DiagnosticKind, ExecResult, Location, ToolCall};
