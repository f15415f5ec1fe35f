//! Handing the program's host calls out: tools, `search`, extensions and durable tools, with
//! their hooks, and feeding what they end with back to the program. Every call is numbered in
//! program order and started at once; a handler's panic fails its own call (`calls.rs`).

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use codemode_tools::{CallContext, Tool, ToolError};
use codemode_vm::{FailureKind, HostCall, HostError, HostTarget};
use serde_json::Value as Json;

use crate::calls::{CatchUnwind, Ended, panic_message};
use crate::driver::{Completion, Done, Inflight, Phase, Run, Stop};
use crate::durable_start::StartTask;
use crate::extension::{AsyncFn, HostFunction, HostValue, SyncFn};
use crate::hooks::{CallEnd, CallKind, CallOutcome, CallStart};
use crate::result::{CallFailure, CallFailureKind, CallStatus, Diagnostic, DiagnosticKind, ToolCall};

impl Run {
    /// Starts every call the last slice issued. Calls the driver answers itself (`search`, unknown
    /// tools, namespaces) are completed at once; returns whether there were any.
    pub(crate) fn dispatch(&mut self) -> Result<bool, Stop> {
        let mut answered_now = false;
        let mut calls = std::mem::take(&mut self.queued);
        calls.extend(self.vm.take_host_calls());
        while let Some(call) = calls.pop_front() {
            let counted = !matches!(call.target, HostTarget::Extension { .. });
            if let Some(max) = self.limits.max_tool_calls
                && counted
                && (self.calls.len() - self.extension_calls.len()) as u32 >= max
            {
                return Err(Stop::Diagnostic(Diagnostic {
                    kind: DiagnosticKind::ToolCallLimitExceeded,
                    message: format!(
                        "Tool call limit exceeded: the program made more than {max} tool calls."
                    ),
                    location: None,
                }));
            }
            answered_now |= self.start_call(call);
            if self.asked_to_suspend() {
                // A durable start asked to suspend at once: the program's later calls wait.
                self.queued = calls;
                break;
            }
        }
        Ok(answered_now)
    }

