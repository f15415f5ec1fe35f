//! Set algebra (ES2025): `Set.prototype.union`, `intersection`, `difference`,
//! `symmetricDifference`, `isSubsetOf`, `isSupersetOf`, `isDisjointFrom`.
//!
//! The argument is a Set or a Map read directly (a Map is set-like through its keys) when its
//! `has` and `keys` are the built-ins, or any object with `size`, `has` and `keys` (the
//! specification's GetSetRecord): its methods and its keys iterator's `next` then run by replay
//! (`replay.rs`), so a set-like argument may take at most `MAX_REPLAYED_CALLS` calls. Which side
//! is walked depends on the sizes, as the specification says; an early answer closes the
//! argument's iterator.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg, map_set, table};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{Callable, ObjKind};
use crate::replay::ReplayedOp;
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

/// The argument of a set operation.
enum Other {
    /// A Set or Map whose `has` and `keys` are the built-ins: read directly.
    Collection(ObjId),
    /// Any other object with `size`, `has` and `keys` (GetSetRecord).
    SetLike { object: Value, size: f64, has: Value, keys: Value },
}

/// `this` (a Set) and the argument.
fn operands(vm: &mut Vm, this: Value, args: &[Value], method: &str) -> Result<(ObjId, Other), Throw> {
    let this_id = match this {
        Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Map { set: true, .. }) => id,
        _ => {
            let msg = format!("Method Set.prototype.{method} called on incompatible receiver");
            return Err(vm.make_error(ErrorKind::TypeError, &msg));
        }
    };
    let object = arg(args, 0);
    let Value::Obj(id) = object else {
        let msg = format!("Set.prototype.{method}: the argument must be a set-like object (size, has, keys)");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    };
    if matches!(vm.heap.obj(id).kind, ObjKind::Map { .. }) {
        let has = vm.get_named(object, "has")?;
        let keys = vm.get_named(object, "keys")?;
        if is_builtin(vm, has, "has") && is_builtin(vm, keys, "keys") {
            return Ok((this_id, Other::Collection(id)));
        }
    }
    // GetSetRecord.
    let raw = vm.get_named(object, "size")?;
    let size = vm.to_number(raw)?;
    if size.is_nan() {
        let msg = format!("Set.prototype.{method}: the argument's size is not a number");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let size = size.trunc() + 0.0;
    if size < 0.0 {
        let msg = format!("Set.prototype.{method}: the argument's size is negative");
        return Err(vm.make_error(ErrorKind::RangeError, &msg));
    }
    let has = vm.get_named(object, "has")?;
    if !vm.is_callable(has) {
        let msg = format!("Set.prototype.{method}: the argument's has is not a function");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let keys = vm.get_named(object, "keys")?;
    if !vm.is_callable(keys) {
        let msg = format!("Set.prototype.{method}: the argument's keys is not a function");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    Ok((this_id, Other::SetLike { object, size, has, keys }))
}

/// Whether `f` is `Set.prototype[name]` or `Map.prototype[name]`.
fn is_builtin(vm: &Vm, f: Value, name: &str) -> bool {
    let Value::Obj(id) = f else { return false };
    let ObjKind::Function(Callable::Native { native, .. }) = &vm.heap.obj(id).kind else { return false };
    table()
        .get(native.0 as usize)
        .is_some_and(|d| d.name == name && matches!(d.owner, "Set.prototype" | "Map.prototype"))
}

impl Other {
    fn size(&self, vm: &mut Vm) -> f64 {
        match self {
            Other::Collection(id) => map_set::map_size(vm, *id) as f64,
            Other::SetLike { size, .. } => *size,
        }
    }

    fn has(&self, vm: &mut Vm, key: Value) -> Result<bool, Throw> {
        match self {
            Other::Collection(id) => has(vm, *id, key),
            Other::SetLike { object, has, .. } => {
                let call = ReplayedOp::Call { callee: *has, this: *object, args: vec![key] };
                let answer = vm.replayed(call)?;
                Ok(vm.to_boolean(answer))
            }
        }
    }

    /// Calls `visit` with each key (-0 as +0) until it answers `false`; then a set-like's
    /// iterator is closed. Whether every key was visited.
    fn each_key(
        &self,
        vm: &mut Vm,
        mut visit: impl FnMut(&mut Vm, Value) -> Result<bool, Throw>,
    ) -> Result<bool, Throw> {
        let (object, keys) = match self {
            Other::Collection(id) => {
                for k in keys_of(vm, *id) {
                    if !visit(vm, k)? {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            Other::SetLike { object, keys, .. } => (*object, *keys),
        };
        let iterator = vm.replayed(ReplayedOp::Call { callee: keys, this: object, args: Vec::new() })?;
        if !matches!(iterator, Value::Obj(_)) {
            return Err(vm.make_error(ErrorKind::TypeError, "the set-like's keys() did not return an object"));
        }
        let next = vm.get_named(iterator, "next")?;
        loop {
            let result = vm.replayed(ReplayedOp::Call { callee: next, this: iterator, args: Vec::new() })?;
            if !matches!(result, Value::Obj(_)) {
                return Err(vm.make_error(ErrorKind::TypeError, "Iterator result is not an object"));
            }
            let done = vm.get_named(result, "done")?;
            if vm.to_boolean(done) {
                return Ok(true);
            }
            let mut key = vm.get_named(result, "value")?;
            if key == Value::Number(-0.0) {
                key = Value::Number(0.0);
            }
            if !visit(vm, key)? {
                let close = vm.get_named(iterator, "return")?;
                if vm.is_callable(close) {
                    vm.replayed(ReplayedOp::Call { callee: close, this: iterator, args: Vec::new() })?;
                }
                return Ok(false);
            }
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
    b.each_key(vm, |_, k| {
        keys.push(k);
        Ok(true)
    })?;
    new_set(vm, keys)
}

fn intersection(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "intersection")?;
    let mut keys = Vec::new();
    if map_set::map_size(vm, a) as f64 <= b.size(vm) {
        for k in keys_of(vm, a) {
            if b.has(vm, k)? {
                keys.push(k);
            }
        }
    } else {
        b.each_key(vm, |vm, k| {
            if has(vm, a, k)? {
                keys.push(k);
            }
            Ok(true)
        })?;
    }
    new_set(vm, keys)
}

fn difference(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "difference")?;
    let keys = keys_of(vm, a);
    let out = map_set::new_collection(vm, true)?;
    for k in &keys {
        map_set::insert(vm, out, *k, *k)?;
    }
    if keys.len() as f64 <= b.size(vm) {
        for k in keys {
            if b.has(vm, k)? {
                map_set::remove(vm, out, k)?;
            }
        }
    } else {
        b.each_key(vm, |vm, k| {
            map_set::remove(vm, out, k)?;
            Ok(true)
        })?;
    }
    Ok(Step::Return(Value::Obj(out)))
}

fn symmetric_difference(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "symmetricDifference")?;
    let out = map_set::new_collection(vm, true)?;
    for k in keys_of(vm, a) {
        map_set::insert(vm, out, k, k)?;
    }
    b.each_key(vm, |vm, k| {
        if has(vm, a, k)? {
            map_set::remove(vm, out, k)?;
        } else {
            map_set::insert(vm, out, k, k)?;
        }
        Ok(true)
    })?;
    Ok(Step::Return(Value::Obj(out)))
}

fn is_subset_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "isSubsetOf")?;
    if map_set::map_size(vm, a) as f64 > b.size(vm) {
        return Ok(Step::Return(Value::Bool(false)));
    }
    for k in keys_of(vm, a) {
        if !b.has(vm, k)? {
            return Ok(Step::Return(Value::Bool(false)));
        }
    }
    Ok(Step::Return(Value::Bool(true)))
}

fn is_superset_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "isSupersetOf")?;
    if (map_set::map_size(vm, a) as f64) < b.size(vm) {
        return Ok(Step::Return(Value::Bool(false)));
    }
    let all = b.each_key(vm, |vm, k| has(vm, a, k))?;
    Ok(Step::Return(Value::Bool(all)))
}

fn is_disjoint_from(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (a, b) = operands(vm, this, args, "isDisjointFrom")?;
    if map_set::map_size(vm, a) as f64 <= b.size(vm) {
        for k in keys_of(vm, a) {
            if b.has(vm, k)? {
                return Ok(Step::Return(Value::Bool(false)));
            }
        }
        return Ok(Step::Return(Value::Bool(true)));
    }
    let none = b.each_key(vm, |vm, k| Ok(!has(vm, a, k)?))?;
    Ok(Step::Return(Value::Bool(none)))
}
