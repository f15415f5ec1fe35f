//! The `codemode` Python package's native module, `codemode._native` (see `python/codemode`
//! for the Python side: `CodeMode`, `tool`, `Namespace`, `Limits`, `ToolError`, schemas from
//! type hints and Pydantic models).

mod convert;
mod dispatch;
mod objects;
mod runtime;
mod sources;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pyo3::prelude::*;

/// Set by `_at_exit` (registered with `atexit`): the interpreter is about to finalize.
static EXITING: AtomicBool = AtomicBool::new(false);
/// Threads of ours inside `attach` now.
static ATTACHED: AtomicUsize = AtomicUsize::new(0);

/// Runs `f` with the GIL from a thread of the tokio runtime; `None` once the interpreter is
/// exiting. A thread that takes the GIL while CPython finalizes is ended by CPython
/// (`pthread_exit`), which unwinds through Rust frames and aborts the process; so no thread of
/// ours starts calling into Python after `_at_exit`, and `_at_exit` waits for those inside.
pub(crate) fn attach<R>(f: impl for<'py> FnOnce(Python<'py>) -> R) -> Option<R> {
    if EXITING.load(Ordering::SeqCst) {
        return None;
    }
    ATTACHED.fetch_add(1, Ordering::SeqCst);
    let result = Python::try_attach(f);
    ATTACHED.fetch_sub(1, Ordering::SeqCst);
    result
}

/// Called at interpreter exit (before finalization): stops new calls into Python from our
/// threads and gives those inside (and `pyo3-async-runtimes`' completion threads, which release
/// the GIL while waking the event loop) a moment to leave, without the GIL. (Tools themselves
/// run on the event loop or Python's own executor threads, never inside these sections.)
#[pyfunction]
fn _at_exit(py: Python<'_>) {
    EXITING.store(true, Ordering::SeqCst);
    py.detach(|| {
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(200)
            && (ATTACHED.load(Ordering::SeqCst) > 0 || start.elapsed() < Duration::from_millis(20))
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    });
}

#[pymodule(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<objects::PyExecResult>()?;
    m.add_class::<objects::PyDiagnostic>()?;
    m.add_class::<objects::PyLocation>()?;
    m.add_class::<objects::PyToolCall>()?;
    m.add_class::<objects::PyCallFailure>()?;
    m.add_class::<objects::PySnapshot>()?;
    m.add_class::<objects::PySuspended>()?;
    m.add_class::<objects::PyPendingCall>()?;
    m.add("SnapshotError", py.get_type::<objects::SnapshotError>())?;
    m.add("SuspendError", py.get_type::<objects::SuspendError>())?;
    runtime::register(m)?;
    m.add_class::<sources::PyOpenApi>()?;
    m.add_class::<sources::PyMcp>()?;
    m.add_class::<dispatch::PyDispatcher>()?;
    m.add_function(wrap_pyfunction!(sources::openapi, m)?)?;
    m.add_function(wrap_pyfunction!(_at_exit, m)?)?;
    m.add_function(wrap_pyfunction!(sources::connect_mcp, m)?)?;
    Ok(())
}