    /// Starts one host call; returns true when it was answered at once.
    fn start_call(&mut self, mut call: HostCall) -> bool {
        let id = call.id;
        let key = call_key(&self.run_id, id);
        let hooked = !self.inner.hooks.is_empty();
        let (path, kind, work) = match call.target {
            HostTarget::Search if !hooked => {
                // Answered from the catalog at once; it counts as a tool call.
                let outcome = search(&self.inner.tools, &call.input);
                self.answer_now(id, "search".into(), outcome);
                return true;
            }
            HostTarget::Search => {
                ("search".to_string(), CallKind::Search, Work::Search(self.inner.tools.clone()))
            }
            HostTarget::Extension { path, handle, .. } => {
                // Outside the catalog and the tool-call limit; not in the result's `toolCalls`.
                self.extension_calls.push(id);
                let f = match handle {
                    Some(handle) => match self.host_functions.get(handle as usize) {
                        Some(Some((f, owner))) => Some((f.clone(), *owner)),
                        Some(None) => {
                            let message = format!(
                                "{path} is not a function: the run was suspended and resumed, and its \
                                 extension does not save the functions in its values"
                            );
                            self.answer_now(id, path, Ended::Lost(message));
                            return true;
                        }
                        None => None,
                    },
                    None => self.inner.extensions.get(&path).cloned().zip(self.inner.extensions.owner(&path)),
                };
                let Some((f, owner)) = f else {
                    let message = format!("{path} is not a function");
                    self.answer_now(id, path, Ended::Failed(ToolError::failure(message)));
                    return true;
                };
                let args = match std::mem::take(&mut call.input) {
                    Json::Array(args) => args,
                    other => vec![other],
                };
                self.extension_owners.push((id, owner));
                (path, CallKind::Extension, Work::Extension(f, args))
            }
            HostTarget::Tool(path) => {
                let Some(tool) = self.inner.tools.get(&path) else {
                    let message = if self.inner.tools.is_namespace(&path) {
                        self.inner.tools.namespace_call_message(&path)
                    } else {
                        self.inner.tools.unknown_tool_message(&path)
                    };
                    let error = HostError { kind: FailureKind::UnknownTool, message: message.clone() };
                    let failure = CallFailure { kind: CallFailureKind::UnknownTool, message, cause: None };
                    self.calls.push(ToolCall { id, path, status: CallStatus::Error, failure: Some(failure) });
                    self.vm.complete(id, Err(error));
                    return true;
                };
                if tool.durable_ops().is_some() {
                    (path, CallKind::Tool, Work::Durable(tool.clone()))
                } else {
                    (path, CallKind::Tool, Work::Tool(tool.clone()))
                }
            }
        };
        // A call without an argument sends `{}` to a tool that takes an object.
        let input = match (&work, call.input) {
            (Work::Tool(tool) | Work::Durable(tool), Json::Null) if takes_object(tool) => {
                Json::Object(serde_json::Map::new())
            }
            (Work::Extension(_, args), _) => Json::Array(args.clone()),
            (_, input) => input,
        };
        self.calls.push(ToolCall { id, path: path.clone(), status: CallStatus::Interrupted, failure: None });
        if !hooked && matches!(work, Work::Tool(_) | Work::Extension(..)) {
            // Without hooks the handler is called now, in program order; the call is in flight
            // (and can block a suspend) only if it does not end at once (the context takes the
            // key: a call that ends at once needs no other copy).
            let ctx = CallContext::new(key, path).with_run_context(self.context.clone());
            let started = match work {
                Work::Tool(tool) => invoke(&tool, input, ctx),
                Work::Extension(HostFunction::Async(f), args) => match invoke_async(&f, args, ctx) {
                    Ok(future) => return self.settle_or_spawn(id, future, host_ended, kind),
                    Err(panic) => Err(panic),
                },
                Work::Extension(HostFunction::Sync(f), args) => {
                    self.finish_call(id, call_sync(&f, args, ctx));
                    return true;
                }
                Work::Search(_) | Work::Durable(_) => return false,
            };
            return match started {
                Ok(future) => self.settle_or_spawn(id, future, tool_ended, kind),
                Err(panic) => {
                    self.finish_call(id, Ended::Panicked(panic));
                    true
                }
            };
        }
        let ctx = CallContext::new(key.clone(), path.clone()).with_run_context(self.context.clone());
        let phase = match &work {
            Work::Durable(tool) => {
                Phase::Starting { tool: tool.clone(), path: path.clone(), args: input.clone(), task: None }
            }
            _ => Phase::Plain,
        };
        self.inflight.insert(id, self.inflight_entry(id, key.clone(), kind, phase));
        if let Work::Durable(tool) = &work
            && !hooked
        {
            return self.start_durable_now(id, tool, input, ctx);
        }
        let start = CallStart { name: path, kind, input, key, context: self.context.clone() };
        if !self.inner.hooks.after.is_empty() {
            self.running.insert(id, (start.clone(), Instant::now()));
        }
        let hooks = self.inner.hooks.clone();
        if let Work::Durable(tool) = work {
            // The after hooks run when the work ends (see `attach`), or report it interrupted.
            let ctx = ctx.with_suspender(Some(self.suspender(id)));
            let started = tool.clone();
            let future = Box::pin(async move {
                let began = Instant::now();
                match hooks.before(&start).await {
                    Err(deny) => {
                        let ended = Ended::Denied(deny.message);
                        let outcome = ended.clone().outcome(&start.name);
                        hooks.after(call_end(start, outcome, began.elapsed())).await;
                        Done::Ended(ended)
                    }
                    Ok(()) => start_done(&started, start.input.clone(), ctx).await,
                }
            });
            self.spawn_start(id, tool, future);
            return false;
        }
        self.tasks.spawn(async move {
            let began = Instant::now();
            let ended = match hooks.before(&start).await {
                Err(deny) => Ended::Denied(deny.message),
                Ok(()) => match work {
                    Work::Search(tools) => search(&tools, &start.input),
                    Work::Tool(tool) => match invoke(&tool, start.input.clone(), ctx) {
                        Ok(future) => settle(future).await,
                        Err(panic) => Ended::Panicked(panic),
                    },
                    Work::Extension(HostFunction::Async(f), args) => match invoke_async(&f, args, ctx) {
                        Ok(future) => settle_host(future).await,
                        Err(panic) => Ended::Panicked(panic),
                    },
                    Work::Extension(HostFunction::Sync(f), args) => call_sync(&f, args, ctx),
                    // Handled above.
                    Work::Durable(_) => Ended::Failed(ToolError::failure("durable call")),
                },
            };
            if !hooks.after.is_empty() {
                let outcome = ended.clone().outcome(&start.name);
                hooks.after(call_end(start, outcome, began.elapsed())).await;
            }
            (id, Done::Ended(ended))
        });
        false
    }

