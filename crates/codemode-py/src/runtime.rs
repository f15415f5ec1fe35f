//! The native runtime: Python tools, hooks and runs on top of `codemode::CodeMode`.
//!
//! A run's Rust future runs on the tokio runtime of `pyo3-async-runtimes`, without the GIL. An
//! async tool's call is queued for the caller's asyncio loop without the GIL (`crate::dispatch`:
//! one wake-up of the loop starts every call queued meanwhile, each as a task) and its outcome
//! comes back through a channel, so every call the program starts runs concurrently on that loop;
//! a sync hook runs on tokio's blocking pool. A call dropped before it ended (the run timed out,
//! was cancelled or suspended) cancels its asyncio task.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode::tools::ToolErrorKind;
use codemode::{
    CallContext, CallEnd, CallKind, CallOutcome, CallStart, CodeMode, Deny, Durable, ExecuteOptions, Limits,
    Namespace, Outcome, Tool, ToolError,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use pyo3_async_runtimes::TaskLocals;
use serde_json::Value as Json;

use crate::convert;
use crate::dispatch::{Dispatch, Pending, PyDispatcher};
use crate::objects::{PyExecResult, PySnapshot, PySuspended, SuspendError, snapshot_error};

/// What every call of one run needs from Python: the caller's loop (and contextvars) and the
/// run's context value. Stored as the run's `RunContext`.
pub(crate) struct RunData {
    pub(crate) locals: TaskLocals,
    context: Option<Py<PyAny>>,
    /// The loop's call queue (`crate::dispatch`).
    dispatch: Arc<Dispatch>,
}

/// The asyncio task serving a call, shared by its context object and the Rust side that
/// cancels it when the call is dropped before it ended.
pub(crate) type TaskSlot = Arc<Mutex<Option<Py<PyAny>>>>;

fn run_data(context: Option<&codemode::tools::RunContext>) -> Option<Arc<RunData>> {
    context.cloned().and_then(|c| c.downcast::<RunData>().ok())
}

/// A Python callable and whether calling it gives a coroutine.
pub(crate) struct PyFn {
    pub(crate) func: Py<PyAny>,
    is_async: bool,
}

/// What a tool handler gets in Python as `ctx`: the call's key and path, the run's context, and
/// (durable tools) `suspend()`.
#[pyclass(name = "CallContext", module = "codemode", frozen)]
pub(crate) struct PyCallContext {
    ctx: CallContext,
    run: Option<Arc<RunData>>,
    /// The asyncio task serving this call, cancelled when the call is dropped before it ended.
    task: TaskSlot,
    /// Where the Python wrapper puts the call's outcome, converted on the loop's thread (so the
    /// runtime's thread does not need the GIL again to take it).
    reply: Mutex<Option<tokio::sync::oneshot::Sender<Result<Json, ToolError>>>>,
}

impl PyCallContext {
    fn new(ctx: CallContext, run: Option<Arc<RunData>>) -> Self {
        PyCallContext { ctx, run, task: TaskSlot::default(), reply: Mutex::new(None) }
    }

    /// The context of an async call whose outcome goes to `reply`.
    pub(crate) fn with_reply(
        ctx: CallContext,
        run: Option<Arc<RunData>>,
        reply: tokio::sync::oneshot::Sender<Result<Json, ToolError>>,
        task: TaskSlot,
    ) -> Self {
        PyCallContext { ctx, run, task, reply: Mutex::new(Some(reply)) }
    }

    /// Ends the call with the exception that kept it from starting.
    pub(crate) fn fail(&self, py: Python<'_>, err: &PyErr) {
        self.send(Err(tool_error(py, err)));
    }

    /// Whether nobody waits for the call's outcome any more (the run dropped the call).
    pub(crate) fn abandoned(&self) -> bool {
        self.reply.lock().map(|r| r.as_ref().is_none_or(|r| r.is_closed())).unwrap_or(true)
    }

    fn send(&self, outcome: Result<Json, ToolError>) {
        if let Some(reply) = self.reply.lock().ok().and_then(|mut r| r.take()) {
            let _ = reply.send(outcome);
        }
    }
}

#[pymethods]
impl PyCallContext {
    /// The call's idempotency key, `<run_id>:<id>`.
    #[getter]
    fn key(&self) -> &str {
        &self.ctx.key
    }

    /// The tool's dotted path (`orders.lookup`).
    #[getter]
    fn path(&self) -> &str {
        &self.ctx.path
    }

    /// The value given as `execute(..., context=...)`, or None.
    #[getter]
    fn context(&self, py: Python<'_>) -> Py<PyAny> {
        match self.run.as_ref().and_then(|r| r.context.as_ref()) {
            Some(c) => c.clone_ref(py),
            None => py.None(),
        }
    }

    /// Suspends the run with this call pending (durable tools only). When the suspend succeeds
    /// this never returns (the call's task is cancelled); when the run cannot be suspended now
    /// it raises `SuspendError` and the run goes on.
    fn suspend<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let locals = match &self.run {
            Some(run) => run.locals.clone(),
            None => pyo3_async_runtimes::tokio::get_current_locals(py)?,
        };
        let ctx = self.ctx.clone();
        pyo3_async_runtimes::tokio::future_into_py_with_locals(py, locals, async move {
            let refusal = ctx.suspend().await;
            Err::<(), PyErr>(suspend_error(refusal))
        })
    }

    /// Called by the Python wrapper with what the tool returned.
    fn _done(&self, value: &Bound<'_, PyAny>) {
        self.send(convert::to_json(value).map_err(|e| {
            ToolError::invalid_output(format!("the tool returned a value that is not JSON: {e}"))
        }));
    }

    /// Called by the Python wrapper with the exception the tool raised.
    fn _failed(&self, py: Python<'_>, error: &Bound<'_, PyAny>) {
        self.send(Err(tool_error(py, &PyErr::from_value(error.clone()))));
    }

    /// Called by the Python wrapper with the task running the call.
    fn _set_task(&self, task: Py<PyAny>) {
        if let Ok(mut slot) = self.task.lock() {
            *slot = Some(task);
        }
    }

    fn __repr__(&self) -> String {
        format!("CallContext(key={:?}, path={:?})", self.ctx.key, self.ctx.path)
    }
}

