//! `%TypedArray%.prototype` methods that do not call back, and the statics `from`/`of`.
//!
//! Every method reads its typed array's length once (a detached or out-of-bounds view is a
//! `TypeError`) and charges its elements as work. Values convert with ToNumber before any element
//! is written, as the specification orders it.

use codemode_bytecode::ErrorKind;

use super::typed_array::{self, Elem, ElemKind, data_of, from_values, new_typed, numbers, this_typed, view};
use super::typed_array_loop::{LoopOp, start_loop};
use super::{NativeDef, Step, arg, relative_index};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{IterState, ObjKind};
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("TypedArray", "from", 1, from),
    NativeDef::new("TypedArray", "of", 0, of),
    NativeDef::new("TypedArray.prototype", "at", 1, at),
    NativeDef::new("TypedArray.prototype", "set", 1, set),
    NativeDef::new("TypedArray.prototype", "subarray", 2, subarray),
    NativeDef::new("TypedArray.prototype", "slice", 2, slice),
    NativeDef::new("TypedArray.prototype", "fill", 1, fill),
    NativeDef::new("TypedArray.prototype", "join", 1, join),
    NativeDef::new("TypedArray.prototype", "toString", 0, to_string),
    NativeDef::new("TypedArray.prototype", "indexOf", 1, index_of),
    NativeDef::new("TypedArray.prototype", "lastIndexOf", 1, last_index_of),
    NativeDef::new("TypedArray.prototype", "includes", 1, includes),
    NativeDef::new("TypedArray.prototype", "reverse", 0, reverse),
    NativeDef::new("TypedArray.prototype", "toReversed", 0, to_reversed),
    NativeDef::new("TypedArray.prototype", "with", 2, with),
    NativeDef::new("TypedArray.prototype", "copyWithin", 2, copy_within),
    NativeDef::new("TypedArray.prototype", "keys", 0, keys),
    NativeDef::new("TypedArray.prototype", "values", 0, values),
    NativeDef::new("TypedArray.prototype", "get @@toStringTag", 0, to_string_tag),
    NativeDef::new("TypedArray.prototype", "entries", 0, entries),
];

/// The element kind a constructor (`Uint8Array`, or a class extending it) makes, and the
/// prototype its instances get.
fn kind_of_ctor(vm: &mut Vm, ctor: Value) -> Result<(ElemKind, ObjId), Throw> {
    if let Value::Obj(_) = ctor {
        let proto_atom = vm.realm.atoms.prototype;
        if let Value::Obj(proto) = vm.get_value(ctor, Key::Atom(proto_atom))? {
            let mut cur = Some(proto);
            for _ in 0..1000 {
                let Some(p) = cur else { break };
                if let Some(i) = vm.realm.binary.kinds.iter().position(|k| *k == p) {
                    return Ok((ElemKind::ALL[i], proto));
                }
                cur = vm.heap.obj(p).proto;
            }
        }
    }
    Err(vm.make_error(ErrorKind::TypeError, "this is not a typed array constructor"))
}

/// Gives `id` the prototype `proto` (a subclass's), when it is not the kind's own.
fn with_proto(vm: &mut Vm, id: ObjId, proto: ObjId) -> Value {
    vm.heap.obj_mut(id).proto = Some(proto);
    Value::Obj(id)
}

fn of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (kind, proto) = kind_of_ctor(vm, this)?;
    let id = from_values(vm, kind, args)?;
    Ok(Step::Return(with_proto(vm, id, proto)))
}

