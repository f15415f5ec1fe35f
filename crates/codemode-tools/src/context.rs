//! [`CallContext`]: what a handler learns about the call it serves.

use std::any::Any;
use std::sync::Arc;

/// A per-run value the host hands to every tool call of one run (the session, the user), next to
/// the call's key: one runtime serves many users. See `codemode::ExecuteOptions::context`.
pub type RunContext = Arc<dyn Any + Send + Sync>;

/// Per-call information handed to every tool handler.
#[derive(Clone)]
#[non_exhaustive]
pub struct CallContext {
    /// The idempotency key of the call, `<runId>:<id>` (ids count from 1 in program order).
    pub key: String,
    /// The tool's canonical dotted path, e.g. `orders.lookup`.
    pub path: String,
    run: Option<RunContext>,
    /// Set by the runtime for a durable tool's `start` and `attach` in a run that can suspend.
    suspender: Option<crate::durable::Suspender>,
}

impl std::fmt::Debug for CallContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallContext")
            .field("key", &self.key)
            .field("path", &self.path)
            .field("run_context", &self.run.is_some())
            .finish()
    }
}

/// Two contexts are equal when they name the same call and carry the same run context (the same
/// allocation, or none).
impl PartialEq for CallContext {
    fn eq(&self, other: &Self) -> bool {
        let same_run = match (&self.run, &other.run) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        self.key == other.key && self.path == other.path && same_run
    }
}

impl Eq for CallContext {}

impl CallContext {
    /// A context for one call.
    pub fn new(key: impl Into<String>, path: impl Into<String>) -> Self {
        Self { key: key.into(), path: path.into(), run: None, suspender: None }
    }

    /// The same context carrying the run's context value.
    #[must_use]
    pub fn with_run_context(mut self, run: Option<RunContext>) -> Self {
        self.run = run;
        self
    }

    /// The same context able to suspend its run (the runtime sets this for durable tools).
    #[must_use]
    pub fn with_suspender(mut self, suspender: Option<crate::durable::Suspender>) -> Self {
        self.suspender = suspender;
        self
    }

    /// Suspends the run with this call pending, for the host to finish the call and give its
    /// outcome when it resumes the run (an approval). Only a durable tool's `start` or `attach`
    /// can: the future then never ends (the call's work is detached and dropped). It ends with a
    /// [`SuspendError`](crate::SuspendError), and the run goes on, when the run cannot be
    /// suspended now (another call in flight blocks it, the host awaits the run directly) or the
    /// tool is not durable. `start` may call it at once: the calls the program made after this
    /// one then wait, and start when the run resumes.
    pub fn suspend(&self) -> crate::BoxFuture<crate::SuspendError> {
        match &self.suspender {
            Some(suspend) => suspend(),
            None => Box::pin(std::future::ready(crate::SuspendError::new(
                "only a durable tool's start or attach can suspend its run",
            ))),
        }
    }

    /// The idempotency key, `<runId>:<id>`.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The tool's canonical dotted path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The run's context value, if the host gave one of type `T`.
    pub fn context<T: Any>(&self) -> Option<&T> {
        self.run.as_deref().and_then(|c| c.downcast_ref::<T>())
    }

    /// The run's context value as the host gave it.
    pub fn run_context(&self) -> Option<&RunContext> {
        self.run.as_ref()
    }
}
