//! `Error` and the native error constructors.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Error", 1, error_call, |vm, args| make(vm, ErrorKind::Error, args)),
    NativeDef::ctor("TypeError", 1, type_error_call, |vm, args| make(vm, ErrorKind::TypeError, args)),
    NativeDef::ctor("RangeError", 1, range_error_call, |vm, args| make(vm, ErrorKind::RangeError, args)),
    NativeDef::ctor("ReferenceError", 1, reference_error_call, |vm, args| {
        make(vm, ErrorKind::ReferenceError, args)
    }),
    NativeDef::ctor("SyntaxError", 1, syntax_error_call, |vm, args| make(vm, ErrorKind::SyntaxError, args)),
    NativeDef::new("Error.prototype", "toString", 0, to_string),
    NativeDef::new("Error", "isError", 1, is_error),
    NativeDef::new("Error", "captureStackTrace", 2, capture_stack_trace),
    NativeDef::new("#internal", "errorStackGet", 0, stack_get),
    NativeDef::new("#internal", "errorStackSet", 1, stack_set),
];

fn make(vm: &mut Vm, kind: ErrorKind, args: &[Value]) -> Result<Step, Throw> {
    let message = match arg(args, 0) {
        Value::Undefined => String::new(),
        v => vm.to_rust_string(v)?,
    };
    let e = vm.make_error(kind, &message);
    if let Value::Obj(id) = e {
        if message.is_empty() {
            let atom = vm.realm.atoms.message;
            vm.heap.obj_mut(id).props.remove(atom);
        }
        // `new Error(msg, { cause })`: InstallErrorCause (an own `cause` whenever the options
        // have one, even `undefined`).
        let options = arg(args, 1);
        if let Value::Obj(_) = options {
            let key = crate::props::Key::Atom(vm.heap.atoms.intern("cause"));
            if vm.has_property_replayed(options, key)? {
                let cause = vm.get_value(options, key)?;
                vm.define_hidden(id, "cause", cause);
            }
        }
    }
    Ok(Step::Return(e))
}

fn error_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    make(vm, ErrorKind::Error, args)
}
fn type_error_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    make(vm, ErrorKind::TypeError, args)
}
fn range_error_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    make(vm, ErrorKind::RangeError, args)
}
fn reference_error_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    make(vm, ErrorKind::ReferenceError, args)
}
fn syntax_error_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    make(vm, ErrorKind::SyntaxError, args)
}

/// `Error.prototype.toString`: generic over any object, reading `name` and `message` (getters
/// and conversions included).
fn to_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !matches!(this, Value::Obj(_)) {
        let desc = vm.describe_for_error(this);
        let msg = format!("Error.prototype.toString requires that 'this' be an Object, not {desc}");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let name = match vm.get_named(this, "name")? {
        Value::Undefined => "Error".to_string(),
        v => vm.to_rust_string(v)?,
    };
    let message = match vm.get_named(this, "message")? {
        Value::Undefined => String::new(),
        v => vm.to_rust_string(v)?,
    };
    let s = match (name.is_empty(), message.is_empty()) {
        (_, true) => name,
        (true, false) => message,
        (false, false) => format!("{name}: {message}"),
    };
    Ok(Step::Return(vm.new_string_owned(s)?))
}

/// Installs `name` and an empty `message` on the error prototypes.
pub(super) fn install_names(vm: &mut Vm) -> Result<(), Throw> {
    for (i, name) in ["Error", "TypeError", "RangeError", "ReferenceError", "SyntaxError"].iter().enumerate()
    {
        let proto = vm.realm.error_protos[i];
        let n = vm.new_string(name)?;
        vm.define_hidden(proto, "name", n);
        let empty = vm.new_string("")?;
        vm.define_hidden(proto, "message", empty);
    }
    // `Error.prototype.stack`: a non-enumerable accessor, so the result boundary and
    // `JSON.stringify` (own enumerable properties) never see it.
    let (Some(get), Some(set)) = (
        super::Native::by_stable_name("#internal.errorStackGet"),
        super::Native::by_stable_name("#internal.errorStackSet"),
    ) else {
        return Ok(());
    };
    let get = vm.alloc_native(get, Vec::new())?;
    let set = vm.alloc_native(set, Vec::new())?;
    let proto = vm.realm.error_protos[0];
    let key = vm.builtin_key("stack");
    vm.define_accessor(Value::Obj(proto), crate::props::Key::Atom(key), Some(get), Some(set))?;
    let props = &mut vm.heap.obj_mut(proto).props;
    if let Some(slot) = props.find(key).and_then(|i| props.slot_mut(i)) {
        slot.flags |= crate::object::HIDDEN;
    }
    Ok(())
}

/// `error.stack`: `Name: message` and the frames the error recorded when it was made
/// (`stack_trace.rs`); `undefined` for an object that is no Error.
fn stack_get(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let lines = match this {
        Value::Obj(id) => match &vm.heap.obj(id).kind {
            ObjKind::Error(info) => info.stack.as_ref().map(|t| vm.stack_lines(t)),
            _ => None,
        },
        _ => None,
    };
    let Some(lines) = lines else { return Ok(Step::Return(Value::Undefined)) };
    let Step::Return(Value::Str(head)) = to_string(vm, this, &[], &[])? else {
        return Ok(Step::Return(Value::Undefined));
    };
    let text = format!("{}{lines}", vm.heap.str(head));
    Ok(Step::Return(vm.new_string_owned(text)?))
}

/// `error.stack = v`: an own data property from then on (non-enumerable, as V8's).
fn stack_set(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Value::Obj(id) = this {
        let key = vm.builtin_key("stack");
        vm.define_hidden_charged(id, key, arg(args, 0))?;
    }
    Ok(Step::Return(Value::Undefined))
}

/// `Error.isError(v)`: whether `v` is an Error object (made by an error constructor, whatever
/// its prototype now is).
fn is_error(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let yes = matches!(arg(args, 0), Value::Obj(id) if matches!(vm.heap.obj(id).kind, crate::object::ObjKind::Error(_)));
    Ok(Step::Return(Value::Bool(yes)))
}

/// V8's `Error.captureStackTrace(obj, constructorOpt?)`: gives `obj` an own non-enumerable
/// `stack` (its `Error.prototype.toString` text, then the running frames), leaving out the frames
/// from the innermost call of `constructorOpt` outwards to it, as custom error classes expect.
fn capture_stack_trace(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let target = arg(args, 0);
    let Value::Obj(id) = target else {
        let desc = vm.describe_for_error(target);
        return Err(
            vm.make_error(ErrorKind::TypeError, &format!("Invalid argument: {desc} is not an object"))
        );
    };
    let Some(mut trace) = vm.capture_stack() else { return Ok(Step::Return(Value::Undefined)) };
    if let Value::Obj(f) = arg(args, 1)
        && let ObjKind::Function(
            crate::object::Callable::Closure { func, .. } | crate::object::Callable::Class { func, .. },
        ) = &vm.heap.obj(f).kind
        && let Some(at) = trace.frames.iter().position(|frame| frame.func == *func)
    {
        trace.frames.drain(..=at);
    }
    let lines = vm.stack_lines(&trace);
    let Step::Return(Value::Str(head)) = to_string(vm, target, &[], &[])? else {
        return Ok(Step::Return(Value::Undefined));
    };
    let text = format!("{}{lines}", vm.heap.str(head));
    let stack = vm.new_string_owned(text)?;
    let key = vm.builtin_key("stack");
    vm.define_hidden_charged(id, key, stack)?;
    Ok(Step::Return(Value::Undefined))
}
