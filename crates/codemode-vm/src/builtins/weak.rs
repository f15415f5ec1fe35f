//! `WeakMap`, `WeakSet`, `WeakRef` and `FinalizationRegistry`.
//!
//! Keys are objects and symbols that are not registered (`Symbol.for`). A run is short and its
//! heap is bounded by the memory limit, so the references are held strongly: an entry lives as
//! long as its collection, and `deref()` always finds its target. JavaScript allows exactly
//! this (collection is never guaranteed); what programs can observe — which keys are present —
//! is the same. Entries are ordered by key identity (a `BTreeMap`), so the state stays plain,
//! deterministic data and every operation is O(log n). For the same reason a
//! `FinalizationRegistry` never calls its cleanup callback (no target is ever collected during a
//! run); it keeps each registration's held value and unregister token, so `unregister` answers
//! truthfully.

use std::collections::BTreeMap;

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::heap::AtomKind;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("WeakMap", 0, requires_new, |vm, a| construct(vm, a, WeakKind::Map)),
    NativeDef::ctor("WeakSet", 0, requires_new, |vm, a| construct(vm, a, WeakKind::Set)),
    NativeDef::ctor("WeakRef", 1, requires_new, weak_ref_construct),
    NativeDef::new("WeakMap.prototype", "get", 1, |vm, t, a, _| map_get(vm, t, a)),
    NativeDef::new("WeakMap.prototype", "set", 2, |vm, t, a, _| map_set(vm, t, a)),
    NativeDef::new("WeakMap.prototype", "has", 1, |vm, t, a, _| has(vm, t, a, WeakKind::Map)),
    NativeDef::new("WeakMap.prototype", "delete", 1, |vm, t, a, _| delete(vm, t, a, WeakKind::Map)),
    NativeDef::new("WeakSet.prototype", "add", 1, set_add),
    NativeDef::new("WeakSet.prototype", "has", 1, |vm, t, a, _| has(vm, t, a, WeakKind::Set)),
    NativeDef::new("WeakSet.prototype", "delete", 1, |vm, t, a, _| delete(vm, t, a, WeakKind::Set)),
    NativeDef::new("WeakRef.prototype", "deref", 0, deref),
    NativeDef::ctor("FinalizationRegistry", 1, requires_new, registry_construct),
    NativeDef::new("FinalizationRegistry.prototype", "register", 2, register),
    NativeDef::new("FinalizationRegistry.prototype", "unregister", 1, unregister),
];

/// Bytes an entry adds (key, value, the tree's node share).
const ENTRY_BYTES: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeakKind {
    Map,
    Set,
    Ref,
    /// A `FinalizationRegistry`: entries are registration number → (held value, token).
    Registry,
}

impl WeakKind {
    fn name(self) -> &'static str {
        match self {
            WeakKind::Map => "WeakMap",
            WeakKind::Set => "WeakSet",
            WeakKind::Ref => "WeakRef",
            WeakKind::Registry => "FinalizationRegistry",
        }
    }
}

/// A weak collection's entries: key identity → (key, value). A `WeakRef` holds one entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeakState {
    pub kind: WeakKind,
    pub entries: BTreeMap<u64, (Value, Value)>,
}

impl WeakState {
    pub fn trace(&self, out: &mut Vec<Value>) {
        for (k, v) in self.entries.values() {
            out.extend([*k, *v]);
        }
    }

    pub fn extra_bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }
}

fn requires_new(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor requires 'new'"))
}

/// The identity of a value that can be held weakly: an object, or a symbol that is not
/// registered.
pub(super) fn weak_key(vm: &Vm, v: Value) -> Option<u64> {
    match v {
        Value::Obj(id) => Some(u64::from(id.0)),
        Value::Symbol(a) if vm.heap.atoms.kind(a) != AtomKind::RegisteredSymbol => {
            Some((1 << 32) | u64::from(a.0))
        }
        _ => None,
    }
}

