//! The async driver: compiles the program, runs the sans-I/O VM in fuel slices, starts every host
//! call it issues at once on tokio, feeds completions back, and enforces the limits.
//!
//! One [`Run`] is one execution, in parts that each do one thing: [`Run::start`] (compile and
//! build the VM, inside the deadline), [`Run::drive`] (the loop), [`Run::dispatch`] (hand the
//! slice's host calls out), [`Run::wait`] (block on the first completion or the deadline) and
//! [`Run::finish`] (the result). **The clock is read on every turn of the loop**, whichever way
//! the previous turn ended, so no path (calls answered at once, unknown tools, `search`) can run
//! past the deadline.

use std::panic::AssertUnwindSafe;
use std::time::Instant;

use codemode_syntax::SyntaxErrorKind;
use codemode_tools::{CallContext, RunContext, Tool, ToolError};
use codemode_vm::{ErrorReport, FailureKind, HostCall, HostError, HostTarget, Status, Vm, VmConfig};
use serde_json::Value as Json;
use tokio::task::JoinSet;

use crate::calls::{CatchUnwind, Ended, panic_message};
use crate::extension::{AsyncFn, HostFunction, HostValue, SyncFn};
use crate::hooks::{CallEnd, CallKind, CallOutcome, CallStart};
use crate::options::{CancelToken, ExecuteOptions, Program, fresh_run_id, fresh_seed};
use crate::result::{
    CallFailure, CallFailureKind, CallStatus, Diagnostic, DiagnosticKind, ExecResult, Location, ToolCall,
};
use crate::runtime::Inner;

/// Fuel per slice: the clock is read between slices.
const SLICE_FUEL: u64 = 20_000;

/// How long after hooks of interrupted calls may take past the deadline.
const AFTER_HOOK_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// What to run: source text (compiled inside the deadline) or a compiled [`Program`].
pub(crate) enum Code<'a> {
    Source(&'a str),
    Program(&'a Program),
}

pub(crate) async fn execute(inner: &Inner, code: Code<'_>, options: ExecuteOptions) -> ExecResult {
    let run_id = options.run_id.clone().unwrap_or_else(fresh_run_id);
    let mut result = match Run::start(inner, code, run_id.clone(), options) {
        Ok(mut run) => {
            let outcome = run.drive().await;
            let result = run.finish(outcome);
            run.report_interrupted().await;
            result
        }
        Err(result) => *result,
    };
    result.run_id = run_id;
    result
}

type Completion = (u32, Ended);

/// How a run ended before its program could finish.
enum Stop {
    /// The VM's report (a throw, a timeout, a promise that can never settle).
    Report(ErrorReport),
    /// A limit of the driver's own (tool calls).
    Diagnostic(Diagnostic),
}

struct Run<'a> {
    inner: &'a Inner,
    vm: Vm,
    run_id: String,
    deadline: Option<Instant>,
    /// The host's per-run value, handed to every tool call.
    context: Option<RunContext>,
    cancel: Option<CancelToken>,
    calls: Vec<ToolCall>,
    /// The deadline came while calls the program left running were finishing after it returned.
    cleanup_timed_out: bool,
    /// Ids of extension calls: recorded with the calls, left out of the result's `toolCalls`.
    extension_calls: Vec<u32>,
    /// Functions that came in extension results, by handle (their index): the program calls them
    /// back with the handle.
    host_functions: Vec<HostFunction>,
    /// Calls still running, for the after hooks: id, what started, when.
    running: Vec<(u32, CallStart, Instant)>,
    tasks: JoinSet<Completion>,
}

