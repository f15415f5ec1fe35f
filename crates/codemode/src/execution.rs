//! [`Execution`]: a run in progress, as the host holds it.
//!
//! Awaiting an `Execution` (a future) gives its [`ExecResult`] (the common case: such a run cannot be
//! suspended, and a durable tool asking to suspend it is told so). [`Execution::result`] gives
//! an [`Outcome`]: the result, or the [`Suspended`] state when a durable tool suspended the run;
//! [`Execution::suspend`] suspends it from outside. The program only runs while `result` is
//! being awaited, so between awaits it is at a step boundary: `result` may be dropped (a timer
//! in a `select!`) and `suspend` called. Dropping an `Execution` that was neither finished nor
//! suspended ends the run and cancels its durable work.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use codemode_tools::{SuspendError, ToolError};
use serde_json::Value as Json;

use crate::ExecResult;
use crate::driver::{Code, Run, Stop};
use crate::options::ExecuteOptions;
use crate::runtime::Inner;
use crate::snapshot::{Snapshot, SnapshotError};

/// How a run ended, for a host that can take a suspended state.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Outcome {
    Finished(ExecResult),
    Suspended(Suspended),
}

impl Outcome {
    /// The result, when the run finished.
    pub fn finished(self) -> Option<ExecResult> {
        match self {
            Outcome::Finished(result) => Some(result),
            Outcome::Suspended(_) => None,
        }
    }

    /// The saved state, when the run was suspended.
    pub fn suspended(self) -> Option<Suspended> {
        match self {
            Outcome::Suspended(s) => Some(s),
            Outcome::Finished(_) => None,
        }
    }
}

/// A suspended run: its state and the durable calls it waits on. Resume it with an outcome for
/// each ([`crate::CodeMode::resume`]).
#[derive(Clone, Debug)]
pub struct Suspended {
    pub state: Snapshot,
    pub pending: Vec<PendingCall>,
}

impl Suspended {
    /// `{"ok":"suspended","runId":..,"pending":[{key,path,args,handle?}]}`, the reference's shape
    /// without the state (which is bytes: [`Snapshot::to_bytes`]).
    pub fn to_json(&self) -> Json {
        let pending: Vec<Json> = self
            .pending
            .iter()
            .map(|p| {
                let mut o = serde_json::json!({ "key": p.key, "path": p.path, "args": p.args });
                if let (Some(handle), Some(map)) = (&p.handle, o.as_object_mut()) {
                    map.insert("handle".into(), handle.clone());
                }
                o
            })
            .collect();
        serde_json::json!({ "ok": "suspended", "runId": self.state.run_id(), "pending": pending })
    }
}

/// A durable call a suspended run waits on.
#[derive(Clone, Debug, PartialEq)]
pub struct PendingCall {
    /// The call's idempotency key, `<runId>:<id>`: give its outcome under this key.
    pub key: String,
    /// The tool's path (`demo.approve`).
    pub path: String,
    /// The arguments the program passed.
    pub args: Json,
    /// The handle of its work (`None` when the tool suspended the run from `start`, before it
    /// had one).
    pub handle: Option<Json>,
}

/// A run in progress (see the module docs).
pub struct Execution {
    state: State,
    run_id: String,
    /// The run, driven to its end, once the `Execution` was polled as a future.
    awaiting: Option<Pin<Box<dyn Future<Output = ExecResult> + Send>>>,
}

#[allow(clippy::large_enum_variant)] // one per run; boxing the outcome would buy nothing
enum State {
    Running(Box<Run>),
    Ended(Outcome),
}

impl std::fmt::Debug for Execution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.state {
            State::Running(_) => "running",
            State::Ended(Outcome::Finished(_)) => "finished",
            State::Ended(Outcome::Suspended(_)) => "suspended",
        };
        f.debug_struct("Execution").field("run_id", &self.run_id).field("state", &state).finish()
    }
}

impl Execution {
    pub(crate) fn start(inner: &Arc<Inner>, code: Code<'_>, options: ExecuteOptions) -> Execution {
        match crate::driver::start(inner, code, options) {
            Ok(run) => {
                Execution { run_id: run.run_id.clone(), state: State::Running(Box::new(run)), awaiting: None }
            }
            Err(result) => Execution {
                run_id: result.run_id.clone(),
                state: State::Ended(Outcome::Finished(*result)),
                awaiting: None,
            },
        }
    }

