//! `Array` and `Array.prototype`.
//!
//! Methods that call back (`map`, `filter`, `reduce`, `sort`, ...) are resumable: their loop state
//! is an [`ArrayLoop`] or [`SortState`] that waits in a native frame while the callback runs.

use crate::meter::Work;
use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::array_loop::{
    LoopOp, every, filter, find, find_index, find_last, find_last_index, flat_map, for_each, map, reduce,
    reduce_right, some, start_loop,
};
use super::{Cont, NativeDef, Step, arg, relative_index, require_callable, this_array};
use crate::Vm;
use crate::call::Throw;
use crate::object::{IterState, ObjKind};
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Array", 1, array_call, array_construct),
    NativeDef::new("Array", "isArray", 1, is_array),
    NativeDef::new("Array", "from", 1, from),
    NativeDef::new("Array", "of", 0, of),
    NativeDef::new("Array.prototype", "push", 1, |vm, t, a, d| {
        super::array_generic::mutate(vm, t, a, d, push)
    }),
    NativeDef::new("Array.prototype", "pop", 0, |vm, t, a, d| super::array_generic::mutate(vm, t, a, d, pop)),
    NativeDef::new("Array.prototype", "shift", 0, |vm, t, a, d| {
        super::array_generic::mutate(vm, t, a, d, shift)
    }),
    NativeDef::new("Array.prototype", "unshift", 1, |vm, t, a, d| {
        super::array_generic::mutate(vm, t, a, d, unshift)
    }),
    NativeDef::new("Array.prototype", "slice", 2, slice),
    NativeDef::new("Array.prototype", "splice", 2, |vm, t, a, d| {
        super::array_generic::mutate(vm, t, a, d, splice)
    }),
    NativeDef::new("Array.prototype", "concat", 1, concat),
    NativeDef::new("Array.prototype", "join", 1, join),
    NativeDef::new("Array.prototype", "toString", 0, to_string),
    NativeDef::new("Array.prototype", "reverse", 0, |vm, t, a, d| {
        super::array_generic::mutate(vm, t, a, d, reverse)
    }),
    NativeDef::new("Array.prototype", "indexOf", 1, index_of),
    NativeDef::new("Array.prototype", "lastIndexOf", 1, last_index_of),
    NativeDef::new("Array.prototype", "includes", 1, includes),
    NativeDef::new("Array.prototype", "at", 1, at),
    NativeDef::new("Array.prototype", "fill", 1, |vm, t, a, d| {
        super::array_generic::mutate(vm, t, a, d, fill)
    }),
    NativeDef::new("Array.prototype", "flat", 0, flat),
    NativeDef::new("Array.prototype", "keys", 0, keys),
    NativeDef::new("Array.prototype", "values", 0, values),
    NativeDef::new("Array.prototype", "entries", 0, entries),
    NativeDef::new("Array.prototype", "map", 1, map),
    NativeDef::new("Array.prototype", "filter", 1, filter),
    NativeDef::new("Array.prototype", "forEach", 1, for_each),
    NativeDef::new("Array.prototype", "find", 1, find),
    NativeDef::new("Array.prototype", "findIndex", 1, find_index),
    NativeDef::new("Array.prototype", "findLast", 1, find_last),
    NativeDef::new("Array.prototype", "findLastIndex", 1, find_last_index),
    NativeDef::new("Array.prototype", "some", 1, some),
    NativeDef::new("Array.prototype", "every", 1, every),
    NativeDef::new("Array.prototype", "reduce", 1, reduce),
    NativeDef::new("Array.prototype", "reduceRight", 1, reduce_right),
    NativeDef::new("Array.prototype", "flatMap", 1, flat_map),
    NativeDef::new("Array.prototype", "sort", 1, sort),
    NativeDef::new("Array.prototype", "toSorted", 1, to_sorted),
    NativeDef::new("Array.prototype", "toReversed", 0, to_reversed),
];

const MAX_FLAT_DEPTH: usize = 64;

fn items_of(vm: &Vm, id: ObjId) -> &[Value] {
    match &vm.heap.obj(id).kind {
        ObjKind::Array(items) => items,
        _ => &[],
    }
}

fn items_mut(vm: &mut Vm, id: ObjId) -> Option<&mut crate::object::Elements> {
    match &mut vm.heap.obj_mut(id).kind {
        ObjKind::Array(items) => Some(items),
        _ => None,
    }
}

