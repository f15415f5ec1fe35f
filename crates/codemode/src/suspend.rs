//! Suspending a run (saving it as a [`Snapshot`] with the durable calls it waits on) and
//! resuming one.
//!
//! **A suspend changes nothing until it has succeeded.** The checks (every call in flight is
//! durable work with its handle, or the durable start asking), saving the state and checking
//! its size all happen first; a refusal leaves the run exactly as it was. Once saved, the run's
//! tasks are dropped: durable work is detached (never cancelled) and no after hook reports it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codemode_tools::{BlockingCall, BoxFuture, SuspendError, Suspender, ToolError};
use serde_json::Value as Json;

use std::panic::AssertUnwindSafe;

use crate::calls::{Ended, panic_message};
use crate::driver::{Phase, Returned, Run, Stop, SuspendAsk};
use crate::execution::{PendingCall, Suspended};
use crate::options::ExecuteOptions;
use crate::result::{Diagnostic, DiagnosticKind};
use crate::runtime::Inner;
use crate::snapshot::{
    RunState, SavedCall, SavedLimits, SavedPending, SavedReturned, Snapshot, SnapshotError,
};

impl Run {
    /// What call `id`'s context calls to suspend the run.
    pub(crate) fn suspender(&mut self, id: u32) -> Suspender {
        let sender = self.asks.get_or_insert_with(tokio::sync::mpsc::unbounded_channel).0.clone();
        Arc::new(move || -> BoxFuture<SuspendError> {
            let (reply, answer) = tokio::sync::oneshot::channel();
            let sent = sender.send(SuspendAsk { id, reply }).is_ok();
            Box::pin(async move {
                if !sent {
                    return SuspendError::new("the run has ended");
                }
                match answer.await {
                    Ok(refusal) => refusal,
                    // Suspended: the call's work is detached and this future dropped.
                    Err(_) => std::future::pending().await,
                }
            })
        })
    }

    /// Whether a durable call asked to suspend the run (asks are moved to `pending_asks`).
    pub(crate) fn asked_to_suspend(&mut self) -> bool {
        if let Some((_, asks)) = &mut self.asks {
            while let Ok(ask) = asks.try_recv() {
                self.pending_asks.push(ask);
            }
        }
        !self.pending_asks.is_empty()
    }

    /// Answers the asks: the first that can suspend the run does (`Err(Stop::Suspended)`); the
    /// others get the reason they could not.
    pub(crate) fn answer_asks(&mut self) -> Result<(), Stop> {
        for ask in std::mem::take(&mut self.pending_asks) {
            match self.try_suspend(Some(ask.id)) {
                Ok(suspended) => return Err(Stop::Suspended(Box::new(suspended))),
                Err(refusal) => {
                    let _ = ask.reply.send(refusal);
                }
            }
        }
        Ok(())
    }

