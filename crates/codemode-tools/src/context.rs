//! [`CallContext`]: what a handler learns about the call it serves.

/// Per-call information handed to every tool handler.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallContext {
    /// The idempotency key of the call, `<runId>:<id>` (ids count from 1 in program order).
    pub key: String,
    /// The tool's canonical dotted path, e.g. `orders.lookup`.
    pub path: String,
}

impl CallContext {
    /// A context for one call.
    pub fn new(key: impl Into<String>, path: impl Into<String>) -> Self {
        Self { key: key.into(), path: path.into() }
    }

    /// The idempotency key, `<runId>:<id>`.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The tool's canonical dotted path.
    pub fn path(&self) -> &str {
        &self.path
    }
}
