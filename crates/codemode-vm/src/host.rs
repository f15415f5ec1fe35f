//! The host boundary: calls the program makes into the host, their completions, and the JSON
//! conversion of every value that crosses (tool arguments, tool results, the program's result).
//!
//! **Boundary data is JSON**, converted with `JSON.stringify` semantics (functions and `undefined`
//! properties vanish, `undefined` in arrays and non-finite numbers become `null`, Errors become
//! `{ name, message, ...own }`, Maps and Sets become arrays) and limited to
//! [`MAX_BOUNDARY_DEPTH`] nested levels. A cycle is a `TypeError`. A host result may name host
//! functions ([`HostFunctionRef`], by per-run handle): they become function objects that call the
//! host back; the VM holds only the handle.

mod extension;

pub use extension::builtin_global_names;

use crate::meter::Work;
use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::call::Throw;
use crate::object::{Callable, ObjKind};
use crate::promise::Settled;
use crate::props::Key;
use crate::value::{ObjId, Value};
use crate::{ErrorReport, Vm};

/// The deepest nesting of arrays and objects allowed across the boundary.
pub const MAX_BOUNDARY_DEPTH: usize = 32;

/// Bytes charged per JSON node built at the boundary (a `serde_json::Value` and its slot).
pub(crate) const JSON_NODE_BYTES: usize = 80;

/// What the program asked the host to call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HostTarget {
    /// A tool, by path without the `tools.` root (`orders.lookup`). Asynchronous: the call
    /// returns a promise at once.
    Tool(String),
    /// The `search(...)` built-in. Synchronous: the program stops until it is completed.
    Search,
    /// An extension global (`fetch`, `fs.promises.readFile`), by path; the input is the array of
    /// its arguments. Synchronous ones stop the program until completed, like `search`. A
    /// function that came in an extension's result (see [`HostFunctionRef`]) has its `handle`,
    /// and its name as the path.
    Extension {
        path: String,
        sync: bool,
        #[serde(default)]
        handle: Option<u32>,
    },
}

/// A call the host must perform and complete with [`Vm::complete`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostCall {
    /// 1, 2, 3, ... in program order.
    pub id: u32,
    pub target: HostTarget,
    /// The argument (tools take one JSON value; `null` when called without one).
    #[serde(with = "crate::value::json_text")]
    pub input: Json,
}

/// A host function inside a host call's result: the host keeps the function under `handle` (a
/// per-run id of its own choosing) and the program gets a function object at `path` (member
/// names from the result's root; empty when the result is the function) that calls it back as
/// [`HostTarget::Extension`] with that handle. Plain data: the VM never holds the function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostFunctionRef {
    pub path: Vec<String>,
    pub handle: u32,
    /// The name calls report as their path (`db.connect().query`).
    pub name: String,
    pub sync: bool,
}

/// The kind of failure a thrown error stands for, as the host classifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FailureKind {
    /// The program threw (or the runtime threw on its behalf).
    Execution,
    ToolFailure,
    UnknownTool,
    InvalidToolInput,
    InvalidToolOutput,
    InvalidDataValue,
}

/// A failed host call: the error the program sees.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostError {
    pub kind: FailureKind,
    /// The model-visible message (becomes the Error's `message`).
    pub message: String,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct HostState {
    next_id: u32,
    /// Calls issued but not yet taken by the host.
    outbox: Vec<HostCall>,
    /// Calls in flight: id → the promise their completion settles, in id order. A deque
    /// because calls mostly end in the order they were made (1,000 calls in flight would
    /// otherwise shift the rest down at each completion); it saves as a list like a `Vec`.
    pending: std::collections::VecDeque<(u32, ObjId)>,
    /// A synchronous call the program is stopped on, and where its value goes.
    pub(crate) blocked: Option<(u32, crate::frame::ReturnTo)>,
    /// The global objects extensions defined (`fs`), which extension paths may extend.
    #[serde(default)]
    pub(crate) extension_roots: Vec<ObjId>,
    /// Module names (without `node:`) the host mapped to extension values, for `require` and
    /// `import`.
    #[serde(default)]
    pub(crate) modules: Vec<(String, Value)>,
}

impl HostState {
    pub(crate) fn pending_promises(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.pending.iter().map(|(_, p)| *p)
    }

    /// The values of the modules the host mapped (GC roots).
    pub(crate) fn module_values(&self) -> impl Iterator<Item = Value> + '_ {
        self.modules.iter().map(|(_, v)| *v)
    }

    fn next_id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }
}

