//! `Promise`: the constructor, `resolve`/`reject`/`all`/`allSettled`/`race`/`any`, and
//! `then`/`catch`/`finally`.

use crate::meter::Work;
use codemode_bytecode::ErrorKind;

use super::promise_spec::{After, constructor_this, is_builtin, new_capability, species_of};
use super::{Native, NativeDef, Step, arg, require_callable};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::promise::{Combinator, Reaction};
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Promise", 1, promise_call, promise_construct),
    NativeDef::new("Promise", "resolve", 1, resolve),
    NativeDef::new("Promise", "reject", 1, reject),
    NativeDef::new("Promise", "all", 1, |vm, t, a, _d| combinator(vm, t, a, Combinator::All)),
    NativeDef::new("Promise", "allSettled", 1, |vm, t, a, _d| combinator(vm, t, a, Combinator::AllSettled)),
    NativeDef::new("Promise", "any", 1, |vm, t, a, _d| combinator(vm, t, a, Combinator::Any)),
    NativeDef::new("Promise", "race", 1, |vm, t, a, _d| combinator(vm, t, a, Combinator::Race)),
    NativeDef::new("Promise.prototype", "then", 2, then),
    NativeDef::new("Promise.prototype", "catch", 1, catch),
    NativeDef::new("Promise.prototype", "finally", 1, finally),
];

fn promise_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Promise constructor cannot be invoked without 'new'"))
}

/// `new Promise(executor)`: calls the executor with resolving functions; a throw rejects.
fn promise_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let executor = arg(args, 0);
    if !vm.is_callable(executor) {
        return Err(vm.make_error(ErrorKind::TypeError, "Promise resolver is not a function"));
    }
    let p = vm.new_promise()?;
    let resolve = vm.alloc_native(Native::PROMISE_RESOLVE_FUNCTION, vec![Value::Obj(p)])?;
    let reject = vm.alloc_native(Native::PROMISE_REJECT_FUNCTION, vec![Value::Obj(p)])?;
    // The executor's result is ignored; a throw out of it rejects `p` (see `Vm::unwind`).
    Ok(Step::Call {
        callee: executor,
        this: Value::Undefined,
        args: vec![resolve, reject],
        cont: super::Cont::PromiseExecutor { promise: p },
    })
}

/// `Promise.resolve(x)`: `x` itself when it is a promise whose `constructor` is `this`.
fn resolve(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let x = arg(args, 0);
    let intrinsic = constructor_this(vm, this, "resolve")?;
    if vm.is_promise(x).is_some() {
        let ctor = vm.get_value(x, Key::Atom(vm.realm.atoms.constructor))?;
        if ctor == this {
            return Ok(Step::Return(x));
        }
    }
    if !intrinsic {
        return new_capability(vm, this, After::Resolve(x));
    }
    let p = vm.new_promise()?;
    vm.resolve_promise(p, x)?;
    Ok(Step::Return(Value::Obj(p)))
}

fn reject(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !constructor_this(vm, this, "reject")? {
        return new_capability(vm, this, After::Reject(arg(args, 0)));
    }
    let p = vm.new_promise()?;
    vm.reject_promise(p, arg(args, 0))?;
    Ok(Step::Return(Value::Obj(p)))
}

/// `Promise.all`/`allSettled`/`any`/`race`: the returned promise is made first, and the work runs
/// in the internal `#internal.combinatorRun` under a [`super::Cont::PromiseExecutor`], so that
/// anything thrown while the iterable is read (a missing `[Symbol.iterator]`, a throwing `next()`
/// or `value` getter, a throwing `then` of an item) rejects it instead of escaping the call, as
/// `IfAbruptRejectPromise` says.
///
/// That direct path is taken when `this` is the intrinsic `Promise`, its own `resolve` is the
/// built-in and the iterable is an array; otherwise `promise_combine.rs` runs the specification's steps from a capability.
fn combinator(vm: &mut Vm, this: Value, args: &[Value], kind: Combinator) -> Result<Step, Throw> {
    let name = match kind {
        Combinator::All => "all",
        Combinator::AllSettled => "allSettled",
        Combinator::Any => "any",
        Combinator::Race => "race",
    };
    let intrinsic = constructor_this(vm, this, name)?;
    // A program's iterable (a generator, an object with its own `[Symbol.iterator]`) is stepped
    // one item at a time by the general path, which an endless iterator needs.
    let array = matches!(arg(args, 0), Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Array(_)));
    if !intrinsic || !array || !own_builtin(vm, this, "resolve", "Promise.resolve") {
        return new_capability(vm, this, After::Combinator { kind, c: this, iterable: arg(args, 0) });
    }
    let result = vm.new_promise()?;
    let Some(run) = Native::by_stable_name("#internal.combinatorRun") else {
        return Err(vm.make_error(ErrorKind::TypeError, "unknown built-in"));
    };
    let run = vm.alloc_native(run, Vec::new())?;
    Ok(Step::Call {
        callee: run,
        this: Value::Obj(result),
        args: vec![arg(args, 0), Value::Number(f64::from(kind as u8)), this],
        cont: super::Cont::PromiseExecutor { promise: result },
    })
}

