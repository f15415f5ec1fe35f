//! The async driver: compiles the program, runs the sans-I/O VM in fuel slices, starts every host
//! call it issues at once on tokio, feeds completions back, and enforces the limits.
//!
//! One [`Run`] is one execution, in parts that each do one thing: [`Run::start`] (compile and
//! build the VM, inside the deadline), [`Run::drive`] (the loop), [`Run::dispatch`] (hand the
//! slice's host calls out), [`Run::wait`] (block on the first completion or the deadline) and
//! [`Run::finish`] (the result). **The clock is read on every turn of the loop**, whichever way
//! the previous turn ended, so no path (calls answered at once, unknown tools, `search`) can run
//! past the deadline.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use codemode_syntax::SyntaxErrorKind;
use codemode_tools::{RunContext, Tool};
use codemode_vm::{ErrorReport, FailureKind, HostCall, Status, Vm, VmConfig};
use serde_json::Value as Json;
use tokio::task::JoinSet;

use crate::calls::Ended;
use crate::dispatch::call_end;
use crate::extension::HostFunction;
use crate::hooks::{CallOutcome, CallStart};
use crate::options::{CancelToken, ExecuteOptions, Program, fresh_run_id, fresh_seed};
use crate::result::{CallStatus, Diagnostic, DiagnosticKind, ExecResult, Location, ToolCall};
use crate::runtime::Inner;

/// Fuel per slice: the clock is read between slices.
const SLICE_FUEL: u64 = 20_000;

/// Fuel per slice when every slice is saved and restored (`CODEMODE_ROUNDTRIP=1`).
const ROUNDTRIP_SLICE_FUEL: u64 = 3_000;