pub(crate) fn suspend_error(refusal: codemode::SuspendError) -> PyErr {
    let err = SuspendError::new_err(refusal.message.clone());
    let _ = crate::attach(|py| {
        let blocking: Vec<(String, String)> =
            refusal.blocking.iter().map(|b| (b.key.clone(), b.path.clone())).collect();
        let _ = err.value(py).setattr("blocking", blocking);
    });
    err
}

/// Cancels the asyncio task of a call whose Rust future is dropped before it ended (a call
/// not started yet is skipped by `drain`: its reply is closed).
struct CancelOnDrop {
    task: Option<TaskSlot>,
    locals: TaskLocals,
    /// The call's outcome, dropped before the task is looked at: `drain` looks at the reply
    /// after storing the task, so one of the two sees the other and the task is cancelled.
    outcome: Option<tokio::sync::oneshot::Receiver<Result<Json, ToolError>>>,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        drop(self.outcome.take());
        let Some(slot) = self.task.take() else { return };
        let Some(task) = slot.lock().ok().and_then(|mut t| t.take()) else { return };
        let _ = crate::attach(|py| {
            let task = task.into_bound(py);
            if let Ok(cancel) = task.getattr("cancel") {
                let _ = self.locals.event_loop(py).call_method1("call_soon_threadsafe", (cancel,));
            }
        });
    }
}

/// A Python exception as the error a tool call ends with: a `codemode.ToolError` keeps its kind
/// and message; `SuspendError` is a failure with its reason; anything else is an internal error
/// (the model sees a generic message, the host gets the exception as the private cause).
pub(crate) fn tool_error(py: Python<'_>, err: &PyErr) -> ToolError {
    let value = err.value(py);
    if let Ok(kind) = value.getattr("_codemode_kind")
        && let Ok(kind) = kind.extract::<String>()
    {
        let message = value
            .getattr("message")
            .and_then(|m| m.extract::<String>())
            .unwrap_or_else(|_| value.str().map(|s| s.to_string()).unwrap_or_default());
        let kind = match kind.as_str() {
            "refused" => ToolErrorKind::Refused,
            "invalid_input" => ToolErrorKind::InvalidInput,
            "invalid_output" => ToolErrorKind::InvalidOutput,
            _ => ToolErrorKind::Failure,
        };
        return ToolError::new(kind, message);
    }
    if err.is_instance_of::<SuspendError>(py) {
        return ToolError::failure(value.str().map(|s| s.to_string()).unwrap_or_default());
    }
    if err.is_instance_of::<pyo3::exceptions::asyncio::CancelledError>(py) {
        return ToolError::failure("the tool call was cancelled");
    }
    ToolError::internal(describe(py, err))
}

/// `TypeName: message`, for a private cause.
fn describe(py: Python<'_>, err: &PyErr) -> String {
    let name = err.get_type(py).name().map(|n| n.to_string()).unwrap_or_else(|_| "Exception".into());
    let text = err.value(py).str().map(|s| s.to_string()).unwrap_or_default();
    if text.is_empty() { name } else { format!("{name}: {text}") }
}

fn output(py: Python<'_>, result: PyResult<Py<PyAny>>) -> Result<Json, ToolError> {
    match result {
        Ok(value) => convert::to_json(value.bind(py)).map_err(|e| {
            ToolError::invalid_output(format!("the tool returned a value that is not JSON: {e}"))
        }),
        Err(err) => Err(tool_error(py, &err)),
    }
}