pub(super) fn invalid_key(vm: &mut Vm, kind: WeakKind, v: Value) -> Throw {
    let desc = vm.describe_for_error(v);
    let what = match kind {
        WeakKind::Map => "Invalid value used as weak map key",
        WeakKind::Set => "Invalid value used in weak set",
        WeakKind::Ref => "WeakRef: target must be an object",
        WeakKind::Registry => {
            "FinalizationRegistry: target and token must be objects or non-registered symbols"
        }
    };
    vm.make_error(ErrorKind::TypeError, &format!("{what} ({desc})"))
}

fn new_weak(vm: &mut Vm, kind: WeakKind) -> Result<ObjId, Throw> {
    let r = &vm.realm;
    let proto = Some(match kind {
        WeakKind::Map => r.weak_protos[0],
        WeakKind::Set => r.weak_protos[1],
        WeakKind::Ref => r.weak_protos[2],
        WeakKind::Registry => r.weak_protos[3],
    });
    let state = WeakState { kind, entries: BTreeMap::new() };
    vm.alloc(ObjKind::Weak(Box::new(state)), proto)
}

fn construct(vm: &mut Vm, args: &[Value], kind: WeakKind) -> Result<Step, Throw> {
    let source = arg(args, 0);
    if kind == WeakKind::Map {
        vm.refuse_string_entries(source)?;
    }
    let items = if source.is_nullish() {
        Vec::new()
    } else {
        let name = if kind == WeakKind::Map { ".WeakMap" } else { ".WeakSet" };
        match vm.collect_or_reenter(name, true, Value::Undefined, args, 0)? {
            Ok(items) => items,
            Err(step) => return Ok(step),
        }
    };
    let id = new_weak(vm, kind)?;
    vm.charge(crate::meter::Work::Elements(items.len()));
    for item in items {
        let (k, v) = match kind {
            WeakKind::Map => {
                vm.require_entry_object(item)?;
                let k = vm.get_value(item, crate::props::Key::Index(0))?;
                (k, vm.get_value(item, crate::props::Key::Index(1))?)
            }
            _ => (item, item),
        };
        insert(vm, id, kind, k, v)?;
    }
    Ok(Step::Return(Value::Obj(id)))
}

fn weak_ref_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let target = arg(args, 0);
    let Some(key) = weak_key(vm, target) else { return Err(invalid_key(vm, WeakKind::Ref, target)) };
    let id = new_weak(vm, WeakKind::Ref)?;
    vm.charge_memory(ENTRY_BYTES)?;
    if let ObjKind::Weak(state) = &mut vm.heap.obj_mut(id).kind {
        state.entries.insert(key, (target, target));
    }
    Ok(Step::Return(Value::Obj(id)))
}

/// `this` as a weak collection of `kind`, or a `TypeError` naming the method.
pub(super) fn this_weak(vm: &mut Vm, this: Value, kind: WeakKind, method: &str) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && matches!(&vm.heap.obj(id).kind, ObjKind::Weak(s) if s.kind == kind)
    {
        return Ok(id);
    }
    let desc = vm.describe_for_error(this);
    let msg = format!("Method {}.prototype.{method} called on incompatible receiver {desc}", kind.name());
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

pub(super) fn entries(vm: &mut Vm, id: ObjId) -> Option<&mut BTreeMap<u64, (Value, Value)>> {
    match &mut vm.heap.obj_mut(id).kind {
        ObjKind::Weak(state) => Some(&mut state.entries),
        _ => None,
    }
}

pub(super) fn insert(vm: &mut Vm, id: ObjId, kind: WeakKind, k: Value, v: Value) -> Result<(), Throw> {
    let Some(key) = weak_key(vm, k) else { return Err(invalid_key(vm, kind, k)) };
    let present = entries(vm, id).is_some_and(|e| e.contains_key(&key));
    if !present {
        vm.charge_memory(ENTRY_BYTES)?;
    }
    if let Some(e) = entries(vm, id) {
        e.insert(key, (k, v));
    }
    Ok(())
}

fn map_get(vm: &mut Vm, this: Value, args: &[Value]) -> Result<Step, Throw> {
    let id = this_weak(vm, this, WeakKind::Map, "get")?;
    let Some(key) = weak_key(vm, arg(args, 0)) else { return Ok(Step::Return(Value::Undefined)) };
    let v = entries(vm, id).and_then(|e| e.get(&key).map(|&(_, v)| v));
    Ok(Step::Return(v.unwrap_or(Value::Undefined)))
}

