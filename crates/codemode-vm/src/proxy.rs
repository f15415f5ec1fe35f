//! Proxy objects: the thirteen internal methods of a `Proxy` exotic object.
//!
//! A trap is a program function, so nothing here calls it from Rust: [`Vm::proxy_op`] returns a
//! [`Step`] that calls the trap through the trampoline and waits in a [`Cont::Proxy`]; when the
//! trap returns, [`resume`] checks its result against the target's invariants (`proxy_check.rs`)
//! and finishes. A proxy without the trap forwards the operation to its target, which may be a
//! proxy too: forwarding is a loop here, never recursion, so a chain of any length runs in
//! constant Rust stack (each hop is charged). Reading the trap from the handler may itself run
//! program code (a getter, a handler that is a proxy): that read is a call too, and the
//! operation goes on when it returns.
//!
//! When the chain reaches an ordinary object, the ordinary operation runs (`builtins/reflect.rs`,
//! whose functions map 1:1 onto the traps); a `[[Get]]`, `[[Set]]` or `[[HasProperty]]` whose
//! prototype chain reaches a proxy goes on as that proxy's operation.
//!
//! The interpreter meets proxies only where an ordinary lookup misses (a proxy has no own
//! properties and no prototype link of its own): `Got::Proxy`, `SetFound::Proxy`,
//! `HasFound::Proxy`, and the non-function arms of calls and `new`.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{Cont, Native, Step};
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::props::{Got, Key};
use crate::value::{ObjId, Value};

/// One internal method, with its arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ProxyOp {
    Get {
        key: Key,
        receiver: Value,
    },
    Set {
        key: Key,
        value: Value,
        receiver: Value,
    },
    Has {
        key: Key,
    },
    Delete {
        key: Key,
    },
    GetOwnProperty {
        key: Key,
    },
    /// `desc`: a normalized descriptor object (made from the caller's, as the trap must see).
    DefineProperty {
        key: Key,
        desc: Value,
    },
    GetPrototypeOf,
    SetPrototypeOf {
        proto: Value,
    },
    IsExtensible,
    PreventExtensions,
    OwnKeys,
    Apply {
        this: Value,
        args: Vec<Value>,
    },
    Construct {
        args: Vec<Value>,
        new_target: Value,
    },
}

impl ProxyOp {
    /// The handler method that traps this operation.
    pub fn trap_name(&self) -> &'static str {
        match self {
            ProxyOp::Get { .. } => "get",
            ProxyOp::Set { .. } => "set",
            ProxyOp::Has { .. } => "has",
            ProxyOp::Delete { .. } => "deleteProperty",
            ProxyOp::GetOwnProperty { .. } => "getOwnPropertyDescriptor",
            ProxyOp::DefineProperty { .. } => "defineProperty",
            ProxyOp::GetPrototypeOf => "getPrototypeOf",
            ProxyOp::SetPrototypeOf { .. } => "setPrototypeOf",
            ProxyOp::IsExtensible => "isExtensible",
            ProxyOp::PreventExtensions => "preventExtensions",
            ProxyOp::OwnKeys => "ownKeys",
            ProxyOp::Apply { .. } => "apply",
            ProxyOp::Construct { .. } => "construct",
        }
    }

    fn trace(&self, out: &mut Vec<Value>) {
        match self {
            ProxyOp::Get { receiver, .. } => out.push(*receiver),
            ProxyOp::Set { value, receiver, .. } => out.extend([*value, *receiver]),
            ProxyOp::DefineProperty { desc, .. } => out.push(*desc),
            ProxyOp::SetPrototypeOf { proto } => out.push(*proto),
            ProxyOp::Apply { this, args } => {
                out.push(*this);
                out.extend_from_slice(args);
            }
            ProxyOp::Construct { args, new_target } => {
                out.push(*new_target);
                out.extend_from_slice(args);
            }
            _ => {}
        }
    }
}

/// Where a proxy operation waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// For the trap itself (read through a getter or a handler that is a proxy).
    Trap,
    /// For the trap's result, to check and convert.
    Result,
    /// `[[Set]]` whose receiver is a proxy: for the receiver's own descriptor of the key, to
    /// define the value on it next.
    ReceiverDesc,
}

/// The state of a proxy operation waiting for a call. Plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProxyCall {
    pub op: ProxyOp,
    pub target: ObjId,
    pub handler: ObjId,
    pub phase: Phase,
}

impl ProxyCall {
    pub fn trace(&self, out: &mut Vec<Value>) {
        self.op.trace(out);
        out.extend([Value::Obj(self.target), Value::Obj(self.handler)]);
    }
}

/// A strict-mode operation on a proxy waiting for its `true`/`false` answer: `false` is a
/// `TypeError` (an assignment, `delete`, `Object.defineProperty`, ...), `true` gives `value`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refusal {
    pub message: String,
    pub value: Value,
}