    /// Starts a durable call's work without hooks. Its `start` is polled once right here, in
    /// program order, so that one that asks to suspend at once does so before the program's
    /// later calls start. Returns true when the call ended at once.
    fn start_durable_now(&mut self, id: u32, tool: &Tool, input: Json, ctx: CallContext) -> bool {
        let ctx = ctx.with_suspender(Some(self.suspender(id)));
        let mut future = match std::panic::catch_unwind(AssertUnwindSafe(|| tool.start_durable(input, ctx))) {
            Ok(future) => future,
            Err(panic) => {
                self.finish_call(id, Ended::Panicked(panic_message(panic.as_ref())));
                return true;
            }
        };
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match std::panic::catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(&mut cx))) {
            Ok(std::task::Poll::Pending) => {
                // Spawned tasks are polled again, so the no-op waker loses no wake-up.
                let future = Box::pin(async move {
                    match CatchUnwind(future).await {
                        Ok(Ok(handle)) => Done::Started(handle),
                        Ok(Err(e)) => Done::Ended(Ended::Failed(e)),
                        Err(panic) => Done::Ended(Ended::Panicked(panic)),
                    }
                });
                self.spawn_start(id, tool.clone(), future);
                false
            }
            Ok(std::task::Poll::Ready(Ok(handle))) => {
                self.attach(id, handle);
                false
            }
            Ok(std::task::Poll::Ready(Err(e))) => {
                self.finish_call(id, Ended::Failed(e));
                true
            }
            Err(panic) => {
                self.finish_call(id, Ended::Panicked(panic_message(panic.as_ref())));
                true
            }
        }
    }

    /// Runs a durable call's start in a task of its own (`durable_start`), kept with the call.
    fn spawn_start(&mut self, id: u32, tool: Tool, start: codemode_tools::BoxFuture<Done>) {
        let task = StartTask::spawn(&mut self.tasks, id, tool, start);
        if let Some(entry) = self.inflight.get_mut(&id)
            && let Phase::Starting { task: slot, .. } = &mut entry.phase
        {
            *slot = Some(task);
        }
    }

    /// A durable call's work has its handle: attach to it (the after hooks run when it ends).
    fn attach(&mut self, id: u32, handle: Json) {
        let suspender = self.suspender(id);
        let Some(entry) = self.inflight.get_mut(&id) else { return };
        let Phase::Starting { tool, path, args, .. } = std::mem::replace(&mut entry.phase, Phase::Plain)
        else {
            return;
        };
        let ctx = CallContext::new(entry.key.clone(), path.clone())
            .with_run_context(self.context.clone())
            .with_suspender(Some(suspender));
        entry.phase = Phase::Attached { tool: tool.clone(), path, args, handle: handle.clone() };
        let hook = self.running.get(&id).map(|(start, began)| (start.clone(), *began));
        let hooks = self.inner.hooks.clone();
        let future = std::panic::catch_unwind(AssertUnwindSafe(|| tool.attach_durable(handle, ctx)));
        self.tasks.spawn(async move {
            let ended = match future {
                Ok(future) => settle(future).await,
                Err(panic) => Ended::Panicked(panic_message(panic.as_ref())),
            };
            if let Some((start, began)) = hook {
                let outcome = ended.clone().outcome(&start.name);
                hooks.after(call_end(start, outcome, began.elapsed())).await;
            }
            (id, Done::Ended(ended))
        });
    }

    /// On a current-thread runtime, polls a call's future once, here: a handler that is ready at
    /// once (most are) ends now, in program order and without a task; one that waits goes on in
    /// a task of its own, whose first poll registers the real waker. Returns whether the call
    /// ended. On a multi-thread runtime every call gets its task, as a handler that computes
    /// before its first `.await` must not hold up the driver (and its deadline) there; on a
    /// current-thread runtime its task would hold up the same thread anyway.
    ///
    /// The handler's own boxed future is polled (no second box around it), and `end` says how
    /// its output (or its panic) ends the call.
    fn settle_or_spawn<T: Send + 'static>(
        &mut self,
        id: u32,
        future: codemode_tools::BoxFuture<T>,
        end: fn(Result<T, String>) -> Ended,
        kind: CallKind,
    ) -> bool {
        let mut caught = CatchUnwind(future);
        let current_thread = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::CurrentThread);
        if current_thread
            && let Poll::Ready(output) = Pin::new(&mut caught).poll(&mut Context::from_waker(Waker::noop()))
        {
            self.finish_call(id, end(output));
            return true;
        }
        let key = call_key(&self.run_id, id);
        self.inflight.insert(id, self.inflight_entry(id, key, kind, Phase::Plain));
        self.tasks.spawn(async move { (id, Done::Ended(end(caught.await))) });
        false
    }

    /// The in-flight record of call `id` (the path shown as the program wrote it).
    fn inflight_entry(&self, id: u32, key: String, kind: CallKind, phase: Phase) -> Inflight {
        let path = self.calls.iter().rev().find(|c| c.id == id).map_or("", |c| c.path.as_str());
        let shown_path = match kind {
            CallKind::Tool => format!("{}.{path}", self.inner.root_name),
            _ => path.to_string(),
        };
        Inflight { id, key, shown_path, phase }
    }

    /// Records a call the driver answered itself and completes it.
    pub(crate) fn answer_now(&mut self, id: u32, path: String, ended: Ended) {
        self.calls.push(ToolCall { id, path, status: CallStatus::Interrupted, failure: None });
        self.finish_call(id, ended);
    }

    /// Records how call `id` ended and feeds the outcome to the program.
    pub(crate) fn finish_call(&mut self, id: u32, ended: Ended) {
        self.running.remove(&id);
        self.inflight.remove(&id);
        // Calls are recorded in id order; the linear search is the fallback should one not be.
        let at = match self.calls.binary_search_by_key(&id, |c| c.id) {
            Ok(at) => Some(at),
            Err(_) => self.calls.iter().position(|c| c.id == id),
        };
        let Some(call) = at.and_then(|at| self.calls.get_mut(at)) else { return };
        let (functions, value) = match &ended {
            Ended::HostValue(_, functions, value) => (functions.clone(), Some(value.clone())),
            _ => (Vec::new(), None),
        };
        let owner = self
            .extension_owners
            .iter()
            .position(|(call, _)| *call == id)
            .map(|at| self.extension_owners.swap_remove(at).1);
        let (outcome, failure) = ended.split(&call.path);
        call.status = if outcome.is_ok() { CallStatus::Ok } else { CallStatus::Error };
        call.failure = failure;
        let caller = if functions.is_empty() { String::new() } else { call.path.clone() };
        let owner = owner.unwrap_or(usize::MAX);
        let mut refs = Vec::with_capacity(functions.len());
        for (path, f) in functions {
            let name = if path.is_empty() {
                format!("{caller}()")
            } else {
                format!("{caller}().{}", path.join("."))
            };
            let handle = u32::try_from(self.host_functions.len()).unwrap_or(u32::MAX);
            let sync = matches!(f, HostFunction::Sync(_));
            self.host_functions.push(Some((f, owner)));
            refs.push(codemode_vm::HostFunctionRef { path, handle, name, sync });
        }
        // Values whose extension can save them are kept for a suspend.
        if let Some(value) = value
            && !refs.is_empty()
            && self.inner.extensions.hooks.get(owner).is_some_and(Option::is_some)
        {
            let handles = refs.iter().map(|r| (r.path.clone(), r.handle)).collect();
            self.returned.push(crate::driver::Returned { owner, value: *value, handles });
        }
        self.vm.complete_with_functions(id, outcome, &refs);
    }

    pub(crate) fn collect_ready(&mut self) {
        while let Some(joined) = self.tasks.try_join_next() {
            self.deliver(joined);
        }
    }

    pub(crate) fn deliver(&mut self, joined: Result<Completion, tokio::task::JoinError>) {
        // Tasks catch their handlers' panics and are only cancelled when the run ends.
        let Ok((id, done)) = joined else { return };
        match done {
            Done::Ended(ended) => self.finish_call(id, ended),
            Done::Started(handle) => self.attach(id, handle),
        }
    }
}

