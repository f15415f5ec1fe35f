//! `AggregateError`, `URIError` and `EvalError` (which nothing throws: codemode has no `eval`,
//! but programs and test suites construct and check it), and errors known only by name (`DataCloneError`,
//! `InvalidCharacterError`: DOMExceptions in Node, plain Errors with that `name` here).
//!
//! [`ErrorKind`] has no variants for these constructors, so their prototypes are ordinary
//! objects (inheriting `Error.prototype`, with their own `name`) in the realm's internal
//! `more_error_protos`, where [`aggregate_error`] finds them even when a program reassigns the
//! global `AggregateError`. Their instances are Error objects
//! (`ObjKind::Error`) with that prototype.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("AggregateError", 2, aggregate_call, aggregate_construct),
    NativeDef::ctor("URIError", 1, uri_error_call, uri_error_construct),
    NativeDef::ctor("EvalError", 1, eval_error_call, eval_error_construct),
    NativeDef::ctor("SuppressedError", 3, suppressed_call, suppressed_construct),
];

/// The constructors whose prototypes are the realm's `more_error_protos`, in that order.
const NAMES: [&str; 4] = ["AggregateError", "URIError", "EvalError", "SuppressedError"];

/// Gives the prototypes their `name`, `message` and `constructor` (run once, at install).
pub(super) fn install_values(vm: &mut Vm) -> Result<(), Throw> {
    for (name, proto) in NAMES.into_iter().zip(vm.realm.more_error_protos) {
        let n = vm.new_string(name)?;
        vm.define_hidden(proto, "name", n);
        let empty = vm.new_string("")?;
        vm.define_hidden(proto, "message", empty);
        let atom = vm.heap.atoms.intern(name);
        if let Some(ctor @ Value::Obj(fid)) = vm.get_global(atom) {
            vm.define_constructor_prototype(fid, Value::Obj(proto));
            vm.define_hidden(proto, "constructor", ctor);
        }
    }
    Ok(())
}

/// The prototype of `name` (one of [`NAMES`]), falling back to `Error.prototype`.
fn proto_of(vm: &mut Vm, name: &str) -> ObjId {
    match NAMES.iter().position(|n| *n == name) {
        Some(i) => vm.realm.more_error_protos.get(i).copied().unwrap_or(vm.realm.error_protos[0]),
        None => vm.realm.error_protos[0],
    }
}

/// A new Error with prototype `proto`, `message` (none when empty) and `cause` from `options`.
fn error_with_proto(vm: &mut Vm, proto: ObjId, message: Value, options: Value) -> Result<Value, Throw> {
    let text = match message {
        Value::Undefined => String::new(),
        v => vm.to_rust_string(v)?,
    };
    let e = vm.make_error(ErrorKind::Error, &text);
    let Value::Obj(id) = e else { return Err(vm.out_of_memory()) };
    vm.heap.obj_mut(id).proto = Some(proto);
    if message == Value::Undefined {
        let atom = vm.realm.atoms.message;
        vm.heap.obj_mut(id).props.remove(atom);
    }
    if let Value::Obj(_) = options {
        let cause = vm.get_named(options, "cause")?;
        if cause != Value::Undefined {
            vm.define_hidden(id, "cause", cause);
        }
    }
    Ok(e)
}

/// An Error whose own `name` is `name` (`DataCloneError`, `InvalidCharacterError`, ...).
pub(crate) fn named_error(vm: &mut Vm, name: &str, message: &str) -> Throw {
    let e = vm.make_error(ErrorKind::Error, message);
    if let Value::Obj(id) = e {
        match vm.new_string(name) {
            Ok(n) => vm.define_hidden(id, "name", n),
            Err(oom) => return oom,
        }
    }
    e
}

/// A `URIError` with `message`.
pub(crate) fn uri_error(vm: &mut Vm, message: &str) -> Throw {
    intrinsic_error(vm, "URIError", message)
}

/// An error of one of this module's constructors ([`NAMES`]) with `message`.
pub(crate) fn intrinsic_error(vm: &mut Vm, name: &str, message: &str) -> Throw {
    let proto = proto_of(vm, name);
    let message = match vm.new_string(message) {
        Ok(m) => m,
        Err(oom) => return oom,
    };
    match error_with_proto(vm, proto, message, Value::Undefined) {
        Ok(e) | Err(e) => e,
    }
}

/// An `AggregateError` with `message` whose `errors` is the array `errors` (`Promise.any`).
pub(crate) fn aggregate_error(vm: &mut Vm, message: &str, errors: Value) -> Result<Value, Throw> {
    let proto = proto_of(vm, "AggregateError");
    let message = vm.new_string(message)?;
    let e = error_with_proto(vm, proto, message, Value::Undefined)?;
    if let Value::Obj(id) = e {
        vm.define_hidden(id, "errors", errors);
    }
    Ok(e)
}

fn aggregate_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    aggregate_construct(vm, args)
}

/// `new AggregateError(errors, message, options)`.
fn aggregate_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let proto = proto_of(vm, "AggregateError");
    let e = error_with_proto(vm, proto, arg(args, 1), arg(args, 2))?;
    let source = arg(args, 0);
    if source.is_nullish() {
        let desc = vm.to_rust_string(source)?;
        let msg = format!("{desc} is not iterable");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let items = match vm.collect_or_reenter(".AggregateError", true, Value::Undefined, args, 0)? {
        Ok(items) => items,
        Err(step) => return Ok(step),
    };
    vm.charge(Work::Elements(items.len()));
    let errors = vm.new_array(items)?;
    if let Value::Obj(id) = e {
        vm.define_hidden(id, "errors", errors);
    }
    Ok(Step::Return(e))
}

fn uri_error_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    uri_error_construct(vm, args)
}

fn uri_error_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let proto = proto_of(vm, "URIError");
    Ok(Step::Return(error_with_proto(vm, proto, arg(args, 0), arg(args, 1))?))
}

fn eval_error_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    eval_error_construct(vm, args)
}

fn eval_error_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let proto = proto_of(vm, "EvalError");
    Ok(Step::Return(error_with_proto(vm, proto, arg(args, 0), arg(args, 1))?))
}

fn suppressed_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    suppressed_construct(vm, args)
}

/// `new SuppressedError(error, suppressed, message)`.
fn suppressed_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let proto = proto_of(vm, "SuppressedError");
    let e = error_with_proto(vm, proto, arg(args, 2), Value::Undefined)?;
    if let Value::Obj(id) = e {
        vm.define_hidden(id, "error", arg(args, 0));
        vm.define_hidden(id, "suppressed", arg(args, 1));
    }
    Ok(Step::Return(e))
}

/// The `SuppressedError` disposal throws when `error` is thrown after `suppressed`.
pub(crate) fn suppressed_error(vm: &mut Vm, error: Value, suppressed: Value) -> Result<Value, Throw> {
    let proto = proto_of(vm, "SuppressedError");
    let message = vm.new_string("An error was suppressed during disposal.")?;
    let e = error_with_proto(vm, proto, message, Value::Undefined)?;
    if let Value::Obj(id) = e {
        vm.define_hidden(id, "error", error);
        vm.define_hidden(id, "suppressed", suppressed);
    }
    Ok(e)
}
