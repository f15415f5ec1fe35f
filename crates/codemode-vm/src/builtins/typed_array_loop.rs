//! `%TypedArray%.prototype` methods that call back (`map`, `filter`, `forEach`, `reduce`,
//! `find*`, `some`, `every`, `sort` with a comparator) and `from` with a map function.
//!
//! Like the array methods, they never call JavaScript from Rust: the loop state is a
//! [`TypedLoop`] that waits in a native frame ([`Cont::TypedLoop`]) while the callback runs.
//! A comparator sort copies the elements into a plain array, sorts it with
//! `Array.prototype.toSorted` (itself resumable) and writes the result back
//! ([`Cont::TypedSorted`]).

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::typed_array::{Elem, data_of, from_values, numbers, this_typed};
use super::{Cont, Native, NativeDef, Step, arg, require_callable};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("TypedArray.prototype", "map", 1, map),
    NativeDef::new("TypedArray.prototype", "filter", 1, filter),
    NativeDef::new("TypedArray.prototype", "forEach", 1, for_each),
    NativeDef::new("TypedArray.prototype", "find", 1, find),
    NativeDef::new("TypedArray.prototype", "findIndex", 1, find_index),
    NativeDef::new("TypedArray.prototype", "findLast", 1, find_last),
    NativeDef::new("TypedArray.prototype", "findLastIndex", 1, find_last_index),
    NativeDef::new("TypedArray.prototype", "some", 1, some),
    NativeDef::new("TypedArray.prototype", "every", 1, every),
    NativeDef::new("TypedArray.prototype", "reduce", 1, reduce),
    NativeDef::new("TypedArray.prototype", "reduceRight", 1, reduce_right),
    NativeDef::new("TypedArray.prototype", "sort", 1, sort),
    NativeDef::new("TypedArray.prototype", "toSorted", 1, to_sorted),
    NativeDef::new("TypedArray.prototype", "toLocaleString", 0, to_locale_string),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoopOp {
    Map,
    Filter,
    ForEach,
    Find,
    FindIndex,
    FindLast,
    FindLastIndex,
    Some,
    Every,
    Reduce,
    ReduceRight,
    /// `TypedArray.from(source, mapFn)`: `source` is a plain array of the source's values.
    FromMap,
    /// `toLocaleString`: each element's own `toLocaleString()`, joined with commas.
    ToLocale,
}

impl LoopOp {
    fn backwards(self) -> bool {
        matches!(self, LoopOp::FindLast | LoopOp::FindLastIndex | LoopOp::ReduceRight)
    }
}

/// The state of a callback method between calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypedLoop {
    op: LoopOp,
    /// The typed array visited (a plain array for `FromMap`).
    source: ObjId,
    /// `map`/`from`: the typed array written.
    target: Value,
    callback: Value,
    this_arg: Value,
    /// The index whose callback is running.
    index: u32,
    len: u32,
    /// The `reduce` accumulator.
    acc: Value,
    /// `filter`: the values kept.
    kept: Vec<Value>,
}

impl TypedLoop {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([Value::Obj(self.source), self.target, self.callback, self.this_arg, self.acc]);
        out.extend(self.kept.iter().copied());
    }
}

/// Element `i` of the loop's source (`undefined` past the end or once detached).
fn element(vm: &mut Vm, source: ObjId, i: u32) -> Result<Value, Throw> {
    Ok(match &vm.heap.obj(source).kind {
        ObjKind::Array(items) => items.get(i as usize).copied().unwrap_or(Value::Undefined),
        ObjKind::TypedArray(t) => {
            let t = t.clone();
            vm.typed_get(&t, i as usize)?
        }
        _ => Value::Undefined,
    })
}

pub(crate) fn start_loop(
    vm: &mut Vm,
    op: LoopOp,
    source: ObjId,
    target: Value,
    callback: Value,
    this_arg: Value,
) -> Result<Step, Throw> {
    require_callable(vm, callback)?;
    let len = match &vm.heap.obj(source).kind {
        ObjKind::Array(items) => items.len(),
        ObjKind::TypedArray(t) => t.len(&vm.heap).unwrap_or(0),
        _ => 0,
    } as u32;
    let index = if op.backwards() { len } else { 0 };
    let state = TypedLoop {
        op,
        source,
        target,
        callback,
        this_arg,
        index,
        len,
        acc: Value::Undefined,
        kept: Vec::new(),
    };
    next_call(vm, Box::new(state))
}