/// What a call does once its before hooks allow it.
enum Work {
    Tool(Tool),
    /// A durable tool: `start`, then `attach` (see `codemode_tools::Durable`).
    Durable(Tool),
    Search(codemode_tools::ToolSet),
    Extension(HostFunction, Vec<Json>),
}

/// Calls an asynchronous extension function; a panic there is the call's failure.
fn invoke_async(
    f: &AsyncFn,
    args: Vec<Json>,
    ctx: CallContext,
) -> Result<codemode_tools::BoxFuture<Result<HostValue, ToolError>>, String> {
    std::panic::catch_unwind(AssertUnwindSafe(|| f(args, ctx))).map_err(|p| panic_message(p.as_ref()))
}

/// Calls a synchronous extension function; a panic there is the call's failure.
fn call_sync(f: &SyncFn, args: Vec<Json>, ctx: CallContext) -> Ended {
    match std::panic::catch_unwind(AssertUnwindSafe(|| f(args, ctx))) {
        Ok(Ok(value)) => host_value_ended(value),
        Ok(Err(e)) => Ended::Failed(e),
        Err(p) => Ended::Panicked(panic_message(p.as_ref())),
    }
}

/// `search(input)` answered from the catalog.
fn search(tools: &codemode_tools::ToolSet, input: &Json) -> Ended {
    match tools.search_json(input) {
        Ok(value) => Ended::Value(value),
        Err(e) => Ended::Failed(ToolError::invalid_input(e.message().to_string())),
    }
}