impl<'a> Run<'a> {
    /// Compiles the source (or takes the program) and builds the VM with the run's bindings. The
    /// deadline starts before compilation.
    fn start(
        inner: &'a Inner,
        code: Code<'_>,
        run_id: String,
        options: ExecuteOptions,
    ) -> Result<Run<'a>, Box<ExecResult>> {
        let started = Instant::now();
        let deadline = inner.limits.timeout.map(|t| started + t);
        let fail = |d: Diagnostic| Box::new(failure(d, Vec::new(), Vec::new()));
        let module = match code {
            Code::Source(source) => compile(source).map_err(fail)?,
            Code::Program(program) => program.module.clone(),
        };
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(fail(diagnostic_from_report(timeout_report(inner))));
        }
        if options.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
            return Err(fail(cancelled()));
        }
        let config = VmConfig {
            now_ms: now_ms(),
            memory_limit: inner.limits.memory_limit,
            max_call_depth: inner.limits.max_call_depth,
            max_log_bytes: inner.limits.max_output_bytes,
            random_seed: options.random_seed.unwrap_or_else(fresh_seed),
        };
        let execution_failure =
            |message: String| Diagnostic { kind: DiagnosticKind::ExecutionFailure, message, location: None };
        let roots = inner.tools.children("").unwrap_or_default();
        let mut vm = Vm::new(module, config)
            .and_then(|mut vm| vm.declare_tools(roots).map(|()| vm))
            .map_err(|message| fail(execution_failure(message)))?;
        if inner.root_name != "tools" {
            vm.alias_tools_root(&inner.root_name).map_err(|message| fail(execution_failure(message)))?;
        }
        for (path, f) in &inner.extensions.functions {
            let sync = matches!(f, HostFunction::Sync(_));
            vm.define_host_function(path, sync).map_err(|message| {
                fail(execution_failure(format!("Extension global '{path}' could not be defined: {message}")))
            })?;
        }
        for (module, path) in &inner.extensions.modules {
            vm.define_module(module, path).map_err(|message| {
                fail(execution_failure(format!(
                    "Extension module '{module}' could not be defined: {message}"
                )))
            })?;
        }
        for (name, value) in &options.bindings {
            vm.define_binding(name, value)
                .map_err(|message| fail(execution_failure(format!("Invalid binding '{name}': {message}"))))?;
        }
        Ok(Run {
            inner,
            vm,
            run_id,
            deadline,
            context: options.context,
            cancel: options.cancel,
            calls: Vec::new(),
            running: Vec::new(),
            extension_calls: Vec::new(),
            host_functions: Vec::new(),
            cleanup_timed_out: false,
            tasks: JoinSet::new(),
        })
    }

    /// After the program returned: calls still running are given until the deadline to finish
    /// (their outcomes reach the VM: a late failure nobody handles becomes an unhandled-rejection
    /// warning). When the deadline comes first, they are interrupted and the result, still
    /// successful, gets a `TimeoutExceeded` warning. Without a time limit, or once the host
    /// cancelled the run, they are interrupted at once.
    async fn clean_up(&mut self) {
        let Some(deadline) = self.deadline else { return };
        while !self.tasks.is_empty() && !self.cancelled() {
            let cancel = async {
                match &self.cancel {
                    Some(token) => token.cancelled().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                next = self.tasks.join_next() => match next {
                    Some(joined) => self.deliver(joined),
                    None => return,
                },
                () = tokio::time::sleep_until(deadline.into()) => {
                    self.cleanup_timed_out = true;
                    return;
                }
                () = cancel => return,
            }
        }
    }

    /// After hooks learn about the calls the end of the run interrupted (within the deadline, or
    /// a short grace past it).
    async fn report_interrupted(&mut self) {
        let grace = Instant::now() + AFTER_HOOK_GRACE;
        let limit = self.deadline.map_or(grace, |d| d.max(grace));
        let hooks = &self.inner.hooks;
        for (_, start, began) in std::mem::take(&mut self.running) {
            let report = hooks.after(call_end(start, CallOutcome::Interrupted, began.elapsed()));
            let _ = tokio::time::timeout_at(limit.into(), report).await;
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(CancelToken::is_cancelled)
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Runs the VM to the end: slices of fuel, host calls dispatched after each slice,
    /// completions fed back.
    async fn drive(&mut self) -> Result<(), Stop> {
        loop {
            if self.past_deadline() {
                return Err(Stop::Report(timeout_report(self.inner)));
            }
            if self.cancelled() {
                return Err(Stop::Diagnostic(cancelled()));
            }
            let status = self.vm.run(SLICE_FUEL);
            let answered_now = self.dispatch()?;
            match status {
                Status::Done => {
                    self.clean_up().await;
                    return Ok(());
                }
                Status::Threw => return Err(Stop::Report(self.vm.error_report())),
                Status::OutOfFuel => {
                    // Let tool tasks make progress on a current-thread runtime.
                    self.collect_ready();
                    // Tool tasks, and whoever holds the cancel token, get a turn.
                    if !self.tasks.is_empty() || self.cancel.is_some() {
                        tokio::task::yield_now().await;
                        self.collect_ready();
                    }
                }
                Status::Waiting if answered_now => {}
                Status::Waiting => self.wait().await?,
            }
        }
    }

    /// Starts every call the last slice issued. Calls the driver answers itself (`search`, unknown
    /// tools, namespaces) are completed at once; returns whether there were any.
    fn dispatch(&mut self) -> Result<bool, Stop> {
        let mut answered_now = false;
        for call in self.vm.take_host_calls() {
            let counted = !matches!(call.target, HostTarget::Extension { .. });
            if let Some(max) = self.inner.limits.max_tool_calls
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
        }
        Ok(answered_now)
    }

    /// Starts one host call; returns true when it was answered at once.
    fn start_call(&mut self, mut call: HostCall) -> bool {
        let id = call.id;
        let key = format!("{}:{}", self.run_id, id);
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
                    Some(handle) => self.host_functions.get(handle as usize).cloned(),
                    None => self.inner.extensions.get(&path).cloned(),
                };
                let Some(f) = f else {
                    let message = format!("{path} is not a function");
                    self.answer_now(id, path, Ended::Failed(ToolError::failure(message)));
                    return true;
                };
                let args = match std::mem::take(&mut call.input) {
                    Json::Array(args) => args,
                    other => vec![other],
                };
                (path, CallKind::Extension, Work::Extension(f, args))
            }
            HostTarget::Tool(path) => {
                let Some(tool) = self.inner.tools.get(&path) else {
                    let message = if self.inner.tools.is_namespace(&path) {
                        codemode_tools::ToolSet::not_callable_message(&path)
                    } else {
                        self.inner.tools.unknown_tool_message(&path)
                    };
                    let error = HostError { kind: FailureKind::UnknownTool, message: message.clone() };
                    let failure = CallFailure { kind: CallFailureKind::UnknownTool, message, cause: None };
                    self.calls.push(ToolCall { id, path, status: CallStatus::Error, failure: Some(failure) });
                    self.vm.complete(id, Err(error));
                    return true;
                };
                (path, CallKind::Tool, Work::Tool(tool.clone()))
            }
        };
        // A call without an argument sends `{}` to a tool that takes an object.
        let input = match (&work, call.input) {
            (Work::Tool(tool), Json::Null) if takes_object(tool) => Json::Object(serde_json::Map::new()),
            (Work::Extension(_, args), _) => Json::Array(args.clone()),
            (_, input) => input,
        };
        self.calls.push(ToolCall { id, path: path.clone(), status: CallStatus::Interrupted, failure: None });
        let ctx = CallContext::new(key.clone(), path.clone()).with_run_context(self.context.clone());
        if !hooked {
            // Without hooks the handler is called now, in program order.
            let started = match work {
                Work::Tool(tool) => invoke(&tool, input, ctx),
                Work::Extension(HostFunction::Async(f), args) => match invoke_async(&f, args, ctx) {
                    Ok(future) => {
                        self.tasks.spawn(async move { (id, settle_host(future).await) });
                        return false;
                    }
                    Err(panic) => Err(panic),
                },
                Work::Extension(HostFunction::Sync(f), args) => {
                    self.finish_call(id, call_sync(&f, args, ctx));
                    return true;
                }
                Work::Search(_) => return false,
            };
            match started {
                Ok(future) => {
                    self.tasks.spawn(async move { (id, settle(future).await) });
                }
                Err(panic) => {
                    self.finish_call(id, Ended::Panicked(panic));
                    return true;
                }
            }
            return false;
        }
        let start = CallStart { name: path, kind, input, key, context: self.context.clone() };
        if !self.inner.hooks.after.is_empty() {
            self.running.push((id, start.clone(), Instant::now()));
        }
        let hooks = self.inner.hooks.clone();
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
                },
            };
            if !hooks.after.is_empty() {
                let outcome = ended.clone().outcome(&start.name);
                hooks.after(call_end(start, outcome, began.elapsed())).await;
            }
            (id, ended)
        });
        false
    }

    /// Records a call the driver answered itself and completes it.
    fn answer_now(&mut self, id: u32, path: String, ended: Ended) {
        self.calls.push(ToolCall { id, path, status: CallStatus::Interrupted, failure: None });
        self.finish_call(id, ended);
    }

    /// Records how call `id` ended and feeds the outcome to the program.
    fn finish_call(&mut self, id: u32, ended: Ended) {
        self.running.retain(|(running, _, _)| *running != id);
        let Some(call) = self.calls.iter_mut().find(|c| c.id == id) else { return };
        let functions = match &ended {
            Ended::HostValue(_, functions) => functions.clone(),
            _ => Vec::new(),
        };
        let (outcome, failure) = ended.split(&call.path);
        call.status = if outcome.is_ok() { CallStatus::Ok } else { CallStatus::Error };
        call.failure = failure;
        let caller = call.path.clone();
        let mut refs = Vec::with_capacity(functions.len());
        for (path, f) in functions {
            let name = if path.is_empty() {
                format!("{caller}()")
            } else {
                format!("{caller}().{}", path.join("."))
            };
            let handle = u32::try_from(self.host_functions.len()).unwrap_or(u32::MAX);
            let sync = matches!(f, HostFunction::Sync(_));
            self.host_functions.push(f);
            refs.push(codemode_vm::HostFunctionRef { path, handle, name, sync });
        }
        self.vm.complete_with_functions(id, outcome, &refs);
    }

    /// Nothing can run until a tool finishes: waits for the first completion or the deadline.
    async fn wait(&mut self) -> Result<(), Stop> {
        if self.tasks.is_empty() {
            return Err(Stop::Report(ErrorReport {
                kind: FailureKind::Execution,
                message: "Error: the program is waiting for a promise that can never settle \
                          (nothing is running that could resolve it)."
                    .into(),
                location: None,
            }));
        }
        let deadline = async {
            match self.deadline {
                Some(d) => tokio::time::sleep_until(d.into()).await,
                None => std::future::pending().await,
            }
        };
        let cancel = async {
            match &self.cancel {
                Some(token) => token.cancelled().await,
                None => std::future::pending().await,
            }
        };
        let next = tokio::select! {
            next = self.tasks.join_next() => next,
            () = deadline => return Err(Stop::Report(timeout_report(self.inner))),
            () = cancel => return Err(Stop::Diagnostic(cancelled())),
        };
        if let Some(joined) = next {
            self.deliver(joined);
        }
        self.collect_ready();
        Ok(())
    }

    fn collect_ready(&mut self) {
        while let Some(joined) = self.tasks.try_join_next() {
            self.deliver(joined);
        }
    }

    fn deliver(&mut self, joined: Result<Completion, tokio::task::JoinError>) {
        // Tasks catch their handlers' panics and are only cancelled when the run ends.
        let Ok((id, ended)) = joined else { return };
        self.finish_call(id, ended);
    }

    /// The run's result: value or diagnostic, logs, warnings and the tool-call record.
    fn finish(&mut self, outcome: Result<(), Stop>) -> ExecResult {
        self.tasks.abort_all();
        let logs = self.vm.take_logs();
        let tally = self.vm.log_tally();
        let mut calls = std::mem::take(&mut self.calls);
        calls.retain(|c| !self.extension_calls.contains(&c.id));
        let mut result = match outcome {
            Ok(()) => match self.vm.result_json() {
                Ok(value) => ExecResult {
                    ok: true,
                    value: Some(value),
                    error: None,
                    warnings: self.warnings(),
                    logs,
                    truncated: false,
                    tool_calls: calls,
                    run_id: String::new(),
                },
                Err(report) => failure(diagnostic_from_report(report), logs, calls),
            },
            Err(Stop::Report(report)) => failure(diagnostic_from_report(report), logs, calls),
            Err(Stop::Diagnostic(d)) => failure(d, logs, calls),
        };
        crate::output::fit(&mut result, tally, self.inner.limits.max_output_bytes);
        result
    }
}

