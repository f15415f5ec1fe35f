//! Where the interpreter's operations meet a proxy: property reads and writes that reached one,
//! `delete`, `in`, `instanceof` and `new`. Each runs the proxy operation (`proxy.rs`) as a step
//! through the trampoline and delivers its result where the instruction wanted it.

use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{Cont, Step};
use crate::call::Throw;
use crate::frame::ReturnTo;
use crate::object::ObjKind;
use crate::props::{Got, Key};
use crate::proxy::{HasFound, ProxyOp};
use crate::value::{ObjId, Value};
use codemode_bytecode::ErrorKind;

/// `v instanceof C` when `C` is a proxy or `v`'s chain reaches one: the reads of
/// `C[Symbol.hasInstance]` and `C.prototype` and each `[[GetPrototypeOf]]` of a proxy are calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceOf {
    value: Value,
    ctor: Value,
    stage: Stage,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
enum Stage {
    /// Waiting for `C[Symbol.hasInstance]`.
    HasInstance,
    /// Waiting for `C.prototype`.
    Prototype,
    /// Waiting for a proxy's prototype, walking toward `proto`.
    Walk { proto: ObjId },
}

impl InstanceOf {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([self.value, self.ctor]);
        if let Stage::Walk { proto } = self.stage {
            out.push(Value::Obj(proto));
        }
    }
}

impl Vm {
    fn run_step_into(&mut self, step: Step, ret: ReturnTo) -> Result<(), Throw> {
        let pending = self.apply_step(step, ret)?;
        self.deliver(pending)
    }

    /// `receiver[key]` reached proxy `p`: its `[[Get]]`, into register `dst`.
    pub(crate) fn proxy_get(&mut self, p: ObjId, key: Key, receiver: Value, dst: u16) -> Result<(), Throw> {
        let step = self.proxy_op(p, ProxyOp::Get { key, receiver })?;
        self.run_step_into(step, ReturnTo::Reg(dst))
    }

    /// `receiver[key] = value` reached proxy `p`: its `[[Set]]`; `false` is a `TypeError`
    /// (assignments are strict).
    pub(crate) fn proxy_set(
        &mut self,
        p: ObjId,
        key: Key,
        value: Value,
        receiver: Value,
    ) -> Result<(), Throw> {
        let k = self.key_to_value(key)?;
        let msg = format!("'set' on proxy: trap returned falsish for property '{}'", self.key_display(key));
        let step =
            self.proxy_strict("Reflect.set", vec![Value::Obj(p), k, value, receiver], msg, Value::Undefined)?;
        self.run_step_into(step, ReturnTo::Discard)
    }

    /// `delete p[key]`; `false` is a `TypeError` (strict).
    pub(crate) fn proxy_delete(&mut self, p: ObjId, key: Key, dst: u16) -> Result<(), Throw> {
        let k = self.key_to_value(key)?;
        let msg = format!(
            "'deleteProperty' on proxy: trap returned falsish for property '{}'",
            self.key_display(key)
        );
        let step =
            self.proxy_strict("Reflect.deleteProperty", vec![Value::Obj(p), k], msg, Value::Bool(true))?;
        self.run_step_into(step, ReturnTo::Reg(dst))
    }

    /// `k in o` when `o`'s chain reaches a proxy: its `[[HasProperty]]` answers (into `ret`).
    /// `Ok(false)`: no proxy, the ordinary operator decides.
    pub(crate) fn proxy_in(&mut self, [k, o]: [Value; 2], ret: ReturnTo) -> Result<bool, Throw> {
        if !matches!(o, Value::Obj(_)) || !self.chain_has_proxy(o) {
            return Ok(false);
        }
        let key = self.to_key(k)?;
        let step = match self.has_found(o, key) {
            HasFound::Yes => Step::Return(Value::Bool(true)),
            HasFound::No => Step::Return(Value::Bool(false)),
            HasFound::Proxy(p) => self.proxy_op(p, ProxyOp::Has { key })?,
        };
        self.run_step_into(step, ret)?;
        Ok(true)
    }

    /// `v instanceof c` when a proxy is involved (`Ok(false)`: none is, the ordinary operator
    /// decides).
    pub(crate) fn proxy_instance_of(&mut self, [v, c]: [Value; 2], ret: ReturnTo) -> Result<bool, Throw> {
        if self.as_proxy(c).is_none() && !self.chain_has_proxy(v) {
            return Ok(false);
        }
        let Value::Obj(_) = c else { return Ok(false) };
        let state = InstanceOf { value: v, ctor: c, stage: Stage::HasInstance };
        let key = Value::Symbol(self.realm.symbols.has_instance);
        let step = self.instance_read(state, key)?;
        self.run_step_into(step, ret)?;
        Ok(true)
    }

    /// Reads `C[key]` as a call (`Reflect.get`, so a proxy's trap runs) and waits in `state`.
    fn instance_read(&mut self, state: InstanceOf, key: Value) -> Result<Step, Throw> {
        let get = self.builtin_fn("Reflect.get")?;
        let args = vec![state.ctor, key];
        Ok(Step::Call { callee: get, this: Value::Undefined, args, cont: Cont::InstanceOf(Box::new(state)) })
    }