/// Every call back into Python goes through `crate::attach` (`Python::try_attach`): threads of the tokio runtime may
/// still be finishing calls while the interpreter shuts down, and must not panic then.
const SHUTTING_DOWN: &str = "the Python interpreter is shutting down";

fn shutting_down() -> ToolError {
    ToolError::internal(SHUTTING_DOWN)
}

/// Calls a Python tool function (`f(value, ctx)`) for one call and converts what it gives.
async fn call_python(f: Arc<PyFn>, value: Json, ctx: CallContext) -> Result<Json, ToolError> {
    let run = run_data(ctx.run_context());
    if f.is_async {
        let Some(run) = run else {
            return Err(ToolError::internal("an async tool was called outside a run started from asyncio"));
        };
        // Queued for the loop without the GIL (see `crate::dispatch`).
        let (reply, outcome) = tokio::sync::oneshot::channel();
        let task = TaskSlot::default();
        let locals = run.locals.clone();
        let dispatch = run.dispatch.clone();
        dispatch.push(Pending { func: f, value, ctx, run, reply, task: task.clone() })?;
        let mut guard = CancelOnDrop { task: Some(task), locals, outcome: Some(outcome) };
        let result = match guard.outcome.as_mut() {
            Some(outcome) => outcome.await,
            None => return Err(ToolError::internal("the tool's outcome is gone")),
        };
        guard.task = None;
        result.unwrap_or_else(|_| Err(ToolError::internal("the tool's task ended without an outcome")))
    } else {
        let joined = tokio::task::spawn_blocking(move || {
            crate::attach(|py| {
                let arg = match convert::to_py(py, &value) {
                    Ok(arg) => arg,
                    Err(err) => return Err(tool_error(py, &err)),
                };
                let pyctx = Py::new(py, PyCallContext::new(ctx, run)).map_err(|err| tool_error(py, &err))?;
                let result = f.func.bind(py).call1((arg, pyctx)).map(Bound::unbind);
                output(py, result)
            })
            .unwrap_or_else(|| Err(shutting_down()))
        })
        .await;
        joined.unwrap_or_else(|e| Err(ToolError::internal(format!("the tool's thread failed: {e}"))))
    }
}

/// Runs a Python callable (sync on the blocking pool, async on the run's loop) with one
/// argument built under the GIL.
async fn call_hook<A>(f: Arc<PyFn>, run: Option<Arc<RunData>>, arg: A) -> Option<PyResult<Py<PyAny>>>
where
    A: for<'py> IntoPyObject<'py> + Send + 'static,
{
    if f.is_async {
        let run = run?;
        let future = crate::attach(|py| -> PyResult<_> {
            let coro = f.func.bind(py).call1((arg,))?;
            pyo3_async_runtimes::into_future_with_locals(&run.locals, coro)
        })?;
        Some(match future {
            Ok(future) => future.await,
            Err(err) => Err(err),
        })
    } else {
        tokio::task::spawn_blocking(move || {
            crate::attach(|py| f.func.bind(py).call1((arg,)).map(Bound::unbind))
        })
        .await
        .ok()
        .flatten()
    }
}

/// A call about to reach the host, as a before hook sees it.
#[pyclass(name = "CallStart", module = "codemode", frozen)]
pub(crate) struct PyCallStart {
    start: CallStart,
    run: Option<Arc<RunData>>,
}

fn kind_name(kind: CallKind) -> &'static str {
    match kind {
        CallKind::Tool => "tool",
        CallKind::Search => "search",
        CallKind::Extension => "extension",
        _ => "other",
    }
}

#[pymethods]
impl PyCallStart {
    /// The tool's path (`orders.lookup`) or `search`.
    #[getter]
    fn name(&self) -> &str {
        &self.start.name
    }

    /// `"tool"`, `"search"` or `"extension"`.
    #[getter]
    fn kind(&self) -> &'static str {
        kind_name(self.start.kind)
    }

    #[getter]
    fn input<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_py(py, &self.start.input)
    }

    #[getter]
    fn key(&self) -> &str {
        &self.start.key
    }

    #[getter]
    fn context(&self, py: Python<'_>) -> Py<PyAny> {
        match self.run.as_ref().and_then(|r| r.context.as_ref()) {
            Some(c) => c.clone_ref(py),
            None => py.None(),
        }
    }

    fn __repr__(&self) -> String {
        format!("CallStart(name={:?}, key={:?})", self.start.name, self.start.key)
    }
}

/// A finished call, as an after hook sees it: `status` is `"ok"` (with `value`), `"error"`
/// (with `error_kind` and `error_message`) or `"interrupted"`; `duration` in seconds.
#[pyclass(name = "CallEnd", module = "codemode", frozen)]
pub(crate) struct PyCallEnd {
    end: CallEnd,
}

