//! Listing a proxy's keys the way `Object.keys`/`values`/`entries`,
//! `Object.getOwnPropertyNames`/`getOwnPropertySymbols` and `for…in` must: the `ownKeys` trap
//! gives the keys, then (for the enumerable-only lists) the `getOwnPropertyDescriptor` trap is
//! asked about each, and `values`/`entries` read each value through the `get` trap. Every one of
//! those is a call, so the walk is a resumable native ([`Cont::ProxyKeys`]).
//!
//! `for…in` goes on up the prototype chain: a proxy's prototype comes from its `getPrototypeOf`
//! trap, ordinary objects' keys are listed natively, and keys already seen (enumerable or not)
//! are skipped.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{Cont, Step};
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{IterState, ObjKind};
use crate::props::Key;
use crate::value::Value;

/// What the walk produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum KeysMode {
    Keys,
    Values,
    Entries,
    /// Every string key (`Object.getOwnPropertyNames`).
    Names,
    /// Every symbol key (`Object.getOwnPropertySymbols`).
    Symbols,
    /// `for…in`: an iterator over the enumerable string keys of the whole chain.
    ForIn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Stage {
    /// Waiting for `ownKeys`.
    Listing,
    /// Waiting for the descriptor of `keys[next]`.
    Descriptor,
    /// Waiting for the value of `keys[next]`.
    Value,
    /// Waiting for the object's prototype (`for…in`).
    Prototype,
}

/// The walk's state. Plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeysWalk {
    object: Value,
    mode: KeysMode,
    stage: Stage,
    keys: Vec<Value>,
    next: usize,
    out: Vec<Value>,
    /// Keys met so far (`for…in`), as `(0, index)` or `(1, atom)`.
    seen: BTreeSet<(u8, u32)>,
}

impl KeysWalk {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(self.object);
        out.extend_from_slice(&self.keys);
        out.extend_from_slice(&self.out);
    }
}

fn seen_key(key: Key) -> (u8, u32) {
    match key {
        Key::Index(i) => (0, i),
        Key::Atom(a) => (1, a.0),
    }
}

impl Vm {
    /// Starts listing the keys of `object` (a proxy; for `for…in`, any object whose chain
    /// reaches one).
    pub(crate) fn proxy_keys(&mut self, object: Value, mode: KeysMode) -> Result<Step, Throw> {
        let walk = KeysWalk {
            object,
            mode,
            stage: Stage::Listing,
            keys: Vec::new(),
            next: 0,
            out: Vec::new(),
            seen: BTreeSet::new(),
        };
        if mode == KeysMode::ForIn {
            return self.for_in_from(walk, object);
        }
        self.keys_call(walk, "Reflect.ownKeys", vec![object], Stage::Listing)
    }

    fn keys_call(
        &mut self,
        mut walk: KeysWalk,
        builtin: &str,
        args: Vec<Value>,
        stage: Stage,
    ) -> Result<Step, Throw> {
        walk.stage = stage;
        let callee = self.builtin_fn(builtin)?;
        Ok(Step::Call { callee, this: Value::Undefined, args, cont: Cont::ProxyKeys(Box::new(walk)) })
    }

    /// Asks about the next key, or finishes.
    fn keys_next(&mut self, mut walk: KeysWalk) -> Result<Step, Throw> {
        while let Some(&key) = walk.keys.get(walk.next) {
            if walk.mode == KeysMode::ForIn {
                let k = self.to_key(key)?;
                if !walk.seen.insert(seen_key(k)) {
                    walk.next += 1;
                    continue;
                }
            }
            let args = vec![walk.object, key];
            return self.keys_call(walk, "Reflect.getOwnPropertyDescriptor", args, Stage::Descriptor);
        }
        match walk.mode {
            KeysMode::ForIn => {
                let object = walk.object;
                self.keys_call(walk, "Reflect.getPrototypeOf", vec![object], Stage::Prototype)
            }
            _ => Ok(Step::Return(self.new_array(walk.out)?)),
        }
    }