impl Vm {
    /// The value of `tools.<path>`: a callable namespace object.
    pub(crate) fn tool_value(&mut self, path: &str) -> Result<Value, Throw> {
        let proto = Some(self.realm.function_proto);
        let id = self.alloc(ObjKind::Function(Callable::Tool { path: path.into() }), proto)?;
        Ok(Value::Obj(id))
    }

    /// `tools.a.b(input)`: issues a host call and returns its promise.
    pub(crate) fn call_tool(&mut self, path: &str, args: &[Value]) -> Result<Value, Throw> {
        if path.is_empty() {
            return Err(self.make_error(ErrorKind::TypeError, "tools is not a function"));
        }
        let input = match args.first() {
            None | Some(Value::Undefined) => Json::Null,
            Some(v) => match self.to_json(*v) {
                Ok(Some(j)) => j,
                Ok(None) => Json::Null,
                Err(e) => return self.reject_tool_input(path, e),
            },
        };
        self.charge_retained(crate::meter::HOST_CALL_RECORD_BYTES + path.len())?;
        let promise = self.new_promise()?;
        let id = self.host.next_id();
        self.host.outbox.push(HostCall { id, target: HostTarget::Tool(path.to_string()), input });
        self.host.pending.push_back((id, promise));
        Ok(Value::Obj(promise))
    }

    /// Issues a synchronous host call: the program stops until [`Vm::complete`] answers it.
    pub(crate) fn call_host_sync(&mut self, target: HostTarget, args: &[Value]) -> Result<u32, Throw> {
        let input = match args.first() {
            None | Some(Value::Undefined) => Json::Null,
            Some(v) => self.to_json(*v)?.unwrap_or(Json::Null),
        };
        self.charge_retained(crate::meter::HOST_CALL_RECORD_BYTES)?;
        let id = self.host.next_id();
        self.host.outbox.push(HostCall { id, target, input });
        Ok(id)
    }

    /// Takes the calls issued since the last take, in program order.
    pub fn take_host_calls(&mut self) -> Vec<HostCall> {
        std::mem::take(&mut self.host.outbox)
    }

    /// Ids of calls issued and not completed yet.
    pub fn pending_host_calls(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self.host.pending.iter().map(|(id, _)| *id).collect();
        ids.extend(self.host.blocked.map(|(id, _)| id));
        ids
    }

    /// Feeds back the outcome of host call `id`. Unknown ids are ignored (returns false).
    /// A result that cannot become a program value (nested too deep) rejects the call with
    /// `InvalidToolOutput`.
    pub fn complete(&mut self, id: u32, outcome: Result<Json, HostError>) -> bool {
        self.complete_with_functions(id, outcome, &[])
    }

    /// [`Vm::complete`] for a result with host functions in it: each becomes a function object
    /// at its path (replacing what the JSON has there), which calls the host back with its handle.
    pub fn complete_with_functions(
        &mut self,
        id: u32,
        outcome: Result<Json, HostError>,
        functions: &[HostFunctionRef],
    ) -> bool {
        if let Some((blocked, ret)) = self.host.blocked
            && blocked == id
        {
            self.host.blocked = None;
            self.complete_blocked(ret, outcome, functions);
            return true;
        }
        let Some(pos) = self.host.pending.iter().position(|(i, _)| *i == id) else { return false };
        let Some((_, promise)) = self.host.pending.remove(pos) else { return false };
        let result = match outcome {
            Ok(json) => match self.from_json_with_functions(&json, functions) {
                Ok(v) => self.resolve_promise(promise, v),
                Err(message) => {
                    let e = self.make_tagged_error(FailureKind::InvalidToolOutput, &message);
                    self.reject_promise(promise, e)
                }
            },
            Err(err) => {
                let e = self.host_error(&err);
                self.reject_promise(promise, e)
            }
        };
        let _ = result;
        // The run may have stopped as finished-waiting; completions let it go on.
        if self.finished == Some(crate::Status::Waiting) {
            self.finished = None;
        }
        true
    }

