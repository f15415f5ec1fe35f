//! `getOrInsert` and `getOrInsertComputed` of `Map` and `WeakMap` (ES2026 "upsert").
//!
//! `getOrInsertComputed` calls the program's callback when the key is absent, so it returns a
//! step and finishes in [`Cont::Upsert`]: the callback may itself have inserted the key, which
//! the value it returned then overwrites, as the specification says.

use super::weak::{WeakKind, entries, insert as weak_insert, invalid_key, this_weak, weak_key};
use super::{Cont, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

use super::map_set::{entries_of, find, insert, this_collection};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Map.prototype", "getOrInsert", 2, map_get_or_insert),
    NativeDef::new("Map.prototype", "getOrInsertComputed", 2, map_get_or_insert_computed),
    NativeDef::new("WeakMap.prototype", "getOrInsert", 2, weak_get_or_insert),
    NativeDef::new("WeakMap.prototype", "getOrInsertComputed", 2, weak_get_or_insert_computed),
];

/// `-0` keys are `+0` (CanonicalizeKeyedCollectionKey).
fn canonical(key: Value) -> Value {
    if let Value::Number(n) = key { Value::Number(n + 0.0) } else { key }
}

fn map_value(vm: &mut Vm, id: ObjId, key: Value) -> Result<Option<Value>, Throw> {
    let at = find(vm, id, key)?;
    Ok(at.map(|p| entries_of(vm, id).get(p).copied().flatten().map_or(Value::Undefined, |(_, v)| v)))
}

fn weak_value(vm: &mut Vm, id: ObjId, key: Value) -> Option<Value> {
    let k = weak_key(vm, key)?;
    entries(vm, id).and_then(|e| e.get(&k).map(|&(_, v)| v))
}

fn map_get_or_insert(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_collection(vm, this, false, "getOrInsert")?;
    let key = canonical(arg(args, 0));
    if let Some(v) = map_value(vm, id, key)? {
        return Ok(Step::Return(v));
    }
    let value = arg(args, 1);
    insert(vm, id, key, value)?;
    Ok(Step::Return(value))
}

fn map_get_or_insert_computed(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let id = this_collection(vm, this, false, "getOrInsertComputed")?;
    let callback = arg(args, 1);
    if !vm.is_callable(callback) {
        return Err(vm.not_a_function(callback));
    }
    let key = canonical(arg(args, 0));
    let found = map_value(vm, id, key)?;
    Ok(found_or_compute(found, id, key, callback))
}

fn weak_get_or_insert(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_weak(vm, this, WeakKind::Map, "getOrInsert")?;
    let key = arg(args, 0);
    if weak_key(vm, key).is_none() {
        return Err(invalid_key(vm, WeakKind::Map, key));
    }
    if let Some(v) = weak_value(vm, id, key) {
        return Ok(Step::Return(v));
    }
    let value = arg(args, 1);
    weak_insert(vm, id, WeakKind::Map, key, value)?;
    Ok(Step::Return(value))
}

fn weak_get_or_insert_computed(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let id = this_weak(vm, this, WeakKind::Map, "getOrInsertComputed")?;
    let (key, callback) = (arg(args, 0), arg(args, 1));
    if !vm.is_callable(callback) {
        return Err(vm.not_a_function(callback));
    }
    if weak_key(vm, key).is_none() {
        return Err(invalid_key(vm, WeakKind::Map, key));
    }
    let found = weak_value(vm, id, key);
    Ok(found_or_compute(found, id, key, callback))
}

/// The value found, or the step calling `callback(key)` whose result [`resume`] inserts.
fn found_or_compute(found: Option<Value>, map: ObjId, key: Value, callback: Value) -> Step {
    match found {
        Some(v) => Step::Return(v),
        None => Step::Call {
            callee: callback,
            this: Value::Undefined,
            args: vec![key],
            cont: Cont::Upsert { map, key },
        },
    }
}

/// The callback of `getOrInsertComputed` returned `value`: set it (whether or not the callback
/// inserted the key meanwhile) and return it.
pub(super) fn resume(vm: &mut Vm, map: ObjId, key: Value, value: Value) -> Result<Step, Throw> {
    if matches!(vm.heap.obj(map).kind, ObjKind::Weak(_)) {
        weak_insert(vm, map, WeakKind::Map, key, value)?;
    } else {
        insert(vm, map, key, value)?;
    }
    Ok(Step::Return(value))
}
