//! `Reflect`: the object operations as functions. Each one checks that its target is an object
//! and then does what the matching `Object` built-in or operator does; the ones the spec makes
//! answer `false` instead of throwing (`defineProperty`, `set`, `setPrototypeOf`) turn a
//! `TypeError` of the operation into `false`.
//!
//! They map 1:1 onto a proxy's traps: given a proxy they run its operation (`proxy.rs`), and
//! [`reflect_ordinary`] is the ordinary operation a proxy forwards to when it has no trap.
//!
//! `Reflect.construct(F, args, newTarget)` constructs ordinary functions with any `newTarget`,
//! and built-in constructors with themselves as `newTarget`; a class, or a built-in with another
//! `newTarget`, is a `TypeError` saying so (built-ins cannot start a class's `new` yet).

use codemode_bytecode::ErrorKind;

use super::{Cont, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::{Callable, ObjKind};
use crate::props::{Got, Key, SetFound};
use crate::proxy::{HasFound, Ordinary, ProxyOp};
use crate::value::{ObjId, Value};

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
        ObjKind::Proxy { .. } => vm.proxy_op(target_id, ProxyOp::Construct { args: list, new_target }),
        ObjKind::Function(Callable::Closure { .. }) => {
            // OrdinaryCreateFromConstructor, then the call; an object it returns wins.
            let proto = vm.prototype_of_target(new_target_id)?;
            let this = Value::Obj(vm.alloc(ObjKind::Plain, Some(proto))?);
            Ok(Step::Call { callee: target, this, args: list, cont: Cont::Constructed(this) })
        }
        ObjKind::Function(Callable::Native { native, .. }) if target == new_target => {
            super::construct_native(vm, native, &list)
        }
        // A class is constructed as `new` does it, with `new_target` giving the prototype.
        ObjKind::Function(Callable::Class { .. }) => Ok(Step::Construct {
            callee: target_id,
            new_target: new_target_id,
            args: list,
            cont: Cont::Constructed(Value::Undefined),
        }),
        _ => {
            let msg = "Reflect.construct of a class, a bound function, or a built-in with another newTarget is not supported";
            Err(vm.make_error(ErrorKind::TypeError, msg))
        }
    }
}

fn define_property(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "defineProperty")?;
    if let Some(p) = vm.as_proxy(o) {
        let key = vm.to_key(arg(args, 1))?;
        let d = super::read_descriptor(vm, arg(args, 2))?;
        let desc = crate::proxy_check::descriptor_value(vm, &d, false)?;
        return vm.proxy_op(p, ProxyOp::DefineProperty { key, desc });
    }
    ordinary_define_property(vm, o, arg(args, 1), arg(args, 2))
}

fn ordinary_define_property(vm: &mut Vm, o: Value, key: Value, desc: Value) -> Result<Step, Throw> {
    let result = object_builtin(vm, "Object.defineProperty", &[o, key, desc]);
    false_on_type_error(vm, result)
}

fn delete_property(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "deleteProperty")?;
    let key = vm.to_key(arg(args, 1))?;
    if let Some(p) = vm.as_proxy(o) {
        return vm.proxy_op(p, ProxyOp::Delete { key });
    }
    ordinary_delete(vm, o, key)
}

fn ordinary_delete(vm: &mut Vm, o: Value, key: Key) -> Result<Step, Throw> {
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
    let Value::Obj(id) = target(vm, args, "get")? else { return Ok(Step::Return(Value::Undefined)) };
    let receiver = if args.len() > 2 { arg(args, 2) } else { Value::Obj(id) };
    let key = vm.to_key(arg(args, 1))?;
    vm.proxy_op(id, ProxyOp::Get { key, receiver })
}

fn get_own_property_descriptor(
    vm: &mut Vm,
    _this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let o = target(vm, args, "getOwnPropertyDescriptor")?;
    if let Some(p) = vm.as_proxy(o) {
        let key = vm.to_key(arg(args, 1))?;
        return vm.proxy_op(p, ProxyOp::GetOwnProperty { key });
    }
    object_builtin(vm, "Object.getOwnPropertyDescriptor", &[o, arg(args, 1)])
}

