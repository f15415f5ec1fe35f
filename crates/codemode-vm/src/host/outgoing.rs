//! Values leaving the VM as JSON: the arguments of host calls (tools, `search`, extension
//! functions) and the text of reports.
//!
//! **A host call's input is what `JSON.stringify` gives**, getters and `toJSON` methods
//! included. Most arguments are plain data, and they are converted here in one native pass. The
//! pass stops as soon as it meets something only JavaScript can answer (a getter, a program's
//! `toJSON`, a proxy); the argument is then converted by the resumable walk of `JSON.stringify`
//! (`builtins::tojson`, purpose `HostInput`), which runs those calls through the trampoline
//! and issues the host call when it is done. Either way the host receives the same JSON.

use codemode_bytecode::ErrorKind;
use serde_json::Value as Json;
use smallvec::SmallVec;

use super::{HostCall, HostTarget, JSON_MEMBER_BYTES, JSON_NODE_BYTES, MAX_BOUNDARY_DEPTH};
use crate::Vm;
use crate::builtins::Step;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{Callable, ObjKind};
use crate::props::{Got, Key};
use crate::value::{Atom, ObjId, Value};

/// Why the native pass stopped.
enum Stop {
    /// The value cannot be converted (a cycle, too deep, a BigInt, out of memory).
    Throw(Throw),
    /// Converting it means running JavaScript: the resumable walk takes over.
    NeedsScript,
}

impl From<Throw> for Stop {
    fn from(thrown: Throw) -> Self {
        Stop::Throw(thrown)
    }
}

/// What an object holds, listed before its members are converted.
enum Opened {
    /// Converted whole (a Date) or vanishing (a function).
    Done(Option<Json>),
    /// An array's items, or a Set's values.
    Array(Vec<Value>),
    /// A Map's entries, each crossing as a `[key, value]` array.
    Pairs(Vec<(Value, Value)>),
    /// Any other object's members, by name.
    Object(Members),
}

/// An object's members by name: most objects crossing to a tool are small, and are listed
/// without an allocation.
type Members = SmallVec<[(String, Value); 4]>;

/// The native pass's state.
struct Pass {
    /// The objects being converted (a cycle is an error); most arguments nest a few levels.
    seen: SmallVec<[ObjId; 8]>,
    /// `toJSON`, when the pass must stop where JavaScript would run (host input); `None` when it
    /// reads what is there without running anything (reports, `console`).
    to_json: Option<Atom>,
}

impl Vm {
    /// Converts a program value to JSON with `JSON.stringify` semantics without running any
    /// JavaScript (a getter reads as `undefined`, a program's `toJSON` is not called); `None` for
    /// values that vanish (`undefined`, functions). Throws a `TypeError` on cycles and a
    /// `RangeError` past [`MAX_BOUNDARY_DEPTH`]. For reports and `console`, which must not run
    /// code; what crosses to the host goes through [`Vm::call_host`].
    pub(crate) fn to_json(&mut self, v: Value) -> Result<Option<Json>, Throw> {
        let mut pass = Pass { seen: SmallVec::new(), to_json: None };
        match self.to_json_inner(v, 0, &mut pass) {
            Ok(json) => Ok(json),
            Err(Stop::Throw(e)) => Err(e),
            // Only a pass with `to_json` set stops for script.
            Err(Stop::NeedsScript) => Ok(None),
        }
    }

