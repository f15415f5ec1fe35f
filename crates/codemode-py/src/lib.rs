//! The `codemode` Python package's native module, `codemode._native` (see `python/codemode`
//! for the Python side: `CodeMode`, `tool`, `Namespace`, `Limits`, `ToolError`, schemas from
//! type hints and Pydantic models).

mod convert;
mod objects;
mod runtime;
mod sources;

use pyo3::prelude::*;

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
    m.add_function(wrap_pyfunction!(sources::openapi, m)?)?;
    m.add_function(wrap_pyfunction!(sources::connect_mcp, m)?)?;
    Ok(())
}