fn array_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    array_construct(vm, args)
}

fn array_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    if let [Value::Number(n)] = args {
        let Some(len) = crate::value::as_array_index(*n) else {
            return Err(vm.make_error(ErrorKind::RangeError, "Invalid array length"));
        };
        if len as usize > crate::heap::MAX_ARRAY_LENGTH {
            return Err(vm.make_error(ErrorKind::RangeError, "Invalid array length"));
        }
        vm.charge_memory(len as usize * crate::heap::VALUE_SIZE)?;
        vm.charge(Work::Elements(len as usize));
        return Ok(Step::Return(vm.new_array(vec![Value::Undefined; len as usize])?));
    }
    Ok(Step::Return(vm.new_array(args.to_vec())?))
}

fn is_array(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let v = arg(args, 0);
    // A proxy is an array when its target is (a revoked one on the way is a TypeError).
    let v = match vm.as_proxy(v) {
        Some(p) => Value::Obj(vm.proxy_innermost(p)?),
        None => v,
    };
    Ok(Step::Return(Value::Bool(
        matches!(v, Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Array(_))),
    )))
}

pub(crate) fn from(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let source = arg(args, 0);
    if let Some(method) = vm.user_iterator_method(source)? {
        let Value::Obj(array) = vm.new_array(Vec::new())? else {
            return Ok(Step::Return(Value::Undefined));
        };
        let map = arg(args, 1);
        if map != Value::Undefined {
            require_callable(vm, map)?;
        }
        let then = crate::user_iter::DrainThen::Into(crate::generator::DrainInto::ArrayFrom { array, map });
        return Ok(vm.drain_user_iterable(source, method, then));
    }
    let items = match source {
        Value::Obj(id)
            if !matches!(
                vm.heap.obj(id).kind,
                ObjKind::Array(_)
                    | ObjKind::Iterator(_)
                    | ObjKind::Map { .. }
                    | ObjKind::Generator(_)
                    | ObjKind::TypedArray(_)
            ) =>
        {
            vm.array_like_to_vec(source)?
        }
        Value::Undefined | Value::Null => {
            return Err(vm.make_error(ErrorKind::TypeError, "undefined is not iterable"));
        }
        Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Generator(_)) => {
            vm.as_sync_generator(source)?;
            let Value::Obj(array) = vm.new_array(Vec::new())? else {
                return Ok(Step::Return(Value::Undefined));
            };
            let map = arg(args, 1);
            if map != Value::Undefined {
                require_callable(vm, map)?;
            }
            let into = crate::generator::DrainInto::ArrayFrom { array, map };
            return Ok(vm.drain_generator(id, into));
        }
        _ => vm.collect_iterable(source)?,
    };
    let arr = vm.new_array(items)?;
    let f = arg(args, 1);
    if f == Value::Undefined {
        return Ok(Step::Return(arr));
    }
    require_callable(vm, f)?;
    let Value::Obj(src) = arr else { return Ok(Step::Return(arr)) };
    start_loop(vm, LoopOp::Map, src, Value::Obj(src), f, arg(args, 2))
}

fn of(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(vm.new_array(args.to_vec())?))
}

fn push(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "push")?;
    for v in args {
        vm.array_push(Value::Obj(id), *v)?;
    }
    Ok(Step::Return(Value::Number(items_of(vm, id).len() as f64)))
}

/// Whether `native` is `Array.prototype.push` (the interpreter appends to a plain array in place,
/// [`Vm::push_in_place`]).
#[inline]
pub(crate) fn is_push(native: super::Native) -> bool {
    static PUSH: std::sync::LazyLock<Option<super::Native>> =
        std::sync::LazyLock::new(|| super::Native::by_stable_name("Array.prototype.push"));
    *PUSH == Some(native)
}

