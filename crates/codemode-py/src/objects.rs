//! The Python objects a run hands back: `Result`, `Diagnostic`, `Location`, `ToolCall`,
//! `CallFailure`, `Snapshot`, `Suspended`, `PendingCall`.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert;

pyo3::create_exception!(
    codemode,
    SnapshotError,
    pyo3::exceptions::PyException,
    "A saved state that is malformed, from another build, or does not fit this runtime."
);
pyo3::create_exception!(
    codemode,
    SuspendError,
    pyo3::exceptions::PyException,
    "A run could not be suspended now (`blocking` names the calls in flight that keep it running); the run goes on."
);

fn name_of<T: serde::Serialize + std::fmt::Debug>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{value:?}"),
    }
}

/// The outcome of one run: `ok`, `value`, `error`, `logs`, `warnings`, `tool_calls`.
#[pyclass(name = "Result", module = "codemode", frozen)]
pub(crate) struct PyExecResult {
    pub(crate) inner: codemode::ExecResult,
}

#[pymethods]
impl PyExecResult {
    /// Whether the program finished without an error.
    #[getter]
    fn ok(&self) -> bool {
        self.inner.ok
    }

    /// The program's JSON-safe result (`None` when it failed or returned nothing).
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.inner.value {
            Some(value) => convert::to_py(py, value),
            None => Ok(py.None().into_bound(py)),
        }
    }

    #[getter]
    fn error(&self) -> Option<PyDiagnostic> {
        self.inner.error.as_ref().map(PyDiagnostic::from)
    }

    #[getter]
    fn warnings(&self) -> Vec<PyDiagnostic> {
        self.inner.warnings.iter().map(PyDiagnostic::from).collect()
    }

    #[getter]
    fn logs(&self) -> Vec<String> {
        self.inner.logs.clone()
    }

    /// Whether the output limit cut the value or the logs.
    #[getter]
    fn truncated(&self) -> bool {
        self.inner.truncated
    }

    #[getter]
    fn tool_calls(&self) -> Vec<PyToolCall> {
        self.inner.tool_calls.iter().map(PyToolCall::from).collect()
    }

    /// The run's id; call keys are `<run_id>:<id>`.
    #[getter]
    fn run_id(&self) -> &str {
        &self.inner.run_id
    }

    /// The reference runtime's JSON shape as Python data (`toolCalls`, camelCase).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = serde_json::to_value(&self.inner)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        convert::to_py(py, &json)
    }

    /// The reference runtime's JSON shape as text (what to hand the model).
    #[pyo3(signature = (indent = None))]
    fn to_json(&self, indent: Option<usize>) -> PyResult<String> {
        let text = match indent {
            None => serde_json::to_string(&self.inner),
            Some(n) => {
                let mut out = Vec::new();
                let spaces = " ".repeat(n.min(16));
                let formatter = serde_json::ser::PrettyFormatter::with_indent(spaces.as_bytes());
                let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
                serde::Serialize::serialize(&self.inner, &mut ser)
                    .map(|()| String::from_utf8_lossy(&out).into_owned())
            }
        };
        text.map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        match &self.inner.error {
            None => format!("Result(ok=True, tool_calls={})", self.inner.tool_calls.len()),
            Some(e) => format!("Result(ok=False, error={}: {:?})", name_of(&e.kind), e.message),
        }
    }
}

/// A failure (or a warning): `kind` (`"ToolFailure"`, `"TimeoutExceeded"`, ...), `message`, `location`.
#[pyclass(name = "Diagnostic", module = "codemode", frozen, get_all)]
pub(crate) struct PyDiagnostic {
    kind: String,
    message: String,
    location: Option<PyLocation>,
}

impl From<&codemode::Diagnostic> for PyDiagnostic {
    fn from(d: &codemode::Diagnostic) -> Self {
        PyDiagnostic {
            kind: name_of(&d.kind),
            message: d.message.clone(),
            location: d.location.map(|l| PyLocation { line: l.line, column: l.column }),
        }
    }
}

#[pymethods]
impl PyDiagnostic {
    fn __repr__(&self) -> String {
        format!("Diagnostic(kind={:?}, message={:?})", self.kind, self.message)
    }
}

/// A 1-based source location.
#[pyclass(name = "Location", module = "codemode", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyLocation {
    line: u32,
    column: u32,
}

#[pymethods]
impl PyLocation {
    fn __repr__(&self) -> String {
        format!("Location(line={}, column={})", self.line, self.column)
    }
}