/// Whether `obj`'s own data property `name` is the built-in `builtin` (no getter is run).
fn own_builtin(vm: &mut Vm, obj: Value, name: &str, builtin: &str) -> bool {
    let Value::Obj(id) = obj else { return false };
    let atom = vm.heap.atoms.intern(name);
    match vm.heap.obj(id).props.get(atom) {
        Some(slot) if slot.flags & crate::object::ACCESSOR == 0 => is_builtin(vm, slot.value(), builtin),
        _ => false,
    }
}

/// Whether the fast path sees what the specification's steps would: every item is a primitive
/// or a promise that inherits the intrinsic `then` and `constructor` unchanged and has no own
/// properties. Other objects take the general path, where reading an item's `then` (a getter,
/// perhaps) happens in `Promise.resolve`'s own call rather than midway through this loop.
fn items_plain(vm: &mut Vm, ctor: Value, items: &[Value]) -> bool {
    let proto = Value::Obj(vm.realm.promise_proto);
    if !own_builtin(vm, proto, "then", "Promise.prototype.then") {
        return false;
    }
    let ctor_atom = vm.realm.atoms.constructor;
    match vm.heap.obj(vm.realm.promise_proto).props.get(ctor_atom) {
        Some(slot) if slot.flags & crate::object::ACCESSOR == 0 && slot.value() == ctor => {}
        _ => return false,
    }
    items.iter().all(|item| match *item {
        Value::Obj(id) => {
            let obj = vm.heap.obj(id);
            matches!(obj.kind, ObjKind::Promise(_))
                && obj.proto == Some(vm.realm.promise_proto)
                && obj.props.is_empty()
        }
        _ => true,
    })
}

/// The body of a combinator: `this` is the promise it settles, `args` the iterable and the
/// [`Combinator`] as a number. Called again with the items collected when the iterable is a
/// program's (`collect_or_reenter`).
pub(super) fn combinator_run(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let Value::Obj(result) = this else { return Ok(Step::Return(Value::Undefined)) };
    let kind = super::promise_combine::kind_of(arg(args, 1));
    let items = match vm.collect_or_reenter("#internal.combinatorRun", false, this, args, 0)? {
        Ok(items) => items,
        Err(step) => return Ok(step),
    };
    let ctor = arg(args, 2);
    if !items_plain(vm, ctor, &items) {
        // Some item has its own `then` or `constructor`: the specification's steps, with this
        // promise as the capability (a throw rejects it through `Cont::PromiseExecutor`).
        let resolve = vm.alloc_native(Native::PROMISE_RESOLVE_FUNCTION, vec![this])?;
        let reject = vm.alloc_native(Native::PROMISE_REJECT_FUNCTION, vec![this])?;
        let promise_resolve = super::promise_spec::internal_fn(vm, "Promise.resolve", Vec::new())?;
        let parts =
            super::promise_combine::Parts { c: ctor, promise_resolve, promise: this, resolve, reject };
        return super::promise_combine::start(vm, kind, parts, items);
    }
    vm.charge(Work::Elements(items.len()));
    if kind == Combinator::Race {
        for item in items {
            let p = vm.promise_resolve(item)?;
            vm.add_reaction(p, Reaction::Combinator { kind: Combinator::Race, state: result, index: 0 })?;
        }
        return Ok(Step::Return(Value::Undefined));
    }
    if items.is_empty() {
        if kind == Combinator::Any {
            let errors = vm.new_array(Vec::new())?;
            let e = super::aggregate_error(vm, "All promises were rejected", errors)?;
            vm.reject_promise(result, e)?;
        } else {
            let empty = vm.new_array(Vec::new())?;
            vm.resolve_promise(result, empty)?;
        }
        return Ok(Step::Return(Value::Undefined));
    }
    let values = vm.new_array(vec![Value::Undefined; items.len()])?;
    let state = vm.new_array(vec![Value::Obj(result), values, Value::Number(items.len() as f64)])?;
    let Value::Obj(state) = state else { return Ok(Step::Return(Value::Undefined)) };
    for (i, item) in items.into_iter().enumerate() {
        let p = vm.promise_resolve(item)?;
        vm.add_reaction(p, Reaction::Combinator { kind, state, index: i as u32 })?;
    }
    Ok(Step::Return(Value::Undefined))
}

