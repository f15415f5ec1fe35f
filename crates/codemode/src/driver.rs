//! The async driver: compiles the program, runs the sans-I/O VM in fuel slices, starts every host
//! call it issues at once on tokio, feeds completions back, and enforces the limits.

use std::sync::Arc;
use std::time::Instant;

use codemode_syntax::SyntaxErrorKind;
use codemode_tools::{CallContext, ToolErrorKind};
use codemode_vm::{ErrorReport, FailureKind, HostError, HostTarget, Status, Vm, VmConfig};
use serde_json::Value as Json;
use tokio::task::JoinSet;

use crate::result::{CallStatus, Diagnostic, DiagnosticKind, ExecResult, Location, ToolCall};
use crate::runtime::Inner;

/// Fuel per slice: the clock is read between slices.
const SLICE_FUEL: u64 = 20_000;

pub(crate) async fn execute(inner: &Inner, source: &str) -> ExecResult {
    let started = Instant::now();
    let module = match compile(source) {
        Ok(m) => m,
        Err(diagnostic) => return failure(diagnostic, Vec::new(), Vec::new()),
    };
    let config = VmConfig { now_ms: now_ms(), ..VmConfig::default() };
    let mut vm = match Vm::new(Arc::new(module), config) {
        Ok(vm) => vm,
        Err(message) => {
            let d = Diagnostic { kind: DiagnosticKind::ExecutionFailure, message, location: None };
            return failure(d, Vec::new(), Vec::new());
        }
    };
    let run_id = format!("run-{:x}", started.elapsed().as_nanos() ^ (now_ms() as u128));
    let deadline = inner.limits.timeout.map(|t| started + t);
    let mut calls: Vec<ToolCall> = Vec::new();
    let mut tasks: JoinSet<(u32, Result<Json, HostError>)> = JoinSet::new();

    let outcome = loop {
        let status = vm.run(SLICE_FUEL);
        // Start every call the slice issued. Calls answered at once (unknown tools) let a
        // waiting program go on without any task running.
        let mut answered_now = false;
        for call in vm.take_host_calls() {
            if inner.limits.max_tool_calls.is_some_and(|max| calls.len() as u32 >= max) {
                let max = inner.limits.max_tool_calls.unwrap_or(0);
                let d = Diagnostic {
                    kind: DiagnosticKind::ToolCallLimitExceeded,
                    message: format!(
                        "Tool call limit exceeded: the program made more than {max} tool calls."
                    ),
                    location: None,
                };
                return finish_failure(&mut vm, d, calls);
            }
            let path = match call.target {
                HostTarget::Tool(path) => path,
                HostTarget::Search => {
                    // Answered at once from the catalog; it counts as a tool call.
                    let outcome = inner.tools.search_json(&call.input).map_err(|e| HostError {
                        kind: FailureKind::InvalidToolInput,
                        message: format!("Invalid input for search: {}", e.message()),
                    });
                    let status = if outcome.is_ok() { CallStatus::Ok } else { CallStatus::Error };
                    calls.push(ToolCall { id: call.id, path: "search".into(), status });
                    vm.complete(call.id, outcome);
                    answered_now = true;
                    continue;
                }
            };
            let Some(tool) = inner.tools.get(&path) else {
                let message = if inner.tools.is_namespace(&path) {
                    codemode_tools::ToolSet::not_callable_message(&path)
                } else {
                    inner.tools.unknown_tool_message(&path)
                };
                calls.push(ToolCall { id: call.id, path: path.clone(), status: CallStatus::Error });
                vm.complete(call.id, Err(HostError { kind: FailureKind::UnknownTool, message }));
                answered_now = true;
                continue;
            };
            calls.push(ToolCall { id: call.id, path: path.clone(), status: CallStatus::Interrupted });
            let path_of_call = path.clone();
            let ctx = CallContext::new(format!("{run_id}:{}", call.id), path);
            let future = tool.invoke(call.input, ctx);
            let id = call.id;
            tasks.spawn(async move { (id, future.await.map_err(|e| host_error(&path_of_call, e))) });
        }
        match status {
            Status::Done => break Ok(()),
            Status::Threw => break Err(vm.error_report()),
            Status::OutOfFuel => {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break Err(timeout_report(inner));
                }
                // Let tool tasks make progress on a current-thread runtime.
                collect_ready(&mut vm, &mut tasks, &mut calls);
                if tasks.is_empty() {
                    continue;
                }
                tokio::task::yield_now().await;
                collect_ready(&mut vm, &mut tasks, &mut calls);
            }
            Status::Waiting if answered_now => {}
            Status::Waiting => {
                if tasks.is_empty() {
                    break Err(ErrorReport {
                        kind: FailureKind::Execution,
                        message: "Error: the program is waiting for a promise that can never settle \
                                  (nothing is running that could resolve it)."
                            .into(),
                        location: None,
                    });
                }
                let next = match deadline {
                    Some(d) => match tokio::time::timeout_at(d.into(), tasks.join_next()).await {
                        Ok(next) => next,
                        Err(_) => break Err(timeout_report(inner)),
                    },
                    None => tasks.join_next().await,
                };
                if let Some(joined) = next {
                    deliver(&mut vm, joined, &mut calls);
                }
                collect_ready(&mut vm, &mut tasks, &mut calls);
            }
        }
    };
    tasks.abort_all();
    let logs = vm.take_logs();
    let warnings = rejection_warnings(vm.unhandled_rejection_reports());
    match outcome {
        Ok(()) => match vm.result_json() {
            Ok(value) => ExecResult {
                ok: true,
                value: Some(value),
                error: None,
                warnings,
                logs,
                truncated: false,
                tool_calls: calls,
            },
            Err(report) => failure(diagnostic_from_report(report), logs, calls),
        },
        Err(report) => failure(diagnostic_from_report(report), logs, calls),
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

fn finish_failure(vm: &mut Vm, d: Diagnostic, calls: Vec<ToolCall>) -> ExecResult {
    let logs = vm.take_logs();
    failure(d, logs, calls)
}

fn timeout_report(inner: &Inner) -> ErrorReport {
    let ms = inner.limits.timeout.map_or(0, |t| t.as_millis());
    ErrorReport {
        kind: FailureKind::Execution,
        message: format!("Execution timed out after {ms}ms."),
        location: None,
    }
    .with_timeout()
}

trait TimeoutMark {
    fn with_timeout(self) -> ErrorReport;
}

impl TimeoutMark for ErrorReport {
    /// Timeouts are reported with their own kind; the VM has no such failure kind, so the driver
    /// tags the message and [`diagnostic_from_report`] maps it.
    fn with_timeout(mut self) -> ErrorReport {
        self.message.insert_str(0, TIMEOUT_TAG);
        self
    }
}

const TIMEOUT_TAG: &str = "\u{0}timeout\u{0}";

fn collect_ready(vm: &mut Vm, tasks: &mut JoinSet<(u32, Result<Json, HostError>)>, calls: &mut [ToolCall]) {
    while let Some(joined) = tasks.try_join_next() {
        deliver(vm, joined, calls);
    }
}

fn deliver(
    vm: &mut Vm,
    joined: Result<(u32, Result<Json, HostError>), tokio::task::JoinError>,
    calls: &mut [ToolCall],
) {
    let Ok((id, outcome)) = joined else { return };
    if let Some(call) = calls.iter_mut().find(|c| c.id == id) {
        call.status = if outcome.is_ok() { CallStatus::Ok } else { CallStatus::Error };
    }
    vm.complete(id, outcome);
}

/// A tool's error as the program sees it, in the reference's framing
/// (`Invalid input for tool 'orders.lookup': …`); the private cause stays with the host.
fn host_error(path: &str, e: codemode_tools::ToolError) -> HostError {
    let kind = match e.kind() {
        ToolErrorKind::InvalidInput => FailureKind::InvalidToolInput,
        ToolErrorKind::InvalidOutput => FailureKind::InvalidToolOutput,
        _ => FailureKind::ToolFailure,
    };
    HostError { kind, message: e.model_message(path) }
}

fn compile(source: &str) -> Result<codemode_compiler::Module, Diagnostic> {
    let program = codemode_syntax::compile_to_ir(source).map_err(|e| Diagnostic {
        kind: match e.kind {
            SyntaxErrorKind::ParseError => DiagnosticKind::ParseError,
            SyntaxErrorKind::UnsupportedSyntax => DiagnosticKind::UnsupportedSyntax,
        },
        message: e.message,
        location: Some(Location { line: e.span.line, column: e.span.column }),
    })?;
    codemode_compiler::compile(&program).map_err(|e| Diagnostic {
        kind: DiagnosticKind::UnsupportedSyntax,
        message: e.message,
        location: Some(Location { line: e.span.line, column: e.span.column }),
    })
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
        FailureKind::ToolCallLimitExceeded => DiagnosticKind::ToolCallLimitExceeded,
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
    }
}

fn now_ms() -> f64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_millis() as f64)
}
