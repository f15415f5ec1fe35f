//! The specification's general paths for the `Promise` built-ins when the constructor is not
//! the intrinsic `%Promise%` (a subclass, a `NotPromise` function, a species):
//! `NewPromiseCapability(C)` through a GetCapabilitiesExecutor function object,
//! `SpeciesConstructor` for `then`, the reaction that settles a capability, and the catching
//! continuation ([`Cont::CatchReject`]) that calls a capability's `reject` when its body throws.
//!
//! The intrinsic case never comes here: `promise.rs` keeps its direct paths (a native promise
//! and its reactions), so ordinary programs pay only the reads the specification makes
//! observable (`constructor`, `[Symbol.species]`, `resolve`).

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::{Cont, Native, NativeDef, Step, arg, require_callable};
use crate::Vm;
use crate::call::Throw;
use crate::object::{Callable, ObjKind};
use crate::promise::{Combinator, Reaction};
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("#internal", "capabilityExecutor", 2, capability_executor),
    NativeDef::new("#internal", "capabilityReaction", 1, capability_reaction),
    NativeDef::new("#internal", "invokeThen", 2, invoke_then),
    NativeDef::new("#internal", "finallyReaction", 1, finally_reaction),
];

/// The intrinsic `%Promise%`: `Promise.prototype.constructor` while it is unchanged, else a
/// function object of the same built-in (the same behaviour; only its identity differs).
pub(crate) fn intrinsic_promise(vm: &mut Vm) -> Result<Value, Throw> {
    let atom = vm.realm.atoms.constructor;
    if let Some(slot) = vm.heap.obj(vm.realm.promise_proto).props.get(atom)
        && slot.flags & crate::object::ACCESSOR == 0
        && is_builtin(vm, slot.value(), ".Promise")
    {
        return Ok(slot.value());
    }
    internal_fn(vm, ".Promise", Vec::new())
}

/// A `finally` callback's thenFinally (data = [onFinally, C, false]) or catchFinally (data =
/// [onFinally, C, true]): calls `onFinally()`, then [`resume_finally`].
fn finally_reaction(_vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Call {
        callee: arg(data, 0),
        this: Value::Undefined,
        args: Vec::new(),
        cont: Cont::Finally {
            c: arg(data, 1),
            value: arg(args, 0),
            rejected: arg(data, 2) == Value::Bool(true),
            resolved: false,
        },
    })
}

/// `onFinally()` returned `result`: `PromiseResolve(C, result)` (what `Promise.resolve` does
/// with `this` = C); then, with that promise, `Invoke(p, "then", [valueThunk or thrower])`.
pub(crate) fn resume_finally(
    vm: &mut Vm,
    c: Value,
    value: Value,
    rejected: bool,
    resolved: bool,
    result: Value,
) -> Result<Step, Throw> {
    if !resolved {
        let promise_resolve = internal_fn(vm, "Promise.resolve", Vec::new())?;
        return Ok(Step::Call {
            callee: promise_resolve,
            this: c,
            args: vec![result],
            cont: Cont::Finally { c, value, rejected, resolved: true },
        });
    }
    let pass = vm.alloc_native(Native::FINALLY_PASS, vec![value, Value::Bool(rejected)])?;
    let invoke = internal_fn(vm, "#internal.invokeThen", Vec::new())?;
    Ok(Step::TailCall { callee: invoke, this: result, args: vec![pass] })
}

/// What to do once `new C(executor)` made the capability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum After {
    Resolve(Value),
    Reject(Value),
    WithResolvers,
    Try { f: Value, args: Vec<Value> },
    Then { promise: ObjId, on_fulfilled: Value, on_rejected: Value },
    Combinator { kind: Combinator, c: Value, iterable: Value },
}

/// `new C(executor)` is running; `holder` is the `[resolve, reject]` array the executor fills.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapStep {
    holder: Value,
    after: After,
}

impl CapStep {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(self.holder);
        match &self.after {
            After::Resolve(v) | After::Reject(v) => out.push(*v),
            After::WithResolvers => {}
            After::Try { f, args } => {
                out.push(*f);
                out.extend(args.iter().copied());
            }
            After::Then { promise, on_fulfilled, on_rejected } => {
                out.extend([Value::Obj(*promise), *on_fulfilled, *on_rejected])
            }
            After::Combinator { c, iterable, .. } => out.extend([*c, *iterable]),
        }
    }
}