/// The values of `source` for `from` and `set`: a typed array's numbers, an array's items, an
/// iterable's values or an array-like's elements.
/// The values of `set`'s source: a typed array's elements, or an array-like's (`set` never
/// iterates its source).
fn array_like_values(vm: &mut Vm, source: Value) -> Result<Vec<Value>, Throw> {
    match source {
        Value::Obj(id) => match &vm.heap.obj(id).kind {
            ObjKind::TypedArray(_) => {
                let nums = numbers(vm, id)?;
                vm.elem_values(nums)
            }
            ObjKind::Array(items) => Ok(items.to_vec()),
            _ => typed_array::array_like(vm, source),
        },
        Value::Undefined | Value::Null => {
            Err(vm.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object"))
        }
        _ => typed_array::array_like(vm, source),
    }
}

fn from(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (kind, proto) = kind_of_ctor(vm, this)?;
    let map = arg(args, 1);
    if map != Value::Undefined {
        super::require_callable(vm, map)?;
    }
    // An iterable's values (a program-defined one collected first, then `from` called again with
    // them), else an array-like's.
    let values = match vm.collect_iterable_or_reenter("TypedArray.from", false, this, args, 0)? {
        Some(Ok(values)) => values,
        Some(Err(step)) => return Ok(step),
        None => array_like_values(vm, arg(args, 0))?,
    };
    if map == Value::Undefined {
        let id = from_values(vm, kind, &values)?;
        return Ok(Step::Return(with_proto(vm, id, proto)));
    }
    let target = new_typed(vm, kind, values.len())?;
    with_proto(vm, target, proto);
    let Value::Obj(source) = vm.new_array(values)? else { return Ok(Step::Return(Value::Undefined)) };
    start_loop(vm, LoopOp::FromMap, source, Value::Obj(target), map, arg(args, 2))
}

fn at(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (_, t, len) = this_typed(vm, this, "at")?;
    if let Some(step) = super::prim_args::convert_args(vm, "TypedArray.prototype.at", false, this, args, 0)? {
        return Ok(step);
    }
    let n = vm.to_number(arg(args, 0))?;
    let n = if n.is_nan() { 0.0 } else { n.trunc() };
    let i = if n < 0.0 { len as f64 + n } else { n };
    if i < 0.0 || i >= len as f64 {
        return Ok(Step::Return(Value::Undefined));
    }
    Ok(Step::Return(vm.typed_get(&t, i as usize)?))
}

fn set(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (_, t, len) = this_typed(vm, this, "set")?;
    if let Some(step) = super::prim_args::convert_args(vm, "TypedArray.prototype.set", false, this, args, 1)?
    {
        return Ok(step);
    }
    let offset = vm.to_number(arg(args, 1))?;
    let offset = if offset.is_nan() { 0.0 } else { offset.trunc() };
    if offset < 0.0 {
        return Err(vm.make_error(ErrorKind::RangeError, "offset is out of bounds"));
    }
    let source = arg(args, 0);
    let values = array_like_values(vm, source)?;
    if offset + values.len() as f64 > len as f64 {
        return Err(vm.make_error(ErrorKind::RangeError, "offset is out of bounds"));
    }
    let offset = offset as usize;
    // All values convert first (a typed array source over the same buffer is read whole above).
    vm.charge(Work::Elements(values.len()));
    let mut nums = Vec::with_capacity(values.len());
    for v in values {
        nums.push(vm.to_elem(t.kind, v)?);
    }
    for (i, n) in nums.into_iter().enumerate() {
        t.put(&mut vm.heap, offset + i, n);
    }
    Ok(Step::Return(Value::Undefined))
}

fn subarray(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(id) = this else { return Err(vm.make_error(ErrorKind::TypeError, "not a typed array")) };
    let Some(t) = data_of(vm, id) else {
        return Err(vm.make_error(ErrorKind::TypeError, "not a typed array"));
    };
    if let Some(step) =
        super::prim_args::convert_args(vm, "TypedArray.prototype.subarray", false, this, args, 0)?
    {
        return Ok(step);
    }
    let len = t.len(&vm.heap).unwrap_or(0);
    let begin = relative_index(vm, arg(args, 0), len, 0)?;
    let tracking = t.length.is_none() && arg(args, 1) == Value::Undefined;
    let end = relative_index(vm, arg(args, 1), len, len)?;
    let count = end.saturating_sub(begin);
    let offset = t.offset + begin * t.kind.size();
    let out = view(vm, t.kind, t.buffer, offset, if tracking { None } else { Some(count) })?;
    let proto = vm.heap.obj(id).proto;
    vm.heap.obj_mut(out).proto = proto;
    Ok(Step::Return(Value::Obj(out)))
}

fn slice(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, t, len) = this_typed(vm, this, "slice")?;
    if let Some(step) =
        super::prim_args::convert_args(vm, "TypedArray.prototype.slice", false, this, args, 0)?
    {
        return Ok(step);
    }
    let start = relative_index(vm, arg(args, 0), len, 0)?;
    let end = relative_index(vm, arg(args, 1), len, len)?;
    let count = end.saturating_sub(start);
    let out = new_typed(vm, t.kind, count)?;
    let all = numbers(vm, id)?;
    if let Some(o) = data_of(vm, out) {
        for (i, n) in all.into_iter().skip(start).take(count).enumerate() {
            o.put(&mut vm.heap, i, n);
        }
    }
    Ok(Step::Return(Value::Obj(out)))
}