fn map_set(vm: &mut Vm, this: Value, args: &[Value]) -> Result<Step, Throw> {
    let id = this_weak(vm, this, WeakKind::Map, "set")?;
    insert(vm, id, WeakKind::Map, arg(args, 0), arg(args, 1))?;
    Ok(Step::Return(this))
}

fn set_add(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_weak(vm, this, WeakKind::Set, "add")?;
    let v = arg(args, 0);
    insert(vm, id, WeakKind::Set, v, v)?;
    Ok(Step::Return(this))
}

fn has(vm: &mut Vm, this: Value, args: &[Value], kind: WeakKind) -> Result<Step, Throw> {
    let id = this_weak(vm, this, kind, "has")?;
    let Some(key) = weak_key(vm, arg(args, 0)) else { return Ok(Step::Return(Value::Bool(false))) };
    Ok(Step::Return(Value::Bool(entries(vm, id).is_some_and(|e| e.contains_key(&key)))))
}

fn delete(vm: &mut Vm, this: Value, args: &[Value], kind: WeakKind) -> Result<Step, Throw> {
    let id = this_weak(vm, this, kind, "delete")?;
    let Some(key) = weak_key(vm, arg(args, 0)) else { return Ok(Step::Return(Value::Bool(false))) };
    Ok(Step::Return(Value::Bool(entries(vm, id).is_some_and(|e| e.remove(&key).is_some()))))
}

fn deref(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_weak(vm, this, WeakKind::Ref, "deref")?;
    let target = entries(vm, id).and_then(|e| e.values().next().map(|&(t, _)| t));
    Ok(Step::Return(target.unwrap_or(Value::Undefined)))
}

/// `new FinalizationRegistry(cleanup)`: the callback must be callable (it is never called).
fn registry_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let cleanup = arg(args, 0);
    if !vm.is_callable(cleanup) {
        let desc = vm.describe_for_error(cleanup);
        let msg = format!("FinalizationRegistry: cleanup must be callable ({desc})");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    Ok(Step::Return(Value::Obj(new_weak(vm, WeakKind::Registry)?)))
}

/// `register(target, held, token?)`: the target is not kept (it is never collected, so the
/// callback would never run for it); the held value and the token are.
fn register(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_weak(vm, this, WeakKind::Registry, "register")?;
    let (target, held, token) = (arg(args, 0), arg(args, 1), arg(args, 2));
    if weak_key(vm, target).is_none() {
        return Err(invalid_key(vm, WeakKind::Registry, target));
    }
    if vm.same_value_zero(target, held) {
        let msg = "FinalizationRegistry.prototype.register: target and holdings must not be the same";
        return Err(vm.make_error(ErrorKind::TypeError, msg));
    }
    if token != Value::Undefined && weak_key(vm, token).is_none() {
        return Err(invalid_key(vm, WeakKind::Registry, token));
    }
    vm.charge_memory(ENTRY_BYTES)?;
    if let Some(e) = entries(vm, id) {
        let next = e.last_key_value().map_or(0, |(k, _)| k.saturating_add(1));
        e.insert(next, (held, token));
    }
    Ok(Step::Return(Value::Undefined))
}

/// `unregister(token)`: removes every registration made with `token`; whether there was one.
fn unregister(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_weak(vm, this, WeakKind::Registry, "unregister")?;
    let token = arg(args, 0);
    if weak_key(vm, token).is_none() {
        return Err(invalid_key(vm, WeakKind::Registry, token));
    }
    let count = entries(vm, id).map_or(0, |e| e.len());
    vm.charge(crate::meter::Work::Elements(count));
    // A valid token is an object or a symbol, so identity is `==` on the value.
    let removed = entries(vm, id).is_some_and(|e| {
        let before = e.len();
        e.retain(|_, (_, t)| *t != token);
        e.len() != before
    });
    Ok(Step::Return(Value::Bool(removed)))
}
