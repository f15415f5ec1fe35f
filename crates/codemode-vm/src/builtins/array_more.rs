//! More of `Array.prototype`: the copying `with` and `toSpliced`, `copyWithin`, and
//! `toLocaleString`.

use codemode_bytecode::ErrorKind;

use super::{Native, NativeDef, Step, arg, relative_index, this_array};
use crate::Vm;
use crate::call::Throw;
use crate::heap::{MAX_ARRAY_LENGTH, VALUE_SIZE};
use crate::meter::Work;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Array.prototype", "with", 2, with),
    NativeDef::new("Array.prototype", "toSpliced", 2, to_spliced),
    NativeDef::new("Array.prototype", "copyWithin", 2, |vm, t, a, d| {
        super::array_generic::mutate(vm, t, a, d, copy_within)
    }),
    NativeDef::new("Array.prototype", "toLocaleString", 0, to_locale_string),
];

/// `toLocaleString(locales, options)`: each element's `toLocaleString(locales, options)` as a
/// string (`""` for `null` and `undefined`), joined by commas. A built-in method (numbers, dates,
/// strings through `Object.prototype`'s) runs in place; a program's method is called through
/// replay (`replay.rs`), which bounds how many such calls one array makes.
fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "toLocaleString")?;
    let mut out = String::new();
    let mut checked = 0;
    let mut index = 0;
    while let Some(&element) = items_of(vm, id).get(index) {
        if index > 0 {
            out.push(',');
        }
        index += 1;
        vm.charge(Work::Elements(1));
        // The array itself joins as empty, as `join` does (a cycle).
        if element.is_nullish() || element == this {
            continue;
        }
        let method = vm.get_named(element, "toLocaleString")?;
        if !vm.is_callable(method) {
            return Err(vm.not_a_function(method));
        }
        let result = call_in_place(vm, method, element, args)?;
        out.push_str(&vm.to_rust_string(result)?);
        vm.check_join_growth(out.len(), &mut checked)?;
    }
    Ok(Step::Return(vm.new_string_owned(out)?))
}

/// `method.call(this, ...args)` from a built-in's run: a built-in method runs in place (a tail
/// call to another built-in, as `Object.prototype.toLocaleString`'s to `toString`, too); any
/// other call is replayed. So is this method itself (a nested array), whose calls then go through
/// the trampoline and its call-depth limit rather than Rust recursion.
fn call_in_place(vm: &mut Vm, method: Value, this: Value, args: &[Value]) -> Result<Value, Throw> {
    static SELF: std::sync::LazyLock<Option<Native>> =
        std::sync::LazyLock::new(|| Native::by_stable_name("Array.prototype.toLocaleString"));
    let (mut callee, mut this, mut args) = (method, this, args.to_vec());
    // A tail call's chain of built-ins is short; past a few links the call is replayed.
    for _ in 0..4 {
        let Value::Obj(f) = callee else { break };
        let (native, data) = match &vm.heap.obj(f).kind {
            ObjKind::Function(crate::object::Callable::Native { native, data }) if Some(*native) != *SELF => {
                (*native, data.to_vec())
            }
            _ => break,
        };
        match super::call_direct(vm, native, this, &args, &data)? {
            Step::Return(v) => return Ok(v),
            Step::TailCall { callee: c, this: t, args: a } => (callee, this, args) = (c, t, a),
            _ => break,
        }
    }
    vm.replayed(crate::replay::ReplayedOp::Call { callee, this, args })
}

fn items_of(vm: &Vm, id: ObjId) -> &[Value] {
    match &vm.heap.obj(id).kind {
        ObjKind::Array(items) => items,
        _ => &[],
    }
}

/// ToIntegerOrInfinity.
fn to_integer(vm: &mut Vm, v: Value) -> Result<f64, Throw> {
    let n = vm.to_number(v)?;
    Ok(if n.is_nan() { 0.0 } else { n.trunc() + 0.0 })
}

/// `arr.with(index, value)`: a copy with one element replaced; a RangeError outside the array.
fn with(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "with")?;
    let len = items_of(vm, id).len();
    let rel = to_integer(vm, arg(args, 0))?;
    let actual = if rel >= 0.0 { rel } else { len as f64 + rel };
    if actual < 0.0 || actual >= len as f64 {
        let shown = crate::numconv::number_to_string(rel);
        let msg = format!("Invalid index : {shown}");
        return Err(vm.make_error(ErrorKind::RangeError, &msg));
    }
    // The array may have shrunk while the index converted (a valueOf); re-read it.
    let len = items_of(vm, id).len();
    vm.charge(Work::Elements(len));
    vm.ensure_fits(len * VALUE_SIZE)?;
    let mut out = items_of(vm, id).to_vec();
    if let Some(slot) = out.get_mut(actual as usize) {
        *slot = arg(args, 1);
    }
    Ok(Step::Return(vm.new_array(out)?))
}

/// `arr.toSpliced(start, skipCount, ...items)`: `splice` on a copy, returning the copy.
fn to_spliced(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "toSpliced")?;
    let len = items_of(vm, id).len();
    let start = relative_index(vm, arg(args, 0), len, 0)?;
    let skip = match args.len() {
        0 => 0,
        1 => len - start,
        _ => {
            let n = to_integer(vm, arg(args, 1))?;
            n.clamp(0.0, (len - start) as f64) as usize
        }
    };
    let inserted = args.get(2..).unwrap_or(&[]);
    // Conversions above may have run program code; clamp to the array as it is now.
    let items_len = items_of(vm, id).len();
    let start = start.min(items_len);
    let end = (start + skip).min(items_len);
    let total = start + inserted.len() + (items_len - end);
    if total > MAX_ARRAY_LENGTH {
        return Err(vm.make_error(ErrorKind::RangeError, "Invalid array length"));
    }
    vm.charge(Work::Elements(total));
    vm.ensure_fits(total * VALUE_SIZE)?;
    let items = items_of(vm, id);
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(items.get(..start).unwrap_or(&[]));
    out.extend_from_slice(inserted);
    out.extend_from_slice(items.get(end..).unwrap_or(&[]));
    Ok(Step::Return(vm.new_array(out)?))
}

/// `arr.copyWithin(target, start, end)`: copies `[start, end)` over the elements from `target`,
/// in place, as if through a temporary copy.
fn copy_within(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "copyWithin")?;
    let len = items_of(vm, id).len();
    let target = relative_index(vm, arg(args, 0), len, 0)?;
    let start = relative_index(vm, arg(args, 1), len, 0)?;
    let end = relative_index(vm, arg(args, 2), len, len)?;
    let count = end.saturating_sub(start).min(len.saturating_sub(target));
    vm.charge(Work::Elements(count));
    if let ObjKind::Array(items) = &mut vm.heap.obj_mut(id).kind {
        // The array may have shrunk during the conversions: copy only what is still there.
        let n = items.len();
        let count = count.min(n.saturating_sub(start)).min(n.saturating_sub(target));
        if count > 0 {
            items.copy_within(start..start + count, target);
        }
    }
    Ok(Step::Return(this))
}