impl Run<'_> {
    /// A successful run's warnings: unhandled rejections, then a cleanup that timed out.
    fn warnings(&mut self) -> Vec<Diagnostic> {
        let mut warnings = rejection_warnings(self.vm.unhandled_rejection_reports());
        if self.cleanup_timed_out {
            let ms = self.inner.limits.timeout.map_or(0, |t| t.as_millis());
            warnings.push(Diagnostic {
                kind: DiagnosticKind::TimeoutExceeded,
                message: format!(
                    "Execution timed out after {ms}ms while work the program started was still running after it \
                     returned; that work was interrupted."
                ),
                location: None,
            });
        }
        warnings
    }
}

/// At most this many unhandled rejections are reported, each at most this long.
const MAX_REJECTION_WARNINGS: usize = 100;
const MAX_WARNING_CHARS: usize = 4096;

/// Unhandled rejections as warnings, in rejection order, then one summary when some were left out.
fn rejection_warnings(reports: Vec<ErrorReport>) -> Vec<Diagnostic> {
    let total = reports.len();
    let mut warnings: Vec<Diagnostic> = reports
        .into_iter()
        .take(MAX_REJECTION_WARNINGS)
        .map(|r| {
            let mut d = diagnostic_from_report(r);
            d.message = format!("Unhandled rejection from an un-awaited promise: {}", d.message);
            if d.message.chars().count() > MAX_WARNING_CHARS {
                d.message = d.message.chars().take(MAX_WARNING_CHARS).collect();
            }
            d
        })
        .collect();
    if total > MAX_REJECTION_WARNINGS {
        warnings.push(Diagnostic {
            kind: DiagnosticKind::ExecutionFailure,
            message: format!("{} more unhandled rejections were omitted.", total - MAX_REJECTION_WARNINGS),
            location: None,
        });
    }
    warnings
}

