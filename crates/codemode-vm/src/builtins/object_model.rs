//! Property attributes and object integrity: `Object.defineProperty`/`defineProperties`,
//! `getOwnPropertyDescriptor(s)`, `freeze`/`seal`/`preventExtensions` and their tests,
//! `setPrototypeOf`.
//!
//! Attributes live in each slot's flags (`HIDDEN` = not enumerable, `READONLY` = not writable,
//! `FIXED` = not configurable); object-level integrity in the property map's `integrity` bits,
//! which also cover array elements (they have no slots). `props.rs` enforces them on every write
//! and delete.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::integrity::{FROZEN_ELEMENTS, NON_EXTENSIBLE, SEALED_ELEMENTS};
use crate::object::{ACCESSOR, FIXED, HIDDEN, ObjKind, PRIVATE, READONLY};
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Object", "freeze", 1, freeze),
    NativeDef::new("Object", "seal", 1, seal),
    NativeDef::new("Object", "preventExtensions", 1, prevent_extensions),
    NativeDef::new("Object", "isFrozen", 1, is_frozen),
    NativeDef::new("Object", "isSealed", 1, is_sealed),
    NativeDef::new("Object", "isExtensible", 1, is_extensible),
    NativeDef::new("Object", "defineProperty", 3, define_property),
    NativeDef::new("Object", "defineProperties", 2, define_properties),
    NativeDef::new("Object", "getOwnPropertyDescriptor", 2, get_own_property_descriptor),
    NativeDef::new("Object", "getOwnPropertyDescriptors", 1, get_own_property_descriptors),
    NativeDef::new("Object", "setPrototypeOf", 2, set_prototype_of),
];

fn integrity(
    vm: &mut Vm,
    args: &[Value],
    bits: u8,
    slot_flags: u8,
    accessor_flags: u8,
) -> Result<Step, Throw> {
    let v = arg(args, 0);
    if vm.as_proxy(v).is_some() {
        return Err(vm.proxy_unsupported("Object.freeze/seal"));
    }
    if let Value::Obj(id) = v {
        vm.own_function_props(id)?;
    }
    charge_props(vm, v);
    if let Value::Obj(id) = v {
        let props = &mut vm.heap.obj_mut(id).props;
        props.integrity |= bits;
        props.add_flags(slot_flags, accessor_flags);
    }
    Ok(Step::Return(v))
}

fn freeze(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    integrity(vm, args, NON_EXTENSIBLE | SEALED_ELEMENTS | FROZEN_ELEMENTS, READONLY | FIXED, FIXED)
}

fn seal(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    integrity(vm, args, NON_EXTENSIBLE | SEALED_ELEMENTS, FIXED, FIXED)
}

fn prevent_extensions(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if vm.as_proxy(arg(args, 0)).is_some() {
        let msg = "'preventExtensions' on proxy: trap returned falsish".to_string();
        return vm.proxy_strict("Reflect.preventExtensions", vec![arg(args, 0)], msg, arg(args, 0));
    }
    integrity(vm, args, NON_EXTENSIBLE, 0, 0)
}

/// Charges a visit of every property of `v` (the integrity tests read each slot's flags).
fn charge_props(vm: &mut Vm, v: Value) {
    if let Value::Obj(id) = v {
        let count = vm.heap.obj(id).props.capacity();
        vm.charge(Work::Elements(count));
    }
}

/// Whether `id` has the integrity `bits` and every slot the flags (an empty array counts as
/// sealed elements when it cannot grow).
fn has_integrity(vm: &Vm, id: ObjId, bits: u8, flags: u8) -> bool {
    let obj = vm.heap.obj(id);
    let elements_ok = match &obj.kind {
        ObjKind::Array(items) => items.is_empty() || obj.props.integrity & bits == bits,
        _ => true,
    };
    obj.props.integrity & NON_EXTENSIBLE != 0 && elements_ok && obj.props.all_have(flags, FIXED)
}

fn is_frozen(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if vm.as_proxy(arg(args, 0)).is_some() {
        return Err(vm.proxy_unsupported("Object.isFrozen"));
    }
    charge_props(vm, arg(args, 0));
    Ok(Step::Return(Value::Bool(match arg(args, 0) {
        Value::Obj(id) => has_integrity(vm, id, SEALED_ELEMENTS | FROZEN_ELEMENTS, READONLY | FIXED),
        _ => true,
    })))
}

