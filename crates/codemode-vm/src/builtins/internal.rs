//! Internal built-ins with fixed indices (see `Native::*`): functions the VM creates bound to data,
//! never installed as globals.

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::value::{ObjId, Value};

/// Order matters: indices are `Native::FINALLY_PASS`, `Native::PROMISE_RESOLVE_FUNCTION`, ...
pub const DEFS: &[NativeDef] = &[
    NativeDef::new("#internal", "finallyPass", 0, finally_pass),
    NativeDef::new("#internal", "resolve", 1, resolve_function),
    NativeDef::new("#internal", "reject", 1, reject_function),
    NativeDef::new("#internal", "combinatorRun", 2, super::promise::combinator_run),
    NativeDef::new("#internal", "readIterResult", 1, crate::user_iter::read_iter_result_native),
    NativeDef::new("#internal", "requireIterObject", 1, require_iter_object),
];

/// `#internal.requireIterObject(v)`: `v` when it is an object, else a TypeError (`yield*` checks
/// the iterator it delegates to and each result that iterator gives).
fn require_iter_object(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let v = arg(args, 0);
    if matches!(v, Value::Obj(_)) {
        return Ok(Step::Return(v));
    }
    let desc = vm.describe_for_error(v);
    let msg = format!("{desc} is not an object: an iterator and each result it gives must be objects");
    Err(vm.make_error(codemode_bytecode::ErrorKind::TypeError, &msg))
}

/// After `finally`'s callback settled: data = [original value, rejected?].
fn finally_pass(_vm: &mut Vm, _this: Value, _args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let value = arg(data, 0);
    if arg(data, 1) == Value::Bool(true) { Err(value) } else { Ok(Step::Return(value)) }
}

/// A `new Promise` executor's `resolve`: data = [promise].
fn resolve_function(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    if let Value::Obj(p) = arg(data, 0)
        && vm.promise_pending(p)
    {
        vm.resolve_promise(p, arg(args, 0))?;
    }
    Ok(Step::Return(Value::Undefined))
}

/// A `new Promise` executor's `reject`: data = [promise].
fn reject_function(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    if let Value::Obj(p) = arg(data, 0)
        && vm.promise_pending(p)
    {
        vm.reject_promise(p, arg(args, 0))?;
    }
    Ok(Step::Return(Value::Undefined))
}

impl Vm {
    pub(crate) fn promise_pending(&self, p: ObjId) -> bool {
        matches!(&self.heap.obj(p).kind, crate::object::ObjKind::Promise(s)
            if matches!(s.settled, crate::promise::Settled::Pending))
    }
}
