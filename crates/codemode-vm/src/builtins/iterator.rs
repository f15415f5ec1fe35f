//! `Iterator.prototype.next` for the iterators the built-ins return (`map.entries()`,
//! `set.values()`, `array.keys()`, `str.matchAll(re)`, ...), so programs can step them by hand.
//! `for-of`, spread and destructuring drive the same iterators natively (`iter.rs`).

use super::{NativeDef, Step};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::Value;
use codemode_bytecode::ErrorKind;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Iterator.prototype", "next", 0, next),
    NativeDef::new("Iterator.prototype", "@@iterator", 0, return_this),
    NativeDef::new("Iterator.prototype", "@@dispose", 0, dispose),
    NativeDef::new("AsyncGenerator.prototype", "@@asyncIterator", 0, return_this),
    NativeDef::new("String.prototype", "@@iterator", 0, string_iterator),
];

/// `[Symbol.iterator]()` of an iterator (and `[Symbol.asyncIterator]()` of an async generator):
/// itself.
fn return_this(_vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(this))
}

/// `Iterator.prototype[Symbol.dispose]()`: calls the iterator's `return()` when it has one (so
/// `using it = gen()` closes the generator), and returns `undefined`.
fn dispose(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let ret = vm.get_named(this, "return")?;
    if ret.is_nullish() {
        return Ok(Step::Return(Value::Undefined));
    }
    if !vm.is_callable(ret) {
        let desc = vm.describe_for_error(ret);
        return Err(
            vm.make_error(ErrorKind::TypeError, &format!("The iterator's return ({desc}) is not a function"))
        );
    }
    let cont = super::Cont::ReturnValue(Value::Undefined);
    Ok(Step::Call { callee: ret, this, args: Vec::new(), cont })
}

/// `String.prototype[Symbol.iterator]`: the string's code points.
fn string_iterator(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if this.is_nullish() {
        let msg = "String.prototype[Symbol.iterator] called on null or undefined";
        return Err(vm.make_error(ErrorKind::TypeError, msg));
    }
    let s = vm.to_string_value(this)?;
    Ok(Step::Return(vm.get_iterator(s)?))
}

/// `it.next()`: `{ value, done }`.
fn next(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !matches!(this, Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Iterator(_))) {
        return Err(vm.make_error(ErrorKind::TypeError, "next method called on an incompatible receiver"));
    }
    if let Value::Obj(id) = this
        && matches!(vm.heap.obj(id).kind, ObjKind::Iterator(crate::object::IterState::Helper(_)))
    {
        return super::helper_next(vm, id);
    }
    let item = vm.iter_next(this)?;
    let result = vm.new_object()?;
    let (value, done) = match item {
        Some(v) => (v, false),
        None => (Value::Undefined, true),
    };
    let (value_atom, done_atom) = (vm.realm.atoms.value, vm.realm.atoms.done);
    vm.define(result, Key::Atom(value_atom), value)?;
    vm.define(result, Key::Atom(done_atom), Value::Bool(done))?;
    Ok(Step::Return(result))
}
