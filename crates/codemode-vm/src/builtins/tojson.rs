//! JSON serialization that honours `toJSON`, for `JSON.stringify` and for the program's result.
//!
//! `toJSON` methods are JavaScript, so the walk is a resumable built-in: an explicit stack of the
//! containers being built ([`Walk`]), suspended as a [`Cont`](super::Cont) while a `toJSON` call
//! runs. It never recurses (in Rust or JavaScript) and its depth is capped, so no value can
//! overflow the stack. Values are converted with `JSON.stringify` semantics (see `host.rs`); the
//! result keeps only what JSON can carry.

use crate::meter::Work;
use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use super::{Cont, Step};
use crate::Vm;
use crate::call::Throw;
use crate::host::{
    FailureKind, HostTarget, JSON_MEMBER_BYTES, JSON_NODE_BYTES, MAX_BOUNDARY_DEPTH, json_number,
};
use crate::object::{Callable, ObjKind};
use crate::props::Key;
use crate::value::{ObjId, Value};

/// What the finished walk produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Purpose {
    /// `JSON.stringify(value, replacerKeys, indent)`: a string (or `undefined`).
    Stringify,
    /// The program's result: stored in `Vm::result_json_value`, errors become `{ name, message }`
    /// and violations are `InvalidDataValue`.
    Result,
    /// A host call's input (`Walk::host_target`), once the native pass (`host/outgoing.rs`) met a
    /// getter, a program's `toJSON` or a proxy: converted like the result, then the call is made.
    HostInput,
}

/// The deepest nesting `JSON.stringify` accepts (the result boundary allows 32).
const MAX_STRINGIFY_DEPTH: usize = 1_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Level {
    object: ObjId,
    /// Property names to visit (empty for an array: its indices are made as they are visited).
    keys: Vec<String>,
    /// An array's length when the walk entered it.
    len: usize,
    next: usize,
    is_array: bool,
    #[serde(with = "crate::value::json_text")]
    items: Vec<Json>,
    #[serde(with = "crate::value::json_text")]
    fields: Map<String, Json>,
}