fn fill(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (_, t, len) = this_typed(vm, this, "fill")?;
    if let Some(step) = super::prim_args::convert_args(vm, "TypedArray.prototype.fill", false, this, args, 0)?
    {
        return Ok(step);
    }
    let n = vm.to_elem(t.kind, arg(args, 0))?;
    let start = relative_index(vm, arg(args, 1), len, 0)?;
    let end = relative_index(vm, arg(args, 2), len, len)?;
    vm.charge(Work::Elements(end.saturating_sub(start)));
    for i in start..end {
        t.put(&mut vm.heap, i, n);
    }
    Ok(Step::Return(this))
}

fn join(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, _, _) = this_typed(vm, this, "join")?;
    let sep = match arg(args, 0) {
        Value::Undefined => ",".to_string(),
        v => vm.to_rust_string(v)?,
    };
    let out = join_numbers(vm, id, &sep)?;
    Ok(Step::Return(vm.new_string_owned(out)?))
}

/// The elements of typed array `id` as text, separated by `sep` (checked against the memory
/// limit as it grows).
pub(crate) fn join_numbers(vm: &mut Vm, id: ObjId, sep: &str) -> Result<String, Throw> {
    let nums = numbers(vm, id)?;
    let mut out = String::new();
    for (i, n) in nums.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        match n {
            Elem::Num(n) => out.push_str(&crate::numconv::number_to_string(*n)),
            Elem::Big(i) => out.push_str(&i.to_string()),
        }
        if out.len() > crate::heap::MAX_STRING_BYTES {
            return Err(vm.make_error(ErrorKind::RangeError, "Invalid string length"));
        }
        if out.capacity() == out.len() {
            vm.ensure_fits(out.len() * 2)?;
        }
    }
    vm.charge(Work::Bytes(out.len()));
    Ok(out)
}

fn to_string(vm: &mut Vm, this: Value, _args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    join(vm, this, &[], data)
}

/// Where `target` is among the elements from `from` (`last`: searching backwards), comparing
/// as `===` (`includes`: SameValueZero, so `NaN` is found).
fn search(vm: &mut Vm, this: Value, args: &[Value], method: &str) -> Result<Option<usize>, Throw> {
    let (id, t, len) = this_typed(vm, this, method)?;
    if len == 0 {
        return Ok(None);
    }
    let last = method == "lastIndexOf";
    let from = if last {
        if args.len() < 2 {
            len as f64 - 1.0
        } else {
            let n = vm.to_number(arg(args, 1))?;
            let n = if n.is_nan() { 0.0 } else { n.trunc() };
            if n < 0.0 { len as f64 + n } else { n.min(len as f64 - 1.0) }
        }
    } else {
        relative_index(vm, arg(args, 1), len, 0)? as f64
    };
    // Only a value of the array's content type can be found (`===` never converts).
    let target = match (arg(args, 0), t.kind.is_bigint()) {
        (Value::Number(n), false) => Elem::Num(n),
        (Value::BigInt(b), true) => match num_traits::ToPrimitive::to_i128(vm.big(b)) {
            Some(i) => Elem::Big(i),
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    let nums = numbers(vm, id)?;
    vm.charge(Work::Scan(nums.len()));
    let includes = method == "includes";
    let hit = |n: Elem| match (n, target) {
        (Elem::Num(n), Elem::Num(target)) => n == target || (includes && n.is_nan() && target.is_nan()),
        (n, target) => n == target,
    };
    if last {
        if from < 0.0 {
            return Ok(None);
        }
        return Ok((0..=from as usize).rev().find(|&i| nums.get(i).is_some_and(|n| hit(*n))));
    }
    Ok((from as usize..nums.len()).find(|&i| nums.get(i).is_some_and(|n| hit(*n))))
}

fn index_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_typed(vm, this, "indexOf")?;
    if let Some(step) =
        super::prim_args::convert_args(vm, "TypedArray.prototype.indexOf", false, this, args, 1)?
    {
        return Ok(step);
    }
    let found = search(vm, this, args, "indexOf")?;
    Ok(Step::Return(Value::Number(found.map_or(-1.0, |i| i as f64))))
}

fn last_index_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_typed(vm, this, "lastIndexOf")?;
    if let Some(step) =
        super::prim_args::convert_args(vm, "TypedArray.prototype.lastIndexOf", false, this, args, 1)?
    {
        return Ok(step);
    }
    let found = search(vm, this, args, "lastIndexOf")?;
    Ok(Step::Return(Value::Number(found.map_or(-1.0, |i| i as f64))))
}

