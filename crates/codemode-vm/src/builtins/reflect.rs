//! `Reflect`: the object operations as functions. Each one checks that its target is an object
//! and then does what the matching `Object` built-in or operator does; the ones the spec makes
//! answer `false` instead of throwing (`defineProperty`, `set`, `setPrototypeOf`) turn a
//! `TypeError` of the operation into `false`.
//!
//! `Reflect.construct(F, args, newTarget)` constructs ordinary functions with any `newTarget`,
//! and built-in constructors with themselves as `newTarget`; a class, or a built-in with another
//! `newTarget`, is a `TypeError` saying so (built-ins cannot start a class's `new` yet).

use codemode_bytecode::{BinOp, ErrorKind};

use super::{Cont, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::{Callable, ObjKind};
use crate::props::{Got, Key};
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Reflect", "apply", 3, apply),
    NativeDef::new("Reflect", "construct", 2, construct),
    NativeDef::new("Reflect", "defineProperty", 3, define_property),
    NativeDef::new("Reflect", "deleteProperty", 2, delete_property),
    NativeDef::new("Reflect", "get", 2, get),
    NativeDef::new("Reflect", "getOwnPropertyDescriptor", 2, get_own_property_descriptor),
    NativeDef::new("Reflect", "getPrototypeOf", 1, get_prototype_of),
    NativeDef::new("Reflect", "has", 2, has),
    NativeDef::new("Reflect", "isExtensible", 1, is_extensible),
    NativeDef::new("Reflect", "ownKeys", 1, own_keys),
    NativeDef::new("Reflect", "preventExtensions", 1, prevent_extensions),
    NativeDef::new("Reflect", "set", 3, set),
    NativeDef::new("Reflect", "setPrototypeOf", 2, set_prototype_of),
];

/// The target, which must be an object.
fn target(vm: &mut Vm, args: &[Value], method: &str) -> Result<Value, Throw> {
    match arg(args, 0) {
        v @ Value::Obj(_) => Ok(v),
        _ => Err(vm.make_error(ErrorKind::TypeError, &format!("Reflect.{method} called on non-object"))),
    }
}

/// Calls the `Object` built-in `name` (its stable name) with `args`.
fn object_builtin(vm: &mut Vm, name: &str, args: &[Value]) -> Result<Step, Throw> {
    match super::Native::by_stable_name(name) {
        Some(native) => super::call_native(vm, native, Value::Undefined, args, &[]),
        None => Err(vm.make_error(ErrorKind::TypeError, "unknown built-in")),
    }
}

/// `Ok(false)` for a `TypeError` thrown by the operation; anything else goes on.
fn false_on_type_error(vm: &mut Vm, result: Result<Step, Throw>) -> Result<Step, Throw> {
    match result {
        Ok(Step::Return(_)) => Ok(Step::Return(Value::Bool(true))),
        Ok(step) => Ok(step),
        Err(thrown) => match vm.get_named(thrown, "name") {
            Ok(Value::Str(s)) if vm.heap.str(s) == "TypeError" => Ok(Step::Return(Value::Bool(false))),
            _ => Err(thrown),
        },
    }
}

fn apply(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let f = arg(args, 0);
    super::require_callable(vm, f)?;
    let list = match arg(args, 2) {
        v @ Value::Obj(_) => vm.array_like_to_vec(v)?,
        _ => return Err(vm.make_error(ErrorKind::TypeError, "CreateListFromArrayLike called on non-object")),
    };
    Ok(Step::TailCall { callee: f, this: arg(args, 1), args: list })
}

fn construct(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let target = arg(args, 0);
    let new_target = if args.len() > 2 { arg(args, 2) } else { target };
    for f in [target, new_target] {
        if !matches!(f, Value::Obj(id) if vm.is_constructor(id)) {
            let desc = vm.describe_for_error(f);
            return Err(vm.make_error(ErrorKind::TypeError, &format!("{desc} is not a constructor")));
        }
    }
    let list = match arg(args, 1) {
        v @ Value::Obj(_) => vm.array_like_to_vec(v)?,
        _ => return Err(vm.make_error(ErrorKind::TypeError, "CreateListFromArrayLike called on non-object")),
    };
    let (Value::Obj(target_id), Value::Obj(new_target_id)) = (target, new_target) else {
        return Ok(Step::Return(Value::Undefined));
    };
    match vm.heap.obj(target_id).kind {
        ObjKind::Function(Callable::Closure { .. }) => {
            // OrdinaryCreateFromConstructor, then the call; an object it returns wins.
            let proto = vm.prototype_of_target(new_target_id)?;
            let this = Value::Obj(vm.alloc(ObjKind::Plain, Some(proto))?);
            Ok(Step::Call { callee: target, this, args: list, cont: Cont::Constructed(this) })
        }
        ObjKind::Function(Callable::Native { native, .. }) if target == new_target => {
            super::construct_native(vm, native, &list)
        }
        _ => {
            let msg = "Reflect.construct of a class, a bound function, or a built-in with another newTarget is not supported";
            Err(vm.make_error(ErrorKind::TypeError, msg))
        }
    }
}

