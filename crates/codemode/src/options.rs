//! Per-run options ([`ExecuteOptions`]), compiled programs ([`Program`]) and cancellation
//! ([`CancelToken`]).

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::Arc;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use codemode_tools::RunContext;
use serde_json::Value as Json;

/// Options of one run: [`crate::CodeMode::execute_with`] and [`crate::CodeMode::run`].
#[derive(Clone, Default)]
#[non_exhaustive]
pub struct ExecuteOptions {
    /// The run's id; every call's idempotency key is `<runId>:<id>`. When `None`, a fresh one
    /// that is unique by construction (a per-process random prefix and a counter, never the
    /// clock) is made; the result says which ([`crate::ExecResult::run_id`]).
    pub run_id: Option<String>,
    /// Values the program reads as top-level constants (read-only globals), copied in as JSON.
    /// A name that is already a global (a built-in, `tools`, `search`) fails the run.
    pub bindings: Vec<(String, Json)>,
    /// A value every tool handler of this run receives in its `CallContext`
    /// ([`codemode_tools::CallContext::context`]): the session or the user.
    pub context: Option<RunContext>,
    /// Cancels the run from outside: it stops at once with a `Cancelled` diagnostic and its
    /// running calls are interrupted.
    pub cancel: Option<CancelToken>,
    /// The seed of `Math.random` (fix it to replay a run); fresh for every run when `None`.
    pub random_seed: Option<u64>,
    /// The run's local time zone, an IANA name (`"America/New_York"`): `Date`'s local-time
    /// methods (`getHours`, `toString`, `new Date(2024, 0, 15)`) and `Intl`'s default zone use
    /// it. UTC when `None`, whatever the machine's zone (a run stays deterministic); a
    /// suspended run keeps its zone. An unknown name fails the run.
    pub time_zone: Option<String>,
}

impl std::fmt::Debug for ExecuteOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecuteOptions")
            .field("run_id", &self.run_id)
            .field("bindings", &self.bindings)
            .field("context", &self.context.is_some())
            .field("cancel", &self.cancel)
            .field("random_seed", &self.random_seed)
            .field("time_zone", &self.time_zone)
            .finish()
    }
}

impl ExecuteOptions {
    pub fn new() -> Self {
        Self::default()
    }

    #[must_use]
    pub fn run_id(mut self, id: impl Into<String>) -> Self {
        self.run_id = Some(id.into());
        self
    }

    /// Adds a binding: the program reads `name` as a constant holding a copy of `value`.
    #[must_use]
    pub fn binding(mut self, name: impl Into<String>, value: Json) -> Self {
        self.bindings.push((name.into(), value));
        self
    }

    /// Sets the per-run context value tool handlers receive.
    #[must_use]
    pub fn context<T: std::any::Any + Send + Sync>(mut self, value: T) -> Self {
        self.context = Some(Arc::new(value));
        self
    }

    #[must_use]
    pub fn cancel(mut self, token: CancelToken) -> Self {
        self.cancel = Some(token);
        self
    }

    #[must_use]
    pub fn random_seed(mut self, seed: u64) -> Self {
        self.random_seed = Some(seed);
        self
    }

    /// Sets the run's local time zone (an IANA name; see [`ExecuteOptions::time_zone`]).
    #[must_use]
    pub fn time_zone(mut self, name: impl Into<String>) -> Self {
        self.time_zone = Some(name.into());
        self
    }
}

/// A compiled program: compile once with [`crate::CodeMode::compile`], run many times with
/// [`crate::CodeMode::run`]. Cheap to clone (the code is shared).
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) module: codemode_compiler::VerifiedModule,
    /// The functions the program only declares (two or more, none called): a successful run
    /// warns that they never ran.
    pub(crate) uncalled_functions: Vec<String>,
}

/// Cancels a run from another task: [`CancelToken::cancel`]. Clones share one state.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<CancelState>);

#[derive(Debug, Default)]
struct CancelState {
    cancelled: AtomicBool,
    notify: tokio::sync::Notify,
}

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels every run this token was given to (now, or when it starts).
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::SeqCst)
    }

    /// Completes once the token is cancelled.
    pub async fn cancelled(&self) {
        loop {
            let notified = self.0.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

/// Random per process (the standard library seeds its hash keys from the operating system).
static PROCESS_NONCE: LazyLock<u64> =
    LazyLock::new(|| RandomState::new().hash_one(0x636f_6465_6d6f_6465_u64));
static RUNS: AtomicU64 = AtomicU64::new(0);

/// A run id unique by construction in this process (a counter) and across processes with high
/// probability (a random per-process prefix). Not derived from the clock.
pub(crate) fn fresh_run_id() -> String {
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    format!("run-{:016x}-{n}", *PROCESS_NONCE)
}

/// A fresh `Math.random` seed: different for every run.
pub(crate) fn fresh_seed() -> u64 {
    let n = RUNS.fetch_add(1, Ordering::Relaxed);
    RandomState::new().hash_one(n)
}
