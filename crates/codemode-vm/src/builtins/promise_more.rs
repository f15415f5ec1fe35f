//! `Promise.withResolvers()`, `Promise.try(f, ...args)` and `queueMicrotask(fn)`.

use codemode_bytecode::ErrorKind;

use super::promise_spec::{After, constructor_this, new_capability};
use super::{Cont, Native, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::promise::Reaction;
use crate::props::Key;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Promise", "withResolvers", 0, with_resolvers),
    NativeDef::new("Promise", "try", 1, promise_try),
    NativeDef::new("", "queueMicrotask", 1, queue_microtask),
];

/// `{ promise, resolve, reject }`: a pending promise and its resolving functions.
fn with_resolvers(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !constructor_this(vm, this, "withResolvers")? {
        return new_capability(vm, this, After::WithResolvers);
    }
    let p = vm.new_promise()?;
    let resolve = vm.alloc_native(Native::PROMISE_RESOLVE_FUNCTION, vec![Value::Obj(p)])?;
    let reject = vm.alloc_native(Native::PROMISE_REJECT_FUNCTION, vec![Value::Obj(p)])?;
    let out = vm.new_object()?;
    for (name, v) in [("promise", Value::Obj(p)), ("resolve", resolve), ("reject", reject)] {
        let atom = vm.intern(name)?;
        vm.define(out, Key::Atom(atom), v)?;
    }
    Ok(Step::Return(out))
}

/// `Promise.try(f, ...args)`: a promise settled by what calling `f(...args)` returns or throws
/// (a throw rejects it through `Cont::CatchReject`).
fn promise_try(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let f = arg(args, 0);
    let rest = args.get(1..).unwrap_or(&[]).to_vec();
    if !constructor_this(vm, this, "try")? {
        return new_capability(vm, this, After::Try { f, args: rest });
    }
    let p = vm.new_promise()?;
    if !vm.is_callable(f) {
        let e = vm.not_a_function(f);
        vm.reject_promise(p, e)?;
        return Ok(Step::Return(Value::Obj(p)));
    }
    let resolve = vm.alloc_native(Native::PROMISE_RESOLVE_FUNCTION, vec![Value::Obj(p)])?;
    let reject = vm.alloc_native(Native::PROMISE_REJECT_FUNCTION, vec![Value::Obj(p)])?;
    Ok(Step::Call {
        callee: f,
        this: Value::Undefined,
        args: rest,
        cont: Cont::CatchReject { resolve, reject, result: Value::Obj(p) },
    })
}

/// Queues a job that calls `f()`: a `finally` reaction without a derived promise on an already
/// fulfilled promise, so it runs in order with promise reactions. A throw out of `f` is uncaught
/// (nothing is below the job's frame) and fails the run, as an uncaught exception ends Node.
fn queue_microtask(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let f = arg(args, 0);
    if !vm.is_callable(f) {
        let received = match f {
            Value::Undefined => "undefined".to_string(),
            Value::Null => "null".to_string(),
            Value::Obj(_) => "an instance of Object".to_string(),
            Value::Str(_) => {
                let s = vm.to_rust_string(f)?;
                format!("type string ('{s}')")
            }
            Value::Number(_) => format!("type number ({})", vm.to_rust_string(f)?),
            Value::BigInt(_) => format!("type bigint ({}n)", vm.to_rust_string(f)?),
            Value::Bool(b) => format!("type boolean ({b})"),
            Value::Symbol(a) => format!("type symbol ({})", vm.symbol_descriptive_string(a)),
            Value::Uninit | Value::Cell(_) | Value::ArrayIter(..) => "undefined".to_string(),
        };
        let msg = format!("The \"callback\" argument must be of type function. Received {received}");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let settled = vm.new_promise()?;
    vm.resolve_promise(settled, Value::Undefined)?;
    vm.add_reaction(settled, Reaction::Finally { on_finally: f, derived: None })?;
    Ok(Step::Return(Value::Undefined))
}