impl Level {
    /// The `i`-th key to visit: an array's index as text, an object's property name.
    fn key_at(&self, i: usize) -> Option<String> {
        if self.is_array { (i < self.len).then(|| i.to_string()) } else { self.keys.get(i).cloned() }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Walk {
    purpose: Purpose,
    stack: Vec<Level>,
    /// The key under which the value being produced goes into the top level.
    pending_key: String,
    /// `JSON.stringify`'s replacer keys and indent.
    allowed: Option<Vec<String>>,
    indent: String,
    /// The finished value, once the stack emptied (`None` for `undefined`).
    #[serde(with = "done_wire")]
    done: Option<Option<Json>>,
    /// What the call being waited for is: a getter (its value still needs `toJSON` and the
    /// replacer), `toJSON` (its value still needs the replacer) or the replacer.
    #[serde(default)]
    awaiting: Stage,
    /// `JSON.stringify`'s replacer function, called as `replacer.call(holder, key, value)`.
    #[serde(default)]
    replacer: Option<Value>,
    /// The wrapper `{ "": value }` that holds the top-level value for the replacer.
    #[serde(default)]
    root_holder: Option<ObjId>,
    /// A proxy whose `toJSON` is being read ([`Stage::ProxyToJson`]).
    #[serde(default)]
    proxy_value: Option<Value>,
    /// [`Purpose::HostInput`]: the call to make with the finished value.
    #[serde(default)]
    host_target: Option<HostTarget>,
    /// [`Purpose::HostInput`]: the value is an array made to carry several arguments, which
    /// does not count as a level of nesting.
    #[serde(default)]
    wrapped: bool,
    /// Bytes of the JSON built so far, as charged node by node: counted by every collection
    /// while the walk waits on a getter, `toJSON` or the replacer ([`Cont::held_bytes`]), so a
    /// collection in the middle does not forget it.
    #[serde(default)]
    pub(super) held: usize,
}

/// How far a value has come through `SerializeJSONProperty`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
enum Stage {
    /// Its `toJSON` has not been considered yet.
    #[default]
    ToJson,
    /// The replacer function has not been called yet.
    Replacer,
    /// Ready to serialize.
    Ready,
    /// A proxy's `toJSON` was read through its traps: the result is the method, and the value
    /// waits in [`Walk::proxy_value`].
    ProxyToJson,
}

impl Walk {
    /// A walk for `purpose` that has not started: no replacer, no indent, no host call.
    fn new(purpose: Purpose) -> Walk {
        Walk {
            purpose,
            stack: Vec::new(),
            pending_key: String::new(),
            allowed: None,
            indent: String::new(),
            done: None,
            awaiting: Stage::ToJson,
            replacer: None,
            root_holder: None,
            proxy_value: None,
            host_target: None,
            wrapped: false,
            held: 0,
        }
    }

    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend(self.proxy_value);
        out.extend(self.stack.iter().map(|l| Value::Obj(l.object)));
        out.extend(self.replacer);
        out.extend(self.root_holder.map(Value::Obj));
    }
}

/// Starts serializing `value`.
pub(crate) fn start(
    vm: &mut Vm,
    value: Value,
    purpose: Purpose,
    allowed: Option<Vec<String>>,
    indent: String,
) -> Result<Step, Throw> {
    start_with_replacer(vm, value, purpose, allowed, indent, None)
}

/// [`start`] with `JSON.stringify`'s replacer function.
pub(crate) fn start_with_replacer(
    vm: &mut Vm,
    value: Value,
    purpose: Purpose,
    allowed: Option<Vec<String>>,
    indent: String,
    replacer: Option<Value>,
) -> Result<Step, Throw> {
    let root_holder = match replacer {
        Some(_) => {
            let holder = vm.new_object()?;
            let empty = vm.intern("")?;
            vm.define(holder, Key::Atom(empty), value)?;
            match holder {
                Value::Obj(id) => Some(id),
                _ => None,
            }
        }
        None => None,
    };
    let walk = Walk { allowed, indent, replacer, root_holder, ..Walk::new(purpose) };
    drive(vm, walk, Some((value, Stage::ToJson)))
}

/// Starts converting a host call's input whose conversion runs JavaScript; the call is made
/// when it is done.
pub(crate) fn start_host_input(
    vm: &mut Vm,
    value: Value,
    target: HostTarget,
    wrapped: bool,
) -> Result<Step, Throw> {
    let walk = Walk { host_target: Some(target.clone()), wrapped, ..Walk::new(Purpose::HostInput) };
    drive_host_input(vm, walk, Some((value, Stage::ToJson)), target)
}

/// Resumes after a getter, a `toJSON` call or the replacer returned `result`.
pub(super) fn resume(vm: &mut Vm, mut walk: Walk, result: Value) -> Result<Step, Throw> {
    let stage = std::mem::take(&mut walk.awaiting);
    match walk.host_target.clone() {
        Some(target) => drive_host_input(vm, walk, Some((result, stage)), target),
        None => drive(vm, walk, Some((result, stage))),
    }
}

/// [`drive`] for a host call's input: a value that cannot be converted refuses the call as the
/// native pass does (a tool's promise is rejected).
fn drive_host_input(
    vm: &mut Vm,
    walk: Walk,
    next: Option<(Value, Stage)>,
    target: HostTarget,
) -> Result<Step, Throw> {
    match drive(vm, walk, next) {
        Err(thrown) => vm.host_input_refused(&target, thrown),
        done => done,
    }
}

/// The walk's one loop: serializes `next` (calling its `toJSON` first when asked and it has one),
/// then visits the following property, closing finished levels, until the value is done or a
/// getter or `toJSON` must run (the walk then waits in a `Cont`). Iterative: the Rust stack does
/// not grow with the size or depth of the value.
fn drive(vm: &mut Vm, mut walk: Walk, mut next: Option<(Value, Stage)>) -> Result<Step, Throw> {
    loop {
        if let Some((mut value, mut stage)) = next.take() {
            if stage == Stage::ProxyToJson {
                // `value` is the proxy's `toJSON`: called when callable.
                let method = value;
                value = walk.proxy_value.take().unwrap_or(Value::Undefined);
                stage = Stage::Replacer;
                if vm.is_callable(method) {
                    let key = vm.new_string(&walk.pending_key)?;
                    walk.awaiting = Stage::Replacer;
                    return Ok(Step::Call {
                        callee: method,
                        this: value,
                        args: vec![key],
                        cont: Cont::ToJson(Box::new(walk)),
                    });
                }
            }
            if stage == Stage::ToJson
                && let Some(p) = vm.as_proxy(value)
                && !vm.is_callable(value)
            {
                walk.proxy_value = Some(value);
                walk.awaiting = Stage::ProxyToJson;
                let key = Key::Atom(vm.intern("toJSON")?);
                return vm.proxy_get_call(p, key, value, Cont::ToJson(Box::new(walk)));
            }
            // A Date's built-in `toJSON`, applied here so the replacer sees its string.
            if stage == Stage::ToJson
                && walk.replacer.is_some()
                && let Value::Obj(id) = value
                && let ObjKind::Date(t) = vm.heap.obj(id).kind
            {
                value = match super::date_to_iso(t) {
                    Some(iso) => vm.new_string_owned(iso)?,
                    None => Value::Null,
                };
            }
            if stage == Stage::ToJson {
                stage = Stage::Replacer;
                if let Some(method) = user_to_json(vm, value)? {
                    let key = vm.new_string(&walk.pending_key)?;
                    walk.awaiting = Stage::Replacer;
                    return Ok(Step::Call {
                        callee: method,
                        this: value,
                        args: vec![key],
                        cont: Cont::ToJson(Box::new(walk)),
                    });
                }
            }
            if stage == Stage::Replacer
                && let Some(replacer) = walk.replacer
            {
                let holder = walk.stack.last().map(|l| l.object).or(walk.root_holder);
                let key = vm.new_string(&walk.pending_key)?;
                walk.awaiting = Stage::Ready;
                return Ok(Step::Call {
                    callee: replacer,
                    this: holder.map_or(Value::Undefined, Value::Obj),
                    args: vec![key, value],
                    cont: Cont::ToJson(Box::new(walk)),
                });
            }
            // A promise crossing the boundary is settled there, as an async function's `return`
            // settles one: a fulfilled promise is its value (its `toJSON` and the replacer then
            // apply to that), a rejected one fails the run or call with its reason. The program's
            // result waits for pending ones before its walk starts (`Vm::finish_main_settling`);
            // one that a getter or `toJSON` makes along the way cannot be waited for.
            if walk.purpose != Purpose::Stringify
                && let Some(p) = vm.is_promise(value)
            {
                match vm.take_settlement(p) {
                    crate::promise::Settled::Fulfilled(v) => {
                        next = Some((v, Stage::ToJson));
                        continue;
                    }
                    crate::promise::Settled::Rejected(reason) => return Err(reason),
                    crate::promise::Settled::Pending => {
                        let msg = format!(
                            "The promise at {} was still pending when the value crossed the boundary; await it first",
                            json_path(&walk)
                        );
                        return Err(error(vm, walk.purpose, ErrorKind::TypeError, &msg));
                    }
                }
            }
            let produced = leaf_or_level(vm, &walk, value)?;
            // Every node is charged to the memory limit as it is made: a DAG of shared arrays
            // expands exponentially here.
            let bytes = match &produced {
                Produced::Leaf(Some(Json::String(text))) => JSON_NODE_BYTES + text.len(),
                Produced::Leaf(_) => JSON_NODE_BYTES,
                // An array reserves a slot per element (each element is a node when it is made).
                Produced::Level(level) if level.is_array => {
                    JSON_NODE_BYTES + level.len.saturating_mul(std::mem::size_of::<Json>())
                }
                Produced::Level(level) => {
                    JSON_NODE_BYTES + level.keys.iter().map(|k| k.len() + JSON_MEMBER_BYTES).sum::<usize>()
                }
            };
            vm.charge(Work::Elements(1));
            vm.charge_memory(bytes)?;
            walk.held = walk.held.saturating_add(bytes);
            match produced {
                Produced::Leaf(json) => emit(&mut walk, json),
                Produced::Level(level) => {
                    let limit = match walk.purpose {
                        Purpose::Result => MAX_BOUNDARY_DEPTH,
                        Purpose::HostInput => MAX_BOUNDARY_DEPTH + usize::from(walk.wrapped),
                        Purpose::Stringify => MAX_STRINGIFY_DEPTH,
                    };
                    if walk.stack.len() >= limit {
                        let msg = format!("Value exceeds the maximum depth of {limit}.");
                        return Err(error(vm, walk.purpose, ErrorKind::RangeError, &msg));
                    }
                    if walk.stack.iter().any(|l| l.object == level.object) {
                        let msg = "Converting circular structure to JSON";
                        return Err(error(vm, walk.purpose, ErrorKind::TypeError, msg));
                    }
                    walk.stack.push(level);
                }
            }
        }
        let Some(top) = walk.stack.last_mut() else { return finish(vm, walk) };
        if let Some(key) = top.key_at(top.next) {
            top.next += 1;
            let object = Value::Obj(top.object);
            vm.charge(Work::Units(1));
            let k = match crate::value::parse_array_index(&key) {
                Some(i) => Key::Index(i),
                None => Key::Atom(vm.heap.atoms.intern(&key)),
            };
            walk.pending_key = key;
            match vm.get(object, k)? {
                crate::props::Got::Value(value) => next = Some((value, Stage::ToJson)),
                crate::props::Got::Getter(getter) => {
                    walk.awaiting = Stage::ToJson;
                    return Ok(Step::Call {
                        callee: getter,
                        this: object,
                        args: Vec::new(),
                        cont: Cont::ToJson(Box::new(walk)),
                    });
                }
                crate::props::Got::Proxy(p, k) => {
                    walk.awaiting = Stage::ToJson;
                    return vm.proxy_get_call(p, k, object, Cont::ToJson(Box::new(walk)));
                }
            }
            continue;
        }
        let Some(level) = walk.stack.pop() else { return finish(vm, walk) };
        let json = if level.is_array { Json::Array(level.items) } else { Json::Object(level.fields) };
        let parent_key = walk.stack.last().and_then(|p| p.key_at(p.next.wrapping_sub(1)));
        walk.pending_key = parent_key.unwrap_or_default();
        emit(&mut walk, Some(json));
    }
}

/// Puts a produced value into the top level (arrays turn `undefined` into `null`; objects drop
/// the key), or makes it the final value.
fn emit(walk: &mut Walk, json: Option<Json>) {
    let key = std::mem::take(&mut walk.pending_key);
    match walk.stack.last_mut() {
        Some(level) if level.is_array => level.items.push(json.unwrap_or(Json::Null)),
        Some(level) => {
            if let Some(json) = json {
                level.fields.insert(key, json);
            }
        }
        None => walk.done = Some(json),
    }
}

fn finish(vm: &mut Vm, walk: Walk) -> Result<Step, Throw> {
    let json = walk.done.flatten();
    match walk.purpose {
        Purpose::Result => {
            vm.result_json_value = Some(json.unwrap_or(Json::Null));
            Ok(Step::Return(Value::Undefined))
        }
        Purpose::HostInput => match walk.host_target {
            Some(target) => vm.issue_host_call(target, json.unwrap_or(Json::Null)),
            // Only a damaged snapshot has a host input walk without its call.
            None => Err(vm.make_error(ErrorKind::TypeError, "a host call's input lost its call")),
        },
        Purpose::Stringify => {
            let Some(mut json) = json else { return Ok(Step::Return(Value::Undefined)) };
            if let Some(allowed) = &walk.allowed {
                super::json::filter_keys(&mut json, allowed, 0);
            }
            // The text is built in Rust before the heap takes it: it must fit first. What the
            // tree held bounds it but for indentation, a few bytes a node.
            vm.ensure_fits(walk.held.saturating_add(walk.held.saturating_mul(walk.indent.len()) / 8))?;
            let mut out = String::new();
            super::json::write_json(&json, &walk.indent, 0, &mut out);
            vm.charge(Work::Scan(out.len()));
            Ok(Step::Return(vm.new_string_owned(out)?))
        }
    }
}

enum Produced {
    Leaf(Option<Json>),
    Level(Level),
}

fn leaf_or_level(vm: &mut Vm, walk: &Walk, value: Value) -> Result<Produced, Throw> {
    Ok(Produced::Leaf(Some(match value {
        Value::Undefined | Value::Uninit | Value::Cell(_) | Value::ArrayIter(..) | Value::Symbol(_) => {
            return Ok(Produced::Leaf(None));
        }
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(b),
        Value::Number(n) => json_number(n),
        Value::Str(s) => Json::String(vm.heap.str(s).to_string()),
        // JSON has no BigInt (a program may define `BigInt.prototype.toJSON`, called before).
        Value::BigInt(_) => return Err(bigint_error(vm, walk.purpose)),
        Value::Obj(id) => {
            // `JSON.rawJSON` objects: their text as it is (its value at the boundary).
            if let Some(text) = super::json_raw::raw_text(vm, id) {
                let node = match walk.purpose {
                    Purpose::Stringify => super::json_raw::raw_node(text),
                    _ => serde_json::from_str(&text).unwrap_or(Json::Null),
                };
                return Ok(Produced::Leaf(Some(node)));
            }
            let keys: Vec<String> = match &vm.heap.obj(id).kind {
                ObjKind::Function(_) | ObjKind::Proxy { callable: true, .. } => {
                    return Ok(Produced::Leaf(None));
                }
                ObjKind::Proxy { .. } => {
                    // The target's keys, when no proxy on the way traps how keys are listed;
                    // each value is read through the proxy (its `get` trap runs).
                    let inner = vm.proxy_traps_keys_plainly(id)?;
                    let keys = vm.own_keys(inner)?;
                    keys.into_iter().map(|k| key_name(vm, k)).collect()
                }
                ObjKind::Boxed(Value::BigInt(_)) => return Err(bigint_error(vm, walk.purpose)),
                // Wrappers serialize as their primitive (ToNumber/ToString of the wrapper).
                ObjKind::Boxed(Value::Bool(b)) => return Ok(Produced::Leaf(Some(Json::Bool(*b)))),
                ObjKind::Boxed(Value::Number(_)) => {
                    return Ok(Produced::Leaf(Some(json_number(vm.to_number(value)?))));
                }
                ObjKind::Boxed(Value::Str(_)) => {
                    return Ok(Produced::Leaf(Some(Json::String(vm.to_rust_string(value)?))));
                }
                ObjKind::Date(t) => {
                    return Ok(Produced::Leaf(Some(super::date_to_iso(*t).map_or(Json::Null, Json::String))));
                }
                // A URL's built-in `toJSON` is its href; a `URLSearchParams` crosses the boundary
                // as its query string, while `JSON.stringify` sees it as an object without own
                // keys (`{}`), as in Node.
                ObjKind::Url(_) => {
                    if let Some(href) = super::url::href_of(vm, id) {
                        return Ok(Produced::Leaf(Some(Json::String(href))));
                    }
                    if walk.purpose != Purpose::Stringify
                        && let Some(query) = super::url_search_params::query_of(vm, id)?
                    {
                        return Ok(Produced::Leaf(Some(Json::String(query))));
                    }
                    let keys = vm.own_keys(id)?;
                    keys.into_iter().map(|k| key_name(vm, k)).collect()
                }
                // Binary data has no JSON form: refused by name and place, not sent as an object
                // of numbered bytes.
                ObjKind::TypedArray(_) | ObjKind::ArrayBuffer(_) | ObjKind::DataView(_)
                    if walk.purpose != Purpose::Stringify =>
                {
                    let what = match &vm.heap.obj(id).kind {
                        ObjKind::TypedArray(data) => data.kind.name(),
                        ObjKind::ArrayBuffer(_) => "ArrayBuffer",
                        _ => "DataView",
                    };
                    let msg = format!(
                        "{what} at {} cannot cross the boundary: binary data is not JSON; convert it first \
                         (Array.from(bytes), bytes.toBase64(), or new TextDecoder().decode(bytes))",
                        json_path(walk)
                    );
                    return Err(error(vm, walk.purpose, ErrorKind::TypeError, &msg));
                }
                ObjKind::Map { .. } if walk.purpose != Purpose::Stringify => {
                    // Maps and Sets cross the boundary as arrays (the reference's rule; no toJSON
                    // inside them). `JSON.stringify` sees them as objects without own keys.
                    return Ok(Produced::Leaf(Some(vm.to_json(value)?.unwrap_or(Json::Null))));
                }
                ObjKind::Array(items) => {
                    let n = items.len();
                    // Its slots are charged with the level, before they are reserved.
                    vm.ensure_fits(n.saturating_mul(std::mem::size_of::<Json>()))?;
                    let level = Level {
                        object: id,
                        keys: Vec::new(),
                        len: n,
                        next: 0,
                        is_array: true,
                        items: Vec::with_capacity(n),
                        fields: Map::new(),
                    };
                    return Ok(Produced::Level(level));
                }
                ObjKind::Error(_) if walk.purpose != Purpose::Stringify => {
                    let mut keys = vec!["name".to_string(), "message".to_string()];
                    for key in vm.own_keys(id)? {
                        let name = key_name(vm, key);
                        if !keys.contains(&name) {
                            keys.push(name);
                        }
                    }
                    keys
                }
                _ => {
                    let keys = vm.own_keys(id)?;
                    keys.into_iter().map(|k| key_name(vm, k)).collect()
                }
            };
            // An own `__proto__` key (from `JSON.parse` or a computed key) would set the
            // prototype of whatever a host builds from the JSON: dropped at the boundary.
            let mut keys = keys;
            if walk.purpose != Purpose::Stringify {
                keys.retain(|key| key != "__proto__");
            }
            return Ok(Produced::Level(Level {
                object: id,
                keys,
                len: 0,
                next: 0,
                is_array: false,
                items: Vec::new(),
                fields: Map::new(),
            }));
        }
    })))
}

/// Where the value being produced sits in the whole value, as a JSON path: `$`, `$.orders[2]`,
/// `$["a b"]`.
fn json_path(walk: &Walk) -> String {
    let mut path = String::from("$");
    let mut push_key = |key: &str, in_array: bool| {
        let identifier = !key.is_empty()
            && !key.starts_with(|c: char| c.is_ascii_digit())
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
        if in_array {
            path.push_str(&format!("[{key}]"));
        } else if identifier {
            path.push('.');
            path.push_str(key);
        } else {
            path.push_str(&format!("[{}]", Json::String(key.to_string())));
        }
    };
    let depth = walk.stack.len();
    for (index, level) in walk.stack.iter().enumerate() {
        // The top level's current key is `pending_key`; the ones below are the key each was
        // entered through.
        let key = if index + 1 == depth {
            walk.pending_key.clone()
        } else {
            level.key_at(level.next.wrapping_sub(1)).unwrap_or_default()
        };
        push_key(&key, level.is_array);
    }
    path
}

/// The first pending promise inside `value` — in array elements, own enumerable data
/// properties and fulfilled promises' values, as deep as the boundary allows — which the
/// program's result waits for before it is converted. Getters and `toJSON` are not run here (a
/// promise they make is met, pending, by the walk itself). Each object is looked at once, and
/// each one costs a unit of work.
pub(crate) fn pending_promise_inside(vm: &mut Vm, value: Value) -> Option<ObjId> {
    let Value::Obj(root) = value else { return None };
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(root, 0usize)];
    let mut children = Vec::new();
    while let Some((id, depth)) = stack.pop() {
        if depth > MAX_BOUNDARY_DEPTH || !seen.insert(id) {
            continue;
        }
        vm.charge(Work::Elements(1));
        let object = vm.heap.obj(id);
        children.clear();
        match &object.kind {
            ObjKind::Promise(state) => match state.settled {
                crate::promise::Settled::Pending => return Some(id),
                crate::promise::Settled::Fulfilled(v) => children.push(v),
                crate::promise::Settled::Rejected(_) => {}
            },
            ObjKind::Array(items) => children.extend(items.iter().copied()),
            ObjKind::Plain | ObjKind::Error(_) => {}
            _ => continue,
        }
        let plain = crate::object::ACCESSOR | crate::object::HIDDEN;
        children.extend(object.props.iter().filter(|slot| slot.flags & plain == 0).map(|slot| slot.value()));
        for child in children.iter().rev() {
            if let Value::Obj(child) = child {
                stack.push((*child, depth + 1));
            }
        }
    }
    None
}