/// One admitted tool call, in program order: `id`, `path`, `status` (`"ok"`, `"error"`,
/// `"interrupted"`) and, for the host only, `failure`.
#[pyclass(name = "ToolCall", module = "codemode", frozen, get_all)]
pub(crate) struct PyToolCall {
    id: u32,
    path: String,
    status: String,
    failure: Option<PyCallFailure>,
}

impl From<&codemode::ToolCall> for PyToolCall {
    fn from(c: &codemode::ToolCall) -> Self {
        PyToolCall {
            id: c.id,
            path: c.path.clone(),
            status: name_of(&c.status),
            failure: c.failure.as_ref().map(|f| PyCallFailure {
                kind: format!("{:?}", f.kind),
                message: f.message.clone(),
                cause: f.cause.clone(),
            }),
        }
    }
}

#[pymethods]
impl PyToolCall {
    fn __repr__(&self) -> String {
        format!("ToolCall(id={}, path={:?}, status={:?})", self.id, self.path, self.status)
    }
}

/// How a call failed, as only the host sees it: `kind` (`"Failed"`, `"Refused"`, `"Internal"`,
/// `"Denied"`, ...), what the program saw, and the private `cause` (an exception's type and text).
#[pyclass(name = "CallFailure", module = "codemode", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyCallFailure {
    kind: String,
    message: String,
    cause: Option<String>,
}

/// A suspended run's saved state: `to_bytes()` to store it, `Snapshot.from_bytes(b)` to load it.
#[pyclass(name = "Snapshot", module = "codemode", frozen)]
pub(crate) struct PySnapshot {
    pub(crate) inner: codemode::Snapshot,
}

pub(crate) fn snapshot_error(e: codemode::SnapshotError) -> PyErr {
    SnapshotError::new_err(e.to_string())
}

#[pymethods]
impl PySnapshot {
    #[getter]
    fn run_id(&self) -> &str {
        self.inner.run_id()
    }

    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py.detach(|| self.inner.to_bytes()).map_err(snapshot_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Decodes (and checks) a saved state; a malformed or foreign one raises `SnapshotError`.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, data: &[u8]) -> PyResult<PySnapshot> {
        let data = data.to_vec();
        let inner = py.detach(move || codemode::Snapshot::from_bytes(&data)).map_err(snapshot_error)?;
        Ok(PySnapshot { inner })
    }

    fn __repr__(&self) -> String {
        format!("Snapshot(run_id={:?})", self.inner.run_id())
    }
}

/// A run suspended while durable calls were pending: its `state` and the `pending` calls.
#[pyclass(name = "Suspended", module = "codemode", frozen)]
pub(crate) struct PySuspended {
    pub(crate) inner: codemode::Suspended,
}

#[pymethods]
impl PySuspended {
    /// Always `"suspended"` (a finished `Result` has `ok` True or False).
    #[getter]
    fn ok(&self) -> &'static str {
        "suspended"
    }

    #[getter]
    fn run_id(&self) -> &str {
        self.inner.state.run_id()
    }

    #[getter]
    fn state(&self) -> PySnapshot {
        PySnapshot { inner: self.inner.state.clone() }
    }

    #[getter]
    fn pending(&self) -> Vec<PyPendingCall> {
        self.inner
            .pending
            .iter()
            .map(|p| PyPendingCall {
                key: p.key.clone(),
                path: p.path.clone(),
                args: p.args.clone(),
                handle: p.handle.clone(),
            })
            .collect()
    }

    /// `{"ok": "suspended", "runId": ..., "pending": [{key, path, args, handle?}]}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_py(py, &self.inner.to_json())
    }

    fn __repr__(&self) -> String {
        let keys: Vec<&str> = self.inner.pending.iter().map(|p| p.key.as_str()).collect();
        format!("Suspended(run_id={:?}, pending={keys:?})", self.inner.state.run_id())
    }
}

/// A durable call a suspended run waits on: give its outcome under `key` when resuming.
#[pyclass(name = "PendingCall", module = "codemode", frozen)]
pub(crate) struct PyPendingCall {
    key: String,
    path: String,
    args: serde_json::Value,
    handle: Option<serde_json::Value>,
}

#[pymethods]
impl PyPendingCall {
    #[getter]
    fn key(&self) -> &str {
        &self.key
    }

    #[getter]
    fn path(&self) -> &str {
        &self.path
    }

    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_py(py, &self.args)
    }

    #[getter]
    fn handle<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.handle {
            Some(h) => convert::to_py(py, h),
            None => Ok(py.None().into_bound(py)),
        }
    }

    fn __repr__(&self) -> String {
        format!("PendingCall(key={:?}, path={:?})", self.key, self.path)
    }
}