fn is_sealed(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if vm.as_proxy(arg(args, 0)).is_some() {
        return Err(vm.proxy_unsupported("Object.isSealed"));
    }
    charge_props(vm, arg(args, 0));
    Ok(Step::Return(Value::Bool(match arg(args, 0) {
        Value::Obj(id) => has_integrity(vm, id, SEALED_ELEMENTS, FIXED),
        _ => true,
    })))
}

fn is_extensible(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(p) = vm.as_proxy(arg(args, 0)) {
        return vm.proxy_op(p, crate::proxy::ProxyOp::IsExtensible);
    }
    Ok(Step::Return(Value::Bool(match arg(args, 0) {
        Value::Obj(id) => vm.heap.obj(id).props.integrity & NON_EXTENSIBLE == 0,
        _ => false,
    })))
}

/// A property descriptor read from a program object.
pub(crate) struct Descriptor {
    pub(crate) value: Option<Value>,
    pub(crate) get: Option<Value>,
    pub(crate) set: Option<Value>,
    pub(crate) writable: Option<bool>,
    pub(crate) enumerable: Option<bool>,
    pub(crate) configurable: Option<bool>,
}

pub(crate) fn read_descriptor(vm: &mut Vm, desc: Value) -> Result<Descriptor, Throw> {
    if !matches!(desc, Value::Obj(_)) {
        return Err(vm.make_error(ErrorKind::TypeError, "Property description must be an object"));
    }
    let field = |vm: &mut Vm, name: &str| -> Result<Option<Value>, Throw> {
        let atom = vm.intern(name)?;
        Ok(if vm.has_property(desc, Key::Atom(atom)) {
            Some(vm.get_value(desc, Key::Atom(atom))?)
        } else {
            None
        })
    };
    // ToPropertyDescriptor's order, which getters on the descriptor can observe.
    let enumerable = field(vm, "enumerable")?.map(|v| vm.to_boolean(v));
    let configurable = field(vm, "configurable")?.map(|v| vm.to_boolean(v));
    let value = field(vm, "value")?;
    let writable = field(vm, "writable")?.map(|v| vm.to_boolean(v));
    let get = field(vm, "get")?;
    let set = field(vm, "set")?;
    for accessor in [get, set].into_iter().flatten() {
        if accessor != Value::Undefined && !vm.is_callable(accessor) {
            let desc = vm.describe_for_error(accessor);
            return Err(vm.make_error(ErrorKind::TypeError, &format!("Getter must be a function: {desc}")));
        }
    }
    if (get.is_some() || set.is_some()) && (value.is_some() || writable.is_some()) {
        return Err(vm.make_error(
            ErrorKind::TypeError,
            "Invalid property descriptor. Cannot both specify accessors and a value or writable attribute",
        ));
    }
    Ok(Descriptor { value, get, set, writable, enumerable, configurable })
}