    /// Saves the run and detaches its durable work, or says why it cannot (and changes nothing).
    /// `asking` is the durable call whose `ctx.suspend()` asked, which may still be in `start`.
    pub(crate) fn try_suspend(&mut self, asking: Option<u32>) -> Result<Suspended, SuspendError> {
        if !self.suspendable {
            return Err(SuspendError::new(
                "this run cannot be suspended: the host awaits its result directly (suspending needs \
                 `Execution::result` or `Execution::suspend`)",
            ));
        }
        // Outcomes that are ready become the program's before the state is taken.
        self.collect_ready();
        let blocking: Vec<BlockingCall> = self
            .inflight
            .values()
            .filter(|c| match c.phase {
                Phase::Plain => true,
                Phase::Starting { .. } => asking != Some(c.id),
                Phase::Attached { .. } => false,
            })
            .map(|c| BlockingCall { key: c.key.clone(), path: c.shown_path.clone() })
            .collect();
        if !blocking.is_empty() {
            let names: Vec<String> = blocking.iter().map(|b| format!("{} ({})", b.path, b.key)).collect();
            return Err(SuspendError {
                message: format!(
                    "the run cannot be suspended while these calls are running: {}",
                    names.join(", ")
                ),
                blocking,
            });
        }
        let returned = self.encode_returned()?;
        if let Some(max) = self.inner.suspend_max_bytes {
            let len = self
                .vm
                .encoded_len()
                .map_err(|e| SuspendError::new(format!("the state could not be saved: {e}")))?;
            if len > max as u64 {
                return Err(SuspendError::new(format!(
                    "the saved state is {len} bytes, more than the {max} bytes allowed"
                )));
            }
        }
        // The run moves into the snapshot whole (it is encoded when the host writes it), so
        // suspending holds no second copy of its state.
        let idle = codemode_vm::Vm::idle()
            .map_err(|e| SuspendError::new(format!("the state could not be saved: {e}")))?;
        let pending: Vec<SavedPending> = self
            .inflight
            .values()
            .filter_map(|c| match &c.phase {
                Phase::Starting { path, args, .. } => Some((c, path, args, None)),
                Phase::Attached { path, args, handle, .. } => Some((c, path, args, Some(handle.clone()))),
                Phase::Plain => None,
            })
            .map(|(c, path, args, handle)| SavedPending {
                id: c.id,
                key: c.key.clone(),
                path: path.clone(),
                args: args.clone(),
                handle,
            })
            .collect();
        let active = self.active_before + self.started.elapsed();
        let run = RunState {
            run_id: self.run_id.clone(),
            limits: SavedLimits::from_limits(&self.limits),
            active_micros: u64::try_from(active.as_micros()).unwrap_or(u64::MAX),
            calls: self.calls.iter().map(SavedCall::from_call).collect(),
            extension_calls: self.extension_calls.clone(),
            pending: pending.clone(),
            queued: self.queued.iter().cloned().collect(),
            extensions: self.inner.extensions.names(),
            host_functions: u32::try_from(self.host_functions.len()).unwrap_or(u32::MAX),
            returned,
        };
        // Saved: from here on the run is over in this process.
        self.detached = true;
        for call in self.inflight.values() {
            if let Phase::Starting { task: Some(task), .. } = &call.phase {
                task.abort();
            }
        }
        self.tasks.abort_all();
        self.running.clear();
        self.inflight.clear();
        let pending = pending
            .into_iter()
            .map(|p| PendingCall { key: p.key, path: p.path, args: p.args, handle: p.handle })
            .collect();
        let vm = std::mem::replace(&mut self.vm, idle);
        Ok(Suspended { state: Snapshot { run, vm: std::sync::Arc::new(vm) }, pending })
    }

    /// The values with functions that extensions save, as their `encode` hooks give them.
    fn encode_returned(&self) -> Result<Vec<SavedReturned>, SuspendError> {
        let extensions = &self.inner.extensions;
        let mut saved = Vec::with_capacity(self.returned.len());
        for r in &self.returned {
            let Some(Some(hooks)) = extensions.hooks.get(r.owner) else { continue };
            let name = extensions.names.get(r.owner).map_or("?", String::as_str);
            let encoded = std::panic::catch_unwind(AssertUnwindSafe(|| (hooks.encode)(&r.value)))
                .map_err(|p| panic_message(p.as_ref()))
                .and_then(|r| r);
            let data = encoded.map_err(|e| {
                SuspendError::new(format!("extension '{name}' could not save a value it returned: {e}"))
            })?;
            saved.push(SavedReturned {
                extension: u32::try_from(r.owner).unwrap_or(u32::MAX),
                data,
                handles: r.handles.clone(),
            });
        }
        Ok(saved)
    }

    /// Gives the program's copies of saved values their functions again (`decode` hooks); the
    /// others stay lost (calling one throws a `TypeError`).
    fn decode_returned(&mut self, count: u32, saved: Vec<SavedReturned>) -> Result<(), SnapshotError> {
        let inner = self.inner.clone();
        let extensions = &inner.extensions;
        self.host_functions = vec![None; count.min(1 << 20) as usize];
        for r in saved {
            let owner = r.extension as usize;
            let name = extensions.names.get(owner).cloned().unwrap_or_default();
            let Some(Some(hooks)) = extensions.hooks.get(owner) else {
                return Err(SnapshotError::Malformed(format!(
                    "a saved value of extension {owner}, which has no hooks"
                )));
            };
            let decoded = std::panic::catch_unwind(AssertUnwindSafe(|| (hooks.decode)(r.data)))
                .map_err(|p| panic_message(p.as_ref()))
                .and_then(|r| r)
                .map_err(|message| SnapshotError::Extension { name: name.clone(), message })?;
            let (_, functions) = decoded.clone().split();
            for (path, handle) in &r.handles {
                let slot = self.host_functions.get_mut(*handle as usize).ok_or_else(|| {
                    SnapshotError::Malformed(format!("function handle {handle} out of range"))
                })?;
                if let Some((_, f)) = functions.iter().find(|(p, _)| p == path) {
                    *slot = Some((f.clone(), owner));
                }
            }
            self.returned.push(Returned { owner, value: decoded, handles: r.handles });
        }
        Ok(())
    }

