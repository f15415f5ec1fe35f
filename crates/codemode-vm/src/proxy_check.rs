//! What a proxy trap returned, checked against its target as ECMA-262 requires (10.5): a trap
//! may not report a non-configurable property differently from the target, add properties to a
//! non-extensible target, and so on. A violation is a `TypeError`.
//!
//! The target's own state is read without traps: when the target is itself a proxy, its
//! innermost ordinary target is consulted (a documented simplification).

use codemode_bytecode::ErrorKind;

use crate::Vm;
use crate::builtins::{Descriptor, Step, descriptor_of, read_descriptor};
use crate::call::Throw;
use crate::meter::Work;
use crate::object::integrity::NON_EXTENSIBLE;
use crate::props::Key;
use crate::proxy::{ProxyCall, ProxyOp};
use crate::value::{FastSet, ObjId, Value};

/// SameValue.
fn same_value(vm: &Vm, a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        _ => vm.strict_equals(a, b),
    }
}

fn violation(vm: &mut Vm, trap: &str, what: &str) -> Throw {
    let msg = format!("'{trap}' on proxy: {what}");
    vm.make_error(ErrorKind::TypeError, &msg)
}

/// The target's own descriptor of `key`, read without traps.
fn target_desc(vm: &mut Vm, target: ObjId, key: Key) -> Result<Option<Descriptor>, Throw> {
    let inner = vm.proxy_innermost(target)?;
    let d = descriptor_of(vm, Value::Obj(inner), key)?;
    if d == Value::Undefined { Ok(None) } else { read_descriptor(vm, d).map(Some) }
}

fn target_extensible(vm: &mut Vm, target: ObjId) -> Result<bool, Throw> {
    let inner = vm.proxy_innermost(target)?;
    Ok(vm.heap.obj(inner).props.integrity & NON_EXTENSIBLE == 0)
}

fn is_accessor(d: &Descriptor) -> bool {
    d.get.is_some() || d.set.is_some()
}

fn is_data(d: &Descriptor) -> bool {
    d.value.is_some() || d.writable.is_some()
}

/// IsCompatiblePropertyDescriptor (ValidateAndApplyPropertyDescriptor without an object).
fn compatible(vm: &Vm, extensible: bool, desc: &Descriptor, current: Option<&Descriptor>) -> bool {
    let Some(current) = current else { return extensible };
    if current.configurable == Some(false) {
        if desc.configurable == Some(true) {
            return false;
        }
        if desc.enumerable.is_some_and(|e| Some(e) != current.enumerable) {
            return false;
        }
        let generic = !is_accessor(desc) && !is_data(desc);
        if !generic && is_accessor(desc) != is_accessor(current) {
            return false;
        }
        if is_accessor(current) {
            let same = |a: Option<Value>, b: Option<Value>| {
                a.is_none_or(|a| same_value(vm, a, b.unwrap_or(Value::Undefined)))
            };
            if !same(desc.get, current.get) || !same(desc.set, current.set) {
                return false;
            }
        } else if current.writable == Some(false) {
            if desc.writable == Some(true) {
                return false;
            }
            if let Some(v) = desc.value
                && !same_value(vm, v, current.value.unwrap_or(Value::Undefined))
            {
                return false;
            }
        }
    }
    true
}

/// A descriptor object in FromPropertyDescriptor's order; `complete` fills absent fields with
/// their defaults (CompletePropertyDescriptor).
pub(crate) fn descriptor_value(vm: &mut Vm, d: &Descriptor, complete: bool) -> Result<Value, Throw> {
    let accessor = is_accessor(d);
    let fill = |v: Option<Value>, default: Value, applies: bool| match v {
        Some(v) => Some(v),
        None if complete && applies => Some(default),
        None => None,
    };
    let b = |x: Option<bool>| x.map(Value::Bool);
    let fields = [
        ("value", fill(d.value, Value::Undefined, !accessor)),
        ("writable", fill(b(d.writable), Value::Bool(false), !accessor)),
        ("get", fill(d.get, Value::Undefined, accessor)),
        ("set", fill(d.set, Value::Undefined, accessor)),
        ("enumerable", fill(b(d.enumerable), Value::Bool(false), true)),
        ("configurable", fill(b(d.configurable), Value::Bool(false), true)),
    ];
    let o = vm.new_object()?;
    for (name, v) in fields {
        if let Some(v) = v {
            let atom = vm.intern(name)?;
            vm.define(o, Key::Atom(atom), v)?;
        }
    }
    Ok(o)
}

