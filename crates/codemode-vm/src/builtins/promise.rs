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
    NativeDef::new("Promise", "race", 1, race),
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

fn combinator(vm: &mut Vm, args: &[Value], kind: Combinator) -> Result<Step, Throw> {
    let name = match kind {
        Combinator::All => "Promise.all",
        Combinator::AllSettled => "Promise.allSettled",
        Combinator::Any => "Promise.any",
        Combinator::Race => "Promise.race",
    };
    let items = match vm.collect_or_reenter(name, false, Value::Undefined, args, 0)? {
        Ok(items) => items,
        Err(step) => return Ok(step),
    };
    let result = vm.new_promise()?;
    vm.charge(Work::Elements(items.len()));
    if items.is_empty() {
        if kind == Combinator::Any {
            let errors = vm.new_array(Vec::new())?;
            let e = super::aggregate_error(vm, "All promises were rejected", errors)?;
            vm.reject_promise(result, e)?;
        } else {
            let empty = vm.new_array(Vec::new())?;
            vm.resolve_promise(result, empty)?;
        }
        return Ok(Step::Return(Value::Obj(result)));
    }
    let values = vm.new_array(vec![Value::Undefined; items.len()])?;
    let state = vm.new_array(vec![Value::Obj(result), values, Value::Number(items.len() as f64)])?;
    let Value::Obj(state) = state else { return Ok(Step::Return(Value::Obj(result))) };
    for (i, item) in items.into_iter().enumerate() {
        let p = vm.promise_resolve(item)?;
        vm.add_reaction(p, Reaction::Combinator { kind, state, index: i as u32 })?;
    }
    Ok(Step::Return(Value::Obj(result)))
}

fn race(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let items = match vm.collect_or_reenter("Promise.race", false, Value::Undefined, args, 0)? {
        Ok(items) => items,
        Err(step) => return Ok(step),
    };
    let result = vm.new_promise()?;
    for item in items {
        let p = vm.promise_resolve(item)?;
        vm.add_reaction(p, Reaction::Combinator { kind: Combinator::Race, state: result, index: 0 })?;
    }
    Ok(Step::Return(Value::Obj(result)))
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