    /// The cancel operations of the durable work the run has started (none once it was saved).
    pub(crate) fn take_durable_cancels(&mut self) -> Vec<BoxFuture<()>> {
        if self.detached {
            return Vec::new();
        }
        let mut cancels = Vec::new();
        for call in std::mem::take(&mut self.inflight).into_values() {
            match call.phase {
                Phase::Attached { tool, handle, .. } => {
                    if let Some(durable) = tool.durable_ops() {
                        cancels.push(durable.cancel(handle));
                    }
                }
                // A start still running cancels what it starts itself (`durable_start`).
                Phase::Starting { tool, task: Some(task), .. } => cancels.extend(task.run_gone(&tool)),
                Phase::Starting { task: None, .. } | Phase::Plain => {}
            }
        }
        cancels
    }

    /// `CODEMODE_ROUNDTRIP=1`: the VM goes through its bytes and comes back as a new VM.
    pub(crate) fn roundtrip_vm(&mut self) -> Result<(), Stop> {
        // The old VM goes before the new one is decoded, so the run never holds two heaps.
        let restored = self.vm.to_bytes().and_then(|bytes| {
            if let Ok(placeholder) = codemode_vm::Vm::idle() {
                self.vm = placeholder;
            }
            codemode_vm::Vm::from_bytes(&bytes)
        });
        match restored {
            Ok(vm) => {
                self.vm = vm;
                Ok(())
            }
            Err(e) => Err(Stop::Diagnostic(Diagnostic {
                kind: DiagnosticKind::ExecutionFailure,
                message: format!("CODEMODE_ROUNDTRIP: the run state did not survive saving: {e}"),
                location: None,
            })),
        }
    }

    /// A saved run with an outcome for each of its pending durable calls, ready to go on.
    pub(crate) fn resume(
        inner: Arc<Inner>,
        snapshot: Snapshot,
        outcomes: Vec<(String, Result<Json, ToolError>)>,
        options: ExecuteOptions,
    ) -> Result<Run, SnapshotError> {
        let here = inner.extensions.names();
        if snapshot.run.extensions != here {
            return Err(SnapshotError::Extensions { saved: snapshot.run.extensions.clone(), here });
        }
        let mut outcomes = outcomes;
        let mut by_id = Vec::with_capacity(snapshot.run.pending.len());
        for pending in &snapshot.run.pending {
            let at = outcomes
                .iter()
                .position(|(key, _)| *key == pending.key)
                .ok_or_else(|| SnapshotError::MissingOutcome { key: pending.key.clone() })?;
            let (_, mut outcome) = outcomes.swap_remove(at);
            // Checked as the handler's answer would be on a live call.
            if let (Ok(value), Some(tool)) = (&outcome, inner.tools.get(&pending.path))
                && let Err(e) = tool.check_output_value(value)
            {
                outcome = Err(e);
            }
            by_id.push((pending.id, outcome));
        }
        if let Some((key, _)) = outcomes.first() {
            return Err(SnapshotError::UnexpectedOutcome { key: key.clone() });
        }
        let (state, mut vm) = snapshot.into_vm();
        let active_before = Duration::from_micros(state.active_micros);
        // The saved limits, each capped by this runtime's: the state's bytes cannot raise them.
        let limits = state.limits.to_limits().tightest(&inner.limits);
        vm.tighten_limits(limits.memory_limit, limits.max_call_depth, limits.max_output_bytes);
        let mut run =
            Run::new(inner, vm, state.run_id, options.context, options.cancel, Instant::now(), active_before);
        run.limits = limits;
        run.deadline = run.limits.timeout.map(|t| run.started + t.saturating_sub(active_before));
        run.calls = state.calls.iter().map(SavedCall::to_call).collect();
        run.extension_calls = state.extension_calls;
        run.queued = state.queued.into();
        run.decode_returned(state.host_functions, state.returned)?;
        for (id, outcome) in by_id {
            let ended = match outcome {
                Ok(value) => Ended::Value(value),
                Err(e) => Ended::Failed(e),
            };
            run.finish_call(id, ended);
        }
        Ok(run)
    }
}
