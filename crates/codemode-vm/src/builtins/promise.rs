//! `Promise`: the constructor, `resolve`/`reject`/`all`/`allSettled`/`race`/`any`, and
//! `then`/`catch`/`finally`.

use crate::meter::Work;
use codemode_bytecode::ErrorKind;

use super::{Native, NativeDef, Step, arg, require_callable};
use crate::Vm;
use crate::call::Throw;
use crate::promise::{Combinator, Reaction};
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Promise", 1, promise_call, promise_construct),
    NativeDef::new("Promise", "resolve", 1, resolve),
    NativeDef::new("Promise", "reject", 1, reject),
    NativeDef::new("Promise", "all", 1, |vm, _t, a, _d| combinator(vm, a, Combinator::All)),
    NativeDef::new("Promise", "allSettled", 1, |vm, _t, a, _d| combinator(vm, a, Combinator::AllSettled)),
    NativeDef::new("Promise", "any", 1, |vm, _t, a, _d| combinator(vm, a, Combinator::Any)),
    NativeDef::new("Promise", "race", 1, |vm, _t, a, _d| combinator(vm, a, Combinator::Race)),
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

fn resolve(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let p = vm.promise_resolve(arg(args, 0))?;
    Ok(Step::Return(Value::Obj(p)))
}

fn reject(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let p = vm.new_promise()?;
    vm.reject_promise(p, arg(args, 0))?;
    Ok(Step::Return(Value::Obj(p)))
}

/// `Promise.all`/`allSettled`/`any`/`race`: the returned promise is made first, and the work runs
/// in the internal `#internal.combinatorRun` under a [`super::Cont::PromiseExecutor`], so that
/// anything thrown while the iterable is read (a missing `[Symbol.iterator]`, a throwing `next()`
/// or `value` getter, a throwing `then` of an item) rejects it instead of escaping the call, as
/// `IfAbruptRejectPromise` says.
fn combinator(vm: &mut Vm, args: &[Value], kind: Combinator) -> Result<Step, Throw> {
    let result = vm.new_promise()?;
    let Some(run) = Native::by_stable_name("#internal.combinatorRun") else {
        return Err(vm.make_error(ErrorKind::TypeError, "unknown built-in"));
    };
    let run = vm.alloc_native(run, Vec::new())?;
    Ok(Step::Call {
        callee: run,
        this: Value::Obj(result),
        args: vec![arg(args, 0), Value::Number(f64::from(kind as u8))],
        cont: super::Cont::PromiseExecutor { promise: result },
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
    let kind = match arg(args, 1) {
        Value::Number(1.0) => Combinator::AllSettled,
        Value::Number(2.0) => Combinator::Any,
        Value::Number(3.0) => Combinator::Race,
        _ => Combinator::All,
    };
    let items = match vm.collect_or_reenter("#internal.combinatorRun", false, this, args, 0)? {
        Ok(items) => items,
        Err(step) => return Ok(step),
    };
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

fn then(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let p = this_promise(vm, this, "then")?;
    let (f, r) = (arg(args, 0), arg(args, 1));
    let f = if vm.is_callable(f) { f } else { Value::Undefined };
    let r = if vm.is_callable(r) { r } else { Value::Undefined };
    Ok(Step::Return(Value::Obj(vm.promise_then(p, f, r)?)))
}

fn catch(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let p = this_promise(vm, this, "catch")?;
    let r = arg(args, 0);
    let r = if vm.is_callable(r) { r } else { Value::Undefined };
    Ok(Step::Return(Value::Obj(vm.promise_then(p, Value::Undefined, r)?)))
}

fn finally(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let p = this_promise(vm, this, "finally")?;
    let f = arg(args, 0);
    if f != Value::Undefined {
        require_callable(vm, f)?;
    }
    let derived = vm.new_promise()?;
    vm.add_reaction(p, Reaction::Finally { on_finally: f, derived: Some(derived) })?;
    Ok(Step::Return(Value::Obj(derived)))
}