/// A fresh function object of the internal built-in `name` bound to `data`.
pub(crate) fn internal_fn(vm: &mut Vm, name: &str, data: Vec<Value>) -> Result<Value, Throw> {
    match Native::by_stable_name(name) {
        Some(n) => vm.alloc_native(n, data),
        None => Err(vm.make_error(ErrorKind::TypeError, "unknown built-in")),
    }
}

/// Whether `v` is a function object of the built-in `name` (`".Promise"`, `"Promise.resolve"`).
pub(crate) fn is_builtin(vm: &Vm, v: Value, name: &str) -> bool {
    let Value::Obj(id) = v else { return false };
    match &vm.heap.obj(id).kind {
        ObjKind::Function(Callable::Native { native, .. }) => Native::by_stable_name(name) == Some(*native),
        _ => false,
    }
}

/// Whether promise `id` inherits the intrinsic `then` from an unchanged `Promise.prototype` and
/// has no own properties: then adopting its state directly is what calling its `then` would do.
pub(crate) fn plain_promise(vm: &Vm, id: ObjId) -> bool {
    static THEN: std::sync::LazyLock<Option<Native>> =
        std::sync::LazyLock::new(|| Native::by_stable_name("Promise.prototype.then"));
    let obj = vm.heap.obj(id);
    if obj.proto != Some(vm.realm.promise_proto) || !obj.props.is_empty() {
        return false;
    }
    match vm.heap.obj(vm.realm.promise_proto).props.get(vm.realm.atoms.then) {
        Some(slot) if slot.flags & crate::object::ACCESSOR == 0 => match slot.value() {
            Value::Obj(f) => matches!(
                &vm.heap.obj(f).kind,
                ObjKind::Function(Callable::Native { native, .. }) if Some(*native) == *THEN
            ),
            _ => false,
        },
        _ => false,
    }
}

