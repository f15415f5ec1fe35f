//! Reading an object's own enumerable properties the way built-ins must, getters included:
//! spread (`{...o}`), object rest patterns, `Object.assign`, `Object.values`/`entries`.
//!
//! A getter is a JavaScript function, so the walk is a resumable native ([`Cont::PropWalk`]):
//! it reads keys in order, and at a getter returns [`Step::Call`] and continues with its value.
//! Objects without accessors (nearly all) take the synchronous path in `props.rs`.

use serde::{Deserialize, Serialize};

use super::{Cont, Step};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ACCESSOR;
use crate::props::{Got, Key};
use crate::value::Value;

/// What the walk builds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WalkMode {
    /// Define each property on `target` (then go on with the next source); the result is
    /// `target`.
    Define { target: Value, sources: std::collections::VecDeque<Value> },
    /// An array of the values.
    Values,
    /// An array of `[key, value]` pairs.
    Entries,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PropWalk {
    src: Value,
    keys: Vec<Key>,
    next: usize,
    mode: WalkMode,
    out: Vec<Value>,
}

impl PropWalk {
    /// More sources for a `Define` walk (`Object.assign`), copied after the current one.
    pub(crate) fn add_sources(&mut self, more: &[Value]) {
        if let WalkMode::Define { sources, .. } = &mut self.mode {
            sources.extend(more.iter().copied());
        }
    }

    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(self.src);
        out.extend_from_slice(&self.out);
        if let WalkMode::Define { target, sources } = &self.mode {
            out.push(*target);
            out.extend(sources.iter().copied());
        }
    }
}

impl Vm {
    /// Whether any of `keys` is an own accessor of `src` (then the walk must call getters).
    pub(crate) fn has_own_accessor(&mut self, src: Value, keys: &[Key]) -> bool {
        let Value::Obj(id) = src else { return false };
        if !self.heap.obj(id).props.iter().any(|slot| slot.flags & ACCESSOR != 0) {
            return false;
        }
        keys.iter().any(|key| {
            let atom = match key {
                Key::Atom(a) => Some(*a),
                Key::Index(i) => self.heap.atoms.lookup_index(*i),
            };
            atom.and_then(|a| self.heap.obj(id).props.get(a)).is_some_and(|s| s.flags & ACCESSOR != 0)
        })
    }

    /// Starts a walk over `keys` of `src`.
    pub(crate) fn start_prop_walk(
        &mut self,
        src: Value,
        keys: Vec<Key>,
        mode: WalkMode,
    ) -> Result<Step, Throw> {
        self.charge(Work::Elements(keys.len()));
        continue_walk(self, PropWalk { src, keys, next: 0, mode, out: Vec::new() })
    }
}

fn continue_walk(vm: &mut Vm, mut walk: PropWalk) -> Result<Step, Throw> {
    loop {
        while let Some(&key) = walk.keys.get(walk.next) {
            match vm.get(walk.src, key)? {
                Got::Value(v) => {
                    walk.next += 1;
                    accept(vm, &mut walk, key, v)?;
                }
                Got::Getter(getter) => {
                    let src = walk.src;
                    return Ok(Step::Call {
                        callee: getter,
                        this: src,
                        args: Vec::new(),
                        cont: Cont::PropWalk(Box::new(walk)),
                    });
                }
                Got::Proxy(p, key) => {
                    let src = walk.src;
                    return vm.proxy_get_call(p, key, src, Cont::PropWalk(Box::new(walk)));
                }
            }
        }
        // The next source of `Object.assign`, if any.
        let next_source = match &mut walk.mode {
            WalkMode::Define { sources, .. } => sources.pop_front(),
            _ => None,
        };
        let Some(src) = next_source else { break };
        let keys = match src {
            Value::Obj(id) if vm.as_proxy(src).is_some() => {
                let inner = vm.proxy_traps_keys_plainly(id)?;
                vm.own_property_keys(inner, false)?
            }
            Value::Obj(id) => vm.own_keys(id)?,
            _ => Vec::new(),
        };
        vm.charge(Work::Elements(keys.len()));
        walk.src = src;
        walk.keys = keys;
        walk.next = 0;
    }
    Ok(Step::Return(match walk.mode {
        WalkMode::Define { target, .. } => target,
        WalkMode::Values | WalkMode::Entries => vm.new_array(walk.out)?,
    }))
}

fn accept(vm: &mut Vm, walk: &mut PropWalk, key: Key, v: Value) -> Result<(), Throw> {
    match &walk.mode {
        WalkMode::Define { target, .. } => vm.define(*target, key, v),
        WalkMode::Values => {
            walk.out.push(v);
            Ok(())
        }
        WalkMode::Entries => {
            let k = vm.key_to_value(key)?;
            let pair = vm.new_array([k, v])?;
            walk.out.push(pair);
            Ok(())
        }
    }
}

/// A getter returned `result` for the walk's current key.
pub(crate) fn resume(vm: &mut Vm, mut walk: PropWalk, result: Value) -> Result<Step, Throw> {
    let Some(&key) = walk.keys.get(walk.next) else { return continue_walk(vm, walk) };
    walk.next += 1;
    accept(vm, &mut walk, key, result)?;
    continue_walk(vm, walk)
}