    /// Delivers a synchronous call's outcome: its value to the waiting built-in's destination, or
    /// its error thrown where the program stopped.
    fn complete_blocked(
        &mut self,
        ret: crate::frame::ReturnTo,
        outcome: Result<Json, HostError>,
        functions: &[HostFunctionRef],
    ) {
        let result = match outcome {
            // Synchronous host calls (`search`) give thenable results (`builtins/thenable.rs`).
            Ok(json) => match self.from_json_with_functions(&json, functions) {
                Ok(v) => self.make_thenable(v).and_then(|v| self.deliver(Some((ret, v)))),
                Err(message) => Err(self.make_tagged_error(FailureKind::InvalidToolOutput, &message)),
            },
            Err(err) => Err(self.host_error(&err)),
        };
        if let Err(exc) = result {
            self.handle_throw(exc);
        }
        if self.finished == Some(crate::Status::Waiting) {
            self.finished = None;
        }
    }

    /// The error a failed host call throws: an `Execution` failure whose message starts with
    /// `TypeError: ` is a `TypeError` (a function the run no longer has); others are Errors
    /// tagged with their kind.
    fn host_error(&mut self, err: &HostError) -> Value {
        match err.message.strip_prefix("TypeError: ") {
            Some(message) if err.kind == FailureKind::Execution => {
                self.make_error(ErrorKind::TypeError, message)
            }
            _ => self.make_tagged_error(err.kind, &err.message),
        }
    }

    /// An Error whose uncaught report carries `kind`.
    pub(crate) fn make_tagged_error(&mut self, kind: FailureKind, message: &str) -> Value {
        let e = self.make_error(ErrorKind::Error, message);
        if let Value::Obj(id) = e
            && let ObjKind::Error(info) = &mut self.heap.obj_mut(id).kind
        {
            info.kind = kind;
        }
        e
    }

    /// Converts a host result into a program value, with its host functions placed.
    fn from_json_with_functions(
        &mut self,
        json: &Json,
        functions: &[HostFunctionRef],
    ) -> Result<Value, String> {
        let mut root = self.from_json(json, 0)?;
        for f in functions {
            let func = self.host_function_value(f).map_err(|_| "out of memory".to_string())?;
            let Some((last, parents)) = f.path.split_last() else {
                root = func;
                continue;
            };
            let mut owner = root;
            for segment in parents {
                let key = self.to_key_str(segment).map_err(|_| "out of memory".to_string())?;
                // Plain objects and arrays just made from JSON: own data properties.
                owner = match owner {
                    Value::Obj(_) => self.get_value(owner, key).map_err(|_| "out of memory".to_string())?,
                    _ => Value::Undefined,
                };
            }
            if let Value::Obj(_) = owner {
                let key = self.to_key_str(last).map_err(|_| "out of memory".to_string())?;
                self.define(owner, key, func).map_err(|_| "out of memory".to_string())?;
            }
        }
        Ok(root)
    }

    /// Converts a JSON value from the host into a program value.
    pub(crate) fn from_json(&mut self, json: &Json, depth: usize) -> Result<Value, String> {
        self.from_json_with_limit(json, depth, MAX_BOUNDARY_DEPTH)
    }

