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
mod outgoing;

pub use extension::builtin_global_names;
pub(crate) use outgoing::json_number;

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::builtins::Step;
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

/// Bytes charged per object member built at the boundary besides its value's node and its name's
/// text: the map entry (hash and name header beside the value), its index slot, the name's own
/// allocation and the entries' spare capacity. Measured: a DAG of two-member objects held about
/// twice what a charge of the name header alone allowed.
pub(crate) const JSON_MEMBER_BYTES: usize = 96;

/// What a JSON value costs the host as `serde_json` holds it, by the boundary's charges: a
/// [`JSON_NODE_BYTES`] node per value plus its text, a [`JSON_MEMBER_BYTES`] entry per object
/// member plus its name. Iterative (the value may be as deep as the host made it).
pub(crate) fn json_bytes(json: &Json) -> u64 {
    let mut bytes = 0u64;
    // Inline for the usual small input: most calls cost no allocation here.
    let mut work: smallvec::SmallVec<[&Json; 8]> = smallvec::smallvec![json];
    while let Some(v) = work.pop() {
        bytes = bytes.saturating_add(JSON_NODE_BYTES as u64);
        match v {
            Json::String(s) => bytes = bytes.saturating_add(s.len() as u64),
            Json::Array(items) => work.extend(items),
            Json::Object(members) => {
                for (name, value) in members {
                    bytes = bytes.saturating_add((JSON_MEMBER_BYTES + name.len()) as u64);
                    work.push(value);
                }
            }
            Json::Null | Json::Bool(_) | Json::Number(_) => {}
        }
    }
    bytes
}

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
    /// Calls in flight, in id order. A deque because calls mostly end in the order they were
    /// made (1,000 calls in flight would otherwise shift the rest down at each completion); it
    /// saves as a list like a `Vec`.
    pending: std::collections::VecDeque<PendingCall>,
    /// A synchronous call the program is stopped on, and where its value goes.
    pub(crate) blocked: Option<(u32, crate::frame::ReturnTo)>,
    /// The global objects extensions defined (`fs`), which extension paths may extend.
    #[serde(default)]
    pub(crate) extension_roots: Vec<ObjId>,
    /// Module names (without `node:`) the host mapped to extension values, for `require` and
    /// `import`.
    #[serde(default)]
    pub(crate) modules: Vec<(String, Value)>,
    /// Node's built-in modules a program loaded (`url`, `util`, `buffer`:
    /// `builtins/node_modules.rs`), kept so that every load gives the same object.
    #[serde(default)]
    pub(crate) builtin_modules: Vec<(String, Value)>,
    /// The tool paths the host declared (`toolroot.rs`).
    #[serde(default)]
    pub(crate) tools: crate::toolroot::DeclaredTools,
}

/// An asynchronous host call in flight.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct PendingCall {
    id: u32,
    /// The promise its completion settles.
    promise: ObjId,
    /// What its input costs the host while the call lasts ([`json_bytes`]): **an input is
    /// charged to the memory limit until its call ends** (counted by every collection,
    /// [`HostState::in_flight_bytes`]), so a program cannot park unbounded copies of its data
    /// in the host by leaving calls unanswered.
    input_bytes: u64,
}

impl HostState {
    pub(crate) fn pending_promises(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.pending.iter().map(|call| call.promise)
    }

    /// The bytes the inputs of the calls in flight hold (see [`PendingCall::input_bytes`]).
    pub(crate) fn in_flight_bytes(&self) -> usize {
        let total: u64 = self.pending.iter().map(|call| call.input_bytes).sum();
        usize::try_from(total).unwrap_or(usize::MAX)
    }

    /// The values of the modules the host mapped and of the built-in ones loaded (GC roots).
    pub(crate) fn module_values(&self) -> impl Iterator<Item = Value> + '_ {
        self.modules.iter().chain(&self.builtin_modules).map(|(_, v)| *v)
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

    /// `tools.a.b(input)`: issues a host call; the step returns its promise.
    pub(crate) fn call_tool(&mut self, path: String, args: &[Value]) -> Result<Step, Throw> {
        if path.is_empty() {
            return Err(self.make_error(ErrorKind::TypeError, "tools is not a function"));
        }
        let input = args.first().copied().unwrap_or(Value::Undefined);
        // `tools.search(...)`, a slip models make, is the `search(...)` built-in's own call
        // unless the host has a `search` of its own.
        if path == "search" && self.host.tools.search_alias() {
            return self.call_host(HostTarget::Search, input, false);
        }
        self.call_host(HostTarget::Tool(path), input, false)
    }

    /// Takes the calls issued since the last take, in program order.
    pub fn take_host_calls(&mut self) -> Vec<HostCall> {
        std::mem::take(&mut self.host.outbox)
    }

    /// Ids of calls issued and not completed yet.
    pub fn pending_host_calls(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self.host.pending.iter().map(|call| call.id).collect();
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
        let Some(pos) = self.host.pending.iter().position(|call| call.id == id) else { return false };
        let Some(PendingCall { promise, .. }) = self.host.pending.remove(pos) else { return false };
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
                    slots.push(crate::object::Slot::new(key, value, 0));
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

    /// Lowers the limits a restored run keeps to the host's where the host's are smaller (a saved
    /// state cannot raise them: its limits are data anyone holding the bytes could edit). A heap
    /// already past the new memory limit fails its next allocation.
    pub fn tighten_limits(
        &mut self,
        memory_limit: usize,
        max_call_depth: usize,
        max_log_bytes: Option<usize>,
    ) {
        let config = &mut self.config;
        config.memory_limit = config.memory_limit.min(memory_limit);
        config.max_call_depth = config.max_call_depth.min(max_call_depth);
        config.max_log_bytes = match (config.max_log_bytes, max_log_bytes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.heap.memory_limit = self.heap.memory_limit.min(memory_limit);
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

    /// Unhandled rejections of promises other than the program's own, as reports: the first
    /// `max_reports`, each message cut to `max_chars` characters, and how many there were in all.
    /// Only what is kept is formatted (a thousand rejections with 20 MB reasons cost no more than
    /// the reports kept).
    pub fn unhandled_rejection_reports(
        &mut self,
        max_reports: usize,
        max_chars: usize,
    ) -> (Vec<ErrorReport>, usize) {
        let values = self.unhandled_rejections();
        let total = values.len();
        let reports =
            values.into_iter().take(max_reports).map(|v| self.bounded_report_for(v, max_chars)).collect();
        (reports, total)
    }

    /// [`Vm::report_for`] with the message cut to `max_chars` characters; a string reason is read
    /// only as far as it is kept.
    fn bounded_report_for(&mut self, v: Value, max_chars: usize) -> ErrorReport {
        let mut report = match v {
            Value::Str(s) => {
                let text = self.heap.str(s);
                let cut = text.char_indices().nth(max_chars).map_or(text.len(), |(i, _)| i);
                let quoted = serde_json::Value::String(text[..cut].to_string()).to_string();
                ErrorReport {
                    kind: FailureKind::Execution,
                    message: format!("Uncaught: {quoted}"),
                    location: self.throw_location,
                }
            }
            v => self.report_for(v),
        };
        if let Some((cut, _)) = report.message.char_indices().nth(max_chars) {
            report.message.truncate(cut);
        }
        report
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
