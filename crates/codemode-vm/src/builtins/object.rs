//! `Object` and `Object.prototype`.

use crate::meter::Work;
use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Object", 1, object_call, object_construct),
    NativeDef::new("Object", "keys", 1, keys),
    NativeDef::new("Object", "values", 1, values),
    NativeDef::new("Object", "getOwnPropertyNames", 1, get_own_property_names),
    NativeDef::new("Object", "entries", 1, entries),
    NativeDef::new("Object", "assign", 2, assign),
    NativeDef::new("Object", "fromEntries", 1, from_entries),
    NativeDef::new("Object", "create", 2, create),
    NativeDef::new("Object", "getPrototypeOf", 1, get_prototype_of),
    NativeDef::new("Object", "is", 2, is),
    NativeDef::new("Object.prototype", "hasOwnProperty", 1, has_own_property),
    NativeDef::new("Object.prototype", "propertyIsEnumerable", 1, property_is_enumerable),
    NativeDef::new("Object", "hasOwn", 2, has_own),
    NativeDef::new("Object.prototype", "toString", 0, to_string),
    NativeDef::new("Object.prototype", "toLocaleString", 0, to_locale_string),
    NativeDef::new("Object.prototype", "valueOf", 0, value_of),
    NativeDef::new("Object.prototype", "isPrototypeOf", 1, is_prototype_of),
];

/// `Object.prototype.toLocaleString()`: `this.toString()` (what strings, booleans, symbols and
/// plain objects use; numbers, BigInts, dates and arrays have their own).
fn to_locale_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let method = vm.get_named(this, "toString")?;
    if !vm.is_callable(method) {
        return Err(vm.not_a_function(method));
    }
    Ok(Step::TailCall { callee: method, this, args: Vec::new() })
}

fn object_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    object_construct(vm, args)
}

fn object_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    match arg(args, 0) {
        v @ Value::Obj(_) => Ok(Step::Return(v)),
        Value::Undefined | Value::Null | Value::Uninit | Value::Cell(_) => Ok(Step::Return(vm.new_object()?)),
        v => Ok(Step::Return(vm.box_primitive(v)?)),
    }
}

impl Vm {
    /// ToObject of a primitive: its wrapper object (`Object(1)`, `new String("a")`); other
    /// values as they are.
    pub(crate) fn box_primitive(&mut self, v: Value) -> Result<Value, Throw> {
        let r = &self.realm;
        let proto = match v {
            Value::Str(_) => r.string_proto,
            Value::Number(_) => r.number_proto,
            Value::Bool(_) => r.boolean_proto,
            Value::Symbol(_) => r.symbol_proto,
            Value::BigInt(_) => r.bigint_proto,
            _ => return Ok(v),
        };
        Ok(Value::Obj(self.alloc(ObjKind::Boxed(v), Some(proto))?))
    }
}