fn cancelled() -> Diagnostic {
    Diagnostic {
        kind: DiagnosticKind::Cancelled,
        message: "The host cancelled the run.".into(),
        location: None,
    }
}

fn timeout_report(inner: &Inner) -> ErrorReport {
    let ms = inner.limits.timeout.map_or(0, |t| t.as_millis());
    ErrorReport {
        kind: FailureKind::Execution,
        message: format!("{TIMEOUT_TAG}Execution timed out after {ms}ms."),
        location: None,
    }
}

/// Timeouts are reported with their own kind; the VM has no such failure kind, so the driver tags
/// the message and [`diagnostic_from_report`] maps it.
const TIMEOUT_TAG: &str = "\u{0}timeout\u{0}";

/// What a call does once its before hooks allow it.
enum Work {
    Tool(Tool),
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
    let (json, functions) = value.split();
    if functions.is_empty() { Ended::Value(json) } else { Ended::HostValue(json, functions) }
}

/// Awaits an extension function's future; a panic while it is polled is the call's failure.
async fn settle_host(future: codemode_tools::BoxFuture<Result<HostValue, ToolError>>) -> Ended {
    match CatchUnwind(future).await {
        Ok(Ok(value)) => host_value_ended(value),
        Ok(Err(e)) => Ended::Failed(e),
        Err(panic) => Ended::Panicked(panic),
    }
}