fn get_prototype_of(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "getPrototypeOf")?;
    if let Some(p) = vm.as_proxy(o) {
        return vm.proxy_op(p, ProxyOp::GetPrototypeOf);
    }
    object_builtin(vm, "Object.getPrototypeOf", &[o])
}

fn has(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(id) = target(vm, args, "has")? else { return Ok(Step::Return(Value::Bool(false))) };
    let key = vm.to_key(arg(args, 1))?;
    vm.proxy_op(id, ProxyOp::Has { key })
}

fn is_extensible(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "isExtensible")?;
    if let Some(p) = vm.as_proxy(o) {
        return vm.proxy_op(p, ProxyOp::IsExtensible);
    }
    object_builtin(vm, "Object.isExtensible", &[o])
}

fn own_keys(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(id) = target(vm, args, "ownKeys")? else { return Ok(Step::Return(Value::Undefined)) };
    if vm.as_proxy(Value::Obj(id)).is_some() {
        return vm.proxy_op(id, ProxyOp::OwnKeys);
    }
    ordinary_own_keys(vm, id)
}

fn ordinary_own_keys(vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
    let keys = vm.own_property_keys(id, true)?;
    vm.charge(crate::meter::Work::Elements(keys.len()));
    let mut items = Vec::with_capacity(keys.len());
    for key in keys {
        items.push(vm.key_to_value(key)?);
    }
    Ok(Step::Return(vm.new_array(items)?))
}

fn prevent_extensions(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "preventExtensions")?;
    if let Some(p) = vm.as_proxy(o) {
        return vm.proxy_op(p, ProxyOp::PreventExtensions);
    }
    let result = object_builtin(vm, "Object.preventExtensions", &[o]);
    false_on_type_error(vm, result)
}

fn set(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(id) = target(vm, args, "set")? else { return Ok(Step::Return(Value::Bool(false))) };
    let receiver = if args.len() > 3 { arg(args, 3) } else { Value::Obj(id) };
    let key = vm.to_key(arg(args, 1))?;
    vm.proxy_op(id, ProxyOp::Set { key, value: arg(args, 2), receiver })
}

/// OrdinarySet on `id` with `receiver`: a setter on the chain runs with the receiver as `this`;
/// otherwise the value is defined on the receiver (through its traps when it is a proxy).
fn ordinary_set(vm: &mut Vm, id: ObjId, key: Key, value: Value, receiver: Value) -> Result<Ordinary, Throw> {
    let done = |step| Ok(Ordinary::Done(step));
    match vm.find_setter(id, key) {
        SetFound::Proxy(p) if p != id => {
            return Ok(Ordinary::Proxy(p, ProxyOp::Set { key, value, receiver }));
        }
        SetFound::Setter(Value::Undefined) => return done(Step::Return(Value::Bool(false))),
        SetFound::Setter(setter) => {
            let cont = Cont::ReturnValue(Value::Bool(true));
            return done(Step::Call { callee: setter, this: receiver, args: vec![value], cont });
        }
        _ => {}
    }
    // A non-writable data property (own or inherited) refuses the write.
    if own_or_inherited_readonly(vm, id, key)? == Some(true) {
        return done(Step::Return(Value::Bool(false)));
    }
    let Value::Obj(r) = receiver else { return done(Step::Return(Value::Bool(false))) };
    if vm.as_proxy(receiver).is_some() {
        // CreateDataProperty or a `{ value }` redefinition on the receiver, by its traps: its own
        // descriptor first.
        let gopd = vm.builtin_fn("Reflect.getOwnPropertyDescriptor")?;
        let k = vm.key_to_value(key)?;
        let call = crate::proxy::ProxyCall {
            op: ProxyOp::Set { key, value, receiver },
            target: r,
            handler: r,
            phase: crate::proxy::Phase::ReceiverDesc,
        };
        let cont = Cont::Proxy(Box::new(call));
        return done(Step::Call { callee: gopd, this: Value::Undefined, args: vec![receiver, k], cont });
    }
    // The receiver's own property, if any, must be a writable data property.
    let own = super::descriptor_of(vm, receiver, key)?;
    if own != Value::Undefined {
        let d = super::read_descriptor(vm, own)?;
        if d.get.is_some() || d.set.is_some() || d.writable == Some(false) {
            return done(Step::Return(Value::Bool(false)));
        }
    }
    let result = vm.define(receiver, key, value).map(|()| Step::Return(Value::Bool(true)));
    done(false_on_type_error(vm, result)?)
}