/// The object to list keys of: objects as they are, strings as their indices, others nothing.
fn key_source(vm: &mut Vm, v: Value) -> Result<Option<crate::value::ObjId>, Throw> {
    if let Some(p) = vm.as_proxy(v) {
        return vm.proxy_traps_keys_plainly(p).map(Some);
    }
    match v {
        Value::Obj(id) => Ok(Some(id)),
        Value::Undefined | Value::Null => {
            Err(vm.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object"))
        }
        Value::Str(_) => {
            let proto = Some(vm.realm.string_proto);
            Ok(Some(vm.alloc(ObjKind::Boxed(v), proto)?))
        }
        _ => Ok(None),
    }
}

fn list(vm: &mut Vm, v: Value, what: u8) -> Result<Step, Throw> {
    use crate::proxy_keys::KeysMode;
    let mode = [KeysMode::Keys, KeysMode::Values, KeysMode::Entries][what.min(2) as usize];
    if let Some(step) = vm.proxy_keys_start(v, mode)? {
        return Ok(step);
    }
    let Some(id) = key_source(vm, v)? else { return Ok(Step::Return(vm.new_array(Vec::new())?)) };
    let keys = vm.own_keys(id)?;
    let proxy = vm.as_proxy(v).is_some();
    if what != 0 && (proxy || vm.has_own_accessor(Value::Obj(id), &keys)) {
        let mode =
            if what == 1 { super::prop_walk::WalkMode::Values } else { super::prop_walk::WalkMode::Entries };
        // A proxy's values are read through it (its `get` trap runs).
        let src = if proxy { v } else { Value::Obj(id) };
        return vm.start_prop_walk(src, keys, mode);
    }
    vm.charge(Work::Elements(keys.len()));
    // The items are held here, then in the array: both, and the string each key or each
    // character of a string source becomes, are measured before any is built, so a listing
    // that cannot fit fails at once instead of after building most of it.
    let strings = matches!(v, Value::Str(_)) || what != 1;
    let per_item = 2 * crate::heap::VALUE_SIZE + if strings { crate::heap::STRING_OVERHEAD } else { 0 };
    vm.ensure_fits(keys.len().saturating_mul(per_item))?;
    let mut out = Vec::with_capacity(keys.len());
    for key in keys {
        let item = match what {
            0 => vm.key_to_value(key)?,
            1 => element(vm, v, key)?,
            _ => {
                let k = vm.key_to_value(key)?;
                let val = element(vm, v, key)?;
                vm.new_array([k, val])?
            }
        };
        out.push(item);
    }
    Ok(Step::Return(vm.new_array(out)?))
}

fn element(vm: &mut Vm, v: Value, key: Key) -> Result<Value, Throw> {
    vm.get_value(v, key)
}

fn keys(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    list(vm, arg(args, 0), 0)
}

fn get_own_property_names(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(step) = vm.proxy_keys_start(arg(args, 0), crate::proxy_keys::KeysMode::Names)? {
        return Ok(step);
    }
    let Some(id) = key_source(vm, arg(args, 0))? else { return Ok(Step::Return(vm.new_array(Vec::new())?)) };
    let keys = vm.own_string_keys(id, true)?;
    vm.charge(Work::Elements(keys.len()));
    let names = keys.into_iter().map(|key| vm.key_to_value(key)).collect::<Result<Vec<_>, _>>()?;
    Ok(Step::Return(vm.new_array(names)?))
}

fn values(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    list(vm, arg(args, 0), 1)
}

fn entries(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    list(vm, arg(args, 0), 2)
}

fn assign(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    // ToObject(target): a primitive becomes its wrapper.
    let target = match arg(args, 0) {
        Value::Undefined | Value::Null => {
            return Err(vm.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object"));
        }
        target => vm.box_primitive(target)?,
    };
    for (i, src) in args.iter().enumerate().skip(1) {
        if let Some(Step::Call { callee, this, args: call_args, cont }) =
            vm.copy_data_properties(target, *src, &[])?
        {
            // A getter to call: the walk goes on with the remaining sources.
            let cont = match cont {
                super::Cont::PropWalk(mut walk) => {
                    walk.add_sources(args.get(i + 1..).unwrap_or(&[]));
                    super::Cont::PropWalk(walk)
                }
                other => other,
            };
            return Ok(Step::Call { callee, this, args: call_args, cont });
        }
    }
    Ok(Step::Return(target))
}

fn from_entries(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    vm.refuse_string_entries(arg(args, 0))?;
    let pairs = match vm.collect_or_reenter("Object.fromEntries", false, Value::Undefined, args, 0)? {
        Ok(items) => items,
        Err(step) => return Ok(step),
    };
    let o = vm.new_object()?;
    vm.charge(Work::Elements(pairs.len()));
    for pair in pairs {
        vm.require_entry_object(pair)?;
        let k = vm.get_value(pair, Key::Index(0))?;
        let v = vm.get_value(pair, Key::Index(1))?;
        let key = vm.to_key(k)?;
        vm.define(o, key, v)?;
    }
    Ok(Step::Return(o))
}

fn create(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let proto = match arg(args, 0) {
        Value::Obj(p) => Some(p),
        Value::Null => None,
        _ => {
            return Err(vm.make_error(ErrorKind::TypeError, "Object prototype may only be an Object or null"));
        }
    };
    let o = Value::Obj(vm.alloc(ObjKind::Plain, proto)?);
    match arg(args, 1) {
        Value::Undefined => Ok(Step::Return(o)),
        // `Object.defineProperties(o, props)`: full descriptors (attributes, accessors).
        props => super::object_model::define_properties(vm, Value::Undefined, &[o, props], &[]),
    }
}

fn get_prototype_of(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(p) = vm.as_proxy(arg(args, 0)) {
        return vm.proxy_op(p, crate::proxy::ProxyOp::GetPrototypeOf);
    }
    let v = arg(args, 0);
    if v.is_nullish() {
        return Err(vm.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object"));
    }
    Ok(Step::Return(prototype_of(vm, v).map_or(Value::Null, Value::Obj)))
}

/// The prototype of an object, or of a primitive's wrapper (`None` for `null`, `undefined` and
/// an object without one).
pub(super) fn prototype_of(vm: &Vm, v: Value) -> Option<ObjId> {
    match v {
        Value::Obj(id) => vm.heap.obj(id).proto,
        Value::Str(_) => Some(vm.realm.string_proto),
        Value::Number(_) => Some(vm.realm.number_proto),
        Value::Bool(_) => Some(vm.realm.boolean_proto),
        Value::BigInt(_) => Some(vm.realm.bigint_proto),
        Value::Symbol(_) => Some(vm.realm.symbol_proto),
        _ => None,
    }
}

fn is(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = (arg(args, 0), arg(args, 1));
    let same = match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        _ => vm.strict_equals(a, b),
    };
    Ok(Step::Return(Value::Bool(same)))
}

fn property_is_enumerable(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let key = vm.to_key(arg(args, 0))?;
    if let Some(step) = proxy_own(vm, this, arg(args, 0), super::Cont::Enumerable)? {
        return Ok(step);
    }
    let Value::Obj(id) = this else { return Ok(Step::Return(Value::Bool(false))) };
    vm.own_function_props(id)?;
    if let (ObjKind::Array(items), Key::Index(i)) = (&vm.heap.obj(id).kind, key) {
        return Ok(Step::Return(Value::Bool((i as usize) < items.len())));
    }
    let atom = match key {
        Key::Atom(a) => Some(a),
        Key::Index(i) => vm.heap.atoms.lookup_index(i),
    };
    let enumerable =
        atom.and_then(|a| vm.heap.obj(id).props.get(a)).is_some_and(|s| s.flags & crate::object::HIDDEN == 0);
    Ok(Step::Return(Value::Bool(enumerable)))
}

fn own_property(vm: &mut Vm, o: Value, k: Value) -> Result<bool, Throw> {
    let key = vm.to_key(k)?;
    if vm.as_proxy(o).is_some() {
        return Err(vm.proxy_unsupported("this use of hasOwnProperty"));
    }
    let Value::Obj(id) = o else { return Ok(false) };
    vm.own_function_props(id)?;
    if let (ObjKind::Array(items), Key::Index(i)) = (&vm.heap.obj(id).kind, key) {
        return Ok((i as usize) < items.len());
    }
    if let ObjKind::TypedArray(t) = &vm.heap.obj(id).kind
        && let Some(present) = super::indexed_has(&vm.heap, t, key)
    {
        return Ok(present);
    }
    if let (ObjKind::Array(_), Key::Atom(a)) = (&vm.heap.obj(id).kind, key)
        && a == vm.realm.atoms.length
    {
        return Ok(true);
    }
    let atom = vm.key_atom(key)?;
    Ok(vm.heap.obj(id).props.find(atom).is_some())
}

/// `[[GetOwnProperty]]` of a proxy as a call whose result goes through `cont` (`Truthy`: the key
/// is there; `Enumerable`: it is, and enumerable).
fn proxy_own(vm: &mut Vm, o: Value, k: Value, cont: super::Cont) -> Result<Option<Step>, Throw> {
    if vm.as_proxy(o).is_none() {
        return Ok(None);
    }
    let key = vm.to_key(k)?;
    let k = vm.key_to_value(key)?;
    let callee = vm.builtin_fn("Reflect.getOwnPropertyDescriptor")?;
    Ok(Some(Step::Call { callee, this: Value::Undefined, args: vec![o, k], cont }))
}

fn has_own_property(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(step) = proxy_own(vm, this, arg(args, 0), super::Cont::Truthy)? {
        return Ok(step);
    }
    Ok(Step::Return(Value::Bool(own_property(vm, this, arg(args, 0))?)))
}

/// `proto.isPrototypeOf(v)`: whether `proto` is on `v`'s prototype chain (a primitive `v`:
/// false, before `this` is checked, as the specification orders it).
fn is_prototype_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(mut cur) = arg(args, 0) else { return Ok(Step::Return(Value::Bool(false))) };
    let Value::Obj(proto) = this else {
        let msg = "Object.prototype.isPrototypeOf called on null, undefined or a primitive";
        return Err(vm.make_error(ErrorKind::TypeError, msg));
    };
    let mut steps = 0usize;
    while let Some(next) = vm.heap.obj(cur).proto {
        if next == proto {
            return Ok(Step::Return(Value::Bool(true)));
        }
        steps += 1;
        vm.charge(crate::meter::Work::Units(1));
        if steps > 100_000 {
            break;
        }
        cur = next;
    }
    Ok(Step::Return(Value::Bool(false)))
}

fn has_own(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(step) = proxy_own(vm, arg(args, 0), arg(args, 1), super::Cont::Truthy)? {
        return Ok(step);
    }
    Ok(Step::Return(Value::Bool(own_property(vm, arg(args, 0), arg(args, 1))?)))
}

/// `Object.prototype.toString`: `[object Tag]`, where a string `@@toStringTag` (own or
/// inherited) overrides the tag the object's kind gives.
fn to_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let builtin = match this {
        Value::Undefined => return Ok(Step::Return(vm.new_string("[object Undefined]")?)),
        Value::Null => return Ok(Step::Return(vm.new_string("[object Null]")?)),
        Value::Obj(id) => match &vm.heap.obj(id).kind {
            ObjKind::Array(_) => "Array",
            ObjKind::Function(_) => "Function",
            ObjKind::Error(_) => "Error",
            ObjKind::Date(_) => "Date",
            ObjKind::RegExp { .. } => "RegExp",
            ObjKind::Map { set: false, .. } => "Map",
            ObjKind::Map { set: true, .. } => "Set",
            ObjKind::Boxed(Value::Number(_)) => "Number",
            ObjKind::Boxed(Value::Str(_)) => "String",
            ObjKind::Boxed(Value::Bool(_)) => "Boolean",
            ObjKind::ArrayBuffer(_) => "ArrayBuffer",
            ObjKind::TypedArray(t) => t.kind.name(),
            ObjKind::DataView(_) => "DataView",
            ObjKind::TextCodec(c) if c.decoder => "TextDecoder",
            ObjKind::TextCodec(_) => "TextEncoder",
            _ => "Object",
        },
        Value::Number(_) => "Number",
        Value::Str(_) => "String",
        Value::Bool(_) => "Boolean",
        _ => "Object",
    };
    let key = crate::props::Key::Atom(vm.realm.symbols.to_string_tag);
    let tag = match vm.get_value(this, key)? {
        Value::Str(s) => vm.heap.str(s).to_string(),
        _ => builtin.to_string(),
    };
    Ok(Step::Return(vm.new_string(&format!("[object {tag}]"))?))
}

fn value_of(_vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(this))
}
