//! The public entry point: [`CodeMode`] and its [`Builder`].

use std::sync::Arc;

use codemode_tools::{Namespace, Tool, ToolSet};

use crate::{ExecResult, Limits};

/// Configures a [`CodeMode`] runtime.
#[derive(Default)]
pub struct Builder {
    limits: Limits,
    root: Namespace,
    tools: Option<ToolSet>,
}

impl Builder {
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Adds a tool at a dotted path (`"orders.lookup"` is `tools.orders.lookup`).
    pub fn tool(mut self, path: impl Into<String>, tool: Tool) -> Self {
        self.root.add_tool(path, tool);
        self
    }

    /// Adds a namespace (with its description and tools) at `name`.
    pub fn namespace(mut self, name: impl Into<String>, namespace: Namespace) -> Self {
        self.root.add_namespace(name, namespace);
        self
    }

    /// Uses a ready-made tool set (replaces tools added with [`Builder::tool`]).
    pub fn tools(mut self, tools: ToolSet) -> Self {
        self.tools = Some(tools);
        self
    }

    /// Checks the configuration: tool names and limits.
    pub fn build(self) -> Result<CodeMode, BuildError> {
        if self.limits.timeout.is_some_and(|t| t.is_zero()) {
            return Err(BuildError { message: "RangeError: timeout must be greater than zero".into() });
        }
        if self.limits.memory_limit < crate::limits::MIN_MEMORY_LIMIT {
            return Err(BuildError {
                message: format!(
                    "RangeError: memory limit must be at least {} bytes (the global environment alone needs about 1 MiB)",
                    crate::limits::MIN_MEMORY_LIMIT
                ),
            });
        }
        if self.limits.max_call_depth == 0 {
            return Err(BuildError { message: "RangeError: max call depth must be at least 1".into() });
        }
        let tools = match self.tools {
            Some(tools) => tools,
            None => ToolSet::new(self.root).map_err(|e| BuildError { message: e.to_string() })?,
        };
        Ok(CodeMode { inner: Arc::new(Inner { limits: self.limits, tools }) })
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

pub(crate) struct Inner {
    pub(crate) limits: Limits,
    pub(crate) tools: ToolSet,
}

/// A reusable runtime: tools and limits; each [`CodeMode::execute`] is one independent run.
/// Cheap to clone.
#[derive(Clone)]
pub struct CodeMode {
    pub(crate) inner: Arc<Inner>,
}

impl CodeMode {
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// The tools this runtime offers (catalog, search, signatures).
    pub fn tools(&self) -> &ToolSet {
        &self.inner.tools
    }

    /// Runs `source` to completion (or a limit) and returns its result. Never panics.
    pub async fn execute(&self, source: &str) -> ExecResult {
        crate::driver::execute(&self.inner, source).await
    }
}