/// `[[DefineOwnProperty]]` on an ordinary object (array elements: values only).
pub(super) fn define_own(vm: &mut Vm, o: Value, key: Key, d: Descriptor) -> Result<(), Throw> {
    let Value::Obj(id) = o else {
        return Err(vm.make_error(ErrorKind::TypeError, "Object.defineProperty called on non-object"));
    };
    vm.own_function_props(id)?;
    // Typed array elements: writable, enumerable, configurable data; only their value changes.
    if let ObjKind::TypedArray(t) = &vm.heap.obj(id).kind
        && let Some(present) = super::indexed_has(&vm.heap, t, key)
    {
        if !present
            || d.get.is_some()
            || d.set.is_some()
            || d.configurable == Some(false)
            || d.enumerable == Some(false)
            || d.writable == Some(false)
        {
            let name = match key {
                Key::Index(i) => i.to_string(),
                Key::Atom(a) => vm.heap.atoms.name(a).to_string(),
            };
            let msg = format!("Cannot redefine property: {name}");
            return Err(vm.make_error(ErrorKind::TypeError, &msg));
        }
        if let Some(value) = d.value {
            vm.define(o, key, value)?;
        }
        return Ok(());
    }
    if let (ObjKind::Array(_), Key::Index(i)) = (&vm.heap.obj(id).kind, key) {
        // An array's elements are plain values: an accessor, read-only, hidden or fixed element
        // would be dropped or made plain, so it is refused out loud.
        if d.get.is_some()
            || d.set.is_some()
            || d.writable == Some(false)
            || d.enumerable == Some(false)
            || d.configurable == Some(false)
        {
            let msg = format!(
                "Cannot define array element {i} as an accessor or a read-only, non-enumerable or \
                 non-configurable property: codemode's array elements are plain values (use an \
                 ordinary object for such properties, or Object.freeze for a read-only array)"
            );
            return Err(vm.make_error(ErrorKind::TypeError, &msg));
        }
        if let Some(value) = d.value {
            vm.define(o, key, value)?;
        }
        return Ok(());
    }
    if let (ObjKind::Array(_), Key::Atom(a)) = (&vm.heap.obj(id).kind, key)
        && a == vm.realm.atoms.length
    {
        if d.configurable == Some(true) || d.enumerable == Some(true) || d.get.is_some() || d.set.is_some() {
            return Err(vm.make_error(ErrorKind::TypeError, "Cannot redefine property: length"));
        }
        if let Some(value) = d.value {
            vm.define(o, key, value)?;
        }
        if d.writable == Some(false) {
            vm.heap.obj_mut(id).props.integrity |= FROZEN_ELEMENTS;
        }
        return Ok(());
    }
    let atom = vm.key_atom(key)?;
    let existing = vm.heap.obj(id).props.get(atom).copied().filter(|s| s.flags & PRIVATE == 0);
    let name = vm.heap.atoms.name(atom).to_string();
    match existing {
        None => {
            if vm.heap.obj(id).props.integrity & NON_EXTENSIBLE != 0 {
                let msg = format!("Cannot define property {name}, object is not extensible");
                return Err(vm.make_error(ErrorKind::TypeError, &msg));
            }
            let mut flags = 0;
            if !d.enumerable.unwrap_or(false) {
                flags |= HIDDEN;
            }
            if !d.configurable.unwrap_or(false) {
                flags |= FIXED;
            }
            if d.get.is_some() || d.set.is_some() {
                vm.define_accessor(
                    o,
                    key,
                    Some(d.get.unwrap_or(Value::Undefined)),
                    Some(d.set.unwrap_or(Value::Undefined)),
                )?;
                set_flags(vm, id, atom, flags | ACCESSOR);
            } else {
                if !d.writable.unwrap_or(false) {
                    flags |= READONLY;
                }
                vm.define(o, Key::Atom(atom), d.value.unwrap_or(Value::Undefined))?;
                set_flags(vm, id, atom, flags);
            }
            Ok(())
        }
        Some(slot) => {
            let is_accessor = slot.flags & ACCESSOR != 0;
            let wants_accessor = d.get.is_some() || d.set.is_some();
            if slot.flags & FIXED != 0 {
                // A non-configurable property may only become non-writable, or get a new value
                // while writable.
                let changes_kind = wants_accessor != is_accessor
                    && (wants_accessor || d.value.is_some() || d.writable.is_some());
                let loosens = d.configurable == Some(true)
                    || d.enumerable.is_some_and(|e| e == (slot.flags & HIDDEN != 0))
                    || (slot.flags & READONLY != 0
                        && (d.writable == Some(true)
                            || d.value.is_some_and(|v| !vm.same_value_zero(v, slot.value()))))
                    || (is_accessor && wants_accessor);
                if changes_kind || loosens {
                    return Err(
                        vm.make_error(ErrorKind::TypeError, &format!("Cannot redefine property: {name}"))
                    );
                }
            }
            let mut flags = slot.flags & !(ACCESSOR | READONLY);
            if let Some(e) = d.enumerable {
                flags = if e { flags & !HIDDEN } else { flags | HIDDEN };
            }
            if let Some(c) = d.configurable {
                flags = if c { flags & !FIXED } else { flags | FIXED };
            }
            if wants_accessor {
                if !is_accessor {
                    vm.heap.obj_mut(id).props.remove(atom);
                    vm.define_accessor(o, key, Some(Value::Undefined), Some(Value::Undefined))?;
                }
                vm.define_accessor(o, key, d.get, d.set)?;
                set_flags(vm, id, atom, flags | ACCESSOR);
            } else if is_accessor && (d.value.is_some() || d.writable.is_some()) {
                if !d.writable.unwrap_or(false) {
                    flags |= READONLY;
                }
                vm.heap.obj_mut(id).props.set(atom, d.value.unwrap_or(Value::Undefined), flags);
            } else if is_accessor {
                set_flags(vm, id, atom, flags | ACCESSOR);
            } else {
                let writable = d.writable.unwrap_or(slot.flags & READONLY == 0);
                if !writable {
                    flags |= READONLY;
                }
                let value = d.value.unwrap_or(slot.value());
                vm.heap.obj_mut(id).props.set(atom, value, flags);
            }
            Ok(())
        }
    }
}