/// What `key in o` found ([`Vm::has_found`]).
pub enum HasFound {
    Yes,
    No,
    /// The chain reached this proxy: its `[[HasProperty]]` answers.
    Proxy(ObjId),
}

/// What the ordinary operation at the end of a forwarding chain did.
pub(crate) enum Ordinary {
    Done(Step),
    /// It reached a proxy on the prototype chain: the operation goes on there.
    Proxy(ObjId, ProxyOp),
}

impl ProxyOp {
    /// Runs this operation on `id` (`vm.proxy_op`).
    pub(crate) fn run_on(self, vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
        vm.proxy_op(id, self)
    }
}

impl Vm {
    /// Runs `op` on `start` (a proxy, or an ordinary object on a chain a proxy forwarded to).
    pub(crate) fn proxy_op(&mut self, start: ObjId, op: ProxyOp) -> Result<Step, Throw> {
        let (mut id, mut op) = (start, op);
        // Forwarding chains are acyclic through targets, but a prototype chain may lead back
        // into one: bounded by the heap's size, every hop charged.
        for _ in 0..=self.heap.objects.len() {
            self.charge(Work::Units(1));
            let (target, handler) = match self.heap.obj(id).kind {
                ObjKind::Proxy { target, handler, .. } => (target, handler),
                _ => match crate::builtins::reflect_ordinary(self, id, op)? {
                    Ordinary::Done(step) => return Ok(step),
                    Ordinary::Proxy(next, next_op) => {
                        (id, op) = (next, next_op);
                        continue;
                    }
                },
            };
            let Some(handler) = handler else {
                let msg = format!("Cannot perform '{}' on a proxy that has been revoked", op.trap_name());
                return Err(self.make_error(ErrorKind::TypeError, &msg));
            };
            let name = self.intern(op.trap_name())?;
            let call = ProxyCall { op, target, handler, phase: Phase::Trap };
            match self.get(Value::Obj(handler), Key::Atom(name))? {
                Got::Value(trap) if trap.is_nullish() => {
                    (id, op) = (target, call.op);
                }
                Got::Value(trap) => return self.call_trap(trap, call),
                Got::Getter(getter) => {
                    let cont = Cont::Proxy(Box::new(call));
                    return Ok(Step::Call {
                        callee: getter,
                        this: Value::Obj(handler),
                        args: Vec::new(),
                        cont,
                    });
                }
                Got::Proxy(p, key) => {
                    // The handler is (or inherits from) a proxy: its `[[Get]]` reads the trap.
                    let get = self.builtin_fn("Reflect.get")?;
                    let key = self.key_to_value(key)?;
                    let cont = Cont::Proxy(Box::new(call));
                    let args = vec![Value::Obj(p), key, Value::Obj(handler)];
                    return Ok(Step::Call { callee: get, this: Value::Undefined, args, cont });
                }
            }
        }
        Err(self.make_error(ErrorKind::RangeError, "Proxy forwarding chain too long"))
    }

    /// Calls the trap with the operation's arguments; its result comes back to [`resume`].
    fn call_trap(&mut self, trap: Value, call: ProxyCall) -> Result<Step, Throw> {
        if !self.is_callable(trap) {
            let msg = format!("proxy trap '{}' is not a function", call.op.trap_name());
            return Err(self.make_error(ErrorKind::TypeError, &msg));
        }
        let target = Value::Obj(call.target);
        let args = match &call.op {
            ProxyOp::Get { key, receiver } => vec![target, self.key_to_value(*key)?, *receiver],
            ProxyOp::Set { key, value, receiver } => {
                vec![target, self.key_to_value(*key)?, *value, *receiver]
            }
            ProxyOp::Has { key } | ProxyOp::Delete { key } | ProxyOp::GetOwnProperty { key } => {
                vec![target, self.key_to_value(*key)?]
            }
            ProxyOp::DefineProperty { key, desc } => vec![target, self.key_to_value(*key)?, *desc],
            ProxyOp::SetPrototypeOf { proto } => vec![target, *proto],
            ProxyOp::GetPrototypeOf
            | ProxyOp::IsExtensible
            | ProxyOp::PreventExtensions
            | ProxyOp::OwnKeys => {
                vec![target]
            }
            ProxyOp::Apply { this, args } => {
                self.charge(Work::Elements(args.len()));
                let list = self.new_array(args.clone())?;
                vec![target, *this, list]
            }
            ProxyOp::Construct { args, new_target } => {
                self.charge(Work::Elements(args.len()));
                let list = self.new_array(args.clone())?;
                vec![target, list, *new_target]
            }
        };
        let handler = Value::Obj(call.handler);
        let call = ProxyCall { phase: Phase::Result, ..call };
        Ok(Step::Call { callee: trap, this: handler, args, cont: Cont::Proxy(Box::new(call)) })
    }

