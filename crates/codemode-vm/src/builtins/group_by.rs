//! `Object.groupBy(items, callback)` and `Map.groupBy(items, callback)` (ES2024).
//!
//! Resumable: the items are collected first, then the callback runs once per item as an
//! ordinary frame ([`GroupByState`] waits in a native frame meanwhile), and each result files
//! the item under its key: a property key of a null-prototype object, or a Map key
//! (SameValueZero).

use serde::{Deserialize, Serialize};

use super::{Cont, NativeDef, Step, arg, map_set, require_callable};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Object", "groupBy", 2, |vm, _t, a, _d| group_by(vm, a, false)),
    NativeDef::new("Map", "groupBy", 2, |vm, _t, a, _d| group_by(vm, a, true)),
];

/// The state of a `groupBy` between callback calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GroupByState {
    items: Vec<Value>,
    callback: Value,
    /// The result: a null-prototype object, or a Map.
    out: ObjId,
    /// `Map.groupBy`.
    map: bool,
    /// The item whose callback is running.
    index: u32,
}

impl GroupByState {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend(self.items.iter().copied());
        out.extend([self.callback, Value::Obj(self.out)]);
    }
}

fn group_by(vm: &mut Vm, args: &[Value], map: bool) -> Result<Step, Throw> {
    let source = arg(args, 0);
    if source.is_nullish() {
        let desc = vm.to_rust_string(source)?;
        let msg = format!("{desc} is not iterable");
        return Err(vm.make_error(codemode_bytecode::ErrorKind::TypeError, &msg));
    }
    let callback = arg(args, 1);
    require_callable(vm, callback)?;
    let name = if map { "Map.groupBy" } else { "Object.groupBy" };
    let items = match vm.collect_or_reenter(name, false, Value::Undefined, args, 0)? {
        Ok(items) => items,
        Err(step) => return Ok(step),
    };
    vm.charge(Work::Elements(items.len()));
    let out = if map { map_set::new_collection(vm, false)? } else { vm.alloc(ObjKind::Plain, None)? };
    next(Box::new(GroupByState { items, callback, out, map, index: 0 }))
}

fn next(s: Box<GroupByState>) -> Result<Step, Throw> {
    let Some(&item) = s.items.get(s.index as usize) else {
        return Ok(Step::Return(Value::Obj(s.out)));
    };
    let (callee, args) = (s.callback, vec![item, Value::Number(s.index as f64)]);
    Ok(Step::Call { callee, this: Value::Undefined, args, cont: Cont::GroupBy(s) })
}

pub(super) fn resume(vm: &mut Vm, mut s: Box<GroupByState>, key: Value) -> Result<Step, Throw> {
    let item = s.items.get(s.index as usize).copied().unwrap_or(Value::Undefined);
    if s.map {
        let key = if let Value::Number(n) = key { Value::Number(n + 0.0) } else { key };
        let group = match map_set::find(vm, s.out, key)? {
            Some(p) => map_set::entries_of(vm, s.out).get(p).copied().flatten().map(|(_, g)| g),
            None => None,
        };
        match group {
            Some(g) => vm.array_push(g, item)?,
            None => {
                let g = vm.new_array(vec![item])?;
                map_set::insert(vm, s.out, key, g)?;
            }
        }
    } else {
        let key = vm.to_key(key)?;
        let target = Value::Obj(s.out);
        match vm.get_value(target, key)? {
            g @ Value::Obj(_) => vm.array_push(g, item)?,
            _ => {
                let g = vm.new_array(vec![item])?;
                vm.define(target, key, g)?;
            }
        }
    }
    s.index += 1;
    next(s)
}