/// `{ value }`, or with `full` a writable, enumerable, configurable data property's descriptor.
pub(crate) fn data_descriptor(vm: &mut Vm, value: Value, full: bool) -> Result<Value, Throw> {
    let on = if full { Some(true) } else { None };
    let d = Descriptor {
        value: Some(value),
        get: None,
        set: None,
        writable: on,
        enumerable: on,
        configurable: on,
    };
    descriptor_value(vm, &d, false)
}

/// Checks a trap's `result` and gives the operation's result.
pub(crate) fn check(vm: &mut Vm, call: ProxyCall, result: Value) -> Result<Step, Throw> {
    let target = call.target;
    let trap = call.op.trap_name();
    let ret = |v: Value| Ok(Step::Return(v));
    match call.op {
        ProxyOp::Get { key, .. } => {
            if let Some(t) = target_desc(vm, target, key)?
                && t.configurable == Some(false)
            {
                if is_data(&t)
                    && t.writable == Some(false)
                    && !same_value(vm, result, t.value.unwrap_or(Value::Undefined))
                {
                    return Err(violation(
                        vm,
                        trap,
                        "the value of a non-writable, non-configurable property must be reported as it is",
                    ));
                }
                if is_accessor(&t)
                    && t.get.unwrap_or(Value::Undefined) == Value::Undefined
                    && result != Value::Undefined
                {
                    return Err(violation(
                        vm,
                        trap,
                        "a non-configurable accessor without a getter must be reported as undefined",
                    ));
                }
            }
            ret(result)
        }
        ProxyOp::Set { key, value, .. } => {
            if !vm.to_boolean(result) {
                return ret(Value::Bool(false));
            }
            if let Some(t) = target_desc(vm, target, key)?
                && t.configurable == Some(false)
            {
                if is_data(&t)
                    && t.writable == Some(false)
                    && !same_value(vm, value, t.value.unwrap_or(Value::Undefined))
                {
                    return Err(violation(
                        vm,
                        trap,
                        "cannot change a non-writable, non-configurable property",
                    ));
                }
                if is_accessor(&t) && t.set.unwrap_or(Value::Undefined) == Value::Undefined {
                    return Err(violation(
                        vm,
                        trap,
                        "cannot set a non-configurable accessor without a setter",
                    ));
                }
            }
            ret(Value::Bool(true))
        }
        ProxyOp::Has { key } => {
            if vm.to_boolean(result) {
                return ret(Value::Bool(true));
            }
            if let Some(t) = target_desc(vm, target, key)? {
                if t.configurable == Some(false) {
                    return Err(violation(
                        vm,
                        trap,
                        "a non-configurable property cannot be reported as absent",
                    ));
                }
                if !target_extensible(vm, target)? {
                    return Err(violation(
                        vm,
                        trap,
                        "a property of a non-extensible target cannot be reported as absent",
                    ));
                }
            }
            ret(Value::Bool(false))
        }
        ProxyOp::Delete { key } => {
            if !vm.to_boolean(result) {
                return ret(Value::Bool(false));
            }
            if let Some(t) = target_desc(vm, target, key)? {
                if t.configurable == Some(false) {
                    return Err(violation(
                        vm,
                        trap,
                        "a non-configurable property cannot be reported as deleted",
                    ));
                }
                if !target_extensible(vm, target)? {
                    return Err(violation(
                        vm,
                        trap,
                        "a property of a non-extensible target cannot be reported as deleted",
                    ));
                }
            }
            ret(Value::Bool(true))
        }
        ProxyOp::GetOwnProperty { key } => check_own_descriptor(vm, target, key, result),
        ProxyOp::DefineProperty { key, desc } => {
            if !vm.to_boolean(result) {
                return ret(Value::Bool(false));
            }
            let desc = read_descriptor(vm, desc)?;
            let t = target_desc(vm, target, key)?;
            let extensible = target_extensible(vm, target)?;
            let setting_config_false = desc.configurable == Some(false);
            match &t {
                None => {
                    if !extensible {
                        return Err(violation(vm, trap, "cannot add a property to a non-extensible target"));
                    }
                    if setting_config_false {
                        return Err(violation(
                            vm,
                            trap,
                            "cannot define a non-configurable property the target does not have",
                        ));
                    }
                }
                Some(t) => {
                    if !compatible(vm, extensible, &desc, Some(t)) {
                        return Err(violation(
                            vm,
                            trap,
                            "the descriptor is incompatible with the target's property",
                        ));
                    }
                    if setting_config_false && t.configurable != Some(false) {
                        return Err(violation(vm, trap, "the target's property is configurable"));
                    }
                    if is_data(t)
                        && t.configurable == Some(false)
                        && t.writable == Some(true)
                        && desc.writable == Some(false)
                    {
                        return Err(violation(
                            vm,
                            trap,
                            "the target's non-configurable property is writable",
                        ));
                    }
                }
            }
            ret(Value::Bool(true))
        }
        ProxyOp::GetPrototypeOf => {
            if !matches!(result, Value::Obj(_) | Value::Null) {
                return Err(violation(vm, trap, "the trap must return an object or null"));
            }
            if !target_extensible(vm, target)? {
                let inner = vm.proxy_innermost(target)?;
                let proto = vm.heap.obj(inner).proto.map_or(Value::Null, Value::Obj);
                if proto != result {
                    return Err(violation(
                        vm,
                        trap,
                        "a non-extensible target's prototype must be reported as it is",
                    ));
                }
            }
            ret(result)
        }
        ProxyOp::SetPrototypeOf { proto } => {
            if !vm.to_boolean(result) {
                return ret(Value::Bool(false));
            }
            if !target_extensible(vm, target)? {
                let inner = vm.proxy_innermost(target)?;
                let current = vm.heap.obj(inner).proto.map_or(Value::Null, Value::Obj);
                if current != proto {
                    return Err(violation(
                        vm,
                        trap,
                        "cannot change the prototype of a non-extensible target",
                    ));
                }
            }
            ret(Value::Bool(true))
        }
        ProxyOp::IsExtensible => {
            let answer = vm.to_boolean(result);
            if answer != target_extensible(vm, target)? {
                return Err(violation(vm, trap, "the result must match the target's extensibility"));
            }
            ret(Value::Bool(answer))
        }
        ProxyOp::PreventExtensions => {
            let answer = vm.to_boolean(result);
            if answer && target_extensible(vm, target)? {
                return Err(violation(vm, trap, "reported success but the target is still extensible"));
            }
            ret(Value::Bool(answer))
        }
        ProxyOp::OwnKeys => check_own_keys(vm, target, result),
        ProxyOp::Apply { .. } => ret(result),
        ProxyOp::Construct { .. } => {
            if !matches!(result, Value::Obj(_)) {
                return Err(violation(vm, trap, "the trap must return an object"));
            }
            ret(result)
        }
    }
}