    /// A fresh function object for the built-in with this stable name (`"Reflect.get"`): a way
    /// for a proxy operation to run another object operation as a call and wait for it.
    pub(crate) fn builtin_fn(&mut self, name: &str) -> Result<Value, Throw> {
        match Native::by_stable_name(name) {
            Some(native) => self.alloc_native(native, Vec::new()),
            None => Err(self.make_error(ErrorKind::TypeError, "unknown built-in")),
        }
    }

    /// Runs the `Reflect` built-in `name` with `args` as a call whose `false` answer is a
    /// `TypeError` with `message` (strict-mode assignment, `delete`, `Object.defineProperty`
    /// ...); `true` gives `value`.
    pub(crate) fn proxy_strict(
        &mut self,
        name: &str,
        args: Vec<Value>,
        message: String,
        value: Value,
    ) -> Result<Step, Throw> {
        let callee = self.builtin_fn(name)?;
        let cont = Cont::ProxyRefusal(Box::new(Refusal { message, value }));
        Ok(Step::Call { callee, this: Value::Undefined, args, cont })
    }

    /// The `TypeError` for a built-in that cannot go through a proxy's traps yet.
    pub(crate) fn proxy_unsupported(&mut self, what: &str) -> Throw {
        let msg = format!("{what} does not support Proxy objects yet");
        self.make_error(ErrorKind::TypeError, &msg)
    }

    /// Whether `v` is a proxy object.
    pub(crate) fn as_proxy(&self, v: Value) -> Option<ObjId> {
        match v {
            Value::Obj(id) if matches!(self.heap.obj(id).kind, ObjKind::Proxy { .. }) => Some(id),
            _ => None,
        }
    }

    /// The first object of a forwarding chain that is not a proxy (its target's target ...),
    /// or a `TypeError` when a proxy on the way is revoked. Used where the target's own state
    /// is read without traps: invariant checks, `Array.isArray`, a constructor's `prototype`.
    pub(crate) fn proxy_innermost(&mut self, id: ObjId) -> Result<ObjId, Throw> {
        let mut cur = id;
        for _ in 0..=self.heap.objects.len() {
            match self.heap.obj(cur).kind {
                ObjKind::Proxy { handler: None, .. } => {
                    let msg = "Cannot perform this operation on a proxy that has been revoked";
                    return Err(self.make_error(ErrorKind::TypeError, msg));
                }
                ObjKind::Proxy { target, .. } => {
                    self.charge(Work::Units(1));
                    cur = target;
                }
                _ => return Ok(cur),
            }
        }
        Err(self.make_error(ErrorKind::RangeError, "Proxy forwarding chain too long"))
    }

    /// Whether the chain from `v` (an object) reaches a proxy (a read of a key never interned
    /// must still reach its `get` trap).
    pub(crate) fn chain_has_proxy(&self, v: Value) -> bool {
        let Value::Obj(mut id) = v else { return false };
        for _ in 0..10_000 {
            let obj = self.heap.obj(id);
            match obj.proto {
                Some(p) => id = p,
                None => return matches!(obj.kind, ObjKind::Proxy { .. }),
            }
        }
        false
    }
}

/// A proxy operation's call returned `result`.
pub(crate) fn resume(vm: &mut Vm, call: ProxyCall, result: Value) -> Result<Step, Throw> {
    match call.phase {
        Phase::Trap if result.is_nullish() => vm.proxy_op(call.target, call.op),
        Phase::Trap => vm.call_trap(result, call),
        Phase::Result => crate::proxy_check::check(vm, call, result),
        Phase::ReceiverDesc => {
            let ProxyOp::Set { key, value, .. } = call.op else {
                return Ok(Step::Return(Value::Bool(false)));
            };
            // `call.target` is the receiver here.
            let desc = if result == Value::Undefined {
                crate::proxy_check::data_descriptor(vm, value, true)?
            } else {
                let d = crate::builtins::read_descriptor(vm, result)?;
                if d.get.is_some() || d.set.is_some() || d.writable == Some(false) {
                    return Ok(Step::Return(Value::Bool(false)));
                }
                crate::proxy_check::data_descriptor(vm, value, false)?
            };
            vm.proxy_op(call.target, ProxyOp::DefineProperty { key, desc })
        }
    }
}

/// A strict operation's answer arrived.
pub(crate) fn resume_refusal(vm: &mut Vm, refusal: Refusal, result: Value) -> Result<Step, Throw> {
    if vm.to_boolean(result) {
        Ok(Step::Return(refusal.value))
    } else {
        Err(vm.make_error(ErrorKind::TypeError, &refusal.message))
    }
}