/// Whether the first data property of `key` on the chain from `id` is read-only (`None`: none).
fn own_or_inherited_readonly(vm: &mut Vm, id: ObjId, key: Key) -> Result<Option<bool>, Throw> {
    let mut cur = Some(id);
    for _ in 0..10_000 {
        let Some(o) = cur else { return Ok(None) };
        let d = super::descriptor_of(vm, Value::Obj(o), key)?;
        if d != Value::Undefined {
            let d = super::read_descriptor(vm, d)?;
            return Ok(Some(d.writable == Some(false)));
        }
        cur = vm.heap.obj(o).proto;
    }
    Ok(None)
}

fn set_prototype_of(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let o = target(vm, args, "setPrototypeOf")?;
    if !matches!(arg(args, 1), Value::Obj(_) | Value::Null) {
        return Err(vm.make_error(ErrorKind::TypeError, "Object prototype may only be an Object or null"));
    }
    if let Some(p) = vm.as_proxy(o) {
        return vm.proxy_op(p, ProxyOp::SetPrototypeOf { proto: arg(args, 1) });
    }
    let result = object_builtin(vm, "Object.setPrototypeOf", &[o, arg(args, 1)]);
    false_on_type_error(vm, result)
}

/// The ordinary operation `op` on `id` (not a proxy): what a proxy without the trap forwards to.
pub(crate) fn reflect_ordinary(vm: &mut Vm, id: ObjId, op: ProxyOp) -> Result<Ordinary, Throw> {
    let o = Value::Obj(id);
    let step = match op {
        ProxyOp::Get { key, receiver } => match vm.get(o, key)? {
            Got::Value(v) => Step::Return(v),
            Got::Getter(getter) => Step::TailCall { callee: getter, this: receiver, args: Vec::new() },
            Got::Proxy(p, key) => return Ok(Ordinary::Proxy(p, ProxyOp::Get { key, receiver })),
        },
        ProxyOp::Set { key, value, receiver } => return ordinary_set(vm, id, key, value, receiver),
        ProxyOp::Has { key } => match vm.has_found(o, key) {
            HasFound::Yes => Step::Return(Value::Bool(true)),
            HasFound::No => Step::Return(Value::Bool(false)),
            HasFound::Proxy(p) => return Ok(Ordinary::Proxy(p, ProxyOp::Has { key })),
        },
        ProxyOp::Delete { key } => ordinary_delete(vm, o, key)?,
        ProxyOp::GetOwnProperty { key } => {
            let k = vm.key_to_value(key)?;
            object_builtin(vm, "Object.getOwnPropertyDescriptor", &[o, k])?
        }
        ProxyOp::DefineProperty { key, desc } => {
            let k = vm.key_to_value(key)?;
            ordinary_define_property(vm, o, k, desc)?
        }
        ProxyOp::GetPrototypeOf => object_builtin(vm, "Object.getPrototypeOf", &[o])?,
        ProxyOp::SetPrototypeOf { proto } => {
            let result = object_builtin(vm, "Object.setPrototypeOf", &[o, proto]);
            false_on_type_error(vm, result)?
        }
        ProxyOp::IsExtensible => object_builtin(vm, "Object.isExtensible", &[o])?,
        ProxyOp::PreventExtensions => {
            let result = object_builtin(vm, "Object.preventExtensions", &[o]);
            false_on_type_error(vm, result)?
        }
        ProxyOp::OwnKeys => ordinary_own_keys(vm, id)?,
        ProxyOp::Apply { this, args } => {
            if !vm.is_callable(o) {
                return Err(vm.not_a_function(o));
            }
            Step::TailCall { callee: o, this, args }
        }
        ProxyOp::Construct { args, new_target } => {
            let mut all = vec![o, Value::Undefined, new_target];
            let list = vm.new_array(args)?;
            all[1] = list;
            construct(vm, Value::Undefined, &all, &[])?
        }
    };
    Ok(Ordinary::Done(step))
}