fn includes(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_typed(vm, this, "includes")?;
    if let Some(step) =
        super::prim_args::convert_args(vm, "TypedArray.prototype.includes", false, this, args, 1)?
    {
        return Ok(step);
    }
    Ok(Step::Return(Value::Bool(search(vm, this, args, "includes")?.is_some())))
}

fn reverse(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, t, _) = this_typed(vm, this, "reverse")?;
    let nums = numbers(vm, id)?;
    for (i, n) in nums.into_iter().rev().enumerate() {
        t.put(&mut vm.heap, i, n);
    }
    Ok(Step::Return(this))
}

fn to_reversed(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, t, _) = this_typed(vm, this, "toReversed")?;
    let mut nums = numbers(vm, id)?;
    nums.reverse();
    let values = vm.elem_values(nums)?;
    Ok(Step::Return(Value::Obj(from_values(vm, t.kind, &values)?)))
}

fn with(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, t, len) = this_typed(vm, this, "with")?;
    if let Some(step) = super::prim_args::convert_args(vm, "TypedArray.prototype.with", false, this, args, 0)?
    {
        return Ok(step);
    }
    let n = vm.to_number(arg(args, 0))?;
    let n = if n.is_nan() { 0.0 } else { n.trunc() };
    let i = if n < 0.0 { len as f64 + n } else { n };
    let value = vm.to_elem(t.kind, arg(args, 1))?;
    let now = t.len(&vm.heap).unwrap_or(0);
    if i < 0.0 || i >= now as f64 {
        return Err(vm.make_error(ErrorKind::RangeError, "Invalid typed array index"));
    }
    let mut nums = numbers(vm, id)?;
    nums.truncate(len);
    if let Some(slot) = nums.get_mut(i as usize) {
        *slot = value;
    }
    let values = vm.elem_values(nums)?;
    Ok(Step::Return(Value::Obj(from_values(vm, t.kind, &values)?)))
}

fn copy_within(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, t, len) = this_typed(vm, this, "copyWithin")?;
    if let Some(step) =
        super::prim_args::convert_args(vm, "TypedArray.prototype.copyWithin", false, this, args, 0)?
    {
        return Ok(step);
    }
    let to = relative_index(vm, arg(args, 0), len, 0)?;
    let from = relative_index(vm, arg(args, 1), len, 0)?;
    let end = relative_index(vm, arg(args, 2), len, len)?;
    let count = end.saturating_sub(from).min(len - to);
    let nums = numbers(vm, id)?;
    let moved: Vec<Elem> = nums.into_iter().skip(from).take(count).collect();
    for (i, n) in moved.into_iter().enumerate() {
        t.put(&mut vm.heap, to + i, n);
    }
    Ok(Step::Return(this))
}

fn keys(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (_, _, len) = this_typed(vm, this, "keys")?;
    vm.ensure_fits(len * crate::heap::VALUE_SIZE)?;
    vm.charge(Work::Elements(len));
    let items = (0..len).map(|i| Value::Number(i as f64)).collect();
    Ok(Step::Return(vm.new_iterator(IterState::List { items, next: 0 })?))
}

fn values(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, _, _) = this_typed(vm, this, "values")?;
    Ok(Step::Return(vm.new_iterator(IterState::Array { array: id, next: 0 })?))
}

fn entries(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, _, _) = this_typed(vm, this, "entries")?;
    let nums = numbers(vm, id)?;
    let mut pairs = Vec::with_capacity(nums.len());
    for (i, n) in nums.into_iter().enumerate() {
        let v = vm.elem_value(n)?;
        pairs.push(vm.new_array([Value::Number(i as f64), v])?);
    }
    Ok(Step::Return(vm.new_iterator(IterState::List { items: pairs, next: 0 })?))
}

/// `get %TypedArray%.prototype[@@toStringTag]`: the kind's name, or `undefined` for anything that
/// is not a typed array.
fn to_string_tag(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let name = match this {
        Value::Obj(id) => match &vm.heap.obj(id).kind {
            crate::object::ObjKind::TypedArray(t) => Some(t.kind.name()),
            _ => None,
        },
        _ => None,
    };
    match name {
        Some(name) => Ok(Step::Return(vm.new_string(name)?)),
        None => Ok(Step::Return(Value::Undefined)),
    }
}