fn key_name(vm: &Vm, key: Key) -> String {
    match key {
        Key::Atom(a) => vm.heap.atoms.name(a).to_string(),
        Key::Index(i) => i.to_string(),
    }
}

/// A callable `toJSON` that is JavaScript (built-in ones, like Date's, are handled natively).
fn user_to_json(vm: &mut Vm, value: Value) -> Result<Option<Value>, Throw> {
    match value {
        Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Date(_) | ObjKind::Function(_)) => {
            return Ok(None);
        }
        // A BigInt serializes only through a program's `BigInt.prototype.toJSON`.
        Value::Obj(_) | Value::BigInt(_) => {}
        _ => return Ok(None),
    }
    let method = vm.get_named(value, "toJSON")?;
    match method {
        Value::Obj(m)
            if matches!(
                vm.heap.obj(m).kind,
                ObjKind::Function(Callable::Closure { .. } | Callable::Bound { .. })
            ) =>
        {
            Ok(Some(method))
        }
        _ => Ok(None),
    }
}

/// A BigInt reached the JSON walk: `JSON.stringify` throws, as in JavaScript; the program's
/// result is refused with a message saying what to do instead.
fn bigint_error(vm: &mut Vm, purpose: Purpose) -> Throw {
    let message = match purpose {
        Purpose::Stringify => "Do not know how to serialize a BigInt",
        Purpose::HostInput => {
            "Do not know how to serialize a BigInt: JSON cannot carry it; convert it with String(x) or Number(x) first"
        }
        Purpose::Result => {
            "Do not know how to serialize a BigInt: JSON cannot carry it; return a string (String(x)) or a number (Number(x)) instead"
        }
    };
    error(vm, purpose, ErrorKind::TypeError, message)
}

