//! Python values <-> JSON (`serde_json::Value`), both ways depth-guarded.
//!
//! Only JSON data crosses: `None`, `bool`, `int`, `float` (finite), `str`, `list`/`tuple` and
//! `dict` with `str` keys. Anything else is an error naming where it was found
//! (`$.orders[2].when: a datetime is not JSON`), which the caller turns into the right
//! diagnostic (a tool's output, a binding, a hook's value).

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value as Json};

/// Deeper than the boundary allows (32 levels) with room to spare; it keeps the recursion of
/// both conversions bounded whatever a host hands in.
pub(crate) const MAX_DEPTH: usize = 64;

/// A Python value as JSON, or why it is not JSON (with the path where it failed).
pub(crate) fn to_json(value: &Bound<'_, PyAny>) -> Result<Json, String> {
    let mut path = String::from("$");
    to_json_at(value, &mut path, 0)
}

fn to_json_at(value: &Bound<'_, PyAny>, path: &mut String, depth: usize) -> Result<Json, String> {
    if depth > MAX_DEPTH {
        return Err(format!("{path}: nested deeper than {MAX_DEPTH} levels"));
    }
    if value.is_none() {
        return Ok(Json::Null);
    }
    if let Ok(s) = value.cast::<PyString>() {
        return s.to_cow().map(|s| Json::String(s.into_owned())).map_err(|e| format!("{path}: {e}"));
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Json::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        if let Ok(i) = value.extract::<i64>() {
            return Ok(Json::Number(i.into()));
        }
        if let Ok(u) = value.extract::<u64>() {
            return Ok(Json::Number(u.into()));
        }
        // Past 64 bits: the number a JavaScript program would see (as `JSON.parse` does).
        let f: f64 = value.extract().map_err(|e| format!("{path}: {e}"))?;
        return Number::from_f64(f).map(Json::Number).ok_or_else(|| format!("{path}: integer too large"));
    }
    if value.is_instance_of::<PyFloat>() {
        let f: f64 = value.extract().map_err(|e| format!("{path}: {e}"))?;
        return Number::from_f64(f)
            .map(Json::Number)
            .ok_or_else(|| format!("{path}: {f} is not a JSON number (NaN and infinities are not JSON)"));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = Map::with_capacity(dict.len());
        for (k, v) in dict.iter() {
            let Ok(key) = k.cast::<PyString>() else {
                return Err(format!("{path}: a dict key of type '{}' is not a string", type_name(&k)));
            };
            let key = key.to_cow().map_err(|e| format!("{path}: {e}"))?.into_owned();
            let len = path.len();
            path.push('.');
            path.push_str(&key);
            let item = to_json_at(&v, path, depth + 1)?;
            path.truncate(len);
            map.insert(key, item);
        }
        return Ok(Json::Object(map));
    }
    if let Ok(list) = value.cast::<PyList>() {
        return seq(list.iter(), list.len(), path, depth);
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return seq(tuple.iter(), tuple.len(), path, depth);
    }
    Err(format!("{path}: a value of type '{}' is not JSON", type_name(value)))
}

fn seq<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    len: usize,
    path: &mut String,
    depth: usize,
) -> Result<Json, String> {
    let mut out = Vec::with_capacity(len);
    for (i, item) in items.enumerate() {
        let at = path.len();
        path.push_str(&format!("[{i}]"));
        out.push(to_json_at(&item, path, depth + 1)?);
        path.truncate(at);
    }
    Ok(Json::Array(out))
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_string())
}

/// JSON as a Python value (`dict`s keep the JSON's key order).
pub(crate) fn to_py<'py>(py: Python<'py>, value: &Json) -> PyResult<Bound<'py, PyAny>> {
    to_py_at(py, value, 0)
}

fn to_py_at<'py>(py: Python<'py>, value: &Json, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    if depth > MAX_DEPTH {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "JSON value nested deeper than {MAX_DEPTH} levels"
        )));
    }
    Ok(match value {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Json::String(s) => PyString::new(py, s).into_any(),
        Json::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py_at(py, item, depth + 1)?)?;
            }
            list.into_any()
        }
        Json::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py_at(py, v, depth + 1)?)?;
            }
            dict.into_any()
        }
    })
}