    pub(crate) fn from_json_with_limit(
        &mut self,
        json: &Json,
        depth: usize,
        limit: usize,
    ) -> Result<Value, String> {
        if depth > limit {
            return Err(format!("Value exceeds the maximum depth of {limit}."));
        }
        let oom = |_| "out of memory".to_string();
        Ok(match json {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
            Json::String(s) => self.new_string(s).map_err(oom)?,
            Json::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.from_json_with_limit(item, depth + 1, limit)?);
                }
                self.new_array(out).map_err(oom)?
            }
            Json::Object(map) => {
                // A JSON object's member names are distinct: its properties are built at once.
                let mut slots = Vec::with_capacity(map.len());
                for (k, v) in map {
                    let value = self.from_json_with_limit(v, depth + 1, limit)?;
                    let key = self.intern(k).map_err(oom)?;
                    slots.push(crate::object::Slot { key, value, flags: 0 });
                }
                self.new_object_with(slots).map_err(oom)?
            }
        })
    }

    /// The property key for a JSON object member's name (interned, charged).
    pub(crate) fn json_key(&mut self, k: &str) -> Result<Key, Throw> {
        self.to_key_str(k)
    }

    fn to_key_str(&mut self, k: &str) -> Result<Key, Throw> {
        Ok(match crate::value::parse_array_index(k) {
            Some(i) => Key::Index(i),
            None => Key::Atom(self.intern(k)?),
        })
    }

    /// Converts a program value to JSON with `JSON.stringify` semantics; `None` for values that
    /// vanish (`undefined`, functions). Throws a `TypeError` on cycles and a `RangeError` past
    /// [`MAX_BOUNDARY_DEPTH`].
    pub(crate) fn to_json(&mut self, v: Value) -> Result<Option<Json>, Throw> {
        let mut seen = Vec::new();
        self.to_json_inner(v, 0, &mut seen, true)
    }

    fn to_json_inner(
        &mut self,
        v: Value,
        depth: usize,
        seen: &mut Vec<ObjId>,
        errors_as_objects: bool,
    ) -> Result<Option<Json>, Throw> {
        // The JSON is built before the host takes it: every node is charged to the memory limit
        // as it is made (a DAG of shared arrays expands exponentially here) and costs fuel.
        if !matches!(v, Value::Undefined | Value::Uninit | Value::Cell(_) | Value::Symbol(_)) {
            let text = if let Value::Str(s) = v { self.heap.str(s).len() } else { 0 };
            self.charge(Work::Elements(1));
            self.charge(Work::Bytes(text));
            self.charge_memory(JSON_NODE_BYTES + text)?;
        }
        Ok(Some(match v {
            // Symbols are left out like `undefined`, as `JSON.stringify` does.
            Value::Undefined | Value::Uninit | Value::Cell(_) | Value::Symbol(_) => return Ok(None),
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => json_number(n),
            Value::Str(s) => Json::String(self.heap.str(s).to_string()),
            // JSON cannot carry a BigInt: refused clearly rather than rounded to a Number.
            Value::BigInt(_) => {
                return Err(self.make_error(
                    ErrorKind::TypeError,
                    "Do not know how to serialize a BigInt: JSON cannot carry it; convert it with String(x) or Number(x) first",
                ));
            }
            Value::Obj(id) => {
                if depth >= MAX_BOUNDARY_DEPTH {
                    let msg = format!("Value exceeds the maximum depth of {MAX_BOUNDARY_DEPTH}.");
                    return Err(self.make_error(ErrorKind::RangeError, &msg));
                }
                if seen.contains(&id) {
                    return Err(
                        self.make_error(ErrorKind::TypeError, "Converting circular structure to JSON")
                    );
                }
                // toJSON (Dates and user objects with a native toJSON).
                if let ObjKind::Date(t) = self.heap.obj(id).kind {
                    return Ok(Some(match crate::builtins::date_to_iso(t) {
                        Some(s) => Json::String(s),
                        None => Json::Null,
                    }));
                }
                seen.push(id);
                let kind_tag = match &self.heap.obj(id).kind {
                    ObjKind::Function(_) => {
                        seen.pop();
                        return Ok(None);
                    }
                    ObjKind::Array(items) => Some(items.clone()),
                    ObjKind::Map { entries, set } => {
                        let set = *set;
                        let entries: Vec<(Value, Value)> = entries.iter().flatten().copied().collect();
                        let mut out = Vec::new();
                        for (k, val) in entries {
                            if set {
                                out.push(
                                    self.to_json_inner(k, depth + 1, seen, errors_as_objects)?
                                        .unwrap_or(Json::Null),
                                );
                            } else {
                                let pair = vec![
                                    self.to_json_inner(k, depth + 2, seen, errors_as_objects)?
                                        .unwrap_or(Json::Null),
                                    self.to_json_inner(val, depth + 2, seen, errors_as_objects)?
                                        .unwrap_or(Json::Null),
                                ];
                                out.push(Json::Array(pair));
                            }
                        }
                        seen.pop();
                        return Ok(Some(Json::Array(out)));
                    }
                    _ => None,
                };
                let out = if let Some(items) = kind_tag {
                    let mut out = Vec::with_capacity(items.len());
                    for item in items {
                        out.push(
                            self.to_json_inner(item, depth + 1, seen, errors_as_objects)?
                                .unwrap_or(Json::Null),
                        );
                    }
                    Json::Array(out)
                } else {
                    if let Some(entries) = self.plain_data_entries(id) {
                        // The common case, without a key list and a lookup per key.
                        let mut map = serde_json::Map::with_capacity(entries.len());
                        for (key, val) in entries {
                            if let Some(j) = self.to_json_inner(val, depth + 1, seen, errors_as_objects)? {
                                map.insert(self.heap.atoms.name(key).to_string(), j);
                            }
                        }
                        seen.pop();
                        return Ok(Some(Json::Object(map)));
                    }
                    let mut map = serde_json::Map::new();
                    if errors_as_objects && matches!(self.heap.obj(id).kind, ObjKind::Error(_)) {
                        for name in ["name", "message"] {
                            let val = self.get_named(v, name)?;
                            if let Some(j) = self.to_json_inner(val, depth + 1, seen, errors_as_objects)? {
                                map.insert(name.to_string(), j);
                            }
                        }
                    }
                    for key in self.own_keys(id) {
                        let val = self.get_value(v, key)?;
                        let name = match key {
                            Key::Atom(a) => self.heap.atoms.name(a).to_string(),
                            Key::Index(i) => i.to_string(),
                        };
                        if let Some(j) = self.to_json_inner(val, depth + 1, seen, errors_as_objects)? {
                            map.insert(name, j);
                        }
                    }
                    Json::Object(map)
                };
                seen.pop();
                out
            }
        }))
    }

    /// A plain object's own properties, in order, when every one is an enumerable, writable,
    /// configurable data property named by a string that is not an array index: what
    /// `own_keys` and a `get_value` per key give for it. `None` for any other object.
    fn plain_data_entries(&self, id: ObjId) -> Option<Vec<(crate::value::Atom, Value)>> {
        let obj = self.heap.obj(id);
        if !matches!(obj.kind, ObjKind::Plain) {
            return None;
        }
        let atoms = &self.heap.atoms;
        let mut entries = Vec::new();
        for slot in obj.props.iter() {
            if slot.flags != 0
                || atoms.is_symbol(slot.key)
                || crate::value::parse_array_index(atoms.name(slot.key)).is_some()
            {
                return None;
            }
            entries.push((slot.key, slot.value));
        }
        Some(entries)
    }

    /// The program's result as JSON (`undefined` becomes `null`), once [`Vm::run`] said `Done`.
    pub fn result_json(&mut self) -> Result<Json, ErrorReport> {
        if let Some(json) = &self.result_json_value {
            return Ok(json.clone());
        }
        let value = match &self.heap.obj(self.main_promise).kind {
            ObjKind::Promise(p) => match p.settled {
                Settled::Fulfilled(v) => v,
                _ => Value::Undefined,
            },
            _ => Value::Undefined,
        };
        match self.to_json(value) {
            Ok(j) => Ok(j.unwrap_or(Json::Null)),
            Err(e) => {
                let mut report = self.report_for(e);
                report.kind = FailureKind::InvalidDataValue;
                Err(report)
            }
        }
    }

    /// Why the program failed, once [`Vm::run`] said `Threw`.
    pub fn error_report(&mut self) -> ErrorReport {
        let value = match &self.heap.obj(self.main_promise).kind {
            ObjKind::Promise(p) => match p.settled {
                Settled::Rejected(v) => v,
                _ => Value::Undefined,
            },
            _ => Value::Undefined,
        };
        self.report_for(value)
    }

    /// Unhandled rejections of promises other than the program's own, as reports.
    pub fn unhandled_rejection_reports(&mut self) -> Vec<ErrorReport> {
        let values = self.unhandled_rejections();
        values.into_iter().map(|v| self.report_for(v)).collect()
    }

    /// Describes a thrown value: `Name: message` for Errors, `Uncaught: <JSON>` otherwise.
    pub(crate) fn report_for(&mut self, v: Value) -> ErrorReport {
        if let Value::Obj(id) = v
            && let ObjKind::Error(info) = &self.heap.obj(id).kind
        {
            let (kind, location) = (info.kind, info.location);
            let message = self.to_rust_string(v).unwrap_or_else(|_| "Error".into());
            return ErrorReport { kind, message, location: location.or(self.throw_location) };
        }
        let text = match self.to_json(v) {
            Ok(Some(j)) => j.to_string(),
            Ok(None) => "undefined".into(),
            Err(_) => self.to_rust_string(v).unwrap_or_default(),
        };
        ErrorReport {
            kind: FailureKind::Execution,
            message: format!("Uncaught: {text}"),
            location: self.throw_location,
        }
    }
}

/// JSON has no NaN or Infinity: they become `null`. Integral values print without `.0`.
pub(crate) fn json_number(n: f64) -> Json {
    if !n.is_finite() {
        return Json::Null;
    }
    // Every integral f64 in i64's range converts exactly; JSON then prints all its digits, as
    // JavaScript does below 1e21.
    let i = n as i64;
    if i as f64 == n && n.abs() < 9.2e18 {
        return Json::Number(serde_json::Number::from(i));
    }
    serde_json::Number::from_f64(n).map_or(Json::Null, Json::Number)
}
