//! A durable call's `start` running in a task of its own, and who stops the work it starts when
//! the run is dropped before attaching to it.
//!
//! Dropping a `start` midway could leave the work it was starting running with no handle to stop
//! it (a job submitted, its answer not read yet). So a start is not part of the run's task set: it
//! runs in its own task, which the run's set waits for. **A dropped run never orphans work a start
//! created**: whichever of the two comes second — the start returning its handle, or the run being
//! dropped before it attached — cancels the work; a mutex orders them. A saved run aborts its
//! starts instead (the resumed run starts, or looks up, the work again).

use std::sync::{Arc, Mutex, PoisonError};

use codemode_tools::{BoxFuture, Tool};
use serde_json::Value as Json;
use tokio::task::{AbortHandle, JoinSet};

use crate::calls::Ended;
use crate::driver::{Completion, Done};

/// The run's side of a start running in its own task.
pub(crate) struct StartTask {
    state: Arc<Mutex<StartState>>,
    task: AbortHandle,
}

enum StartState {
    Running,
    /// The start returned this handle; the run has not attached to it yet.
    Started(Json),
    /// The run was dropped first: the start's task cancels what it starts.
    RunGone,
}

impl StartTask {
    /// Runs `start` (call `id` of `tool`) in a task of its own; `tasks` gets its outcome.
    pub(crate) fn spawn(
        tasks: &mut JoinSet<Completion>,
        id: u32,
        tool: Tool,
        start: BoxFuture<Done>,
    ) -> StartTask {
        let state = Arc::new(Mutex::new(StartState::Running));
        let shared = state.clone();
        let task = tokio::spawn(async move {
            let done = start.await;
            if let Done::Started(handle) = &done {
                let run_gone = {
                    let mut state = shared.lock().unwrap_or_else(PoisonError::into_inner);
                    let gone = matches!(*state, StartState::RunGone);
                    if !gone {
                        *state = StartState::Started(handle.clone());
                    }
                    gone
                };
                if run_gone && let Some(durable) = tool.durable_ops() {
                    durable.cancel(handle.clone()).await;
                }
            }
            done
        });
        let abort = task.abort_handle();
        tasks.spawn(async move {
            let done = task.await.unwrap_or_else(|_| {
                Done::Ended(Ended::Panicked("the durable call's start ended without an answer".into()))
            });
            (id, done)
        });
        StartTask { state, task: abort }
    }

    /// The run was saved: the start stops where it is.
    pub(crate) fn abort(&self) {
        self.task.abort();
    }

    /// The run was dropped before attaching: the work's cancel when the start has returned its
    /// handle, or nothing (the start's task cancels the work once it returns).
    pub(crate) fn run_gone(&self, tool: &Tool) -> Option<BoxFuture<()>> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match std::mem::replace(&mut *state, StartState::RunGone) {
            StartState::Started(handle) => tool.durable_ops().map(|durable| durable.cancel(handle)),
            StartState::Running | StartState::RunGone => None,
        }
    }
}