impl Vm {
    /// `array.push(...)` from the interpreter (the callee is [`is_push`]), on an array that
    /// `push` would append to directly (an `Array` that is extensible: `this_array` accepts it
    /// as it is): the arguments, at `args` of the register stack, appended with the built-in's
    /// fuel (a call) and memory charges, and the new length. `None`: any other `this`, for the
    /// general call.
    #[inline(never)]
    pub(crate) fn push_in_place(
        &mut self,
        this: Value,
        args: std::ops::Range<usize>,
    ) -> Option<Result<Value, Throw>> {
        let Value::Obj(id) = this else { return None };
        let obj = self.heap.obj(id);
        if !matches!(obj.kind, ObjKind::Array(_)) || obj.props.integrity != 0 {
            return None;
        }
        self.charge(Work::Call { args: args.len() });
        for i in args {
            let v = self.stack.get(i).copied().unwrap_or(Value::Undefined);
            if let Err(e) = self.array_push(this, v) {
                return Some(Err(e));
            }
        }
        Some(Ok(Value::Number(items_of(self, id).len() as f64)))
    }
}

fn pop(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "pop")?;
    Ok(Step::Return(items_mut(vm, id).and_then(|items| items.pop()).unwrap_or(Value::Undefined)))
}

fn shift(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "shift")?;
    let items = items_mut(vm, id);
    let v = match items {
        Some(items) if !items.is_empty() => {
            let len = items.len();
            let v = items.remove(0);
            vm.charge(Work::Scan(len));
            v
        }
        _ => Value::Undefined,
    };
    Ok(Step::Return(v))
}

fn unshift(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "unshift")?;
    vm.charge_memory(args.len() * crate::heap::VALUE_SIZE)?;
    let len = match items_mut(vm, id) {
        Some(items) => {
            items.insert_many(0, args.iter().copied());
            items.len()
        }
        None => 0,
    };
    vm.charge(Work::Scan(len));
    Ok(Step::Return(Value::Number(len as f64)))
}

fn slice(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "slice")?;
    let len = items_of(vm, id).len();
    let start = relative_index(vm, arg(args, 0), len, 0)?;
    let end = relative_index(vm, arg(args, 1), len, len)?;
    let out = items_of(vm, id).get(start..end.max(start)).unwrap_or(&[]).to_vec();
    vm.charge(Work::Elements(out.len()));
    Ok(Step::Return(vm.new_array(out)?))
}

fn splice(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "splice")?;
    let len = items_of(vm, id).len();
    let start = relative_index(vm, arg(args, 0), len, 0)?;
    let delete = if args.len() < 2 {
        len - start
    } else {
        let n = vm.to_number(arg(args, 1))?;
        (if n.is_nan() { 0.0 } else { n.trunc() }).clamp(0.0, (len - start) as f64) as usize
    };
    let inserted: Vec<Value> = args.get(2..).unwrap_or(&[]).to_vec();
    vm.charge_memory(inserted.len() * crate::heap::VALUE_SIZE)?;
    let removed: Vec<Value> = match items_mut(vm, id) {
        Some(items) => {
            let removed = items.drain(start..start + delete).collect();
            items.insert_many(start, inserted);
            removed
        }
        None => Vec::new(),
    };
    vm.charge(Work::Scan(len));
    Ok(Step::Return(vm.new_array(removed)?))
}

fn concat(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "concat")?;
    // The result's size first, so its memory is checked before it is built.
    let mut total = items_of(vm, id).len();
    for a in args {
        total += match a {
            Value::Obj(other) if matches!(vm.heap.obj(*other).kind, ObjKind::Array(_)) => {
                items_of(vm, *other).len()
            }
            _ => 1,
        };
    }
    if total > crate::heap::MAX_ARRAY_LENGTH {
        return Err(vm.make_error(ErrorKind::RangeError, "Invalid array length"));
    }
    vm.charge(Work::Elements(total));
    vm.ensure_fits(total * crate::heap::VALUE_SIZE)?;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(items_of(vm, id));
    for a in args {
        match a {
            Value::Obj(other) if matches!(vm.heap.obj(*other).kind, ObjKind::Array(_)) => {
                out.extend_from_slice(items_of(vm, *other));
            }
            v => out.push(*v),
        }
    }
    Ok(Step::Return(vm.new_array(out)?))
}

fn join(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "join")?;
    let sep = match arg(args, 0) {
        Value::Undefined => ",".to_string(),
        v => vm.to_rust_string(v)?,
    };
    let mut out = String::new();
    vm.join_into(id, &sep, 0, &mut out)?;
    Ok(Step::Return(vm.new_string_owned(out)?))
}

fn to_string(vm: &mut Vm, this: Value, _args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    join(vm, this, &[], data)
}