fn check_own_descriptor(vm: &mut Vm, target: ObjId, key: Key, result: Value) -> Result<Step, Throw> {
    let trap = "getOwnPropertyDescriptor";
    if !matches!(result, Value::Obj(_) | Value::Undefined) {
        return Err(violation(vm, trap, "the trap must return an object or undefined"));
    }
    let t = target_desc(vm, target, key)?;
    if result == Value::Undefined {
        if let Some(t) = &t {
            if t.configurable == Some(false) {
                return Err(violation(vm, trap, "a non-configurable property cannot be reported as absent"));
            }
            if !target_extensible(vm, target)? {
                return Err(violation(
                    vm,
                    trap,
                    "a property of a non-extensible target cannot be reported as absent",
                ));
            }
        }
        return Ok(Step::Return(Value::Undefined));
    }
    let extensible = target_extensible(vm, target)?;
    let mut desc = read_descriptor(vm, result)?;
    // CompletePropertyDescriptor.
    if is_accessor(&desc) {
        desc.get.get_or_insert(Value::Undefined);
        desc.set.get_or_insert(Value::Undefined);
    } else {
        desc.value.get_or_insert(Value::Undefined);
        desc.writable.get_or_insert(false);
    }
    desc.enumerable.get_or_insert(false);
    desc.configurable.get_or_insert(false);
    if !compatible(vm, extensible, &desc, t.as_ref()) {
        return Err(violation(vm, trap, "the descriptor is incompatible with the target's property"));
    }
    if desc.configurable == Some(false) {
        match &t {
            Some(t) if t.configurable == Some(false) => {
                if desc.writable == Some(false) && t.writable == Some(true) {
                    return Err(violation(
                        vm,
                        trap,
                        "a writable property cannot be reported as non-configurable and non-writable",
                    ));
                }
            }
            _ => {
                return Err(violation(
                    vm,
                    trap,
                    "a property cannot be reported as non-configurable unless the target's is",
                ));
            }
        }
    }
    Ok(Step::Return(descriptor_value(vm, &desc, true)?))
}