    /// Calls the host with `input` converted as `JSON.stringify` would (`undefined` becomes
    /// `null`): a tool's promise, or a block until a synchronous call is completed. `wrapped`
    /// says `input` is an array made to carry several arguments (it does not count as a level).
    pub(crate) fn call_host(
        &mut self,
        target: HostTarget,
        input: Value,
        wrapped: bool,
    ) -> Result<Step, Throw> {
        let to_json = self.intern("toJSON")?;
        let mut pass = Pass { seen: SmallVec::new(), to_json: Some(to_json) };
        let converted = match input {
            // The carrier of several arguments: each converts as if it came alone.
            Value::Obj(id) if wrapped => {
                let items = match &self.heap.obj(id).kind {
                    ObjKind::Array(items) => items.to_vec(),
                    _ => Vec::new(),
                };
                let mut out = Vec::with_capacity(items.len());
                let mut stop = None;
                for item in items {
                    match self.to_json_inner(item, 0, &mut pass) {
                        Ok(json) => out.push(json.unwrap_or(Json::Null)),
                        Err(e) => {
                            stop = Some(e);
                            break;
                        }
                    }
                }
                match stop {
                    Some(e) => Err(e),
                    None => Ok(Some(Json::Array(out))),
                }
            }
            _ => self.to_json_inner(input, 0, &mut pass),
        };
        match converted {
            Ok(json) => self.issue_host_call(target, json.unwrap_or(Json::Null)),
            Err(Stop::NeedsScript) => crate::builtins::tojson::start_host_input(self, input, target, wrapped),
            Err(Stop::Throw(e)) => self.host_input_refused(&target, e),
        }
    }

    /// A host call's input could not be converted: a tool's call is rejected (or throws, for a
    /// BigInt); any other call throws.
    pub(crate) fn host_input_refused(&mut self, target: &HostTarget, thrown: Throw) -> Result<Step, Throw> {
        match target {
            HostTarget::Tool(path) => Ok(Step::Return(self.reject_tool_input(path, thrown)?)),
            _ => Err(thrown),
        }
    }

    /// Records a host call with its converted input: a synchronous one blocks the program until
    /// it is completed; an asynchronous one returns its promise.
    pub(crate) fn issue_host_call(&mut self, target: HostTarget, input: Json) -> Result<Step, Throw> {
        let (path_len, sync) = match &target {
            HostTarget::Tool(path) => (path.len(), false),
            HostTarget::Search => (0, true),
            HostTarget::Extension { path, sync, .. } => (path.len(), *sync),
        };
        self.charge_retained(crate::meter::HOST_CALL_RECORD_BYTES + path_len)?;
        // The conversion charged the input as it was built; from the next collection on it
        // counts as in flight until the call ends.
        let input_bytes = if sync { 0 } else { super::json_bytes(&input) };
        let id = self.host.next_id();
        self.host.outbox.push(HostCall { id, target, input });
        if sync {
            return Ok(Step::Block(id));
        }
        let promise = self.new_promise()?;
        self.host.pending.push_back(super::PendingCall { id, promise, input_bytes });
        Ok(Step::Return(Value::Obj(promise)))
    }