#[pymethods]
impl PyCallEnd {
    #[getter]
    fn name(&self) -> &str {
        &self.end.name
    }

    #[getter]
    fn kind(&self) -> &'static str {
        kind_name(self.end.kind)
    }

    #[getter]
    fn input<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_py(py, &self.end.input)
    }

    #[getter]
    fn key(&self) -> &str {
        &self.end.key
    }

    #[getter]
    fn status(&self) -> &'static str {
        match &self.end.outcome {
            CallOutcome::Value(_) => "ok",
            CallOutcome::Error { .. } => "error",
            _ => "interrupted",
        }
    }

    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.end.outcome {
            CallOutcome::Value(v) => convert::to_py(py, v),
            _ => Ok(py.None().into_bound(py)),
        }
    }

    #[getter]
    fn error_kind(&self) -> Option<String> {
        match &self.end.outcome {
            CallOutcome::Error { kind, .. } => Some(format!("{kind:?}")),
            _ => None,
        }
    }

    #[getter]
    fn error_message(&self) -> Option<&str> {
        match &self.end.outcome {
            CallOutcome::Error { message, .. } => Some(message),
            _ => None,
        }
    }

    /// Seconds from the call's start (before hooks included) to its end.
    #[getter]
    fn duration(&self) -> f64 {
        self.end.duration.as_secs_f64()
    }

    fn __repr__(&self) -> String {
        format!("CallEnd(name={:?}, key={:?}, status={:?})", self.end.name, self.end.key, self.status())
    }
}

fn deny_of(py: Python<'_>, value: &Bound<'_, PyAny>) -> Option<Deny> {
    let _ = py;
    if value.hasattr("_codemode_deny").unwrap_or(false) {
        let message = value
            .getattr("message")
            .and_then(|m| m.extract::<String>())
            .unwrap_or_else(|_| value.str().map(|s| s.to_string()).unwrap_or_default());
        return Some(Deny::new(message));
    }
    None
}

async fn before_hook(f: Arc<PyFn>, start: CallStart) -> Result<(), Deny> {
    let run = run_data(start.context.as_ref());
    let name = start.name.clone();
    let denied = move || Deny::new(format!("The call to '{name}' was denied."));
    let Some(result) = call_hook(f, run.clone(), PyCallStartArg(PyCallStart { start, run })).await else {
        return Err(denied());
    };
    crate::attach(|py| match result {
        Ok(value) => match deny_of(py, value.bind(py)) {
            Some(deny) => Err(deny),
            None => Ok(()),
        },
        Err(err) => match deny_of(py, err.value(py).as_any()) {
            Some(deny) => Err(deny),
            None => {
                err.write_unraisable(py, None);
                Err(denied())
            }
        },
    })
    .unwrap_or_else(|| Err(denied()))
}

async fn after_hook(f: Arc<PyFn>, run: Option<Arc<RunData>>, end: CallEnd) {
    if let Some(Err(err)) = call_hook(f, run, PyCallEndArg(PyCallEnd { end })).await {
        let _ = crate::attach(|py| err.write_unraisable(py, None));
    }
}

/// Wrappers so a hook's argument is built into a Python object under the GIL.
struct PyCallStartArg(PyCallStart);
struct PyCallEndArg(PyCallEnd);

impl<'py> IntoPyObject<'py> for PyCallStartArg {
    type Target = PyCallStart;
    type Output = Bound<'py, PyCallStart>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        Bound::new(py, self.0)
    }
}

impl<'py> IntoPyObject<'py> for PyCallEndArg {
    type Target = PyCallEnd;
    type Output = Bound<'py, PyCallEnd>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        Bound::new(py, self.0)
    }
}

fn py_fn(obj: &Bound<'_, PyAny>, attr: &str, async_attr: &str) -> PyResult<Arc<PyFn>> {
    let func = obj.getattr(attr)?;
    if !func.is_callable() {
        return Err(PyTypeError::new_err(format!("'{attr}' must be callable")));
    }
    let is_async = obj.getattr(async_attr)?.is_truthy()?;
    Ok(Arc::new(PyFn { func: func.unbind(), is_async }))
}

fn optional_json(value: Bound<'_, PyAny>, what: &str) -> PyResult<Option<Json>> {
    if value.is_none() {
        return Ok(None);
    }
    convert::to_json(&value).map(Some).map_err(|e| PyTypeError::new_err(format!("{what}: {e}")))
}

