//! `structuredClone(value)`: a deep copy of plain data (objects, arrays, Date, RegExp, Map, Set,
//! Error, boxed primitives), keeping shared references and cycles.
//!
//! **Iterative.** The walk keeps a worklist of `(source, copy)` pairs and a map of every object
//! already copied, so nesting depth costs heap memory (charged), never Rust stack, and an object
//! met again (shared or cyclic) maps to its one copy. Each object is first made as an empty
//! shell of its kind; its contents are filled in when its pair leaves the worklist.
//!
//! Functions, promises and iterators cannot be cloned: an Error named `DataCloneError` (Node
//! throws a DOMException of that name) with Node's message `<value> could not be cloned.`.
//! Getters are read as `undefined` (built-ins never run program code). Class instances become
//! plain objects, as in Node.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, error_more, map_set};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{ACCESSOR, Callable, ObjKind};
use crate::props::Key;
use crate::value::{FastMap, ObjId, Value};

pub const DEFS: &[NativeDef] = &[NativeDef::new("", "structuredClone", 1, structured_clone)];

fn structured_clone(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Some(&value) = args.first() else {
        return Err(vm.make_error(ErrorKind::TypeError, "The value argument must be specified"));
    };
    Ok(Step::Return(clone_value(vm, value)?))
}

/// The walk's state: copies made so far and the pairs whose contents are still to copy.
struct Walk {
    copies: FastMap<ObjId, ObjId>,
    pending: Vec<(ObjId, ObjId)>,
}

/// Deep-copies `value` (see the module docs).
pub(crate) fn clone_value(vm: &mut Vm, value: Value) -> Result<Value, Throw> {
    let Value::Obj(root) = value else { return Ok(value) };
    let mut walk = Walk { copies: FastMap::default(), pending: Vec::new() };
    let copy = shell(vm, &mut walk, root)?;
    while let Some((src, dst)) = walk.pending.pop() {
        fill(vm, &mut walk, src, dst)?;
    }
    Ok(Value::Obj(copy))
}

/// The copy of `v`: itself for primitives, the existing copy of an object already met, else a
/// new shell queued for filling.
fn map_value(vm: &mut Vm, walk: &mut Walk, v: Value) -> Result<Value, Throw> {
    match v {
        Value::Obj(id) => Ok(Value::Obj(shell(vm, walk, id)?)),
        Value::Uninit | Value::Cell(_) => Ok(Value::Undefined),
        v => Ok(v),
    }
}

/// Makes (or finds) the copy of `src` without its contents.
fn shell(vm: &mut Vm, walk: &mut Walk, src: ObjId) -> Result<ObjId, Throw> {
    if let Some(&copy) = walk.copies.get(&src) {
        return Ok(copy);
    }
    vm.charge(Work::Units(1));
    let object_proto = Some(vm.realm.object_proto);
    let copy = match &vm.heap.obj(src).kind {
        ObjKind::Plain => vm.alloc(ObjKind::Plain, object_proto)?,
        ObjKind::Array(items) => {
            let n = items.len();
            vm.ensure_fits(n * crate::heap::VALUE_SIZE)?;
            match vm.new_array(vec![Value::Undefined; n])? {
                Value::Obj(id) => id,
                _ => return Err(vm.out_of_memory()),
            }
        }
        ObjKind::Date(t) => {
            let t = *t;
            let proto = Some(vm.realm.date_proto);
            vm.alloc(ObjKind::Date(t), proto)?
        }
        ObjKind::RegExp { source, flags, .. } => {
            let (source, flags) = (source.to_string(), flags.to_string());
            match super::new_regexp(vm, &source, &flags)? {
                Value::Obj(id) => id,
                _ => return Err(vm.out_of_memory()),
            }
        }
        ObjKind::Map { set, .. } => {
            let set = *set;
            map_set::new_collection(vm, set)?
        }
        ObjKind::Boxed(Value::Symbol(_)) => return Err(not_cloneable(vm, src)),
        ObjKind::Boxed(inner) => {
            let inner = *inner;
            let proto = match inner {
                Value::Number(_) => vm.realm.number_proto,
                Value::Str(_) => vm.realm.string_proto,
                Value::Bool(_) => vm.realm.boolean_proto,
                Value::BigInt(_) => vm.realm.bigint_proto,
                _ => vm.realm.object_proto,
            };
            vm.alloc(ObjKind::Boxed(inner), Some(proto))?
        }
        ObjKind::Error(_) => error_shell(vm, src)?,
        // Binary data: a buffer's bytes are copied; a view gets the copy of its buffer.
        ObjKind::ArrayBuffer(b) => {
            let (bytes, max) = (b.bytes.clone(), b.max);
            let copy = super::array_buffer::buffer_from(vm, &bytes)?;
            if let ObjKind::ArrayBuffer(c) = &mut vm.heap.obj_mut(copy).kind {
                c.max = max;
            }
            copy
        }
        ObjKind::TypedArray(t) => {
            let t = t.clone();
            let buffer = shell(vm, walk, t.buffer)?;
            super::typed_array::view(vm, t.kind, buffer, t.offset, t.length)?
        }
        ObjKind::DataView(d) => {
            let d = d.clone();
            let buffer = shell(vm, walk, d.buffer)?;
            let proto = Some(vm.realm.binary.data_view);
            vm.alloc(ObjKind::DataView(super::ViewData { buffer, ..d }), proto)?
        }
        ObjKind::TextCodec(_)
        | ObjKind::Url(_)
        | ObjKind::Function(_)
        | ObjKind::Promise(_)
        | ObjKind::Iterator(_)
        | ObjKind::Coroutine(_)
        | ObjKind::Generator(_)
        | ObjKind::Weak(_)
        | ObjKind::Disposable(_)
        | ObjKind::Accessor { .. }
        | ObjKind::Proxy { .. } => return Err(not_cloneable(vm, src)),
    };
    walk.copies.insert(src, copy);
    walk.pending.push((src, copy));
    Ok(copy)
}