fn next_call(vm: &mut Vm, mut s: Box<TypedLoop>) -> Result<Step, Throw> {
    let has_next = if s.op.backwards() { s.index > 0 } else { s.index < s.len };
    if !has_next {
        return finish(vm, *s);
    }
    if s.op.backwards() {
        s.index -= 1;
    }
    vm.charge(Work::Elements(1));
    let value = element(vm, s.source, s.index)?;
    if s.op == LoopOp::ToLocale {
        let method = vm.get_named(value, "toLocaleString")?;
        require_callable(vm, method)?;
        return Ok(Step::Call { callee: method, this: value, args: Vec::new(), cont: Cont::TypedLoop(s) });
    }
    let index = Value::Number(f64::from(s.index));
    let args = match s.op {
        LoopOp::Reduce | LoopOp::ReduceRight => vec![s.acc, value, index, Value::Obj(s.source)],
        LoopOp::FromMap => vec![value, index],
        _ => vec![value, index, Value::Obj(s.source)],
    };
    let (callee, this) = (s.callback, s.this_arg);
    Ok(Step::Call { callee, this, args, cont: Cont::TypedLoop(s) })
}

fn finish(vm: &mut Vm, s: TypedLoop) -> Result<Step, Throw> {
    Ok(Step::Return(match s.op {
        LoopOp::Map | LoopOp::FromMap => s.target,
        LoopOp::ToLocale => {
            let mut out = String::new();
            for (i, part) in s.kept.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if let Value::Str(p) = part {
                    out.push_str(vm.heap.str(*p));
                }
            }
            vm.ensure_fits(out.len())?;
            vm.new_string_owned(out)?
        }
        LoopOp::Filter => {
            let kind = data_of(vm, s.source).map_or(super::typed_array::ElemKind::Uint8, |t| t.kind);
            let id = from_values(vm, kind, &s.kept)?;
            let proto = vm.heap.obj(s.source).proto;
            vm.heap.obj_mut(id).proto = proto;
            Value::Obj(id)
        }
        LoopOp::Reduce | LoopOp::ReduceRight => s.acc,
        LoopOp::ForEach | LoopOp::Find | LoopOp::FindLast => Value::Undefined,
        LoopOp::FindIndex | LoopOp::FindLastIndex => Value::Number(-1.0),
        LoopOp::Some => Value::Bool(false),
        LoopOp::Every => Value::Bool(true),
    }))
}

pub(super) fn resume_loop(vm: &mut Vm, mut s: Box<TypedLoop>, result: Value) -> Result<Step, Throw> {
    let value = element(vm, s.source, s.index)?;
    match s.op {
        LoopOp::Map | LoopOp::FromMap => {
            if let Value::Obj(target) = s.target
                && let Some(t) = data_of(vm, target)
            {
                let n = vm.to_elem(t.kind, result)?;
                t.put(&mut vm.heap, s.index as usize, n);
            }
        }
        LoopOp::ToLocale => {
            let text = vm.to_string_value(result)?;
            vm.charge_memory(crate::heap::VALUE_SIZE)?;
            s.kept.push(text);
        }
        LoopOp::Filter => {
            if vm.to_boolean(result) {
                vm.charge_memory(crate::heap::VALUE_SIZE)?;
                s.kept.push(value);
            }
        }
        LoopOp::ForEach => {}
        LoopOp::Find | LoopOp::FindLast => {
            if vm.to_boolean(result) {
                return Ok(Step::Return(value));
            }
        }
        LoopOp::FindIndex | LoopOp::FindLastIndex => {
            if vm.to_boolean(result) {
                return Ok(Step::Return(Value::Number(f64::from(s.index))));
            }
        }
        LoopOp::Some => {
            if vm.to_boolean(result) {
                return Ok(Step::Return(Value::Bool(true)));
            }
        }
        LoopOp::Every => {
            if !vm.to_boolean(result) {
                return Ok(Step::Return(Value::Bool(false)));
            }
        }
        LoopOp::Reduce | LoopOp::ReduceRight => s.acc = result,
    }
    if !s.op.backwards() {
        s.index += 1;
    }
    next_call(vm, s)
}

macro_rules! loop_method {
    ($name:ident, $op:expr, $label:literal) => {
        fn $name(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
            let (id, _, _) = this_typed(vm, this, $label)?;
            start_loop(vm, $op, id, Value::Undefined, arg(args, 0), arg(args, 1))
        }
    };
}

loop_method!(filter, LoopOp::Filter, "filter");
loop_method!(for_each, LoopOp::ForEach, "forEach");
loop_method!(find, LoopOp::Find, "find");
loop_method!(find_index, LoopOp::FindIndex, "findIndex");
loop_method!(find_last, LoopOp::FindLast, "findLast");
loop_method!(find_last_index, LoopOp::FindLastIndex, "findLastIndex");
loop_method!(some, LoopOp::Some, "some");
loop_method!(every, LoopOp::Every, "every");

fn map(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, t, len) = this_typed(vm, this, "map")?;
    require_callable(vm, arg(args, 0))?;
    let out = super::typed_array::new_typed(vm, t.kind, len)?;
    let proto = vm.heap.obj(id).proto;
    vm.heap.obj_mut(out).proto = proto;
    start_loop(vm, LoopOp::Map, id, Value::Obj(out), arg(args, 0), arg(args, 1))
}