/// A `codemode.Tool` (the Python side's spec) as a Rust tool.
fn build_tool(spec: &Bound<'_, PyAny>) -> PyResult<Tool> {
    let description: String = spec.getattr("description")?.extract()?;
    let input = optional_json(spec.getattr("input_schema")?, "input_schema")?;
    let output = optional_json(spec.getattr("output_schema")?, "output_schema")?;
    let validate_input = input.is_some();
    let validate_output = output.as_ref().is_some_and(|o| o.as_object().is_some_and(|m| !m.is_empty()));
    let durable = spec.getattr("durable")?;
    let tool = if durable.is_none() {
        let f = py_fn(spec, "invoke", "invoke_is_async")?;
        Tool::from_json(description, input, output, move |value, ctx| call_python(f.clone(), value, ctx))
    } else {
        let start = py_fn(spec, "invoke", "invoke_is_async")?;
        let attach = py_fn(&durable, "attach", "attach_invoke_is_async")?;
        let cancel = durable.getattr("cancel")?;
        let mut ops = Durable::new(
            move |value, ctx| call_python(start.clone(), value, ctx),
            move |handle, ctx| call_python(attach.clone(), handle, ctx),
        );
        if !cancel.is_none() {
            let cancel = Arc::new(PyFn { func: cancel.unbind(), is_async: false });
            ops = ops.on_cancel(move |handle: Json| {
                let cancel = cancel.clone();
                async move {
                    let _ = tokio::task::spawn_blocking(move || {
                        let _ = crate::attach(|py| {
                            let result =
                                convert::to_py(py, &handle).and_then(|h| cancel.func.bind(py).call1((h,)));
                            if let Err(err) = result {
                                err.write_unraisable(py, None);
                            }
                        });
                    })
                    .await;
                }
            });
        }
        Tool::durable(description, input, output, ops)
    };
    Ok(tool.validate_input(validate_input).validate_output(validate_output))
}

/// `[("tool", name, spec) | ("namespace", name, description, children)]` as a namespace.
fn build_namespace(entries: &Bound<'_, PyAny>, into: &mut Namespace, depth: usize) -> PyResult<()> {
    if depth > 16 {
        return Err(PyValueError::new_err("tool namespaces are nested deeper than 16 levels"));
    }
    for entry in entries.try_iter()? {
        let entry = entry?;
        let entry = entry.cast::<PyTuple>().map_err(|_| PyTypeError::new_err("malformed tool tree entry"))?;
        let what: String = entry.get_item(0)?.extract()?;
        let name: String = entry.get_item(1)?.extract()?;
        match what.as_str() {
            "tool" => {
                into.add_tool(name, build_tool(&entry.get_item(2)?)?);
            }
            "namespace" => {
                let description: Option<String> = entry.get_item(2)?.extract()?;
                let mut child = match description {
                    Some(d) => Namespace::with_description(d),
                    None => Namespace::new(),
                };
                build_namespace(&entry.get_item(3)?, &mut child, depth + 1)?;
                into.add_namespace(name, child);
            }
            "openapi" => {
                let api = entry.get_item(2)?;
                let api = api
                    .cast::<crate::sources::PyOpenApi>()
                    .map_err(|_| PyTypeError::new_err("malformed OpenAPI namespace entry"))?;
                into.add_namespace(name, api.get().namespace.clone());
            }
            // A Rust tool answering `input.n` at once: the baseline of the overhead measurement
            // (bench/overhead.py), not part of the public API.
            "rust_echo" => {
                let echo = Tool::from_json(
                    "Echo `n` (a Rust tool)",
                    Some(serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}})),
                    Some(serde_json::json!({"type": "integer"})),
                    |input: Json, _ctx| async move { Ok(input.get("n").cloned().unwrap_or(Json::Null)) },
                );
                into.add_tool(name, echo);
            }
            other => return Err(PyTypeError::new_err(format!("malformed tool tree entry '{other}'"))),
        }
    }
    Ok(())
}

/// The top-level names of a tool tree.
fn python_names(entries: &Bound<'_, PyAny>) -> PyResult<std::collections::BTreeSet<String>> {
    let mut names = std::collections::BTreeSet::new();
    for entry in entries.try_iter()? {
        let entry = entry?;
        let entry = entry.cast::<PyTuple>().map_err(|_| PyTypeError::new_err("malformed tool tree entry"))?;
        names.insert(entry.get_item(1)?.extract::<String>()?);
    }
    Ok(names)
}

