//! The public entry point: [`CodeMode`] and its [`Builder`].

use crate::{Diagnostic, DiagnosticKind, ExecResult, Limits};

/// Configures a [`CodeMode`] runtime.
#[derive(Default)]
pub struct Builder {
    limits: Limits,
}

impl Builder {
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    pub fn build(self) -> Result<CodeMode, BuildError> {
        Ok(CodeMode { limits: self.limits })
    }
}

/// A configuration error found by [`Builder::build`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    pub message: String,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BuildError {}

/// A reusable runtime: tools, limits and hooks; each [`CodeMode::execute`] is one independent run.
pub struct CodeMode {
    limits: Limits,
}

impl CodeMode {
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// Runs `source` to completion (or a limit) and returns its result. Never panics.
    pub async fn execute(&self, source: &str) -> ExecResult {
        let _ = (source, &self.limits);
        ExecResult {
            ok: false,
            value: None,
            error: Some(Diagnostic {
                kind: DiagnosticKind::ExecutionFailure,
                message: "not implemented yet".into(),
                location: None,
            }),
            warnings: Vec::new(),
            logs: Vec::new(),
            truncated: false,
            tool_calls: Vec::new(),
        }
    }
}
