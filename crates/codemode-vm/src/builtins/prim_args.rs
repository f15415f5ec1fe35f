//! Arguments converted by a program's own `valueOf`/`toString` before a built-in runs.
//!
//! The binary-data built-ins convert their arguments with ToNumber/ToIndex, which for an
//! object of the program's calls its `valueOf` (or `toString`). Built-ins never call
//! JavaScript from Rust, so [`convert_args`] looks first: when an argument's conversion needs
//! program code, the built-in returns a `Step::Call` of that method, waits in
//! [`Cont::PrimArgs`], puts the primitive in place of the argument, and once every argument is
//! primitive runs the built-in again with them. A conversion that throws throws from the
//! built-in, as JavaScript's does.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::{Cont, Native, Step};
use crate::Vm;
use crate::call::Throw;
use crate::object::{Callable, ObjKind};
use crate::props::{Got, Key};
use crate::value::Value;

/// A built-in waiting for its arguments' conversions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrimArgs {
    native: Native,
    /// Run with `new` (a constructor) rather than called.
    construct: bool,
    this: Value,
    args: Vec<Value>,
    /// The argument being converted.
    index: u32,
    /// Whether `toString` was the method called (after `valueOf` gave an object).
    tried_to_string: bool,
}

impl PrimArgs {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(self.this);
        out.extend(self.args.iter().copied());
    }
}

/// A program function (not a built-in) that `v.name` holds, if any.
fn user_method(vm: &mut Vm, v: Value, name: &str) -> Option<Value> {
    let atom = vm.heap.atoms.lookup(name)?;
    match vm.get(v, Key::Atom(atom)).ok()? {
        Got::Value(f @ Value::Obj(id)) => match &vm.heap.obj(id).kind {
            ObjKind::Function(Callable::Native { .. }) => None,
            ObjKind::Function(_) => Some(f),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `v.name` is a built-in function (or absent), so converting with it runs no program
/// code.
fn builtin_or_absent(vm: &mut Vm, v: Value, name: &str) -> bool {
    user_method(vm, v, name).is_none()
}

/// The method to call to convert `v` (hint number): `valueOf` when the program defined one,
/// else its `toString` when the program defined that (the built-in `valueOf` returns the object).
fn method_for(vm: &mut Vm, v: Value) -> Option<(Value, bool)> {
    let Value::Obj(id) = v else { return None };
    if matches!(
        vm.heap.obj(id).kind,
        ObjKind::Function(_)
            | ObjKind::Array(_)
            | ObjKind::TypedArray(_)
            | ObjKind::Date(_)
            | ObjKind::Boxed(_)
    ) {
        return None;
    }
    if let Some(f) = user_method(vm, v, "valueOf") {
        return Some((f, false));
    }
    if builtin_or_absent(vm, v, "valueOf") {
        return user_method(vm, v, "toString").map(|f| (f, true));
    }
    None
}

/// Before built-in `name` (`"DataView.prototype.getInt8"`) runs: when an argument (from index
/// `skip` on) needs program code to become a primitive, the step that converts it (and then runs
/// the built-in again).
pub(crate) fn convert_args(
    vm: &mut Vm,
    name: &str,
    construct: bool,
    this: Value,
    args: &[Value],
    skip: usize,
) -> Result<Option<Step>, Throw> {
    // Only when some argument needs program code: the built-in runs again afterwards, and must
    // then find nothing to convert (else it would recurse).
    let mut needed = false;
    for &a in args.iter().skip(skip) {
        if method_for(vm, a).is_some() {
            needed = true;
            break;
        }
    }
    if !needed {
        return Ok(None);
    }
    let Some(native) = Native::by_stable_name(name) else { return Ok(None) };
    let index = skip as u32;
    let state = PrimArgs { native, construct, this, args: args.to_vec(), index, tried_to_string: false };
    next(vm, Box::new(state)).map(Some)
}

/// Converts the next argument that needs it, or runs the built-in.
fn next(vm: &mut Vm, mut s: Box<PrimArgs>) -> Result<Step, Throw> {
    while let Some(&v) = s.args.get(s.index as usize) {
        if let Some((method, is_to_string)) = method_for(vm, v) {
            s.tried_to_string = is_to_string;
            return Ok(Step::Call { callee: method, this: v, args: Vec::new(), cont: Cont::PrimArgs(s) });
        }
        s.index += 1;
    }
    if s.construct {
        super::construct_native(vm, s.native, &s.args)
    } else {
        super::call_native(vm, s.native, s.this, &s.args, &[])
    }
}

pub(super) fn resume(vm: &mut Vm, mut s: Box<PrimArgs>, result: Value) -> Result<Step, Throw> {
    let i = s.index as usize;
    if let Value::Obj(_) = result {
        let original = s.args.get(i).copied().unwrap_or(Value::Undefined);
        if !s.tried_to_string
            && let Some(f) = user_method(vm, original, "toString")
        {
            s.tried_to_string = true;
            return Ok(Step::Call { callee: f, this: original, args: Vec::new(), cont: Cont::PrimArgs(s) });
        }
        return Err(vm.make_error(ErrorKind::TypeError, "Cannot convert object to primitive value"));
    }
    if let Some(slot) = s.args.get_mut(i) {
        *slot = result;
    }
    s.index += 1;
    next(vm, s)
}