fn limits(dict: Option<&Bound<'_, PyDict>>) -> PyResult<Limits> {
    let mut limits = Limits::default();
    let Some(dict) = dict else { return Ok(limits) };
    let get = |name: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        Ok(dict.get_item(name)?.filter(|v| !v.is_none()))
    };
    let count = |name: &str, v: Bound<'_, PyAny>| -> PyResult<u64> {
        v.extract::<u64>().map_err(|_| PyValueError::new_err(format!("{name} must be a positive integer")))
    };
    if let Some(t) = get("timeout")? {
        let secs: f64 =
            t.extract().map_err(|_| PyTypeError::new_err("timeout must be a number of seconds"))?;
        let timeout = Duration::try_from_secs_f64(secs).map_err(|_| {
            PyValueError::new_err(format!("timeout must be a positive number of seconds (got {secs})"))
        })?;
        limits = limits.timeout(timeout);
    }
    if let Some(v) = get("max_tool_calls")? {
        let n = count("max_tool_calls", v)?;
        limits = limits.max_tool_calls(u32::try_from(n).unwrap_or(u32::MAX));
    }
    if let Some(v) = get("max_output_bytes")? {
        limits =
            limits.max_output_bytes(usize::try_from(count("max_output_bytes", v)?).unwrap_or(usize::MAX));
    }
    if let Some(v) = get("memory_limit")? {
        limits = limits.memory_limit(usize::try_from(count("memory_limit", v)?).unwrap_or(usize::MAX));
    }
    if let Some(v) = get("max_call_depth")? {
        limits = limits.max_call_depth(usize::try_from(count("max_call_depth", v)?).unwrap_or(usize::MAX));
    }
    Ok(limits)
}