fn reverse(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "reverse")?;
    if let Some(items) = items_mut(vm, id) {
        items.reverse();
    }
    Ok(Step::Return(this))
}

fn to_reversed(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "toReversed")?;
    let mut out = items_of(vm, id).to_vec();
    out.reverse();
    Ok(Step::Return(vm.new_array(out)?))
}

fn index_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "indexOf")?;
    let target = arg(args, 0);
    let len = items_of(vm, id).len();
    let from = relative_index(vm, arg(args, 1), len, 0)?;
    let items = items_of(vm, id);
    let pos = items.iter().skip(from).position(|v| vm.strict_equals(*v, target));
    vm.charge(Work::Scan(len));
    Ok(Step::Return(Value::Number(pos.map_or(-1.0, |p| (p + from) as f64))))
}

fn last_index_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "lastIndexOf")?;
    let target = arg(args, 0);
    let items = items_of(vm, id);
    let pos = items.iter().rposition(|v| vm.strict_equals(*v, target));
    Ok(Step::Return(Value::Number(pos.map_or(-1.0, |p| p as f64))))
}

fn includes(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "includes")?;
    let target = arg(args, 0);
    let items = items_of(vm, id);
    let found = items.iter().any(|v| vm.same_value_zero(*v, target));
    Ok(Step::Return(Value::Bool(found)))
}

fn at(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "at")?;
    let len = items_of(vm, id).len() as f64;
    let n = vm.to_number(arg(args, 0))?;
    let n = if n.is_nan() { 0.0 } else { n.trunc() };
    let i = if n < 0.0 { len + n } else { n };
    let v = if i < 0.0 || i >= len { Value::Undefined } else { items_of(vm, id)[i as usize] };
    Ok(Step::Return(v))
}

fn fill(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "fill")?;
    let len = items_of(vm, id).len();
    let start = relative_index(vm, arg(args, 1), len, 0)?;
    let end = relative_index(vm, arg(args, 2), len, len)?;
    let v = arg(args, 0);
    if let Some(items) = items_mut(vm, id) {
        for slot in items.iter_mut().take(end).skip(start) {
            *slot = v;
        }
    }
    vm.charge(Work::Elements(len));
    Ok(Step::Return(this))
}

/// Appends `id`'s elements to `out`, flattening nested arrays `depth` levels, without copying
/// any array first. The output's memory is checked as it grows and every element visited is
/// charged; an array met again at the same depth (a DAG of shared arrays, which expands
/// exponentially here) is copied from where its first flattening went, so the work is linear in
/// the output. No program code runs during `flat`, so the arrays cannot change.
fn flatten_into(
    vm: &mut Vm,
    id: ObjId,
    depth: usize,
    out: &mut Vec<Value>,
    level: usize,
    memo: &mut crate::value::FastMap<(ObjId, usize), (usize, usize)>,
) -> Result<(), Throw> {
    if level > MAX_FLAT_DEPTH {
        return Err(vm.make_error(ErrorKind::RangeError, "Maximum call stack size exceeded"));
    }
    let len = items_of(vm, id).len();
    vm.charge(Work::Elements(len.max(1)));
    for i in 0..len {
        let Some(v) = items_of(vm, id).get(i).copied() else { break };
        match v {
            Value::Obj(inner) if depth > 0 && matches!(vm.heap.obj(inner).kind, ObjKind::Array(_)) => {
                if let Some(&(start, end)) = memo.get(&(inner, depth)) {
                    reserve_flat(vm, out, end - start)?;
                    vm.charge(Work::Elements(end - start));
                    out.extend_from_within(start..end);
                } else {
                    let start = out.len();
                    flatten_into(vm, inner, depth - 1, out, level + 1, memo)?;
                    memo.insert((inner, depth), (start, out.len()));
                }
            }
            v => {
                reserve_flat(vm, out, 1)?;
                out.push(v);
            }
        }
    }
    Ok(())
}

/// Makes room for `more` values in `flat`'s output, checking the memory limit first.
fn reserve_flat(vm: &mut Vm, out: &mut Vec<Value>, more: usize) -> Result<(), Throw> {
    let needed = out.len() + more;
    if needed <= out.capacity() {
        return Ok(());
    }
    if needed > crate::heap::MAX_ARRAY_LENGTH {
        return Err(vm.make_error(ErrorKind::RangeError, "Invalid array length"));
    }
    let grown = needed.max(out.capacity() * 2).max(8);
    vm.ensure_fits(grown * crate::heap::VALUE_SIZE)?;
    out.reserve_exact(grown - out.len());
    Ok(())
}

