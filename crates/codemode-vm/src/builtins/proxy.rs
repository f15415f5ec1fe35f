//! The `Proxy` constructor and `Proxy.revocable`. What a proxy does is in `proxy.rs`.

use codemode_bytecode::ErrorKind;

use super::{Native, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Proxy", 2, call, construct),
    NativeDef::new("Proxy", "revocable", 2, revocable),
    NativeDef::new("#internal", "proxyRevoke", 0, revoke),
];

fn call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor Proxy requires 'new'"))
}

fn construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(create(vm, arg(args, 0), arg(args, 1))?))
}

/// ProxyCreate: a proxy is callable (constructible) when its target is, decided once here.
fn create(vm: &mut Vm, target: Value, handler: Value) -> Result<Value, Throw> {
    let (Value::Obj(target), Value::Obj(handler)) = (target, handler) else {
        return Err(
            vm.make_error(ErrorKind::TypeError, "Cannot create proxy with a non-object as target or handler")
        );
    };
    let callable = vm.heap.obj(target).is_callable();
    let constructor = vm.is_constructor(target);
    let kind = ObjKind::Proxy { target, handler: Some(handler), callable, constructor };
    Ok(Value::Obj(vm.alloc(kind, None)?))
}

/// `{ proxy, revoke }`.
fn revocable(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let proxy = create(vm, arg(args, 0), arg(args, 1))?;
    let native = Native::by_stable_name("#internal.proxyRevoke")
        .ok_or_else(|| vm.make_error(ErrorKind::TypeError, "unknown built-in"))?;
    let revoke = vm.alloc_native(native, vec![proxy])?;
    let out = vm.new_object()?;
    for (name, v) in [("proxy", proxy), ("revoke", revoke)] {
        let atom = vm.intern(name)?;
        vm.define(out, crate::props::Key::Atom(atom), v)?;
    }
    Ok(Step::Return(out))
}

/// A `revoke` function: data = [proxy]. Revoking again changes nothing.
fn revoke(vm: &mut Vm, _this: Value, _args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    if let Value::Obj(p) = arg(data, 0)
        && let ObjKind::Proxy { handler, .. } = &mut vm.heap.obj_mut(p).kind
    {
        *handler = None;
    }
    Ok(Step::Return(Value::Undefined))
}
