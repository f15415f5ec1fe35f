//! The internal helpers `using` and `await using` declarations are lowered to (see
//! `codemode-syntax`'s `lower/using.rs`). A block with such declarations keeps a hidden scope
//! object (a [`DisposableState`] no program can reach) in a temporary:
//!
//! - `#internal.usingScope()` makes it;
//! - `#internal.usingAdd(scope, value, isAwait)` checks the declared value and pushes it
//!   (AddDisposableResource), returning the value;
//! - `#internal.usingDispose(scope, completion)` runs when the block is left (from a `finally`):
//!   `completion` is the exception the block threw, or the scope itself when it threw nothing.
//!   Without `await using` resources it disposes synchronously (like `DisposableStack`) and
//!   returns `undefined` or throws; with them it returns the promise of the asynchronous
//!   disposal (`async_disposable.rs`), which the lowered code awaits.

use codemode_bytecode::ErrorKind;

use super::disposable::{self, DisposableState, Disposal, DisposeLoop, Resource};
use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("#internal", "usingScope", 0, using_scope),
    NativeDef::new("#internal", "usingAdd", 3, using_add),
    NativeDef::new("#internal", "usingDispose", 2, using_dispose),
];

fn using_scope(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let state = DisposableState::new(false, Vec::new());
    Ok(Step::Return(Value::Obj(vm.alloc(ObjKind::Disposable(Box::new(state)), None)?)))
}

fn using_add(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(scope) = arg(args, 0) else { return Ok(Step::Return(Value::Undefined)) };
    let value = arg(args, 1);
    let awaited = arg(args, 2) == Value::Bool(true);
    // A sync `using` of `null`/`undefined` adds nothing; an `await using` of one still owes an
    // await (`resource` gives a `Nothing`).
    if value.is_nullish() && !awaited {
        return Ok(Step::Return(value));
    }
    let resource = resource(vm, value, awaited)?;
    disposable::push(vm, scope, resource)?;
    Ok(Step::Return(value))
}

/// The resource `value` makes under the `async-dispose` hint (`awaited`) or the sync one
/// (CreateDisposableResource with GetDisposeMethod): a `TypeError` when it is not an object with
/// a callable `[Symbol.asyncDispose]` (async only) or `[Symbol.dispose]`. `null` and `undefined`
/// give a resource with nothing to call.
pub(crate) fn resource(vm: &mut Vm, value: Value, awaited: bool) -> Result<Resource, Throw> {
    if value.is_nullish() {
        let how = Disposal::Nothing;
        return Ok(Resource { value: Value::Undefined, method: Value::Undefined, how, awaited });
    }
    if !matches!(value, Value::Obj(_)) {
        let desc = vm.describe_for_error(value);
        let msg = format!("{desc} is not an object: a disposable resource must be an object");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    if awaited {
        let method = get_method(vm, value, vm.realm.symbols.async_dispose, "Symbol.asyncDispose")?;
        if !method.is_nullish() {
            return Ok(Resource { value, method, how: Disposal::Use, awaited });
        }
    }
    let method = get_method(vm, value, vm.realm.symbols.dispose, "Symbol.dispose")?;
    if method.is_nullish() {
        let msg = if awaited {
            "The value is not disposable: it has neither [Symbol.asyncDispose] nor [Symbol.dispose]"
        } else {
            "The value is not disposable: it has no [Symbol.dispose] method"
        };
        return Err(vm.make_error(ErrorKind::TypeError, msg));
    }
    let how = if awaited { Disposal::UseSync } else { Disposal::Use };
    Ok(Resource { value, method, how, awaited })
}

/// GetMethod: `value[symbol]`, `undefined`/`null` as is, anything else not callable a `TypeError`.
fn get_method(vm: &mut Vm, value: Value, symbol: crate::value::Atom, name: &str) -> Result<Value, Throw> {
    let method = vm.get_value(value, Key::Atom(symbol))?;
    if method.is_nullish() || vm.is_callable(method) {
        return Ok(method);
    }
    let desc = vm.describe_for_error(method);
    Err(vm.make_error(ErrorKind::TypeError, &format!("The value's [{name}] ({desc}) is not a function")))
}

fn using_dispose(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(scope) = arg(args, 0) else { return Ok(Step::Return(Value::Undefined)) };
    let completion = arg(args, 1);
    let error = if completion == arg(args, 0) { None } else { Some(completion) };
    let Some(s) = disposable::state(vm, scope) else { return Ok(Step::Return(Value::Undefined)) };
    if s.resources.iter().any(|r| r.awaited) {
        return super::async_disposable::start(vm, scope, error);
    }
    s.disposed = true;
    let resources = std::mem::take(&mut s.resources);
    disposable::next_disposal(vm, DisposeLoop { resources, error })
}