fn flat(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "flat")?;
    let depth = match arg(args, 0) {
        Value::Undefined => 1,
        v => {
            let n = vm.to_number(v)?;
            if n.is_nan() || n < 1.0 { 0 } else { n.min(MAX_FLAT_DEPTH as f64) as usize }
        }
    };
    let mut out = Vec::new();
    flatten_into(vm, id, depth, &mut out, 0, &mut Default::default())?;
    Ok(Step::Return(vm.new_array(out)?))
}

fn keys(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "keys")?;
    let n = items_of(vm, id).len();
    let items = (0..n).map(|i| Value::Number(i as f64)).collect();
    Ok(Step::Return(vm.new_iterator(IterState::List { items, next: 0 })?))
}

fn values(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "values")?;
    Ok(Step::Return(vm.new_iterator(IterState::Array { array: id, next: 0 })?))
}

fn entries(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "entries")?;
    let items = items_of(vm, id).to_vec();
    let mut pairs = Vec::with_capacity(items.len());
    for (i, v) in items.into_iter().enumerate() {
        pairs.push(vm.new_array([Value::Number(i as f64), v])?);
    }
    Ok(Step::Return(vm.new_iterator(IterState::List { items: pairs, next: 0 })?))
}

impl Vm {
    /// `CreateListFromArrayLike`: an array's elements, or `o[0..o.length]` of another object
    /// (`{ length: n }`, `arguments`); in a built-in's run getters and `valueOf` run (replay).
    pub(crate) fn array_like_to_vec(&mut self, source: Value) -> Result<Vec<Value>, Throw> {
        if let Value::Obj(id) = source
            && let ObjKind::Array(items) = &self.heap.obj(id).kind
        {
            return Ok(items.to_vec());
        }
        let len = self.get_named(source, "length")?;
        // In a built-in's run the object's `valueOf` is called (replay); elsewhere it cannot be.
        if matches!(len, Value::Obj(_)) && !self.replaying() {
            let msg = "the length of an array-like must be a number here (an object's valueOf is not called)";
            return Err(self.make_error(ErrorKind::TypeError, msg));
        }
        let len = self.to_number(len)?;
        if len > crate::heap::MAX_ARRAY_LENGTH as f64 {
            let msg = format!(
                "an array-like of length {len} is longer than the longest array ({})",
                crate::heap::MAX_ARRAY_LENGTH
            );
            return Err(self.make_error(ErrorKind::TypeError, &msg));
        }
        let len = if len.is_nan() || len < 0.0 { 0 } else { len as usize };
        self.charge_memory(len * crate::heap::VALUE_SIZE)?;
        self.charge(Work::Elements(len));
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            out.push(self.get_value(source, crate::props::Key::Index(i as u32))?);
        }
        Ok(out)
    }
}

// ---- sort: a bottom-up merge sort whose comparisons may be callbacks ----

/// Merge sort state: `src` holds runs of width `width`; merging `[lo, mid)` and `[mid, hi)` into
/// `dst` at positions `i`, `j`, `k`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SortState {
    target: ObjId,
    comparator: Value,
    src: Vec<Value>,
    dst: Vec<Value>,
    /// Elements that were `undefined` go last, unsorted.
    undefined_count: u32,
    width: u32,
    lo: u32,
    i: u32,
    j: u32,
    k: u32,
    /// Write the result into a new array instead of `target` (`toSorted`).
    copy: bool,
}

impl SortState {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(Value::Obj(self.target));
        out.push(self.comparator);
        out.extend(self.src.iter().copied());
        out.extend(self.dst.iter().copied());
    }

    fn n(&self) -> u32 {
        self.src.len() as u32
    }
}

fn sort(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "sort")?;
    start_sort(vm, id, arg(args, 0), false)
}

fn to_sorted(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_array(vm, this, "toSorted")?;
    start_sort(vm, id, arg(args, 0), true)
}