fn set_flags(vm: &mut Vm, id: ObjId, atom: crate::value::Atom, flags: u8) {
    if let Some(slot) = vm.heap.obj(id).props.get(atom).copied() {
        vm.heap.obj_mut(id).props.set(atom, slot.value(), flags);
    }
}

fn define_property(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if vm.as_proxy(arg(args, 0)).is_some() {
        let key = vm.to_key(arg(args, 1))?;
        let msg = format!(
            "'defineProperty' on proxy: trap returned falsish for property '{}'",
            vm.key_display(key)
        );
        let all = vec![arg(args, 0), arg(args, 1), arg(args, 2)];
        return vm.proxy_strict("Reflect.defineProperty", all, msg, arg(args, 0));
    }
    let o = arg(args, 0);
    let key = vm.to_key(arg(args, 1))?;
    let d = read_descriptor(vm, arg(args, 2))?;
    define_own(vm, o, key, d)?;
    Ok(Step::Return(o))
}

pub(super) fn define_properties(
    vm: &mut Vm,
    _this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let o = arg(args, 0);
    if !matches!(o, Value::Obj(_)) {
        return Err(vm.make_error(ErrorKind::TypeError, "Object.defineProperties called on non-object"));
    }
    let props = arg(args, 1);
    if vm.as_proxy(o).is_some() || vm.as_proxy(props).is_some() {
        return Err(vm.proxy_unsupported("Object.defineProperties"));
    }
    let Value::Obj(pid) = props else {
        if props.is_nullish() {
            return Err(vm.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object"));
        }
        return Ok(Step::Return(o));
    };
    let keys = vm.own_property_keys(pid, false)?;
    vm.charge(Work::Elements(keys.len()));
    let mut descriptors = Vec::with_capacity(keys.len());
    for key in keys {
        let desc = vm.get_value(props, key)?;
        descriptors.push((key, read_descriptor(vm, desc)?));
    }
    for (key, d) in descriptors {
        define_own(vm, o, key, d)?;
    }
    Ok(Step::Return(o))
}

/// The descriptor object of `o`'s own property `key`, or `undefined`.
pub(crate) fn descriptor_of(vm: &mut Vm, o: Value, key: Key) -> Result<Value, Throw> {
    if let Value::Obj(id) = o {
        vm.own_function_props(id)?;
    }
    let Value::Obj(id) = o else {
        return Ok(match (o, key) {
            (Value::Str(_), _) => {
                let v = vm.get_value(o, key)?;
                if v == Value::Undefined {
                    Value::Undefined
                } else {
                    make_data_descriptor(vm, v, false, true, false)?
                }
            }
            _ => Value::Undefined,
        });
    };
    let integrity = vm.heap.obj(id).props.integrity;
    match (&vm.heap.obj(id).kind, key) {
        (ObjKind::Array(items), Key::Index(i)) => {
            let Some(&v) = items.get(i as usize) else { return Ok(Value::Undefined) };
            return make_data_descriptor(
                vm,
                v,
                integrity & FROZEN_ELEMENTS == 0,
                true,
                integrity & SEALED_ELEMENTS == 0,
            );
        }
        (ObjKind::Array(items), Key::Atom(a)) if a == vm.realm.atoms.length => {
            let n = Value::Number(items.len() as f64);
            return make_data_descriptor(vm, n, integrity & FROZEN_ELEMENTS == 0, false, false);
        }
        (ObjKind::TypedArray(t), key) => {
            let t = t.clone();
            if let Some(v) = super::indexed_get(vm, &t, key)? {
                return if v == Value::Undefined {
                    Ok(Value::Undefined)
                } else {
                    make_data_descriptor(vm, v, true, true, true)
                };
            }
        }
        _ => {}
    }
    let atom = match key {
        Key::Atom(a) => Some(a),
        Key::Index(i) => vm.heap.atoms.lookup_index(i),
    };
    let Some(slot) =
        atom.and_then(|a| vm.heap.obj(id).props.get(a).copied()).filter(|s| s.flags & PRIVATE == 0)
    else {
        // Lazily answered properties (a function's `name`, `length`, `prototype`).
        if matches!(vm.heap.obj(id).kind, ObjKind::Function(_))
            && let Key::Atom(a) = key
            && (a == vm.realm.atoms.name || a == vm.realm.atoms.length || a == vm.realm.atoms.prototype)
        {
            let v = vm.get_value(o, key)?;
            if v != Value::Undefined {
                let writable = a == vm.realm.atoms.prototype;
                return make_data_descriptor(vm, v, writable, false, !writable);
            }
        }
        return Ok(Value::Undefined);
    };
    let enumerable = slot.flags & HIDDEN == 0;
    let configurable = slot.flags & FIXED == 0;
    if slot.flags & ACCESSOR != 0 {
        let (get, set) = match slot.value() {
            Value::Obj(acc) => match vm.heap.obj(acc).kind {
                ObjKind::Accessor { get, set } => (get, set),
                _ => (Value::Undefined, Value::Undefined),
            },
            _ => (Value::Undefined, Value::Undefined),
        };
        return descriptor_object(
            vm,
            [
                ("get", get),
                ("set", set),
                ("enumerable", Value::Bool(enumerable)),
                ("configurable", Value::Bool(configurable)),
            ],
        );
    }
    make_data_descriptor(vm, slot.value(), slot.flags & READONLY == 0, enumerable, configurable)
}

fn make_data_descriptor(
    vm: &mut Vm,
    value: Value,
    writable: bool,
    enumerable: bool,
    configurable: bool,
) -> Result<Value, Throw> {
    descriptor_object(
        vm,
        [
            ("value", value),
            ("writable", Value::Bool(writable)),
            ("enumerable", Value::Bool(enumerable)),
            ("configurable", Value::Bool(configurable)),
        ],
    )
}

/// A descriptor object with these four fields, in order.
fn descriptor_object(vm: &mut Vm, fields: [(&str, Value); 4]) -> Result<Value, Throw> {
    let d = vm.new_object()?;
    for (name, v) in fields {
        let atom = vm.intern(name)?;
        vm.define(d, Key::Atom(atom), v)?;
    }
    Ok(d)
}

fn get_own_property_descriptor(
    vm: &mut Vm,
    _this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let o = arg(args, 0);
    if o.is_nullish() {
        return Err(vm.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object"));
    }
    let key = vm.to_key(arg(args, 1))?;
    if let Some(p) = vm.as_proxy(o) {
        return vm.proxy_op(p, crate::proxy::ProxyOp::GetOwnProperty { key });
    }
    Ok(Step::Return(descriptor_of(vm, o, key)?))
}

fn get_own_property_descriptors(
    vm: &mut Vm,
    _this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let o = arg(args, 0);
    if vm.as_proxy(o).is_some() {
        return Err(vm.proxy_unsupported("Object.getOwnPropertyDescriptors"));
    }
    let out = vm.new_object()?;
    let Value::Obj(id) = o else { return Ok(Step::Return(out)) };
    let keys = vm.own_property_keys(id, true)?;
    vm.charge(Work::Elements(keys.len()));
    for key in keys {
        let d = descriptor_of(vm, o, key)?;
        vm.define(out, key, d)?;
    }
    Ok(Step::Return(out))
}

fn set_prototype_of(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = arg(args, 0);
    let proto = match arg(args, 1) {
        Value::Obj(p) => Some(p),
        Value::Null => None,
        _ => {
            return Err(vm.make_error(ErrorKind::TypeError, "Object prototype may only be an Object or null"));
        }
    };
    if vm.as_proxy(o).is_some() {
        let msg = "'setPrototypeOf' on proxy: trap returned falsish".to_string();
        return vm.proxy_strict("Reflect.setPrototypeOf", vec![o, arg(args, 1)], msg, o);
    }
    let Value::Obj(id) = o else { return Ok(Step::Return(o)) };
    // No cycles: walk up from the new prototype (bounded by the heap's size).
    let mut cur = proto;
    for _ in 0..vm.heap.objects.len() {
        match cur {
            Some(p) if p == id => return Err(vm.make_error(ErrorKind::TypeError, "Cyclic __proto__ value")),
            Some(p) => cur = vm.heap.obj(p).proto,
            None => break,
        }
    }
    if vm.heap.obj(id).props.integrity & NON_EXTENSIBLE != 0 && vm.heap.obj(id).proto != proto {
        return Err(vm.make_error(ErrorKind::TypeError, "#<Object> is not extensible"));
    }
    vm.heap.obj_mut(id).proto = proto;
    Ok(Step::Return(o))
}