/// The `ownKeys` trap's result: an array-like of distinct strings and symbols that lists every
/// non-configurable key of the target (every key, when the target is not extensible) and adds
/// none to a non-extensible target.
fn check_own_keys(vm: &mut Vm, target: ObjId, result: Value) -> Result<Step, Throw> {
    let trap = "ownKeys";
    if !matches!(result, Value::Obj(_)) {
        return Err(violation(vm, trap, "the trap must return an object"));
    }
    let items = vm.array_like_to_vec(result)?;
    vm.charge(Work::Elements(items.len()));
    let mut keys: Vec<Key> = Vec::with_capacity(items.len());
    let mut seen: FastSet<Key> = FastSet::default();
    for v in &items {
        if !matches!(v, Value::Str(_) | Value::Symbol(_)) {
            return Err(violation(vm, trap, "every key must be a string or a symbol"));
        }
        let key = vm.to_key(*v)?;
        if !seen.insert(key) {
            return Err(violation(vm, trap, "the result must not list a key twice"));
        }
        keys.push(key);
    }
    let extensible = target_extensible(vm, target)?;
    let inner = vm.proxy_innermost(target)?;
    let target_keys = vm.own_property_keys(inner, true)?;
    vm.charge(Work::Elements(target_keys.len()));
    let mut fixed = Vec::new();
    let mut configurable = Vec::new();
    for key in target_keys {
        // The canonical form of a key (an integer name is an index, as `to_key` makes it).
        let key = match key {
            Key::Atom(a) if !vm.heap.atoms.is_symbol(a) => {
                crate::value::parse_array_index(vm.heap.atoms.name(a)).map_or(key, Key::Index)
            }
            key => key,
        };
        match target_desc(vm, inner, key)? {
            Some(d) if d.configurable == Some(false) => fixed.push(key),
            _ => configurable.push(key),
        }
    }
    if !(extensible && fixed.is_empty()) {
        for key in &fixed {
            if !seen.remove(key) {
                return Err(violation(
                    vm,
                    trap,
                    "the result must list every non-configurable key of the target",
                ));
            }
        }
        if !extensible {
            for key in &configurable {
                if !seen.remove(key) {
                    return Err(violation(
                        vm,
                        trap,
                        "the result must list every key of a non-extensible target",
                    ));
                }
            }
            if !seen.is_empty() {
                return Err(violation(vm, trap, "the result cannot add keys to a non-extensible target"));
            }
        }
    }
    Ok(Step::Return(vm.new_array(items)?))
}