/// Awaits a handler's future; a panic while it is polled is the call's failure.
async fn settle(future: codemode_tools::BoxFuture<Result<Json, ToolError>>) -> Ended {
    match CatchUnwind(future).await {
        Ok(Ok(value)) => Ended::Value(value),
        Ok(Err(e)) => Ended::Failed(e),
        Err(panic) => Ended::Panicked(panic),
    }
}

fn call_end(start: CallStart, outcome: CallOutcome, duration: std::time::Duration) -> CallEnd {
    CallEnd { name: start.name, kind: start.kind, input: start.input, key: start.key, outcome, duration }
}

/// Whether `tool`'s input schema says it takes an object.
fn takes_object(tool: &Tool) -> bool {
    tool.input_schema().and_then(|s| s.get("type")).and_then(Json::as_str) == Some("object")
}

pub(crate) fn compile(source: &str) -> Result<codemode_compiler::VerifiedModule, Diagnostic> {
    let program = codemode_syntax::compile_to_ir(source).map_err(|e| Diagnostic {
        kind: match e.kind {
            SyntaxErrorKind::ParseError => DiagnosticKind::ParseError,
            SyntaxErrorKind::UnsupportedSyntax => DiagnosticKind::UnsupportedSyntax,
        },
        message: e.message,
        location: Some(Location { line: e.span.line, column: e.span.column }),
    })?;
    let module = codemode_compiler::compile(&program).map_err(|e| Diagnostic {
        kind: DiagnosticKind::UnsupportedSyntax,
        message: e.message,
        location: Some(Location { line: e.span.line, column: e.span.column }),
    });
    // Dropping a deep tree recurses too.
    codemode_ir::stack::with_stack_for(program.nesting, move || drop(program));
    module
}

fn diagnostic_from_report(report: ErrorReport) -> Diagnostic {
    if let Some(message) = report.message.strip_prefix(TIMEOUT_TAG) {
        return Diagnostic {
            kind: DiagnosticKind::TimeoutExceeded,
            message: message.to_string(),
            location: None,
        };
    }
    let kind = match report.kind {
        FailureKind::Execution => DiagnosticKind::ExecutionFailure,
        FailureKind::ToolFailure => DiagnosticKind::ToolFailure,
        FailureKind::UnknownTool => DiagnosticKind::UnknownTool,
        FailureKind::InvalidToolInput => DiagnosticKind::InvalidToolInput,
        FailureKind::InvalidToolOutput => DiagnosticKind::InvalidToolOutput,
        FailureKind::InvalidDataValue => DiagnosticKind::InvalidDataValue,
    };
    let location = report.location.map(|(line, column)| Location { line, column });
    let message = match location {
        Some(l) => format!("{} (line {}, col {})", report.message, l.line, l.column),
        None => report.message,
    };
    Diagnostic { kind, message, location }
}

fn failure(error: Diagnostic, logs: Vec<String>, tool_calls: Vec<ToolCall>) -> ExecResult {
    ExecResult {
        ok: false,
        value: None,
        error: Some(error),
        warnings: Vec::new(),
        logs,
        truncated: false,
        tool_calls,
        run_id: String::new(),
    }
}

fn now_ms() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_millis() as f64)
}