    pub(crate) fn resume(
        inner: &Arc<Inner>,
        state: Snapshot,
        outcomes: Vec<(String, Result<Json, ToolError>)>,
        options: ExecuteOptions,
    ) -> Result<Execution, SnapshotError> {
        let run = Run::resume(inner.clone(), state, outcomes, options)?;
        Ok(Execution { run_id: run.run_id.clone(), state: State::Running(Box::new(run)), awaiting: None })
    }

    /// The run's id (call keys are `<runId>:<id>`).
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// Runs the program until it finishes or a durable tool suspends it. Cancel-safe: dropping
    /// the future leaves the run where it was, to be awaited again or suspended.
    pub async fn result(&mut self) -> Outcome {
        self.drive(true, true).await
    }

    /// Suspends the run now: its state and the durable calls it waits on. Fails, and the run
    /// goes on untouched, while any call other than attached durable work is running (the
    /// error names each by key and path) or when the state is larger than
    /// [`crate::Builder::suspend_max_bytes`]. After the run finished, gives its result.
    pub fn suspend(&mut self) -> Result<Outcome, SuspendError> {
        match &mut self.state {
            State::Ended(outcome) => Ok(outcome.clone()),
            State::Running(run) => {
                run.suspendable = true;
                let suspended = run.try_suspend(None)?;
                self.state = State::Ended(Outcome::Suspended(suspended.clone()));
                Ok(Outcome::Suspended(suspended))
            }
        }
    }

    /// Drives the run to its outcome. With `keep`, the execution also keeps a copy for later
    /// calls of [`Execution::result`] and [`Execution::suspend`]; without (the run was handed
    /// to its future, nobody can ask again), it keeps nothing: the result can hold up to the
    /// memory limit of logs, and a second copy would double the process's peak.
    async fn drive(&mut self, suspendable: bool, keep: bool) -> Outcome {
        let run = match &mut self.state {
            State::Running(run) => run,
            State::Ended(outcome) => return outcome.clone(),
        };
        run.suspendable = suspendable;
        let outcome = match run.drive().await {
            Err(Stop::Suspended(suspended)) => Outcome::Suspended(*suspended),
            other => {
                let mut result = run.finish(other);
                result.run_id = self.run_id.clone();
                run.report_interrupted().await;
                Outcome::Finished(result)
            }
        };
        // Either way the run (and its VM) is dropped here, before the outcome is handed on.
        self.state = State::Ended(if keep { outcome.clone() } else { Outcome::Finished(taken()) });
        outcome
    }
}

/// An `Execution` is a future of its [`ExecResult`]: it runs to the end, and such a run
/// cannot be suspended (durable tools are told so). Poll it or use [`Execution::result`], not
/// both.
impl Future for Execution {
    type Output = ExecResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ExecResult> {
        let this = &mut *self;
        let awaiting = this.awaiting.get_or_insert_with(|| {
            let mut run = Execution {
                state: std::mem::replace(&mut this.state, State::Ended(Outcome::Finished(taken()))),
                run_id: this.run_id.clone(),
                awaiting: None,
            };
            Box::pin(async move {
                match run.drive(false, false).await {
                    Outcome::Finished(result) => result,
                    Outcome::Suspended(_) => taken(),
                }
            })
        });
        awaiting.as_mut().poll(cx)
    }
}

/// What an `Execution` whose run was handed to its future answers afterwards.
fn taken() -> ExecResult {
    crate::driver::failure(
        crate::Diagnostic {
            kind: crate::DiagnosticKind::ExecutionFailure,
            message: "this execution's run was awaited as a future; its result went there".into(),
            location: None,
        },
        Vec::new(),
        Vec::new(),
    )
}

impl Drop for Run {
    /// A run dropped before it finished (its `Execution` was dropped, "closing its scope")
    /// cancels the durable work it has running; one that was saved detached it instead.
    fn drop(&mut self) {
        // Its heap's buffers serve the next run (`Vm::recycle`).
        self.vm.recycle();
        let cancels = self.take_durable_cancels();
        if cancels.is_empty() {
            return;
        }
        // The runtime here, else the one that drove the run (durable work exists only in a run
        // that was driven, so one of the two is there).
        let runtime = tokio::runtime::Handle::try_current().ok().or_else(|| self.driven_on.take());
        if let Some(runtime) = runtime {
            for cancel in cancels {
                runtime.spawn(cancel);
            }
        }
    }
}