fn error(vm: &mut Vm, purpose: Purpose, kind: ErrorKind, message: &str) -> Throw {
    match purpose {
        Purpose::Stringify | Purpose::HostInput => vm.make_error(kind, message),
        Purpose::Result => {
            let e = vm.make_error(kind, message);
            if let Value::Obj(id) = e
                && let ObjKind::Error(info) = &mut vm.heap.obj_mut(id).kind
            {
                info.kind = FailureKind::InvalidDataValue;
            }
            e
        }
    }
}

/// `Walk::done` on the wire: `(0, "")` not finished, `(1, "")` finished with `undefined`,
/// `(2, json)` finished with a value (a bare `Option<Option<_>>` would lose the difference in
/// JSON, and `serde_json::Value` cannot be decoded by the binary format).
mod done_wire {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::Value as Json;

    pub fn serialize<S: Serializer>(done: &Option<Option<Json>>, s: S) -> Result<S::Ok, S::Error> {
        match done {
            None => (0u8, String::new()).serialize(s),
            Some(None) => (1u8, String::new()).serialize(s),
            Some(Some(json)) => (2u8, json.to_string()).serialize(s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<Json>>, D::Error> {
        match <(u8, String)>::deserialize(d)? {
            (0, _) => Ok(None),
            (1, _) => Ok(Some(None)),
            (2, text) => serde_json::from_str(&text).map(|j| Some(Some(j))).map_err(D::Error::custom),
            (tag, _) => Err(D::Error::custom(format!("bad JSON walk state {tag}"))),
        }
    }
}