    /// `for…in` from `object`: ordinary objects' keys natively, up to a proxy (whose keys are
    /// listed by its traps) or the end of the chain.
    fn for_in_from(&mut self, mut walk: KeysWalk, object: Value) -> Result<Step, Throw> {
        let mut cur = match object {
            Value::Obj(id) => Some(id),
            _ => None,
        };
        let mut depth = 0;
        while let Some(id) = cur {
            depth += 1;
            if depth > 10_000 {
                break;
            }
            if let ObjKind::Proxy { .. } = self.heap.obj(id).kind {
                walk.object = Value::Obj(id);
                walk.keys.clear();
                walk.next = 0;
                return self.keys_call(walk, "Reflect.ownKeys", vec![Value::Obj(id)], Stage::Listing);
            }
            let keys = self.own_keys(id)?;
            self.charge(Work::Elements(keys.len()));
            for key in keys {
                if walk.seen.insert(seen_key(key)) {
                    walk.out.push(self.key_to_value(key)?);
                }
            }
            // Non-enumerable own keys shadow the prototypes' too.
            for key in self.own_string_keys(id, true)? {
                walk.seen.insert(seen_key(key));
            }
            cur = self.heap.obj(id).proto;
        }
        let items = std::mem::take(&mut walk.out);
        Ok(Step::Return(self.new_iterator(IterState::List { items, next: 0 })?))
    }

    /// Whether the value is a proxy whose keys the walk must list.
    pub(crate) fn proxy_keys_start(&mut self, v: Value, mode: KeysMode) -> Result<Option<Step>, Throw> {
        match self.as_proxy(v) {
            Some(_) => self.proxy_keys(v, mode).map(Some),
            None => Ok(None),
        }
    }
}

/// A call of the walk returned `result`.
pub(crate) fn resume(vm: &mut Vm, mut walk: KeysWalk, result: Value) -> Result<Step, Throw> {
    match walk.stage {
        Stage::Listing => {
            let items = match result {
                Value::Obj(id) => match &vm.heap.obj(id).kind {
                    ObjKind::Array(items) => items.to_vec(),
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            vm.charge(Work::Elements(items.len()));
            match walk.mode {
                KeysMode::Names => {
                    let names: Vec<Value> =
                        items.into_iter().filter(|v| matches!(v, Value::Str(_))).collect();
                    return Ok(Step::Return(vm.new_array(names)?));
                }
                KeysMode::Symbols => {
                    let symbols: Vec<Value> =
                        items.into_iter().filter(|v| matches!(v, Value::Symbol(_))).collect();
                    return Ok(Step::Return(vm.new_array(symbols)?));
                }
                _ => {}
            }
            walk.keys = items.into_iter().filter(|v| matches!(v, Value::Str(_))).collect();
            walk.next = 0;
            vm.keys_next(walk)
        }
        Stage::Descriptor => {
            let enumerable = match result {
                Value::Obj(_) => {
                    let v = vm.get_named(result, "enumerable")?;
                    vm.to_boolean(v)
                }
                _ => false,
            };
            let key = walk.keys.get(walk.next).copied().unwrap_or(Value::Undefined);
            if !enumerable {
                walk.next += 1;
                return vm.keys_next(walk);
            }
            match walk.mode {
                KeysMode::Values | KeysMode::Entries => {
                    let object = walk.object;
                    vm.keys_call(walk, "Reflect.get", vec![object, key, object], Stage::Value)
                }
                _ => {
                    walk.out.push(key);
                    walk.next += 1;
                    vm.keys_next(walk)
                }
            }
        }
        Stage::Value => {
            let key = walk.keys.get(walk.next).copied().unwrap_or(Value::Undefined);
            let item = if walk.mode == KeysMode::Entries { vm.new_array([key, result])? } else { result };
            walk.out.push(item);
            walk.next += 1;
            vm.keys_next(walk)
        }
        Stage::Prototype => match result {
            Value::Obj(_) => vm.for_in_from(walk, result),
            _ => {
                let items = std::mem::take(&mut walk.out);
                Ok(Step::Return(vm.new_iterator(IterState::List { items, next: 0 })?))
            }
        },
    }
}