fn define_property(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "defineProperty")?;
    let result = object_builtin(vm, "Object.defineProperty", &[o, arg(args, 1), arg(args, 2)]);
    false_on_type_error(vm, result)
}

fn delete_property(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "deleteProperty")?;
    let key = vm.to_key(arg(args, 1))?;
    let result = vm.delete(o, key).map(|deleted| Step::Return(Value::Bool(deleted)));
    match false_on_type_error(vm, result)? {
        // `delete` answered (true or false) rather than threw.
        Step::Return(Value::Bool(true)) => {
            let Value::Obj(id) = o else { return Ok(Step::Return(Value::Bool(true))) };
            let atom = vm.key_atom(key)?;
            let gone = vm.heap.obj(id).props.find(atom).is_none() || matches!(key, Key::Index(_));
            Ok(Step::Return(Value::Bool(gone)))
        }
        other => Ok(other),
    }
}

fn get(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "get")?;
    let receiver = if args.len() > 2 { arg(args, 2) } else { o };
    let key = vm.to_key(arg(args, 1))?;
    match vm.get(o, key)? {
        Got::Value(v) => Ok(Step::Return(v)),
        Got::Getter(getter) => Ok(Step::TailCall { callee: getter, this: receiver, args: Vec::new() }),
    }
}

fn get_own_property_descriptor(
    vm: &mut Vm,
    _this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let o = target(vm, args, "getOwnPropertyDescriptor")?;
    object_builtin(vm, "Object.getOwnPropertyDescriptor", &[o, arg(args, 1)])
}

fn get_prototype_of(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "getPrototypeOf")?;
    object_builtin(vm, "Object.getPrototypeOf", &[o])
}

fn has(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "has")?;
    Ok(Step::Return(vm.binary(BinOp::In, arg(args, 1), o)?))
}

fn is_extensible(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "isExtensible")?;
    object_builtin(vm, "Object.isExtensible", &[o])
}

fn own_keys(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(id) = target(vm, args, "ownKeys")? else { return Ok(Step::Return(Value::Undefined)) };
    let keys = vm.own_property_keys(id, true);
    vm.charge(crate::meter::Work::Elements(keys.len()));
    let mut items = Vec::with_capacity(keys.len());
    for key in keys {
        items.push(vm.key_to_value(key)?);
    }
    Ok(Step::Return(vm.new_array(items)?))
}

fn prevent_extensions(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "preventExtensions")?;
    let result = object_builtin(vm, "Object.preventExtensions", &[o]);
    false_on_type_error(vm, result)
}

fn set(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "set")?;
    let receiver = if args.len() > 3 { arg(args, 3) } else { o };
    let key = vm.to_key(arg(args, 1))?;
    let value = arg(args, 2);
    if receiver != o {
        // A different receiver: the property is defined on it (setters still run with it as `this`).
        if let Got::Getter(_) = vm.get(o, key)? {
            return Ok(Step::Return(Value::Bool(false)));
        }
        let result = vm.set(receiver, key, value).map(|_| Step::Return(Value::Bool(true)));
        return false_on_type_error(vm, result);
    }
    match vm.set(o, key, value) {
        Ok(Some(setter)) => {
            let cont = Cont::ReturnValue(Value::Bool(true));
            Ok(Step::Call { callee: setter, this: receiver, args: vec![value], cont })
        }
        Ok(None) => Ok(Step::Return(Value::Bool(true))),
        Err(thrown) => false_on_type_error(vm, Err(thrown)),
    }
}

fn set_prototype_of(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "setPrototypeOf")?;
    if !matches!(arg(args, 1), Value::Obj(_) | Value::Null) {
        return Err(vm.make_error(ErrorKind::TypeError, "Object prototype may only be an Object or null"));
    }
    let result = object_builtin(vm, "Object.setPrototypeOf", &[o, arg(args, 1)]);
    false_on_type_error(vm, result)
}