fn hooks(list: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Arc<PyFn>>> {
    let mut out = Vec::new();
    let Some(list) = list else { return Ok(out) };
    for item in list.try_iter()? {
        let item = item?;
        let pair = item.cast::<PyTuple>().map_err(|_| PyTypeError::new_err("malformed hook entry"))?;
        let func = pair.get_item(0)?;
        if !func.is_callable() {
            return Err(PyTypeError::new_err("a hook must be callable"));
        }
        out.push(Arc::new(PyFn { func: func.unbind(), is_async: pair.get_item(1)?.is_truthy()? }));
    }
    Ok(out)
}

/// The runs in progress by run id, for after hooks (a `CallEnd` carries no run context, only
/// the call's key `<run_id>:<id>`).
#[derive(Default)]
struct Runs(Mutex<std::collections::HashMap<String, std::sync::Weak<RunData>>>);

impl Runs {
    fn add(&self, run_id: &str, run: &Arc<RunData>) {
        if let Ok(mut runs) = self.0.lock() {
            runs.retain(|_, r| r.strong_count() > 0);
            runs.insert(run_id.to_string(), Arc::downgrade(run));
        }
    }

    fn of_key(&self, key: &str) -> Option<Arc<RunData>> {
        let (run_id, _) = key.rsplit_once(':')?;
        self.0.lock().ok()?.get(run_id)?.upgrade()
    }
}

/// The native runtime (wrapped by `codemode.CodeMode`).
#[pyclass(name = "Runtime", module = "codemode._native", frozen)]
pub(crate) struct PyRuntime {
    inner: CodeMode,
    runs: Arc<Runs>,
    /// The MCP servers whose tools this runtime offers (kept connected while it lives).
    _mcp: Option<Py<crate::sources::PyMcp>>,
}

#[pymethods]
impl PyRuntime {
    #[new]
    #[pyo3(signature = (tree, limits_=None, before=None, after=None, root_name=None, suspend_max_bytes=None, mcp=None))]
    fn new(
        tree: &Bound<'_, PyAny>,
        limits_: Option<&Bound<'_, PyDict>>,
        before: Option<&Bound<'_, PyAny>>,
        after: Option<&Bound<'_, PyAny>>,
        root_name: Option<String>,
        suspend_max_bytes: Option<usize>,
        mcp: Option<Bound<'_, crate::sources::PyMcp>>,
    ) -> PyResult<Self> {
        let mut root = Namespace::new();
        build_namespace(tree, &mut root, 0)?;
        let tools = match &mcp {
            Some(mcp) if root.is_empty() => mcp.get().tools.clone(),
            Some(mcp) => {
                // Python namespaces beside the servers' (one name each).
                let python = python_names(tree)?;
                for (name, namespace) in &mcp.get().namespaces {
                    if python.contains(name) {
                        return Err(PyValueError::new_err(format!(
                            "tools.{name} is both an MCP server's namespace and a Python namespace; give the \
                             server another name (\"NAME=command or URL\") or rename the Python one"
                        )));
                    }
                    root.add_namespace(name.clone(), namespace.clone());
                }
                root.build().map_err(|e| PyValueError::new_err(format!("invalid tool set: {e}")))?
            }
            None => root.build().map_err(|e| PyValueError::new_err(format!("invalid tool set: {e}")))?,
        };
        let mut builder = CodeMode::builder().tools(tools).limits(limits(limits_)?);
        for hook in hooks(before)? {
            builder = builder.before_call(move |start| before_hook(hook.clone(), start));
        }
        let runs = Arc::new(Runs::default());
        for hook in hooks(after)? {
            let runs = runs.clone();
            builder = builder.after_call(move |end: CallEnd| {
                let run = runs.of_key(&end.key);
                after_hook(hook.clone(), run, end)
            });
        }
        if let Some(name) = root_name {
            builder = builder.root_name(name);
        }
        if let Some(bytes) = suspend_max_bytes {
            builder = builder.suspend_max_bytes(bytes);
        }
        let inner = builder.build().map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyRuntime { inner, runs, _mcp: mcp.map(Bound::unbind) })
    }

    /// The TypeScript declarations of the tools, for the model's prompt.
    fn declarations(&self) -> String {
        self.inner.tools().declarations(&self.inner.declaration_options())
    }

    /// `[(path, description, signature)]` of every tool.
    fn catalog(&self) -> Vec<(String, String, String)> {
        self.inner
            .tools()
            .catalog()
            .iter()
            .map(|t| (t.path.clone(), t.description.clone(), t.signature.clone()))
            .collect()
    }

    /// Runs `source` to its end; an awaitable of `Result`. Needs a running asyncio loop (tool
    /// calls run on it); cancelling the awaiting task ends the run.
    #[pyo3(signature = (source, run_id=None, bindings=None, context=None, random_seed=None, time_zone=None))]
    #[allow(clippy::too_many_arguments)] // one per keyword argument of the Python method
    fn execute<'py>(
        &self,
        py: Python<'py>,
        source: String,
        run_id: Option<String>,
        bindings: Option<&Bound<'py, PyDict>>,
        context: Option<Py<PyAny>>,
        random_seed: Option<u64>,
        time_zone: Option<String>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let locals = pyo3_async_runtimes::tokio::get_current_locals(py)?;
        let (options, run) = options(py, &locals, run_id, bindings, context, random_seed, time_zone)?;
        let runtime = self.inner.clone();
        let runs = self.runs.clone();
        // Compiling and running both happen on a tokio thread, without the GIL and off the loop.
        pyo3_async_runtimes::tokio::future_into_py_with_locals(py, locals, async move {
            let execution = runtime.execute_with(&source, options);
            runs.add(execution.run_id(), &run);
            let inner = execution.await;
            drop(run);
            Ok(PyExecResult { inner })
        })
    }

    /// Starts `source` as an `Execution` that can be suspended.
    #[pyo3(signature = (source, run_id=None, bindings=None, context=None, random_seed=None, time_zone=None))]
    #[allow(clippy::too_many_arguments)] // one per keyword argument of the Python method
    fn start(
        &self,
        py: Python<'_>,
        source: String,
        run_id: Option<String>,
        bindings: Option<&Bound<'_, PyDict>>,
        context: Option<Py<PyAny>>,
        random_seed: Option<u64>,
        time_zone: Option<String>,
    ) -> PyResult<PyExecution> {
        let locals = pyo3_async_runtimes::tokio::get_current_locals(py)?;
        let (options, run) = options(py, &locals, run_id, bindings, context, random_seed, time_zone)?;
        let runtime = self.inner.clone();
        let execution = py.detach(move || runtime.execute_with(&source, options));
        self.runs.add(execution.run_id(), &run);
        Ok(PyExecution::new(execution, locals, run))
    }

    /// Goes on with a suspended run: `outcomes` maps each pending call's key to its value, or
    /// to a `ToolError` (which rejects the call's promise).
    #[pyo3(signature = (state, outcomes, context=None))]
    fn resume(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PySnapshot>,
        outcomes: &Bound<'_, PyDict>,
        context: Option<Py<PyAny>>,
    ) -> PyResult<PyExecution> {
        let locals = pyo3_async_runtimes::tokio::get_current_locals(py)?;
        let mut given = Vec::with_capacity(outcomes.len());
        for (key, value) in outcomes.iter() {
            let key: String =
                key.extract().map_err(|_| PyTypeError::new_err("outcome keys must be call keys (str)"))?;
            let outcome = if value.hasattr("_codemode_kind")? {
                let err = PyErr::from_value(value.clone());
                Err(tool_error(py, &err))
            } else {
                Ok(convert::to_json(&value)
                    .map_err(|e| PyTypeError::new_err(format!("outcome for '{key}': {e}")))?)
            };
            given.push((key, outcome));
        }
        let mut options = ExecuteOptions::new();
        let run = Arc::new(RunData { locals: locals.clone(), context, dispatch: dispatch_for(py, &locals)? });
        options.context = Some(run.clone());
        let runtime = self.inner.clone();
        let snapshot = state.get().inner.clone();
        let execution =
            py.detach(move || runtime.resume_with(snapshot, given, options)).map_err(snapshot_error)?;
        self.runs.add(execution.run_id(), &run);
        Ok(PyExecution::new(execution, locals, run))
    }
}

/// The call queue of the run's loop (one per loop, made by `codemode._tools._dispatcher`).
fn dispatch_for(py: Python<'_>, locals: &TaskLocals) -> PyResult<Arc<Dispatch>> {
    let made = py
        .import(pyo3::intern!(py, "codemode._tools"))?
        .getattr(pyo3::intern!(py, "_dispatcher"))?
        .call1((locals.event_loop(py),))?;
    let dispatcher = made
        .cast::<PyDispatcher>()
        .map_err(|_| PyTypeError::new_err("codemode._tools._dispatcher did not give a Dispatcher"))?;
    Ok(dispatcher.get().shared.clone())
}