/// Calls the handler, which makes the call's future; a panic there is the call's failure.
fn invoke(
    tool: &Tool,
    input: Json,
    ctx: CallContext,
) -> Result<codemode_tools::BoxFuture<Result<Json, ToolError>>, String> {
    std::panic::catch_unwind(AssertUnwindSafe(|| tool.invoke(input, ctx)))
        .map_err(|p| panic_message(p.as_ref()))
}

/// How an extension call that returned `value` ended.
fn host_value_ended(value: HostValue) -> Ended {
    if !value.has_functions() {
        return Ended::Value(value.split().0);
    }
    // The value is kept whole too, for an extension that saves its values across a suspend.
    let (json, functions) = value.clone().split();
    Ended::HostValue(json, functions, Box::new(value))
}

/// How an extension call ends: with its value, its error, or its handler's panic.
fn host_ended(output: Result<Result<HostValue, ToolError>, String>) -> Ended {
    match output {
        Ok(Ok(value)) => host_value_ended(value),
        Ok(Err(e)) => Ended::Failed(e),
        Err(panic) => Ended::Panicked(panic),
    }
}

/// How a tool call ends: with its value, its error, or its handler's panic.
fn tool_ended(output: Result<Result<Json, ToolError>, String>) -> Ended {
    match output {
        Ok(Ok(value)) => Ended::Value(value),
        Ok(Err(e)) => Ended::Failed(e),
        Err(panic) => Ended::Panicked(panic),
    }
}

/// Awaits an extension function's future; a panic while it is polled is the call's failure.
async fn settle_host(future: codemode_tools::BoxFuture<Result<HostValue, ToolError>>) -> Ended {
    host_ended(CatchUnwind(future).await)
}

/// Awaits a handler's future; a panic while it is polled is the call's failure.
async fn settle(future: codemode_tools::BoxFuture<Result<Json, ToolError>>) -> Ended {
    tool_ended(CatchUnwind(future).await)
}

pub(crate) fn call_end(start: CallStart, outcome: CallOutcome, duration: std::time::Duration) -> CallEnd {
    CallEnd { name: start.name, kind: start.kind, input: start.input, key: start.key, outcome, duration }
}

/// `run_id:id`, a call's idempotency key (built by hand: `format!` cost a thousand instructions
/// a call).
fn call_key(run_id: &str, id: u32) -> String {
    let digits = codemode_ir::IntegerDigits::of_u32(id);
    let mut key = String::with_capacity(run_id.len() + 1 + digits.len());
    key.push_str(run_id);
    key.push(':');
    digits.push_to(&mut key);
    key
}

/// Whether `tool`'s input schema says it takes an object.
fn takes_object(tool: &Tool) -> bool {
    tool.input_schema().and_then(|s| s.get("type")).and_then(Json::as_str) == Some("object")
}

/// Runs a durable call's `start`: the handle, or how the call ended.
async fn start_done(tool: &Tool, input: Json, ctx: CallContext) -> Done {
    match std::panic::catch_unwind(AssertUnwindSafe(|| tool.start_durable(input, ctx))) {
        Ok(future) => match CatchUnwind(future).await {
            Ok(Ok(handle)) => Done::Started(handle),
            Ok(Err(e)) => Done::Ended(Ended::Failed(e)),
            Err(panic) => Done::Ended(Ended::Panicked(panic)),
        },
        Err(panic) => Done::Ended(Ended::Panicked(panic_message(panic.as_ref()))),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_call_key_is_the_run_id_and_the_call_number() {
        assert_eq!(super::call_key("run-1", 0), "run-1:0");
        assert_eq!(super::call_key("x", 7), "x:7");
        assert_eq!(super::call_key("x", 1_234_567), "x:1234567");
        assert_eq!(super::call_key("", u32::MAX), ":4294967295");
    }
}