    /// The one recursive step. Its frame holds only what the recursion needs (everything else
    /// is in [`Vm::leaf_to_json`] and [`Vm::open_object`]), so the 32 levels the boundary allows
    /// fit the 256 KiB stack the VM promises to run on, in debug builds too.
    fn to_json_inner(&mut self, v: Value, depth: usize, pass: &mut Pass) -> Result<Option<Json>, Stop> {
        let Value::Obj(id) = v else { return self.leaf_to_json(v, pass) };
        let json = match self.open_object(v, id, depth, pass)? {
            Opened::Done(json) => return Ok(json),
            Opened::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(self.to_json_inner(item, depth + 1, pass)?.unwrap_or(Json::Null));
                }
                Json::Array(out)
            }
            Opened::Pairs(pairs) => {
                let mut out = Vec::with_capacity(pairs.len());
                for (key, value) in pairs {
                    let key = self.to_json_inner(key, depth + 2, pass)?.unwrap_or(Json::Null);
                    let value = self.to_json_inner(value, depth + 2, pass)?.unwrap_or(Json::Null);
                    out.push(Json::Array(vec![key, value]));
                }
                Json::Array(out)
            }
            Opened::Object(members) => {
                let mut map = serde_json::Map::with_capacity(members.len());
                for (name, value) in members {
                    if let Some(json) = self.to_json_inner(value, depth + 1, pass)? {
                        map.insert(name, json);
                    }
                }
                Json::Object(map)
            }
        };
        pass.seen.pop();
        Ok(Some(json))
    }

    /// A value that is not an object.
    fn leaf_to_json(&mut self, v: Value, pass: &Pass) -> Result<Option<Json>, Stop> {
        self.charge_json_node(v)?;
        Ok(Some(match v {
            // Symbols are left out like `undefined`, as `JSON.stringify` does.
            Value::Undefined
            | Value::Uninit
            | Value::Cell(_)
            | Value::ArrayIter(..)
            | Value::Symbol(_)
            | Value::Obj(_) => {
                return Ok(None);
            }
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => json_number(n),
            Value::Str(s) => Json::String(self.heap.str(s).to_string()),
            // JSON cannot carry a BigInt: refused clearly rather than rounded to a Number (a
            // program's `BigInt.prototype.toJSON` is for the walk to call).
            Value::BigInt(_) => {
                if let Some(to_json) = pass.to_json
                    && self.script_answers(v, to_json)
                {
                    return Err(Stop::NeedsScript);
                }
                return Err(Stop::Throw(self.make_error(
                    ErrorKind::TypeError,
                    "Do not know how to serialize a BigInt: JSON cannot carry it; convert it with String(x) or Number(x) first",
                )));
            }
        }))
    }

    /// The JSON is built before the host takes it: every node is charged to the memory limit
    /// as it is made (a DAG of shared arrays expands exponentially here) and costs fuel.
    fn charge_json_node(&mut self, v: Value) -> Result<(), Throw> {
        if !matches!(
            v,
            Value::Undefined | Value::Uninit | Value::Cell(_) | Value::ArrayIter(..) | Value::Symbol(_)
        ) {
            let text = if let Value::Str(s) = v { self.heap.str(s).len() } else { 0 };
            self.charge(Work::Elements(1));
            self.charge(Work::Bytes(text));
            self.charge_memory(JSON_NODE_BYTES + text)?;
        }
        Ok(())
    }

    /// Checks an object (depth, cycle, whether script must run) and lists what it holds; one
    /// that converts whole (a Date, a function) is `Done`. Otherwise it is on `pass.seen` until
    /// its members are converted.
    fn open_object(&mut self, v: Value, id: ObjId, depth: usize, pass: &mut Pass) -> Result<Opened, Stop> {
        self.charge_json_node(v)?;
        if depth >= MAX_BOUNDARY_DEPTH {
            let msg = format!("Value exceeds the maximum depth of {MAX_BOUNDARY_DEPTH}.");
            return Err(Stop::Throw(self.make_error(ErrorKind::RangeError, &msg)));
        }
        if pass.seen.contains(&id) {
            let msg = "Converting circular structure to JSON";
            return Err(Stop::Throw(self.make_error(ErrorKind::TypeError, msg)));
        }
        if let Some(to_json) = pass.to_json
            && self.script_answers(v, to_json)
        {
            return Err(Stop::NeedsScript);
        }
        // What crosses to the host settles promises, refuses binary data by its path and drops
        // `__proto__` keys: the walk (`builtins/tojson.rs`) does that for the rare value that has
        // them.
        if pass.to_json.is_some()
            && matches!(
                self.heap.obj(id).kind,
                ObjKind::Promise(_) | ObjKind::TypedArray(_) | ObjKind::ArrayBuffer(_) | ObjKind::DataView(_)
            )
        {
            return Err(Stop::NeedsScript);
        }
        let opened = match &self.heap.obj(id).kind {
            // Date's built-in toJSON.
            ObjKind::Date(t) => {
                return Ok(Opened::Done(Some(
                    crate::builtins::date_to_iso(*t).map_or(Json::Null, Json::String),
                )));
            }
            ObjKind::Function(_) => return Ok(Opened::Done(None)),
            // A URL's built-in `toJSON` (its href); a `URLSearchParams` as its query string.
            ObjKind::Url(_) => {
                if let Some(href) = crate::builtins::url_href(self, id) {
                    return Ok(Opened::Done(Some(Json::String(href))));
                }
                if let Some(query) = crate::builtins::url_query(self, id)? {
                    return Ok(Opened::Done(Some(Json::String(query))));
                }
                Opened::Object(self.object_members(v, id, pass)?)
            }
            ObjKind::Array(items) => Opened::Array(items.to_vec()),
            ObjKind::Map { entries, set: true, .. } => {
                Opened::Array(entries.iter().flatten().map(|(k, _)| *k).collect())
            }
            ObjKind::Map { entries, set: false, .. } => {
                Opened::Pairs(entries.iter().flatten().copied().collect())
            }
            _ => Opened::Object(self.object_members(v, id, pass)?),
        };
        if pass.to_json.is_some()
            && let Opened::Object(members) = &opened
            && members.iter().any(|(name, _)| name == "__proto__")
        {
            return Err(Stop::NeedsScript);
        }
        pass.seen.push(id);
        Ok(opened)
    }

    /// An object's members as `JSON.stringify` lists them (an Error's `name` and `message`
    /// first), with their values.
    fn object_members(&mut self, v: Value, id: ObjId, pass: &Pass) -> Result<Members, Stop> {
        let members = self.list_members(v, id, pass)?;
        // The names are copied for every time the object is reached (a DAG of shared objects
        // with long names must not outgrow the memory limit uncounted).
        let bytes: usize = members.iter().map(|(name, _)| name.len() + JSON_MEMBER_BYTES).sum();
        self.charge(Work::Bytes(bytes));
        self.charge_memory(bytes)?;
        Ok(members)
    }

    fn list_members(&mut self, v: Value, id: ObjId, pass: &Pass) -> Result<Members, Stop> {
        if let Some(members) = self.plain_data_members(id) {
            // The common case, without a key list and a lookup per key.
            return Ok(members);
        }
        let mut members = Members::new();
        if matches!(self.heap.obj(id).kind, ObjKind::Error(_)) {
            for name in ["name", "message"] {
                let key = Key::Atom(self.intern(name)?);
                members.push((name.to_string(), self.read_for_json(v, key, pass)?));
            }
        }
        for key in self.own_keys(id)? {
            let value = self.read_for_json(v, key, pass)?;
            let name = match key {
                Key::Atom(a) => self.heap.atoms.name(a).to_string(),
                Key::Index(i) => i.to_string(),
            };
            members.push((name, value));
        }
        Ok(members)
    }

    /// `v[key]`, or a stop when reading it means calling a getter (or a proxy's trap) and the
    /// pass must not skip it.
    fn read_for_json(&mut self, v: Value, key: Key, pass: &Pass) -> Result<Value, Stop> {
        if pass.to_json.is_some() && !matches!(self.get(v, key)?, Got::Value(_)) {
            return Err(Stop::NeedsScript);
        }
        Ok(self.get_value(v, key)?)
    }

    /// Whether serializing `v` means running JavaScript first: it is a proxy, or its `toJSON`
    /// is a program's function (or a getter or trap must say what it is).
    fn script_answers(&mut self, v: Value, to_json: Atom) -> bool {
        if let Value::Obj(id) = v {
            match self.heap.obj(id).kind {
                ObjKind::Proxy { .. } => return true,
                // Their `toJSON` is not called, as in the walk (Date's is applied natively).
                ObjKind::Date(_) | ObjKind::Function(_) => return false,
                _ => {}
            }
        }
        match self.get(v, Key::Atom(to_json)) {
            Ok(Got::Value(Value::Obj(m))) => matches!(
                self.heap.obj(m).kind,
                ObjKind::Function(Callable::Closure { .. } | Callable::Bound { .. })
            ),
            Ok(Got::Value(_)) => false,
            // A getter or a trap for `toJSON`, or a read that threw: the walk does it properly.
            Ok(Got::Getter(_) | Got::Proxy(..)) | Err(_) => true,
        }
    }

    /// A plain object's own properties, in order, when every one is an enumerable, writable,
    /// configurable data property named by a string that is not an array index: what
    /// `own_keys` and a `get_value` per key give for it. `None` for any other object.
    fn plain_data_members(&self, id: ObjId) -> Option<Members> {
        let obj = self.heap.obj(id);
        if !matches!(obj.kind, ObjKind::Plain) {
            return None;
        }
        let atoms = &self.heap.atoms;
        let plain = obj.props.iter().all(|slot| {
            slot.flags == 0
                && !atoms.is_symbol(slot.key)
                && crate::value::parse_array_index(atoms.name(slot.key)).is_none()
        });
        plain.then(|| obj.props.iter().map(|slot| (atoms.name(slot.key).to_string(), slot.value())).collect())
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
