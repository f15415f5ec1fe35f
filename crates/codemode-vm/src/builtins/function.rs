//! `Function` (the constructor that owns `Function.prototype`; making functions from source text
//! is not supported: there is no `eval`) and `Function.prototype`: `call`, `apply`, `bind`.

use super::{NativeDef, Step, arg, require_callable};
use crate::Vm;
use crate::call::Throw;
use crate::object::{Callable, ObjKind};
use crate::value::Value;
use codemode_bytecode::ErrorKind;

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Function", 1, function_call, |vm, args| function_call(vm, Value::Undefined, args, &[])),
    NativeDef::new("Function.prototype", "call", 1, call),
    NativeDef::new("Function.prototype", "apply", 2, apply),
    NativeDef::new("Function.prototype", "bind", 1, bind),
];

fn function_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(
        codemode_bytecode::ErrorKind::TypeError,
        "Function(...) cannot create functions from source text (there is no eval); write a function expression instead",
    ))
}

fn call(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    require_callable(vm, this)?;
    let rest = args.get(1..).unwrap_or(&[]).to_vec();
    Ok(Step::TailCall { callee: this, this: arg(args, 0), args: rest })
}

fn apply(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    require_callable(vm, this)?;
    let list = match arg(args, 1) {
        Value::Undefined | Value::Null => Vec::new(),
        v @ Value::Obj(_) => vm.array_like_to_vec(v)?,
        _ => return Err(vm.make_error(ErrorKind::TypeError, "CreateListFromArrayLike called on non-object")),
    };
    Ok(Step::TailCall { callee: this, this: arg(args, 0), args: list })
}

fn bind(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    require_callable(vm, this)?;
    let Value::Obj(target) = this else { return Err(vm.not_a_function(this)) };
    let bound = Callable::Bound {
        target,
        this: arg(args, 0),
        args: args.get(1..).unwrap_or(&[]).to_vec().into_boxed_slice(),
    };
    let proto = Some(vm.realm.function_proto);
    Ok(Step::Return(Value::Obj(vm.alloc(ObjKind::Function(bound), proto)?)))
}