fn options(
    py: Python<'_>,
    locals: &TaskLocals,
    run_id: Option<String>,
    bindings: Option<&Bound<'_, PyDict>>,
    context: Option<Py<PyAny>>,
    random_seed: Option<u64>,
    time_zone: Option<String>,
) -> PyResult<(ExecuteOptions, Arc<RunData>)> {
    let mut options = ExecuteOptions::new();
    options.run_id = run_id;
    options.random_seed = random_seed;
    options.time_zone = time_zone;
    if let Some(bindings) = bindings {
        for (name, value) in bindings.iter() {
            let name = name
                .cast::<PyString>()
                .map_err(|_| PyTypeError::new_err("binding names must be strings"))?
                .to_cow()?
                .into_owned();
            let value = convert::to_json(&value)
                .map_err(|e| PyTypeError::new_err(format!("binding '{name}': {e}")))?;
            options.bindings.push((name, value));
        }
    }
    let run = Arc::new(RunData { locals: locals.clone(), context, dispatch: dispatch_for(py, locals)? });
    options.context = Some(run.clone());
    Ok((options, run))
}

/// A run in progress that can be suspended: `await execution.result()` (or `await execution`)
/// gives a `Result` or, when a durable tool suspended it, a `Suspended`; `await
/// execution.suspend()` suspends it from outside.
#[pyclass(name = "Execution", module = "codemode", frozen)]
pub(crate) struct PyExecution {
    /// Always `Some` until the drop takes it to free the run off the loop's thread.
    inner: Option<Arc<tokio::sync::Mutex<codemode::Execution>>>,
    run_id: String,
    locals: TaskLocals,
    /// Keeps the run's data alive for after hooks while the execution is held.
    _run: Arc<RunData>,
}

impl PyExecution {
    fn new(execution: codemode::Execution, locals: TaskLocals, run: Arc<RunData>) -> Self {
        PyExecution {
            run_id: execution.run_id().to_string(),
            inner: Some(Arc::new(tokio::sync::Mutex::new(execution))),
            locals,
            _run: run,
        }
    }
}

impl PyExecution {
    fn shared(&self) -> PyResult<Arc<tokio::sync::Mutex<codemode::Execution>>> {
        self.inner
            .clone()
            .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("this execution was freed"))
    }
}

/// An execution dropped by Python (on the loop's thread, holding the GIL) frees its run on the
/// tokio runtime: the handle moves there, so no copy left here can end up the last owner. (Its
/// durable work is cancelled wherever the run is dropped: the run keeps the runtime that drove
/// it.)
impl Drop for PyExecution {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take() {
            drop(pyo3_async_runtimes::tokio::get_runtime().spawn(async move { drop(inner) }));
        }
    }
}

fn outcome_object(outcome: Outcome) -> PyResult<Py<PyAny>> {
    crate::attach(|py| match outcome {
        Outcome::Finished(inner) => Ok(Py::new(py, PyExecResult { inner })?.into_any()),
        Outcome::Suspended(inner) => Ok(Py::new(py, PySuspended { inner })?.into_any()),
    })
    .unwrap_or_else(|| Err(pyo3::exceptions::PyRuntimeError::new_err(SHUTTING_DOWN)))
}

#[pymethods]
impl PyExecution {
    #[getter]
    fn run_id(&self) -> &str {
        &self.run_id
    }

    /// Runs the program until it finishes (`Result`) or a durable tool suspends it
    /// (`Suspended`). Cancelling the awaiting task leaves the run where it was.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inner = self.shared()?;
        pyo3_async_runtimes::tokio::future_into_py_with_locals(py, self.locals.clone(), async move {
            let mut execution = inner.lock().await;
            let outcome = execution.result().await;
            outcome_object(outcome)
        })
    }

    /// Suspends the run now (awaitable of `Suspended`, or of the `Result` when it had
    /// finished); raises `SuspendError` while calls other than durable work are running.
    fn suspend<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let inner = self.shared()?;
        pyo3_async_runtimes::tokio::future_into_py_with_locals(py, self.locals.clone(), async move {
            let mut execution = inner.lock().await;
            match execution.suspend() {
                Ok(outcome) => outcome_object(outcome),
                Err(refusal) => Err(suspend_error(refusal)),
            }
        })
    }

    fn __await__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.result(py)?.call_method0("__await__")
    }

    fn __repr__(&self) -> String {
        format!("Execution(run_id={:?})", self.run_id)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRuntime>()?;
    m.add_class::<PyExecution>()?;
    m.add_class::<PyCallContext>()?;
    m.add_class::<PyCallStart>()?;
    m.add_class::<PyCallEnd>()?;
    Ok(())
}
