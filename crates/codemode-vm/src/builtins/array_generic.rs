//! The mutating array methods on array-likes (`Array.prototype.push.call({ length: 0 }, x)`,
//! `arguments`): the object's elements are read into an array, the method runs on it, and the
//! result is written back (elements `0..length`, the indices past the new length deleted, then
//! `length`). Only methods that finish without calling back into the program go this way; `sort`
//! of an array-like stays a `TypeError`.

use codemode_bytecode::ErrorKind;

use super::{NativeFn, Step};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::Value;

/// Runs the array method `f` on `this`, an array or an array-like object.
pub(crate) fn mutate(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    data: &[Value],
    f: NativeFn,
) -> Result<Step, Throw> {
    let Value::Obj(id) = this else { return f(vm, this, args, data) };
    if matches!(vm.heap.obj(id).kind, ObjKind::Array(_)) {
        return f(vm, this, args, data);
    }
    let before = vm.array_like_to_vec(this)?;
    let old_len = before.len();
    let copy = vm.new_array(before)?;
    let step = f(vm, copy, args, data)?;
    let Step::Return(result) = step else {
        return Err(
            vm.make_error(ErrorKind::TypeError, "this array method cannot run on an array-like object")
        );
    };
    let after = match copy {
        Value::Obj(c) => match &vm.heap.obj(c).kind {
            ObjKind::Array(items) => items.to_vec(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    vm.charge(Work::Elements(after.len() + old_len));
    for (i, v) in after.iter().enumerate() {
        if !matches!(vm.set(this, Key::Index(i as u32), *v)?, crate::props::SetFound::Done) {
            // A setter (or a proxy) on an index of the array-like: not run from here.
            return Err(vm.make_error(
                ErrorKind::TypeError,
                "an array-like with index setters cannot be changed in place",
            ));
        }
    }
    for i in after.len()..old_len {
        if !vm.delete(this, Key::Index(i as u32))? {
            let msg = format!("Cannot delete property '{i}' of the array-like object");
            return Err(vm.make_error(ErrorKind::TypeError, &msg));
        }
    }
    let length = Key::Atom(vm.realm.atoms.length);
    vm.set(this, length, Value::Number(after.len() as f64))?;
    // Methods that return their array (`reverse`, `fill`, `copyWithin`) return the object.
    Ok(Step::Return(if result == copy { this } else { result }))
}