/// A new Error of the same type as `src` (by its `name`, among the native error types; others
/// become `Error`), with its own `message`. The `cause` is copied with the contents.
fn error_shell(vm: &mut Vm, src: ObjId) -> Result<ObjId, Throw> {
    let name = vm.get_named(Value::Obj(src), "name")?;
    let name = match name {
        Value::Str(s) => vm.heap.str(s).to_string(),
        _ => String::new(),
    };
    let message = match own_data(vm, src, "message") {
        Some(v) => Some(vm.to_rust_string(v)?),
        None => None,
    };
    let text = message.as_deref().unwrap_or("");
    let e = match name.as_str() {
        "TypeError" => vm.make_error(ErrorKind::TypeError, text),
        "RangeError" => vm.make_error(ErrorKind::RangeError, text),
        "ReferenceError" => vm.make_error(ErrorKind::ReferenceError, text),
        "SyntaxError" => vm.make_error(ErrorKind::SyntaxError, text),
        "URIError" | "EvalError" => error_more::intrinsic_error(vm, &name, text),
        _ => vm.make_error(ErrorKind::Error, text),
    };
    let Value::Obj(id) = e else { return Err(vm.out_of_memory()) };
    if message.is_none() {
        let atom = vm.realm.atoms.message;
        vm.heap.obj_mut(id).props.remove(atom);
    }
    Ok(id)
}

/// An own data property of `id` (not an accessor), if present.
fn own_data(vm: &mut Vm, id: ObjId, name: &str) -> Option<Value> {
    let atom = vm.heap.atoms.lookup(name)?;
    match vm.heap.obj(id).props.get(atom) {
        Some(slot) if slot.flags & ACCESSOR == 0 => Some(slot.value()),
        _ => None,
    }
}

/// Copies the contents of `src` into its shell `dst`.
fn fill(vm: &mut Vm, walk: &mut Walk, src: ObjId, dst: ObjId) -> Result<(), Throw> {
    match &vm.heap.obj(src).kind {
        ObjKind::Map { entries, set, .. } => {
            let set = *set;
            let entries: Vec<(Value, Value)> = entries.iter().flatten().copied().collect();
            vm.charge(Work::Elements(entries.len()));
            for (k, v) in entries {
                let k = map_value(vm, walk, k)?;
                let v = if set { k } else { map_value(vm, walk, v)? };
                map_set::insert(vm, dst, k, v)?;
            }
            Ok(())
        }
        ObjKind::Error(_) => {
            if let Some(cause) = own_data(vm, src, "cause") {
                let cause = map_value(vm, walk, cause)?;
                vm.define_hidden(dst, "cause", cause);
            }
            Ok(())
        }
        ObjKind::Date(_)
        | ObjKind::RegExp { .. }
        | ObjKind::Boxed(_)
        | ObjKind::ArrayBuffer(_)
        | ObjKind::TypedArray(_)
        | ObjKind::DataView(_) => Ok(()),
        // Plain objects and arrays: own enumerable properties (array elements included).
        _ => {
            let keys = vm.own_keys(src)?;
            vm.charge(Work::Elements(keys.len()));
            for key in keys {
                let v = vm.get_value(Value::Obj(src), key)?;
                let v = map_value(vm, walk, v)?;
                vm.define(Value::Obj(dst), key, v)?;
            }
            Ok(())
        }
    }
}

/// `DataCloneError: <value> could not be cloned.`
fn not_cloneable(vm: &mut Vm, id: ObjId) -> Throw {
    let desc = match &vm.heap.obj(id).kind {
        ObjKind::Function(Callable::Tool { path }) => format!("function {path}() {{ [native code] }}"),
        ObjKind::Function(_) => {
            let name = match vm.get_value(Value::Obj(id), Key::Atom(vm.realm.atoms.name)) {
                Ok(Value::Str(s)) => vm.heap.str(s).to_string(),
                _ => String::new(),
            };
            format!("function {name}() {{ [native code] }}")
        }
        ObjKind::Promise(_) => "#<Promise>".to_string(),
        _ => "#<Object>".to_string(),
    };
    error_more::named_error(vm, "DataCloneError", &format!("{desc} could not be cloned."))
}