/// The `this` of a `Promise` static must be an object; `true` when it is the intrinsic.
pub(crate) fn constructor_this(vm: &mut Vm, this: Value, method: &str) -> Result<bool, Throw> {
    if !matches!(this, Value::Obj(_)) {
        let msg = format!("Promise.{method} called on non-object");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    Ok(is_builtin(vm, this, ".Promise"))
}

/// `SpeciesConstructor(promise, %Promise%)`: `None` when it is the intrinsic `%Promise%`.
pub(crate) fn species_of(vm: &mut Vm, promise: Value) -> Result<Option<Value>, Throw> {
    let ctor = vm.get_value(promise, Key::Atom(vm.realm.atoms.constructor))?;
    if ctor == Value::Undefined {
        return Ok(None);
    }
    if !matches!(ctor, Value::Obj(_)) {
        return Err(vm.make_error(ErrorKind::TypeError, "The promise's constructor is not an object"));
    }
    let species = vm.get_value(ctor, Key::Atom(vm.realm.symbols.species))?;
    if species.is_nullish() || is_builtin(vm, species, ".Promise") {
        return Ok(None);
    }
    match species {
        Value::Obj(id) if vm.is_constructor(id) => Ok(Some(species)),
        _ => {
            Err(vm
                .make_error(ErrorKind::TypeError, "object.constructor[Symbol.species] is not a constructor"))
        }
    }
}

/// `NewPromiseCapability(C)`: `new C(executor)` runs as a [`Step::Construct`] (so `C` may be
/// any constructor: a class, a function, a bound function), then [`resume_capability`] checks what the executor received and goes on
/// with `after`.
pub(crate) fn new_capability(vm: &mut Vm, c: Value, after: After) -> Result<Step, Throw> {
    let id = match c {
        Value::Obj(id) if vm.is_constructor(id) => id,
        _ => {
            let desc = vm.describe_for_error(c);
            return Err(vm.make_error(ErrorKind::TypeError, &format!("{desc} is not a constructor")));
        }
    };
    let holder = vm.new_array(vec![Value::Undefined, Value::Undefined])?;
    let executor = internal_fn(vm, "#internal.capabilityExecutor", vec![holder])?;
    Ok(Step::Construct {
        callee: id,
        new_target: id,
        args: vec![executor],
        cont: Cont::Capability(Box::new(CapStep { holder, after })),
    })
}

/// GetCapabilitiesExecutor: data = [the `[resolve, reject]` holder].
fn capability_executor(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let holder = arg(data, 0);
    let items = vm.array_items(holder);
    if arg(&items, 0) != Value::Undefined || arg(&items, 1) != Value::Undefined {
        return Err(vm.make_error(
            ErrorKind::TypeError,
            "Promise executor has already been invoked with non-undefined arguments",
        ));
    }
    vm.define(holder, Key::Index(0), arg(args, 0))?;
    vm.define(holder, Key::Index(1), arg(args, 1))?;
    Ok(Step::Return(Value::Undefined))
}

/// `new C(executor)` returned `promise`: the capability is complete; do what was asked.
pub(crate) fn resume_capability(vm: &mut Vm, step: CapStep, promise: Value) -> Result<Step, Throw> {
    let items = vm.array_items(step.holder);
    let (resolve, reject) = (arg(&items, 0), arg(&items, 1));
    if !vm.is_callable(resolve) || !vm.is_callable(reject) {
        return Err(vm.make_error(ErrorKind::TypeError, "Promise resolve or reject function is not callable"));
    }
    let call =
        |callee, args| Step::Call { callee, this: Value::Undefined, args, cont: Cont::ReturnValue(promise) };
    match step.after {
        After::Resolve(x) => Ok(call(resolve, vec![x])),
        After::Reject(x) => Ok(call(reject, vec![x])),
        After::WithResolvers => {
            let out = vm.new_object()?;
            for (name, v) in [("promise", promise), ("resolve", resolve), ("reject", reject)] {
                let atom = vm.intern(name)?;
                vm.define(out, Key::Atom(atom), v)?;
            }
            Ok(Step::Return(out))
        }
        After::Try { f, args } => Ok(Step::Call {
            callee: f,
            this: Value::Undefined,
            args,
            cont: Cont::CatchReject { resolve, reject, result: promise },
        }),
        After::Then { promise: p, on_fulfilled, on_rejected } => {
            vm.add_reaction(p, Reaction::ThenCapability { on_fulfilled, on_rejected, resolve, reject })?;
            Ok(Step::Return(promise))
        }
        After::Combinator { kind, c, iterable } => {
            let general = internal_fn(vm, "#internal.combinatorGeneral", Vec::new())?;
            Ok(Step::Call {
                callee: general,
                this: c,
                args: vec![iterable, Value::Number(f64::from(kind as u8)), promise, resolve, reject],
                cont: Cont::CatchReject { resolve: Value::Undefined, reject, result: promise },
            })
        }
    }
}

/// [`Cont::CatchReject`] resumed normally: `resolve(returned)` when there is a `resolve`, and
/// the built-in's result is `result` (a throw goes to `reject` instead, see `call.rs`).
pub(crate) fn resume_catch(
    vm: &mut Vm,
    resolve: Value,
    result: Value,
    returned: Value,
) -> Result<Step, Throw> {
    if vm.is_callable(resolve) {
        return Ok(Step::Call {
            callee: resolve,
            this: Value::Undefined,
            args: vec![returned],
            cont: Cont::ReturnValue(result),
        });
    }
    Ok(Step::Return(result))
}

/// [`Cont::CatchReject`] met a throw: `reject(error)`, and the built-in's result is `result`.
pub(crate) fn caught(reject: Value, result: Value, error: Value) -> Step {
    Step::Call { callee: reject, this: Value::Undefined, args: vec![error], cont: Cont::ReturnValue(result) }
}

/// The job of a `then` whose derived promise is a capability: data = [handler, resolve,
/// reject]; the handler's result resolves the capability, its throw rejects it.
fn capability_reaction(_vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Call {
        callee: arg(data, 0),
        this: Value::Undefined,
        args: vec![arg(args, 0)],
        cont: Cont::CatchReject { resolve: arg(data, 1), reject: arg(data, 2), result: Value::Undefined },
    })
}

/// `Invoke(this, "then", args)`: the read of `then` runs here, in a built-in's first run, so a
/// getter on it runs by replay.
fn invoke_then(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let then = vm.get_value(this, Key::Atom(vm.realm.atoms.then))?;
    require_callable(vm, then)?;
    Ok(Step::TailCall { callee: then, this, args: args.to_vec() })
}

impl Vm {
    /// Runs a [`Reaction::ThenCapability`].
    pub(crate) fn run_capability_reaction(
        &mut self,
        handler: Value,
        resolve: Value,
        reject: Value,
        value: Value,
        rejected: bool,
    ) -> Result<(), Throw> {
        let callee = if self.is_callable(handler) {
            internal_fn(self, "#internal.capabilityReaction", vec![handler, resolve, reject])?
        } else if rejected {
            reject
        } else {
            resolve
        };
        let result = self.call_value(callee, Value::Undefined, &[value], crate::frame::ReturnTo::Discard);
        // A throw out of the capability's own functions has nowhere to go (HostReportErrors).
        match result.and_then(|p| self.deliver(p)) {
            Ok(()) | Err(_) => Ok(()),
        }
    }
}
