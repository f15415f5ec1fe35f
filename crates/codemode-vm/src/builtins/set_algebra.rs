//! Set algebra (ES2025): `Set.prototype.union`, `intersection`, `difference`,
//! `symmetricDifference`, `isSubsetOf`, `isSupersetOf`, `isDisjointFrom`.
//!
//! The argument must be a Set or a Map (a Map is set-like through its keys). The specification
//! also accepts any object with `size`, `has` and `keys`, which would call program code for every
//! element; those are refused with a TypeError (documented limitation). Iteration order follows
//! the specification (which side is walked depends on the sizes).

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg, map_set};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Set.prototype", "union", 1, union),
    NativeDef::new("Set.prototype", "intersection", 1, intersection),
    NativeDef::new("Set.prototype", "difference", 1, difference),
    NativeDef::new("Set.prototype", "symmetricDifference", 1, symmetric_difference),
    NativeDef::new("Set.prototype", "isSubsetOf", 1, is_subset_of),
    NativeDef::new("Set.prototype", "isSupersetOf", 1, is_superset_of),
    NativeDef::new("Set.prototype", "isDisjointFrom", 1, is_disjoint_from),
];

/// `this` (a Set) and the argument (a Set or Map).
fn operands(vm: &mut Vm, this: Value, args: &[Value], method: &str) -> Result<(ObjId, ObjId), Throw> {
    let this_id = match this {
        Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Map { set: true, .. }) => id,
        _ => {
            let msg = format!("Method Set.prototype.{method} called on incompatible receiver");
            return Err(vm.make_error(ErrorKind::TypeError, &msg));
        }
    };
    match arg(args, 0) {
        Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Map { .. }) => Ok((this_id, id)),
        _ => {
            let msg = format!(
                "Set.prototype.{method}: the argument must be a Set or a Map (other set-like objects are not supported)"
            );
            Err(vm.make_error(ErrorKind::TypeError, &msg))
        }
    }
}

/// The live keys of a Set or Map, in order (charged).
fn keys_of(vm: &mut Vm, id: ObjId) -> Vec<Value> {
    let keys: Vec<Value> = map_set::entries_of(vm, id).iter().flatten().map(|(k, _)| *k).collect();
    vm.charge(Work::Elements(keys.len()));
    keys
}

fn has(vm: &mut Vm, id: ObjId, key: Value) -> Result<bool, Throw> {
    Ok(map_set::find(vm, id, key)?.is_some())
}

/// A new Set holding `keys`, in order.
fn new_set(vm: &mut Vm, keys: Vec<Value>) -> Result<Step, Throw> {
    let out = map_set::new_collection(vm, true)?;
    for k in keys {
        map_set::insert(vm, out, k, k)?;
    }
    Ok(Step::Return(Value::Obj(out)))
}

fn union(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "union")?;
    let mut keys = keys_of(vm, a);
    keys.extend(keys_of(vm, b));
    new_set(vm, keys)
}

fn intersection(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "intersection")?;
    let (walk, probe) = if map_set::map_size(vm, a) <= map_set::map_size(vm, b) { (a, b) } else { (b, a) };
    let mut keys = Vec::new();
    for k in keys_of(vm, walk) {
        if has(vm, probe, k)? {
            keys.push(k);
        }
    }
    new_set(vm, keys)
}

fn difference(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "difference")?;
    let mut keys = Vec::new();
    for k in keys_of(vm, a) {
        if !has(vm, b, k)? {
            keys.push(k);
        }
    }
    new_set(vm, keys)
}

fn symmetric_difference(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "symmetricDifference")?;
    let out = map_set::new_collection(vm, true)?;
    for k in keys_of(vm, a) {
        map_set::insert(vm, out, k, k)?;
    }
    for k in keys_of(vm, b) {
        if has(vm, a, k)? {
            map_set::remove(vm, out, k)?;
        } else {
            map_set::insert(vm, out, k, k)?;
        }
    }
    Ok(Step::Return(Value::Obj(out)))
}

fn is_subset_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "isSubsetOf")?;
    if map_set::map_size(vm, a) > map_set::map_size(vm, b) {
        return Ok(Step::Return(Value::Bool(false)));
    }
    for k in keys_of(vm, a) {
        if !has(vm, b, k)? {
            return Ok(Step::Return(Value::Bool(false)));
        }
    }
    Ok(Step::Return(Value::Bool(true)))
}

fn is_superset_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "isSupersetOf")?;
    if map_set::map_size(vm, a) < map_set::map_size(vm, b) {
        return Ok(Step::Return(Value::Bool(false)));
    }
    for k in keys_of(vm, b) {
        if !has(vm, a, k)? {
            return Ok(Step::Return(Value::Bool(false)));
        }
    }
    Ok(Step::Return(Value::Bool(true)))
}

fn is_disjoint_from(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "isDisjointFrom")?;
    let (walk, probe) = if map_set::map_size(vm, a) <= map_set::map_size(vm, b) { (a, b) } else { (b, a) };
    for k in keys_of(vm, walk) {
        if has(vm, probe, k)? {
            return Ok(Step::Return(Value::Bool(false)));
        }
    }
    Ok(Step::Return(Value::Bool(true)))
}
