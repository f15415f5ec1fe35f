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
    NativeDef::new("Function.prototype", "@@hasInstance", 1, has_instance),
    NativeDef::new("#internal", "ThrowTypeError", 0, throw_type_error),
];

/// `Function.prototype[Symbol.hasInstance](v)`: OrdinaryHasInstance (what `instanceof` does
/// when the constructor has no method of its own); `false` for a `this` that is not callable.
fn has_instance(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !vm.is_callable(this) {
        return Ok(Step::Return(Value::Bool(false)));
    }
    Ok(Step::Return(Value::Bool(vm.instance_of(arg(args, 0), this)?)))
}

/// %ThrowTypeError%: the getter and setter of `Function.prototype.caller` and `.arguments`,
/// which strict functions (all of codemode's) may not use.
fn throw_type_error(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(
        ErrorKind::TypeError,
        "'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them",
    ))
}

/// Installs %ThrowTypeError% (one function, frozen, named "") as the accessor of
/// `Function.prototype.caller` and `.arguments`, and makes `[Symbol.hasInstance]` read-only and
/// non-configurable, as the specification defines them.
pub(crate) fn install_values(vm: &mut Vm) -> Result<(), Throw> {
    use crate::object::{FIXED, HIDDEN, READONLY};
    let Some(native) = super::Native::by_stable_name("#internal.ThrowTypeError") else { return Ok(()) };
    let thrower = vm.alloc_native(native, Vec::new())?;
    let Value::Obj(tid) = thrower else { return Ok(()) };
    let empty = vm.new_string("")?;
    let (name, length) = (vm.realm.atoms.name, vm.realm.atoms.length);
    let props = &mut vm.heap.obj_mut(tid).props;
    props.set(length, Value::Number(0.0), READONLY | HIDDEN | FIXED);
    props.set(name, empty, READONLY | HIDDEN | FIXED);
    props.integrity |= crate::object::integrity::NON_EXTENSIBLE;
    vm.heap.obj_mut(tid).props.integrity |= crate::object::integrity::OWN_FUNCTION_PROPS;
    let proto = vm.realm.function_proto;
    for key in ["caller", "arguments"] {
        let atom = vm.intern(key)?;
        vm.define_accessor(Value::Obj(proto), crate::props::Key::Atom(atom), Some(thrower), Some(thrower))?;
        let props = &mut vm.heap.obj_mut(proto).props;
        if let Some(slot) = props.find(atom).and_then(|i| props.slot_mut(i)) {
            slot.flags |= HIDDEN;
        }
    }
    let has_instance = vm.realm.symbols.has_instance;
    let props = &mut vm.heap.obj_mut(proto).props;
    if let Some(slot) = props.find(has_instance).and_then(|i| props.slot_mut(i)) {
        slot.flags |= READONLY | FIXED;
    }
    Ok(())
}

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
