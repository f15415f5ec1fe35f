//! Tools from elsewhere: an OpenAPI document's operations (`codemode.openapi`,
//! `CodeMode.from_openapi`) and MCP servers (`CodeMode.from_mcp`), through `codemode-mcp`.

use std::sync::Arc;
use std::time::Duration;

use codemode::{Namespace, ToolSet};
use codemode_mcp::openapi::OpenApiSource;
use codemode_mcp::{ClientOptions, HttpOptions, Hub, HubOptions, Source};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value as Json;

use crate::convert;

fn seconds(value: Option<f64>, what: &str) -> PyResult<Option<Duration>> {
    value
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| PyValueError::new_err(format!("{what} must be a positive number of seconds")))
        })
        .transpose()
}

/// The operations of an OpenAPI document, as a namespace to mount under any name.
#[pyclass(name = "OpenApiNamespace", module = "codemode", frozen)]
pub(crate) struct PyOpenApi {
    pub(crate) namespace: Namespace,
    title: Option<String>,
    skipped: Vec<(String, String)>,
    base_url: String,
}

#[pymethods]
impl PyOpenApi {
    /// The document's `info.title`.
    #[getter]
    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The operations left out, as `(operation, reason)`.
    #[getter]
    fn skipped(&self) -> Vec<(String, String)> {
        self.skipped.clone()
    }

    #[getter]
    fn base_url(&self) -> &str {
        &self.base_url
    }

    fn __repr__(&self) -> String {
        format!("OpenApiNamespace(title={:?}, base_url={:?})", self.title, self.base_url)
    }
}

/// `openapi(doc, base_url=None, headers=[], timeout=None)`: `doc` is the document as a dict or
/// JSON text.
#[pyfunction]
#[pyo3(signature = (doc, base_url=None, headers=None, timeout=None))]
pub(crate) fn openapi(
    doc: &Bound<'_, PyAny>,
    base_url: Option<String>,
    headers: Option<Vec<(String, String)>>,
    timeout: Option<f64>,
) -> PyResult<PyOpenApi> {
    let spec: Json = if let Ok(text) = doc.cast::<PyString>() {
        serde_json::from_str(&text.to_cow()?)
            .map_err(|e| PyValueError::new_err(format!("the OpenAPI document is not JSON: {e}")))?
    } else {
        convert::to_json(doc).map_err(|e| PyTypeError::new_err(format!("the OpenAPI document: {e}")))?
    };
    let mut options = HttpOptions { headers: headers.unwrap_or_default(), ..HttpOptions::default() };
    if let Some(timeout) = seconds(timeout, "timeout")? {
        options.timeout = timeout;
    }
    let source = Arc::new(
        OpenApiSource::from_value(spec, base_url.as_deref(), &options).map_err(PyValueError::new_err)?,
    );
    let import = source.import(None).map_err(PyValueError::new_err)?;
    let title = source.title().map(str::to_owned);
    let about = title.clone().unwrap_or_else(|| "HTTP API".to_owned());
    let about = match source.description() {
        Some(d) if !d.trim().is_empty() => format!("{about}: {d}"),
        _ => about,
    };
    Ok(PyOpenApi {
        namespace: import.namespace.description(about),
        title,
        skipped: import.skipped.into_iter().map(|s| (s.operation, s.reason)).collect(),
        base_url: source.base_url().to_owned(),
    })
}

/// Connected MCP servers: their tools, and the connections (closed by `close()`).
#[pyclass(name = "McpServers", module = "codemode._native", frozen)]
pub(crate) struct PyMcp {
    hub: Arc<Hub>,
    pub(crate) tools: ToolSet,
    /// The servers' namespaces, for a runtime that adds Python tools beside them.
    pub(crate) namespaces: Vec<(String, Namespace)>,
}

#[pymethods]
impl PyMcp {
    /// The namespaces, one per server.
    fn namespaces(&self) -> Vec<String> {
        self.hub.namespaces()
    }

    /// Closes the connections (stops servers started as child processes).
    fn close<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let hub = self.hub.clone();
        pyo3_async_runtimes::tokio::future_into_py(py, async move {
            hub.close().await;
            Ok(())
        })
    }
}

/// Connects MCP servers: each a command line (`"npx -y @modelcontextprotocol/server-everything"`)
/// or an `http(s)://` URL, optionally named (`"gh=..."`). An awaitable of `McpServers`.
#[pyfunction]
#[pyo3(signature = (servers, connect_timeout=None))]
pub(crate) fn connect_mcp<'py>(
    py: Python<'py>,
    servers: Vec<String>,
    connect_timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut sources = Vec::with_capacity(servers.len());
    for server in &servers {
        let (_, rest) = codemode_mcp::source::split_name(server);
        let rest = rest.trim();
        let source = if rest.starts_with("http://") || rest.starts_with("https://") {
            Source::url(server)
        } else {
            Source::command(server)
        };
        sources.push(source.map_err(|e| PyValueError::new_err(e.to_string()))?);
    }
    let mut client = ClientOptions::default();
    if let Some(timeout) = seconds(connect_timeout, "connect_timeout")? {
        client.connect_timeout = timeout;
    }
    let options = HubOptions { client, ..HubOptions::default() };
    pyo3_async_runtimes::tokio::future_into_py(py, async move {
        let hub = Hub::connect(&sources, options).await.map_err(PyRuntimeError::new_err)?;
        let built = match hub.runtime(None).await {
            Ok(runtime) => hub.mounted_namespaces(None).await.map(|n| (runtime.tools().clone(), n)),
            Err(e) => Err(e),
        };
        match built {
            Ok((tools, namespaces)) => Ok(PyMcp { hub: Arc::new(hub), tools, namespaces }),
            Err(e) => {
                hub.close().await;
                Err(PyRuntimeError::new_err(e))
            }
        }
    })
}