/// How long after hooks of interrupted calls may take past the deadline.
const AFTER_HOOK_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// What to run: source text (compiled inside the deadline) or a compiled [`Program`].
pub(crate) enum Code<'a> {
    Source(&'a str),
    Program(&'a Program),
}

/// Starts a run: compiled and ready, or already failed (a compile error, a bad binding).
pub(crate) fn start(
    inner: &Arc<Inner>,
    code: Code<'_>,
    options: ExecuteOptions,
) -> Result<Run, Box<ExecResult>> {
    let run_id = options.run_id.clone().unwrap_or_else(fresh_run_id);
    Run::start(inner.clone(), code, run_id.clone(), options).map_err(|mut result| {
        result.run_id = run_id;
        result
    })
}

/// A finished task: how its call ended, or (a durable call's start) the handle of its work.
pub(crate) type Completion = (u32, Done);

pub(crate) enum Done {
    Ended(Ended),
    /// A durable call's `start` returned the handle of its work: attach next.
    Started(Json),
}

/// How a run ended before its program could finish.
pub(crate) enum Stop {
    /// The VM's report (a throw, a timeout, a promise that can never settle).
    Report(ErrorReport),
    /// A limit of the driver's own (tool calls).
    Diagnostic(Diagnostic),
    /// Saved and stopped: a durable tool suspended the run.
    Suspended(Box<crate::execution::Suspended>),
}

/// A value an extension function returned with functions in it, and the handles the program's
/// copies call them by.
pub(crate) struct Returned {
    pub(crate) owner: usize,
    pub(crate) value: crate::HostValue,
    pub(crate) handles: Vec<(Vec<String>, u32)>,
}

/// A call in flight (its task is running), as suspending needs to know it.
pub(crate) struct Inflight {
    pub(crate) id: u32,
    pub(crate) key: String,
    /// What the program called, as it wrote it: `tools.orders.lookup`, `search`, `fetch`.
    pub(crate) shown_path: String,
    pub(crate) phase: Phase,
}

pub(crate) enum Phase {
    /// A tool, `search` or extension call: blocks a suspend.
    Plain,
    /// A durable call in `start`: blocks a suspend unless it is the one asking for it. `task`
    /// is its start's own task, once it has one (a start that returns at once has none).
    Starting { tool: Tool, path: String, args: Json, task: Option<crate::durable_start::StartTask> },
    /// A durable call whose work has its handle: `attach` is waiting for it.
    Attached { tool: Tool, path: String, args: Json, handle: Json },
}

/// A durable call's request to suspend its run ([`codemode_tools::CallContext::suspend`]).
pub(crate) struct SuspendAsk {
    pub(crate) id: u32,
    pub(crate) reply: tokio::sync::oneshot::Sender<codemode_tools::SuspendError>,
}

pub(crate) struct Run {
    pub(crate) inner: Arc<Inner>,
    /// The run's limits: the runtime's, or those a resumed run was saved with.
    pub(crate) limits: crate::Limits,
    pub(crate) vm: Vm,
    pub(crate) run_id: String,
    pub(crate) deadline: Option<Instant>,
    /// When this process started driving the run, and the active time before (earlier
    /// processes, for a resumed run): the time limit counts both.
    pub(crate) started: Instant,
    pub(crate) active_before: std::time::Duration,
    /// The host's per-run value, handed to every tool call.
    pub(crate) context: Option<RunContext>,
    pub(crate) cancel: Option<CancelToken>,
    pub(crate) calls: Vec<ToolCall>,
    /// The deadline came while calls the program left running were finishing after it returned.
    pub(crate) cleanup_timed_out: bool,
    /// Ids of extension calls: recorded with the calls, left out of the result's `toolCalls`.
    pub(crate) extension_calls: Vec<u32>,
    /// Functions that came in extension results, by handle (their index): the program calls them
    /// back with the handle.
    pub(crate) host_functions: Vec<Option<(HostFunction, usize)>>,
    /// The extension (index) each extension call in flight belongs to.
    pub(crate) extension_owners: Vec<(u32, usize)>,
    /// Values with functions whose extension has snapshot hooks, for a suspend to encode.
    pub(crate) returned: Vec<Returned>,
    /// Calls still running, for the after hooks, by id (call ids grow, so this is start order):
    /// what started, when. A map, not a list: 1,000 concurrent calls finishing one by one made
    /// removal from a list quadratic.
    pub(crate) running: BTreeMap<u32, (CallStart, Instant)>,
    pub(crate) tasks: JoinSet<Completion>,
    /// Calls whose tasks are running, by id (start order).
    pub(crate) inflight: BTreeMap<u32, Inflight>,
    /// Calls the program made that have not started: a durable `start` asked to suspend the run
    /// before them. They start when the run goes on.
    pub(crate) queued: std::collections::VecDeque<HostCall>,
    /// Whether the host can take a suspended state (`Execution::result`); a run awaited as an
    /// `ExecResult` cannot suspend.
    pub(crate) suspendable: bool,
    /// Where durable calls send their asks to suspend the run, and where they arrive; made with
    /// the first durable call (most runs have none).
    pub(crate) asks: Option<(
        tokio::sync::mpsc::UnboundedSender<SuspendAsk>,
        tokio::sync::mpsc::UnboundedReceiver<SuspendAsk>,
    )>,
    /// Asks received and not answered yet.
    pub(crate) pending_asks: Vec<SuspendAsk>,
    /// Set once the run was saved: its durable work is detached, not cancelled.
    pub(crate) detached: bool,
    /// The tokio runtime that drove the run, where its drop cancels the durable work it leaves:
    /// the last owner of a run may drop it on a thread of no runtime (a Python object freed on
    /// the asyncio loop's thread; stop 48's CI failure), and that must not lose the cancel.
    pub(crate) driven_on: Option<tokio::runtime::Handle>,
    /// [`Program::uncalled_functions`] of what runs (not kept in a saved state: a program that
    /// runs nothing has nothing to suspend).
    uncalled_functions: Vec<String>,
}

impl Run {
    /// Compiles the source (or takes the program) and builds the VM with the run's bindings. The
    /// deadline starts before compilation.
    fn start(
        inner: Arc<Inner>,
        code: Code<'_>,
        run_id: String,
        options: ExecuteOptions,
    ) -> Result<Run, Box<ExecResult>> {
        let started = Instant::now();
        let deadline = inner.limits.timeout.map(|t| started + t);
        let fail = |d: Diagnostic| Box::new(failure(d, Vec::new(), Vec::new()));
        let compiled;
        let program = match code {
            Code::Source(source) => {
                compiled = compile(source, &inner.limits).map_err(fail)?;
                &compiled
            }
            Code::Program(program) => program,
        };
        let module = program.module.clone();
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(fail(diagnostic_from_report(timeout_report(&inner.limits))));
        }
        if options.cancel.as_ref().is_some_and(CancelToken::is_cancelled) {
            return Err(fail(cancelled()));
        }
        let execution_failure =
            |message: String| Diagnostic { kind: DiagnosticKind::ExecutionFailure, message, location: None };
        let time_zone = match &options.time_zone {
            Some(name) => codemode_vm::LocalZone::named(name)
                .map_err(|message| fail(execution_failure(format!("Invalid run time zone: {message}"))))?,
            None => codemode_vm::LocalZone::default(),
        };
        let config = VmConfig {
            now_ms: now_ms(),
            memory_limit: inner.limits.memory_limit,
            max_call_depth: inner.limits.max_call_depth,
            max_log_bytes: inner.limits.max_output_bytes,
            random_seed: options.random_seed.unwrap_or_else(fresh_seed),
            time_zone,
        };
        // The whole catalog, so that `Object.keys(tools.orders)` and `typeof tools.nope` are true.
        let mut vm = Vm::new(module, config)
            .and_then(|mut vm| vm.declare_tools(&inner.tool_paths).map(|()| vm))
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
        let mut run =
            Run::new(inner, vm, run_id, options.context, options.cancel, started, std::time::Duration::ZERO);
        run.uncalled_functions = program.uncalled_functions.clone();
        Ok(run)
    }

    /// A run around a ready VM, started at `started` after `active_before` of earlier activity.
    pub(crate) fn new(
        inner: Arc<Inner>,
        vm: Vm,
        run_id: String,
        context: Option<RunContext>,
        cancel: Option<CancelToken>,
        started: Instant,
        active_before: std::time::Duration,
    ) -> Run {
        let limits = inner.limits.clone();
        let deadline = limits.timeout.map(|t| started + t.saturating_sub(active_before));
        Run {
            inner,
            limits,
            vm,
            run_id,
            deadline,
            started,
            active_before,
            context,
            cancel,
            calls: Vec::new(),
            running: BTreeMap::new(),
            extension_calls: Vec::new(),
            host_functions: Vec::new(),
            extension_owners: Vec::new(),
            returned: Vec::new(),
            cleanup_timed_out: false,
            tasks: JoinSet::new(),
            inflight: BTreeMap::new(),
            queued: std::collections::VecDeque::new(),
            suspendable: false,
            asks: None,
            driven_on: None,
            pending_asks: Vec::new(),
            detached: false,
            uncalled_functions: Vec::new(),
        }
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
    pub(crate) async fn report_interrupted(&mut self) {
        let grace = Instant::now() + AFTER_HOOK_GRACE;
        let limit = self.deadline.map_or(grace, |d| d.max(grace));
        let hooks = &self.inner.hooks;
        for (start, began) in std::mem::take(&mut self.running).into_values() {
            let report = hooks.after(call_end(start, CallOutcome::Interrupted, began.elapsed()));
            let _ = tokio::time::timeout_at(limit.into(), report).await;
        }
        for cancel in self.take_durable_cancels() {
            let _ = tokio::time::timeout_at(limit.into(), cancel).await;
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
    pub(crate) async fn drive(&mut self) -> Result<(), Stop> {
        if self.driven_on.is_none() {
            self.driven_on = tokio::runtime::Handle::try_current().ok();
        }
        let slice = if crate::snapshot::roundtrip_enabled() { ROUNDTRIP_SLICE_FUEL } else { SLICE_FUEL };
        let mut since_roundtrip = 0u64;
        loop {
            if self.past_deadline() {
                return Err(Stop::Report(timeout_report(&self.limits)));
            }
            if self.cancelled() {
                return Err(Stop::Diagnostic(cancelled()));
            }
            let status = self.vm.run(slice);
            if slice == ROUNDTRIP_SLICE_FUEL {
                // At every host call, and after work in proportion to the heap (so that saving
                // a big heap does not dominate): a few thousand steps for a small one.
                since_roundtrip += slice;
                if status == Status::Waiting
                    || since_roundtrip >= (self.vm.memory_used() as u64 / 8).max(slice)
                {
                    since_roundtrip = 0;
                    self.roundtrip_vm()?;
                }
            }
            let mut answered_now = self.dispatch()?;
            while self.asked_to_suspend() {
                // Suspends (and returns), or refuses every ask; calls queued behind a refused
                // ask start now.
                self.answer_asks()?;
                if self.queued.is_empty() {
                    break;
                }
                answered_now |= self.dispatch()?;
            }
            match status {
                Status::Done => {
                    self.clean_up().await;
                    return Ok(());
                }
                Status::Threw => return Err(Stop::Report(self.vm.error_report())),
                Status::OutOfFuel => {
                    self.collect_ready();
                    // Every slice ends with a turn for everything else on this runtime: tool
                    // tasks, whoever holds the cancel token, and other runs (a CPU-bound run
                    // holds a worker for one slice at a time, never longer). A run whose
                    // future is dropped here stops: nothing drives it any more.
                    tokio::task::yield_now().await;
                    self.collect_ready();
                }
                Status::Waiting if answered_now => {}
                Status::Waiting => self.wait().await?,
            }
        }
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
        let ask = async {
            match &mut self.asks {
                Some((_, asks)) => asks.recv().await,
                None => std::future::pending().await,
            }
        };
        let next = tokio::select! {
            next = self.tasks.join_next() => next,
            Some(ask) = ask => {
                self.pending_asks.push(ask);
                return self.answer_asks();
            }
            () = deadline => return Err(Stop::Report(timeout_report(&self.limits))),
            () = cancel => return Err(Stop::Diagnostic(cancelled())),
        };
        if let Some(joined) = next {
            self.deliver(joined);
        }
        self.collect_ready();
        Ok(())
    }

    /// The run's result: value or diagnostic, logs, warnings and the tool-call record.
    pub(crate) fn finish(&mut self, outcome: Result<(), Stop>) -> ExecResult {
        self.tasks.abort_all();
        let logs = self.vm.take_logs();
        let tally = self.vm.log_tally();
        let mut calls = std::mem::take(&mut self.calls);
        calls.retain(|c| !self.extension_calls.contains(&c.id));
        let mut result = match outcome {
            Ok(()) => match self.vm.result_json() {
                Ok(value) => ExecResult {
                    ok: true,
                    warnings: self.warnings(&value, &calls),
                    value: Some(value),
                    error: None,
                    logs,
                    truncated: false,
                    tool_calls: calls,
                    tool_call_summary: None,
                    run_id: String::new(),
                },
                Err(report) => failure(diagnostic_from_report(report), logs, calls),
            },
            Err(Stop::Report(report)) => failure(diagnostic_from_report(report), logs, calls),
            Err(Stop::Diagnostic(d)) => failure(d, logs, calls),
            Err(Stop::Suspended(_)) => failure(
                Diagnostic {
                    kind: DiagnosticKind::ExecutionFailure,
                    message: "the run was suspended".into(),
                    location: None,
                },
                logs,
                calls,
            ),
        };
        crate::output::fit(&mut result, tally, self.limits.max_output_bytes);
        result
    }
}

impl Run {
    /// A successful run's warnings: an empty result that lost its data, unhandled rejections,
    /// then a cleanup that timed out.
    fn warnings(&mut self, value: &Json, calls: &[ToolCall]) -> Vec<Diagnostic> {
        let mut warnings: Vec<Diagnostic> = empty_result_note(&self.vm, value, calls)
            .or_else(|| uncalled_functions_note(&self.uncalled_functions, value))
            .map(|message| Diagnostic { kind: DiagnosticKind::InvalidDataValue, message, location: None })
            .into_iter()
            .collect();
        warnings.extend(rejection_warnings(
            self.vm.unhandled_rejection_reports(MAX_REJECTION_WARNINGS, MAX_WARNING_CHARS),
        ));
        if self.cleanup_timed_out {
            let ms = self.limits.timeout.map_or(0, |t| t.as_millis());
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

/// No silent empty results: a `null` or `{}` result gets a warning when the program's value lost
/// its data at the boundary (a function, an object of functions: the VM's note) or when calls it
/// started were still running, and were interrupted, as it returned (a promise it did not await).
fn empty_result_note(vm: &Vm, value: &Json, calls: &[ToolCall]) -> Option<String> {
    let empty = match value {
        Json::Null => true,
        Json::Object(map) => map.is_empty(),
        _ => false,
    };
    if !empty {
        return None;
    }
    if let Some(note) = vm.result_note() {
        return Some(note.to_string());
    }
    let interrupted: Vec<String> = calls
        .iter()
        .filter(|call| call.status == CallStatus::Interrupted)
        .take(5)
        .map(|call| format!("{} (#{})", call.path, call.id))
        .collect();
    (!interrupted.is_empty()).then(|| {
        format!(
            "The program's result is {value} while tool calls it started were still running and were \
             interrupted: {}. Await them (`await Promise.all(...)`) before returning, or return them: a \
             returned promise is awaited.",
            interrupted.join(", ")
        )
    })
}

/// A program that only declares functions ran nothing: its `null` result says so, naming them.
fn uncalled_functions_note(names: &[String], value: &Json) -> Option<String> {
    if names.is_empty() || !value.is_null() {
        return None;
    }
    let listed: Vec<String> = names.iter().take(5).map(|name| format!("`{name}`")).collect();
    let first = names.first().map_or("main", String::as_str);
    Some(format!(
        "The program only declares functions ({}) and calls none of them, so nothing ran and the result is \
         null. Call the one that does the work as the last line (`return await {first}()`).",
        listed.join(", ")
    ))
}

/// At most this many unhandled rejections are reported, each at most this long.
const MAX_REJECTION_WARNINGS: usize = 100;
const MAX_WARNING_CHARS: usize = 4096;

/// Unhandled rejections as warnings, in rejection order, then one summary when some were left out.
fn rejection_warnings((reports, total): (Vec<ErrorReport>, usize)) -> Vec<Diagnostic> {
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

pub(crate) fn timeout_report(limits: &crate::Limits) -> ErrorReport {
    let ms = limits.timeout.map_or(0, |t| t.as_millis());
    ErrorReport {
        kind: FailureKind::Execution,
        message: format!("{TIMEOUT_TAG}Execution timed out after {ms}ms."),
        location: None,
    }
}

/// Timeouts are reported with their own kind; the VM has no such failure kind, so the driver tags
/// the message and [`diagnostic_from_report`] maps it.
const TIMEOUT_TAG: &str = "\u{0}timeout\u{0}";

/// A program longer than the runtime accepts is refused before anything is built from it.
fn check_source_size(source: &str, max: usize) -> Result<(), Diagnostic> {
    if source.len() <= max {
        return Ok(());
    }
    Err(Diagnostic {
        kind: DiagnosticKind::ParseError,
        message: format!(
            "The program is {} bytes, more than the {max} bytes this runtime accepts \
             (Limits::max_source_bytes, `--max-source-bytes`): send a shorter program, and keep data in \
             tool results rather than in the source.",
            source.len()
        ),
        location: Some(Location { line: 1, column: 1 }),
    })
}

/// Compiles `source` under `limits`: its length ([`Limits::max_source_bytes`]) and what
/// compiling it may cost (within [`Limits::memory_limit`], see
/// [`codemode_syntax::compile_to_ir_within`]) are checked before anything is built.
pub(crate) fn compile(source: &str, limits: &crate::Limits) -> Result<Program, Diagnostic> {
    check_source_size(source, limits.max_source_bytes)?;
    let memory_limit = u64::try_from(limits.memory_limit).unwrap_or(u64::MAX);
    let mut program =
        codemode_syntax::compile_to_ir_within(source, memory_limit).map_err(|e| Diagnostic {
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
    let uncalled_functions = std::mem::take(&mut program.uncalled_functions);
    // Dropping a deep tree recurses too.
    codemode_ir::stack::with_stack_for(program.nesting, move || drop(program));
    Ok(Program { module: module?, uncalled_functions })
}

pub(crate) fn diagnostic_from_report(report: ErrorReport) -> Diagnostic {
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

pub(crate) fn failure(error: Diagnostic, logs: Vec<String>, tool_calls: Vec<ToolCall>) -> ExecResult {
    ExecResult {
        ok: false,
        value: None,
        error: Some(error),
        warnings: Vec::new(),
        logs,
        truncated: false,
        tool_calls,
        tool_call_summary: None,
        run_id: String::new(),
    }
}

pub(crate) fn now_ms() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_millis() as f64)
}