fn start_sort(vm: &mut Vm, id: ObjId, comparator: Value, copy: bool) -> Result<Step, Throw> {
    if comparator != Value::Undefined {
        require_callable(vm, comparator)?;
    }
    let items = items_of(vm, id).to_vec();
    let n = items.len();
    vm.charge(Work::Sort(n));
    let mut defined: Vec<Value> = items.iter().copied().filter(|v| *v != Value::Undefined).collect();
    let undefined_count = (n - defined.len()) as u32;
    if comparator == Value::Undefined {
        // Default order: by ToString, UTF-16 code units. No callbacks: sort directly. The keys
        // are heap strings (a string is its own key: nothing is copied; others are converted
        // into charged strings), compared in place; the bytes compared are charged after.
        let mut keyed = Vec::with_capacity(defined.len());
        for v in defined.drain(..) {
            let key = match vm.to_string_value(v)? {
                Value::Str(s) => s,
                _ => return Err(vm.out_of_memory()),
            };
            keyed.push((key, v));
        }
        let compared = std::cell::Cell::new(0usize);
        let heap = &vm.heap;
        keyed.sort_by(|a, b| {
            if a.0 == b.0 {
                return std::cmp::Ordering::Equal;
            }
            let (x, y) = (heap.str(a.0), heap.str(b.0));
            compared.set(compared.get().saturating_add(x.len().min(y.len())));
            x.encode_utf16().cmp(y.encode_utf16())
        });
        vm.charge(Work::Bytes(compared.get()));
        let mut out: Vec<Value> = keyed.into_iter().map(|(_, v)| v).collect();
        out.extend(std::iter::repeat_n(Value::Undefined, undefined_count as usize));
        return finish_sort(vm, id, out, copy);
    }
    let len = defined.len() as u32;
    let state = Box::new(SortState {
        target: id,
        comparator,
        dst: defined.clone(),
        src: defined,
        undefined_count,
        width: 1,
        lo: 0,
        i: 0,
        j: 1.min(len),
        k: 0,
        copy,
    });
    sort_step(vm, state)
}

fn finish_sort(vm: &mut Vm, id: ObjId, out: Vec<Value>, copy: bool) -> Result<Step, Throw> {
    if copy {
        return Ok(Step::Return(vm.new_array(out)?));
    }
    if let Some(items) = items_mut(vm, id) {
        *items = crate::object::Elements::from_vec(out);
    }
    Ok(Step::Return(Value::Obj(id)))
}

/// Advances the merge until a comparison is needed (returns a call) or the sort is done.
fn sort_step(vm: &mut Vm, mut s: Box<SortState>) -> Result<Step, Throw> {
    let n = s.n();
    loop {
        if s.width >= n {
            let mut out = std::mem::take(&mut s.src);
            out.extend(std::iter::repeat_n(Value::Undefined, s.undefined_count as usize));
            return finish_sort(vm, s.target, out, s.copy);
        }
        let mid = (s.lo + s.width).min(n);
        let hi = (s.lo + 2 * s.width).min(n);
        if s.i < mid && s.j < hi {
            let (a, b) = (s.src[s.i as usize], s.src[s.j as usize]);
            let (comparator, this) = (s.comparator, Value::Undefined);
            return Ok(Step::Call { callee: comparator, this, args: vec![a, b], cont: Cont::Sort(s) });
        }
        // One side is exhausted: copy the rest of the other.
        while s.i < mid {
            s.dst[s.k as usize] = s.src[s.i as usize];
            s.i += 1;
            s.k += 1;
        }
        while s.j < hi {
            s.dst[s.k as usize] = s.src[s.j as usize];
            s.j += 1;
            s.k += 1;
        }
        // Next pair of runs, or next width.
        s.lo = hi;
        if s.lo >= n {
            std::mem::swap(&mut s.src, &mut s.dst);
            s.width *= 2;
            s.lo = 0;
            vm.charge(Work::Units(1));
        }
        s.i = s.lo;
        s.j = (s.lo + s.width).min(n);
        s.k = s.lo;
    }
}

pub(super) fn resume_sort(vm: &mut Vm, mut s: Box<SortState>, result: Value) -> Result<Step, Throw> {
    let order = vm.to_number(result)?;
    // Stable: take from the left run unless the right one is strictly smaller.
    if order > 0.0 {
        s.dst[s.k as usize] = s.src[s.j as usize];
        s.j += 1;
    } else {
        s.dst[s.k as usize] = s.src[s.i as usize];
        s.i += 1;
    }
    s.k += 1;
    sort_step(vm, s)
}