    /// Walks `v`'s prototypes from `cur` toward `proto`; a proxy's prototype is a call.
    fn instance_walk(&mut self, state: InstanceOf, mut cur: ObjId, proto: ObjId) -> Result<Step, Throw> {
        for _ in 0..=self.heap.objects.len() {
            if let ObjKind::Proxy { .. } = self.heap.obj(cur).kind {
                let f = self.builtin_fn("Reflect.getPrototypeOf")?;
                let state = InstanceOf { stage: Stage::Walk { proto }, ..state };
                let cont = Cont::InstanceOf(Box::new(state));
                return Ok(Step::Call {
                    callee: f,
                    this: Value::Undefined,
                    args: vec![Value::Obj(cur)],
                    cont,
                });
            }
            self.charge(crate::meter::Work::Units(1));
            match self.heap.obj(cur).proto {
                Some(p) if p == proto => return Ok(Step::Return(Value::Bool(true))),
                Some(p) => cur = p,
                None => return Ok(Step::Return(Value::Bool(false))),
            }
        }
        Ok(Step::Return(Value::Bool(false)))
    }

    /// A built-in's read that reached proxy `p`: `Reflect.get(p, key, receiver)` as a call whose
    /// value goes to `cont`.
    pub(crate) fn proxy_get_call(
        &mut self,
        p: ObjId,
        key: Key,
        receiver: Value,
        cont: Cont,
    ) -> Result<Step, Throw> {
        let get = self.builtin_fn("Reflect.get")?;
        let k = self.key_to_value(key)?;
        Ok(Step::Call { callee: get, this: Value::Undefined, args: vec![Value::Obj(p), k, receiver], cont })
    }

    /// The innermost target of proxy `p` when no proxy on the way has an `ownKeys` or
    /// `getOwnPropertyDescriptor` trap (its own enumerable keys are then the target's), else a
    /// `TypeError`: listing keys through those traps is not supported here yet. An array target
    /// is refused too (its elements are listed by length, not keys).
    pub(crate) fn proxy_traps_keys_plainly(&mut self, p: ObjId) -> Result<ObjId, Throw> {
        let mut cur = p;
        for _ in 0..=self.heap.objects.len() {
            match self.heap.obj(cur).kind {
                ObjKind::Proxy { target, handler: Some(h), .. } => {
                    if !self.lacks_trap(h, "ownKeys") || !self.lacks_trap(h, "getOwnPropertyDescriptor") {
                        break;
                    }
                    cur = target;
                }
                ObjKind::Proxy { handler: None, .. } => break,
                ObjKind::Array(_) => break,
                _ => return Ok(cur),
            }
        }
        Err(self.proxy_unsupported(
            "listing the keys of this proxy (ownKeys, getOwnPropertyDescriptor traps, arrays)",
        ))
    }

    /// `new` of proxy `p` (a constructor) with `new_target`: its `[[Construct]]`.
    pub(crate) fn proxy_construct(
        &mut self,
        p: ObjId,
        args: &[Value],
        new_target: ObjId,
        into: ReturnTo,
    ) -> Result<crate::call::Pending, Throw> {
        let op = ProxyOp::Construct { args: args.to_vec(), new_target: Value::Obj(new_target) };
        let step = self.proxy_op(p, op)?;
        self.apply_step(step, into)
    }

    /// Whether `handler` plainly has no `name` trap (no getter or proxy could answer otherwise),
    /// so an operation may skip the proxy without running program code.
    pub(crate) fn lacks_trap(&mut self, handler: ObjId, name: &str) -> bool {
        let Some(atom) = self.heap.atoms.lookup(name) else {
            return !self.chain_has_proxy(Value::Obj(handler));
        };
        matches!(self.get(Value::Obj(handler), Key::Atom(atom)), Ok(Got::Value(v)) if v.is_nullish())
    }
}

/// An `instanceof` read or walk returned `result`.
pub(crate) fn resume_instance_of(vm: &mut Vm, state: InstanceOf, result: Value) -> Result<Step, Throw> {
    match state.stage {
        Stage::HasInstance => {
            // `Function.prototype[Symbol.hasInstance]` is OrdinaryHasInstance: the walk below,
            // which asks proxies for their prototypes.
            let ordinary = match result {
                Value::Obj(id) => matches!(
                    vm.heap.obj(id).kind,
                    ObjKind::Function(crate::object::Callable::Native { native, .. })
                        if Some(native) == crate::builtins::Native::by_stable_name("Function.prototype.@@hasInstance")
                ),
                _ => false,
            };
            if !result.is_nullish() && !ordinary {
                if !vm.is_callable(result) {
                    return Err(vm.make_error(ErrorKind::TypeError, "Symbol.hasInstance is not a function"));
                }
                let cont = Cont::Truthy;
                return Ok(Step::Call { callee: result, this: state.ctor, args: vec![state.value], cont });
            }
            if !vm.is_callable(state.ctor) {
                return Err(
                    vm.make_error(ErrorKind::TypeError, "Right-hand side of 'instanceof' is not callable")
                );
            }
            let Value::Obj(_) = state.value else { return Ok(Step::Return(Value::Bool(false))) };
            let key = vm.intern_string("prototype")?;
            vm.instance_read(InstanceOf { stage: Stage::Prototype, ..state }, key)
        }
        Stage::Prototype => {
            let Value::Obj(proto) = result else {
                let msg = "Function has non-object prototype in instanceof check";
                return Err(vm.make_error(ErrorKind::TypeError, msg));
            };
            let Value::Obj(v) = state.value else { return Ok(Step::Return(Value::Bool(false))) };
            vm.instance_walk(state, v, proto)
        }
        Stage::Walk { proto } => match result {
            Value::Obj(p) if p == proto => Ok(Step::Return(Value::Bool(true))),
            Value::Obj(p) => vm.instance_walk(state, p, proto),
            _ => Ok(Step::Return(Value::Bool(false))),
        },
    }
}
