//! `Object.prototype.__defineGetter__`, `__defineSetter__`, `__lookupGetter__` and
//! `__lookupSetter__`: the older way to make and find accessors, still in every engine (and in
//! code models learned from).

use codemode_bytecode::ErrorKind;

use super::object::prototype_of;
use super::object_model::{Descriptor, define_own, descriptor_of};
use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Object.prototype", "__defineGetter__", 2, define_getter),
    NativeDef::new("Object.prototype", "__defineSetter__", 2, define_setter),
    NativeDef::new("Object.prototype", "__lookupGetter__", 1, lookup_getter),
    NativeDef::new("Object.prototype", "__lookupSetter__", 1, lookup_setter),
];

fn define_getter(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    define(vm, this, args, true)
}

fn define_setter(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    define(vm, this, args, false)
}

fn lookup_getter(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    lookup(vm, this, args, true)
}

fn lookup_setter(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    lookup(vm, this, args, false)
}

fn method_name(getter: bool, define: bool) -> &'static str {
    match (define, getter) {
        (true, true) => "__defineGetter__",
        (true, false) => "__defineSetter__",
        (false, true) => "__lookupGetter__",
        (false, false) => "__lookupSetter__",
    }
}

fn require_object_coercible(vm: &mut Vm, this: Value, method: &str) -> Result<(), Throw> {
    if this.is_nullish() {
        let msg = format!("Object.prototype.{method} called on null or undefined");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    if vm.as_proxy(this).is_some() {
        return Err(vm.proxy_unsupported(&format!("Object.prototype.{method}")));
    }
    Ok(())
}

/// `o.__defineGetter__(key, f)`: an enumerable, configurable accessor (a primitive `this` gets
/// it on a wrapper that is thrown away, as the specification has it).
fn define(vm: &mut Vm, this: Value, args: &[Value], getter: bool) -> Result<Step, Throw> {
    let method = method_name(getter, true);
    require_object_coercible(vm, this, method)?;
    let f = arg(args, 1);
    if !vm.is_callable(f) {
        let msg = format!("Object.prototype.{method}: Expecting function");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let key = vm.to_key(arg(args, 0))?;
    if !matches!(this, Value::Obj(_)) {
        return Ok(Step::Return(Value::Undefined));
    }
    let d = Descriptor {
        value: None,
        get: getter.then_some(f),
        set: (!getter).then_some(f),
        writable: None,
        enumerable: Some(true),
        configurable: Some(true),
    };
    define_own(vm, this, key, d)?;
    Ok(Step::Return(Value::Undefined))
}

/// `o.__lookupGetter__(key)`: the getter of the first object on `o`'s prototype chain that has
/// `key` as its own property (`undefined` when that property is data, or none has it).
fn lookup(vm: &mut Vm, this: Value, args: &[Value], getter: bool) -> Result<Step, Throw> {
    require_object_coercible(vm, this, method_name(getter, false))?;
    let key = vm.to_key(arg(args, 0))?;
    let field = if getter { "get" } else { "set" };
    let mut current = this;
    loop {
        vm.charge(Work::Units(1));
        let desc = descriptor_of(vm, current, key)?;
        if desc != Value::Undefined {
            return Ok(Step::Return(vm.get_named(desc, field)?));
        }
        match prototype_of(vm, current) {
            Some(proto) => current = Value::Obj(proto),
            None => return Ok(Step::Return(Value::Undefined)),
        }
    }
}