fn this_promise(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    match vm.is_promise(this) {
        Some(p) => Ok(p),
        None => {
            let msg = format!("Method Promise.prototype.{method} called on incompatible receiver");
            Err(vm.make_error(ErrorKind::TypeError, &msg))
        }
    }
}

/// `then`: the derived promise comes from `SpeciesConstructor(this, %Promise%)`.
fn then(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let p = this_promise(vm, this, "then")?;
    let (f, r) = (arg(args, 0), arg(args, 1));
    let f = if vm.is_callable(f) { f } else { Value::Undefined };
    let r = if vm.is_callable(r) { r } else { Value::Undefined };
    match species_of(vm, this)? {
        None => Ok(Step::Return(Value::Obj(vm.promise_then(p, f, r)?))),
        Some(c) => new_capability(vm, c, After::Then { promise: p, on_fulfilled: f, on_rejected: r }),
    }
}

/// `catch(r)` is `Invoke(this, "then", [undefined, r])`.
fn catch(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = arg(args, 0);
    let then_fn = vm.get_value(this, Key::Atom(vm.realm.atoms.then))?;
    if vm.is_promise(this).is_some() && is_builtin(vm, then_fn, "Promise.prototype.then") {
        return then(vm, this, &[Value::Undefined, r], &[]);
    }
    require_callable(vm, then_fn)?;
    Ok(Step::TailCall { callee: then_fn, this, args: vec![Value::Undefined, r] })
}

/// `finally(f)`: a direct reaction for an intrinsic promise; `then(f, f)` on anything else
/// when `f` is not callable.
fn finally(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !matches!(this, Value::Obj(_)) {
        return Err(vm.make_error(
            ErrorKind::TypeError,
            "Method Promise.prototype.finally called on incompatible receiver",
        ));
    }
    let f = arg(args, 0);
    let species = species_of(vm, this)?;
    let then_fn = vm.get_value(this, Key::Atom(vm.realm.atoms.then))?;
    let direct = species.is_none() && is_builtin(vm, then_fn, "Promise.prototype.then");
    // A native promise with a callback takes the direct reaction even when its species or
    // `then` is not the intrinsic one (thenFinally through a subclass's capability left the
    // awaited result unsettled in testing; see the branch's report), as it did before.
    if vm.is_promise(this).is_none() || (!direct && !vm.is_callable(f)) {
        require_callable(vm, then_fn)?;
        if !vm.is_callable(f) {
            return Ok(Step::TailCall { callee: then_fn, this, args: vec![f, f] });
        }
        // thenFinally / catchFinally: call `f`, then `PromiseResolve(C, result).then(pass)`.
        let c = match species {
            Some(c) => c,
            None => super::promise_spec::intrinsic_promise(vm)?,
        };
        let name = "#internal.finallyReaction";
        let then_finally = super::promise_spec::internal_fn(vm, name, vec![f, c, Value::Bool(false)])?;
        let catch_finally = super::promise_spec::internal_fn(vm, name, vec![f, c, Value::Bool(true)])?;
        return Ok(Step::TailCall { callee: then_fn, this, args: vec![then_finally, catch_finally] });
    }
    let p = this_promise(vm, this, "finally")?;
    let f = if vm.is_callable(f) { f } else { Value::Undefined };
    let derived = vm.new_promise()?;
    vm.add_reaction(p, Reaction::Finally { on_finally: f, derived: Some(derived) })?;
    Ok(Step::Return(Value::Obj(derived)))
}
