//! `JSON.parse(text, reviver)`: the reviver is called for every value, children before their
//! parent, with the holder as `this` (`InternalizeJSONProperty`). A resumable walk
//! ([`Cont::Revive`]) over an explicit stack: no Rust recursion, each call an ordinary frame.

use serde::{Deserialize, Serialize};

use super::{Cont, Step};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::Value;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Frame {
    holder: Value,
    name: Key,
    /// The value read from `holder[name]`, once read.
    value: Option<Value>,
    /// Its own keys when it is an object, and the next one to visit.
    keys: Vec<Key>,
    next: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Revive {
    reviver: Value,
    stack: Vec<Frame>,
}

impl Revive {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(self.reviver);
        for f in &self.stack {
            out.push(f.holder);
            out.extend(f.value);
        }
    }
}

/// Starts reviving `parsed` with `reviver`.
pub(super) fn start(vm: &mut Vm, parsed: Value, reviver: Value) -> Result<Step, Throw> {
    let root = vm.new_object()?;
    let empty = vm.intern("")?;
    vm.define(root, Key::Atom(empty), parsed)?;
    let frame = Frame { holder: root, name: Key::Atom(empty), value: None, keys: Vec::new(), next: 0 };
    drive(vm, Revive { reviver, stack: vec![frame] })
}

fn drive(vm: &mut Vm, mut state: Revive) -> Result<Step, Throw> {
    loop {
        let Some(top) = state.stack.last_mut() else { return Ok(Step::Return(Value::Undefined)) };
        let value = match top.value {
            Some(v) => v,
            None => {
                let v = vm.get_value(top.holder, top.name)?;
                let keys = match v {
                    Value::Obj(id) => match &vm.heap.obj(id).kind {
                        ObjKind::Array(items) => (0..items.len() as u32).map(Key::Index).collect(),
                        ObjKind::Plain => vm.own_keys(id)?,
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                vm.charge(Work::Elements(keys.len() + 1));
                let Some(top) = state.stack.last_mut() else { continue };
                top.value = Some(v);
                top.keys = keys;
                v
            }
        };
        let Some(top) = state.stack.last_mut() else { continue };
        if let Some(&key) = top.keys.get(top.next) {
            top.next += 1;
            state.stack.push(Frame { holder: value, name: key, value: None, keys: Vec::new(), next: 0 });
            continue;
        }
        let (holder, name) = (top.holder, top.name);
        let key = vm.key_to_value(name)?;
        let reviver = state.reviver;
        return Ok(Step::Call {
            callee: reviver,
            this: holder,
            args: vec![key, value],
            cont: Cont::Revive(Box::new(state)),
        });
    }
}

/// The reviver returned `result` for the top frame's property.
pub(super) fn resume(vm: &mut Vm, mut state: Revive, result: Value) -> Result<Step, Throw> {
    let Some(done) = state.stack.pop() else { return Ok(Step::Return(result)) };
    if state.stack.is_empty() {
        return Ok(Step::Return(result));
    }
    // A property the reviver made non-configurable stays as it is (the spec ignores the
    // failed delete or redefinition).
    let fixed = match (done.holder, done.name) {
        (Value::Obj(id), Key::Atom(a)) => vm
            .heap
            .obj(id)
            .props
            .get(a)
            .is_some_and(|s| s.flags & (crate::object::FIXED | crate::object::READONLY) != 0),
        _ => false,
    };
    if !fixed {
        if result == Value::Undefined {
            vm.delete(done.holder, done.name)?;
        } else {
            vm.define(done.holder, done.name, result)?;
        }
    }
    drive(vm, state)
}