fn reduce_impl(vm: &mut Vm, this: Value, args: &[Value], right: bool) -> Result<Step, Throw> {
    let (id, t, len) = this_typed(vm, this, if right { "reduceRight" } else { "reduce" })?;
    let callback = arg(args, 0);
    require_callable(vm, callback)?;
    let len = len as u32;
    let op = if right { LoopOp::ReduceRight } else { LoopOp::Reduce };
    let (acc, index) = if args.len() >= 2 {
        (arg(args, 1), if right { len } else { 0 })
    } else {
        if len == 0 {
            return Err(vm.make_error(ErrorKind::TypeError, "Reduce of empty array with no initial value"));
        }
        let first = if right { len - 1 } else { 0 };
        let v = vm.typed_get(&t, first as usize)?;
        (v, if right { len - 1 } else { 1 })
    };
    let state = TypedLoop {
        op,
        source: id,
        target: Value::Undefined,
        callback,
        this_arg: Value::Undefined,
        index,
        len,
        acc,
        kept: Vec::new(),
    };
    next_call(vm, Box::new(state))
}

fn reduce(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    reduce_impl(vm, this, args, false)
}

fn reduce_right(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    reduce_impl(vm, this, args, true)
}

// ---- sort ----

/// Numeric order: `-0` before `+0`, `NaN` last (BigInt elements by value).
fn numeric_order(a: &Elem, b: &Elem) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (a, b) = match (a, b) {
        (Elem::Num(a), Elem::Num(b)) => (a, b),
        (a, b) => return a.num().total_cmp(&b.num()).then_with(|| big_of(*a).cmp(&big_of(*b))),
    };
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.total_cmp(b),
    }
}

fn big_of(e: Elem) -> i128 {
    match e {
        Elem::Big(i) => i,
        Elem::Num(_) => 0,
    }
}

fn sort_impl(vm: &mut Vm, this: Value, args: &[Value], copy: bool) -> Result<Step, Throw> {
    let comparator = arg(args, 0);
    if comparator != Value::Undefined {
        require_callable(vm, comparator)?;
    }
    let (id, t, _) = this_typed(vm, this, if copy { "toSorted" } else { "sort" })?;
    let mut nums = numbers(vm, id)?;
    let target = if copy {
        let values = vm.elem_values(nums.clone())?;
        from_values(vm, t.kind, &values)?
    } else {
        id
    };
    if comparator == Value::Undefined {
        vm.charge(Work::Sort(nums.len()));
        nums.sort_by(numeric_order);
        if let Some(t) = data_of(vm, target) {
            for (i, n) in nums.into_iter().enumerate() {
                t.put(&mut vm.heap, i, n);
            }
        }
        return Ok(Step::Return(Value::Obj(target)));
    }
    let values = vm.elem_values(nums)?;
    let temp = vm.new_array(values)?;
    let Some(to_sorted) = Native::by_stable_name("Array.prototype.toSorted") else {
        return Err(vm.make_error(ErrorKind::TypeError, "Array.prototype.toSorted is missing"));
    };
    let callee = vm.alloc_native(to_sorted, Vec::new())?;
    Ok(Step::Call { callee, this: temp, args: vec![comparator], cont: Cont::TypedSorted { target } })
}

/// Writes the sorted values back into `target`, which is the result.
pub(super) fn resume_sorted(vm: &mut Vm, target: ObjId, sorted: Value) -> Result<Step, Throw> {
    let items = vm.array_items(sorted);
    vm.charge(Work::Elements(items.len()));
    if let Some(t) = data_of(vm, target) {
        for (i, v) in items.into_iter().enumerate() {
            if matches!(v, Value::Number(_) | Value::BigInt(_)) {
                let n = vm.to_elem(t.kind, v)?;
                t.put(&mut vm.heap, i, n);
            }
        }
    }
    Ok(Step::Return(Value::Obj(target)))
}

fn sort(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    sort_impl(vm, this, args, false)
}

fn to_sorted(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    sort_impl(vm, this, args, true)
}

fn to_locale_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, _, len) = this_typed(vm, this, "toLocaleString")?;
    // The result has at least a character and a comma per element, and each element's text is
    // kept until the end: a result that cannot fit fails before the first element is formatted
    // (32M elements took 4 s of calls to find out).
    vm.ensure_fits(len.saturating_mul(2 + crate::heap::VALUE_SIZE))?;
    let state = TypedLoop {
        op: LoopOp::ToLocale,
        source: id,
        target: Value::Undefined,
        callback: Value::Undefined,
        this_arg: Value::Undefined,
        index: 0,
        len: len as u32,
        acc: Value::Undefined,
        kept: Vec::new(),
    };
    next_call(vm, Box::new(state))
}
