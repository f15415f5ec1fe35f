//! The array methods that call back per element (`map`, `filter`, `forEach`, `find…`, `some`,
//! `every`, `reduce…`, `flatMap`) as a resumable loop ([`Cont::ArrayLoop`]).
//!
//! On an array the loop reads the array's elements. On any other object (an array-like:
//! `arguments`, `{ length, 0: … }`, a typed array, a proxy) it reads as the specification does:
//! `length` once, then at each index `HasProperty` and `Get` on the object itself, between the
//! callbacks, so holes are skipped, a getter runs when its index is reached, and what a callback
//! adds or deletes is seen. Those reads may run program code (getters, proxy traps, `valueOf` of
//! the length), so they go through replay (`replay.rs`): in the method's first run, and after
//! each callback through [`crate::replay::run_loop_next`], whose reruns repeat the reads only
//! (the callback's result is applied once, before).
//!
//! A string `this` is read into a copy (its characters cannot change or run code).

use codemode_bytecode::{ErrorKind, Reg};
use serde::{Deserialize, Serialize};

use super::{Cont, Step, arg, require_callable, this_array};
use crate::Vm;
use crate::call::Throw;
use crate::frame::{Frame, NativeFrame, ReturnTo};
use crate::meter::Work;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::{ObjId, Value};

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
    FlatMap,
}

impl LoopOp {
    fn backwards(self) -> bool {
        matches!(self, LoopOp::FindLast | LoopOp::FindLastIndex | LoopOp::ReduceRight)
    }

    /// `find…` visit every index, present or not (they read `undefined` for a hole).
    fn visits_holes(self) -> bool {
        matches!(self, LoopOp::Find | LoopOp::FindIndex | LoopOp::FindLast | LoopOp::FindLastIndex)
    }
}

/// The state of an iteration method between callback calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArrayLoop {
    op: LoopOp,
    /// The array read (for a generic loop, the array-like itself).
    array: ObjId,
    /// The callbacks' third argument: the array, or the array-like (or string) it was read from.
    receiver: Value,
    callback: Value,
    this_arg: Value,
    /// The index whose callback is running.
    index: u64,
    /// The length when the loop started (elements appended later are not visited); up to
    /// 2^53 - 1 for an array-like.
    len: u64,
    /// `map`/`filter`/`flatMap` output array, or the `reduce` accumulator.
    acc: Value,
    /// Elements are read from the array-like `receiver` at each index (see the module doc).
    generic: bool,
    /// The element the running callback was given (what `filter` keeps and `find` returns).
    element: Value,
}

impl ArrayLoop {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([
            Value::Obj(self.array),
            self.receiver,
            self.callback,
            self.this_arg,
            self.acc,
            self.element,
        ]);
    }
}

/// The array-like object a method reads generically, if `this` is one (not an array, not a
/// primitive).
fn generic_receiver(vm: &Vm, this: Value) -> Option<ObjId> {
    match this {
        Value::Obj(id) if !matches!(vm.heap.obj(id).kind, ObjKind::Array(_)) => Some(id),
        _ => None,
    }
}

/// Absent indices one step of a generic loop may probe before it gives up: an array-like of
/// huge length with nothing in it cannot hold one instruction for long (each probe is charged,
/// but fuel is only checked between instructions).
const MAX_PROBES: u64 = 1 << 20;

/// `LengthOfArrayLike(o)` for a generic loop: `ToLength(o.length)`, getters and `valueOf`
/// included (replay).
fn generic_length(vm: &mut Vm, o: ObjId) -> Result<u64, Throw> {
    let len = vm.get_named(Value::Obj(o), "length")?;
    let len = vm.to_number(len)?;
    Ok(if len.is_nan() || len < 1.0 { 0 } else { len.min(9_007_199_254_740_991.0) as u64 })
}

/// The property key of index `k` (past `u32` range, its name).
fn index_key(vm: &mut Vm, k: u64) -> Result<Key, Throw> {
    match u32::try_from(k) {
        Ok(i) if i < u32::MAX => Ok(Key::Index(i)),
        _ => Ok(Key::Atom(vm.intern(&k.to_string())?)),
    }
}

fn too_sparse(vm: &mut Vm, from: u64) -> Throw {
    let msg = format!(
        "an array method probed {MAX_PROBES} indices from {from} of an array-like without finding an element (a huge length with nothing in it)"
    );
    vm.make_error(ErrorKind::RangeError, &msg)
}

pub(super) fn start_loop(
    vm: &mut Vm,
    op: LoopOp,
    array: ObjId,
    receiver: Value,
    callback: Value,
    this_arg: Value,
) -> Result<Step, Throw> {
    let generic = generic_receiver(vm, receiver) == Some(array);
    let len = if generic { generic_length(vm, array)? } else { items_of(vm, array).len() as u64 };
    require_callable(vm, callback)?;
    let acc = match op {
        // ArraySpeciesCreate(o, len) of an array-like is `new Array(len)`: holes stay `undefined`.
        LoopOp::Map if generic => {
            if len > u64::from(u32::MAX) {
                return Err(vm.make_error(ErrorKind::RangeError, "Invalid array length"));
            }
            if len > crate::heap::MAX_ARRAY_LENGTH as u64 {
                return Err(vm.out_of_memory());
            }
            vm.charge_memory(len as usize * crate::heap::VALUE_SIZE)?;
            vm.new_array(vec![Value::Undefined; len as usize])?
        }
        LoopOp::Map => vm.new_array(Vec::with_capacity(len as usize))?,
        LoopOp::Filter | LoopOp::FlatMap => vm.new_array(Vec::new())?,
        _ => Value::Undefined,
    };
    let index = if op.backwards() { len } else { 0 };
    let element = Value::Undefined;
    let state = ArrayLoop { op, array, receiver, callback, this_arg, index, len, acc, generic, element };
    let state = boxed(vm, state);
    next_call(vm, state)
}

/// What the method returns when the loop ends without an early answer.
fn finished(s: &ArrayLoop) -> Value {
    match s.op {
        LoopOp::Map | LoopOp::Filter | LoopOp::FlatMap | LoopOp::Reduce | LoopOp::ReduceRight => s.acc,
        LoopOp::ForEach | LoopOp::Find | LoopOp::FindLast => Value::Undefined,
        LoopOp::FindIndex | LoopOp::FindLastIndex => Value::Number(-1.0),
        LoopOp::Some => Value::Bool(false),
        LoopOp::Every => Value::Bool(true),
    }
}

/// The index a loop over an array visits next, if any: `index` is the next candidate going
/// forwards, one past it going backwards; `present` is how many elements the array has now. An
/// array that shrank under the loop has absent indices: skipped, except by `find…`, which read
/// every index below the starting length `len` as `undefined`.
fn next_array_index(op: LoopOp, index: u64, len: u64, present: u64) -> Option<u64> {
    if op.backwards() {
        let from = if op.visits_holes() { index } else { index.min(present) };
        from.checked_sub(1)
    } else {
        let bound = if op.visits_holes() { len } else { len.min(present) };
        (index < bound).then_some(index)
    }
}

/// `map` over an array that shrank under it: the result still has the starting length, the
/// indices it never visited being holes (`undefined`, as array holes are here).
fn pad_map_result(vm: &mut Vm, s: &ArrayLoop) -> Result<(), Throw> {
    let have = match s.acc {
        Value::Obj(id) => items_of(vm, id).len() as u64,
        _ => return Ok(()),
    };
    let missing = s.len.saturating_sub(have) as usize;
    vm.charge(Work::Elements(missing));
    for _ in 0..missing {
        vm.array_push(s.acc, Value::Undefined)?;
    }
    Ok(())
}

/// Calls the callback for the next index, or finishes.
pub(crate) fn next_call(vm: &mut Vm, mut s: Box<ArrayLoop>) -> Result<Step, Throw> {
    let backwards = s.op.backwards();
    let mut probes = 0u64;
    loop {
        if !s.generic {
            let present = items_of(vm, s.array).len() as u64;
            let Some(index) = next_array_index(s.op, s.index, s.len, present) else {
                if s.op == LoopOp::Map {
                    pad_map_result(vm, &s)?;
                }
                return Ok(Step::Return(finished(&s)));
            };
            s.index = index;
            s.element = items_of(vm, s.array).get(index as usize).copied().unwrap_or(Value::Undefined);
            break;
        }
        let has_next = if backwards { s.index > 0 } else { s.index < s.len };
        if !has_next {
            return Ok(Step::Return(finished(&s)));
        }
        if backwards {
            s.index -= 1;
        }
        vm.charge(Work::Elements(1));
        probes += 1;
        if probes > MAX_PROBES {
            return Err(too_sparse(vm, s.index));
        }
        let key = index_key(vm, s.index)?;
        if s.op.visits_holes() || vm.has_property_replayed(s.receiver, key)? {
            s.element = vm.get_value(s.receiver, key)?;
            break;
        }
        if !backwards {
            s.index += 1;
        }
    }
    // One call per element: the list comes from the trampoline's pool (no allocation per call).
    let mut args = vm.args_vec();
    if matches!(s.op, LoopOp::Reduce | LoopOp::ReduceRight) {
        args.push(s.acc);
    }
    args.extend([s.element, Value::Number(s.index as f64), s.receiver]);
    let (callback, this) = (s.callback, s.this_arg);
    Ok(Step::Call { callee: callback, this, args, cont: Cont::ArrayLoop(s) })
}

/// **The in-place callback return.** When the running frame is a loop's callback (a plain closure
/// the loop called itself, below it the loop's native frame) and the loop goes on to another
/// element, the value is applied and the same frame starts over for the next element: a fresh
/// window of `undefined` registers, the arguments, `pc` 0, the same closure and `this`. That is
/// exactly the frame the next call would push, without popping two frames and pushing them
/// back. Charged as that call is. Says whether it did; when not (the loop ends, answers early,
/// reads generically, or the frame is something else), nothing was changed and the caller
/// returns the ordinary way. On a throw (out of memory growing the output) both frames are
/// gone, as when the value is delivered the ordinary way.
///
/// When the loop has no next element and its value goes to a register of the JavaScript frame
/// below (`const out = xs.map(f)`), the loop is finished here too: both frames are popped and
/// [`InPlace::Finished`] tells the interpreter the value and the register, as the ordinary way
/// (`deliver` → `resume_loop` → the loop's value) would have.
pub(crate) fn return_in_place(vm: &mut Vm, result: Value) -> Result<InPlace, Throw> {
    let n = vm.frames.len();
    let Some([Frame::Native(NativeFrame { cont: Cont::ArrayLoop(s), ret }), Frame::Js(top)]) =
        vm.frames.get(n.wrapping_sub(2)..)
    else {
        return Ok(InPlace::No);
    };
    if !matches!(top.ret, ReturnTo::Native)
        || top.async_promise.is_some()
        || s.generic
        || !matches!((s.callback, top.closure), (Value::Obj(callback), Some(c)) if callback == c)
    {
        return Ok(InPlace::No);
    }
    let Some(code) = vm.module.functions.get(top.func as usize) else { return Ok(InPlace::No) };
    if code.is_async || code.is_generator || code.rest.is_some() || code.arguments.is_some() {
        return Ok(InPlace::No);
    }
    // Where the loop's own value goes when it ends: a register of a JavaScript frame.
    let finish_into = match (ret, n.checked_sub(3).and_then(|i| vm.frames.get(i))) {
        (ReturnTo::Reg(dst), Some(Frame::Js(_))) => Some(*dst),
        _ => None,
    };
    let (registers, params, base) =
        (code.register_count as usize, code.param_count as usize, top.base as usize);
    let goes_on = match s.op {
        LoopOp::Map | LoopOp::Filter | LoopOp::ForEach | LoopOp::Reduce | LoopOp::ReduceRight => true,
        LoopOp::Find | LoopOp::FindIndex | LoopOp::FindLast | LoopOp::FindLastIndex | LoopOp::Some => {
            !vm.to_boolean(result)
        }
        LoopOp::Every => vm.to_boolean(result),
        LoopOp::FlatMap => false,
    };
    let candidate = if s.op.backwards() { s.index } else { s.index.saturating_add(1) };
    let present = items_of(vm, s.array).len() as u64;
    let next = match next_array_index(s.op, candidate, s.len, present) {
        Some(next) if goes_on => next,
        None if goes_on && let Some(dst) = finish_into => return finish_in_place(vm, result, dst),
        _ => return Ok(InPlace::No),
    };
    let (op, array, mut acc, element, receiver) = (s.op, s.array, s.acc, s.element, s.receiver);

    if let Err(e) = apply_result(vm, op, &mut acc, element, result) {
        vm.frames.pop();
        vm.stack.truncate(base);
        vm.frames.pop();
        return Err(e);
    }
    let element = items_of(vm, array).get(next as usize).copied().unwrap_or(Value::Undefined);
    if let Some(Frame::Native(NativeFrame { cont: Cont::ArrayLoop(s), .. })) = vm.frames.get_mut(n - 2) {
        (s.index, s.element, s.acc) = (next, element, acc);
    }
    let index = Value::Number(next as f64);
    let (args, argc) = match op {
        LoopOp::Reduce | LoopOp::ReduceRight => ([acc, element, index, receiver], 4),
        _ => ([element, index, receiver, Value::Undefined], 3),
    };
    vm.charge(Work::Call { args: argc });
    // The window is the frame's own (the top frame's registers end the stack): rewritten in
    // place, arguments then `undefined`.
    let passed = argc.min(params);
    match vm.stack.get_mut(base..) {
        Some(window) if window.len() == registers && passed <= registers => {
            let (params, rest) = window.split_at_mut(passed);
            params.copy_from_slice(&args[..passed]);
            rest.fill(Value::Undefined);
        }
        _ => {
            vm.stack.truncate(base);
            if let Err(e) = vm.grow_stack(registers) {
                // Not reached (the window is no larger than the one just released), but never
                // leave a frame without its registers.
                vm.frames.pop();
                vm.frames.pop();
                return Err(e);
            }
            if let Some(window) = vm.stack.get_mut(base..base + passed) {
                window.copy_from_slice(&args[..passed]);
            }
        }
    }
    if let Some(Frame::Js(top)) = vm.frames.last_mut() {
        top.pc = 0;
    }
    Ok(InPlace::Restarted)
}

/// What [`return_in_place`] did.
pub(crate) enum InPlace {
    /// Nothing: return the ordinary way.
    No,
    /// The callback's frame starts over for the next element.
    Restarted,
    /// The loop ended: its frames are gone and its value is in its register of the JavaScript
    /// frame now on top.
    Finished,
}

/// A callback's `result` applied to a loop over an array: `map` keeps it, `filter` keeps the
/// element when it is truthy, `reduce…` makes it the accumulator; the others have nothing to
/// keep.
#[inline(always)]
fn apply_result(
    vm: &mut Vm,
    op: LoopOp,
    acc: &mut Value,
    element: Value,
    result: Value,
) -> Result<(), Throw> {
    match op {
        LoopOp::Map => vm.array_push(*acc, result),
        LoopOp::Filter if vm.to_boolean(result) => vm.array_push(*acc, element),
        LoopOp::Reduce | LoopOp::ReduceRight => {
            *acc = result;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The last callback of a `map`/`filter`/`forEach`/`reduce…` over an array returned `result`:
/// applies it, pops the callback's frame and the loop's, and puts the loop's value in register
/// `dst` of the frame below, as `deliver` would.
fn finish_in_place(vm: &mut Vm, result: Value, dst: Reg) -> Result<InPlace, Throw> {
    let (Some(Frame::Js(top)), Some(Frame::Native(NativeFrame { cont: Cont::ArrayLoop(mut s), .. }))) =
        (vm.frames.pop(), vm.frames.pop())
    else {
        // Not reached: the caller matched these two frames.
        return Err(vm.make_error(ErrorKind::Error, "internal error: loop frames changed"));
    };
    vm.stack.truncate(top.base as usize);
    apply_result(vm, s.op, &mut s.acc, s.element, result)?;
    if s.op == LoopOp::Map {
        pad_map_result(vm, &s)?;
    }
    let value = finished(&s);
    if let Some(Frame::Js(caller)) = vm.frames.last()
        && let Some(slot) = vm.stack.get_mut(caller.base as usize + dst as usize)
    {
        *slot = value;
    }
    vm.loop_box = Some(s);
    Ok(InPlace::Finished)
}

/// A loop's state in a box: the one the last loop that finished in place left, if any.
fn boxed(vm: &mut Vm, state: ArrayLoop) -> Box<ArrayLoop> {
    match vm.loop_box.take() {
        Some(mut b) => {
            *b = state;
            b
        }
        None => Box::new(state),
    }
}

pub(crate) fn resume_loop(vm: &mut Vm, mut s: Box<ArrayLoop>, result: Value) -> Result<Step, Throw> {
    let element = s.element;
    let index = Value::Number(s.index as f64);
    match s.op {
        LoopOp::Map if s.generic => {
            let key = index_key(vm, s.index)?;
            vm.define(s.acc, key, result)?;
        }
        LoopOp::Map => vm.array_push(s.acc, result)?,
        LoopOp::Filter => {
            if vm.to_boolean(result) {
                vm.array_push(s.acc, element)?;
            }
        }
        LoopOp::FlatMap => match result {
            Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Array(_)) => {
                for v in items_of(vm, id).to_vec() {
                    vm.array_push(s.acc, v)?;
                }
            }
            v => vm.array_push(s.acc, v)?,
        },
        LoopOp::ForEach => {}
        LoopOp::Find | LoopOp::FindLast => {
            if vm.to_boolean(result) {
                return Ok(Step::Return(element));
            }
        }
        LoopOp::FindIndex | LoopOp::FindLastIndex => {
            if vm.to_boolean(result) {
                return Ok(Step::Return(index));
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
    if s.generic {
        // The next element's reads may run program code: they replay, not the result above.
        return crate::replay::run_loop_next(vm, s);
    }
    next_call(vm, s)
}

/// The array a loop method reads, and the callbacks' third argument.
fn loop_target(vm: &mut Vm, this: Value, label: &str) -> Result<(ObjId, Value), Throw> {
    if let Value::Obj(id) = this {
        let obj = vm.heap.obj(id);
        match obj.kind {
            // An array this_array would accept as it is (a loop only reads its integrity).
            ObjKind::Array(_) if obj.props.integrity == 0 => return Ok((id, this)),
            ObjKind::Array(_) => {}
            _ => return Ok((id, this)),
        }
    }
    let id = this_array(vm, this, label)?;
    let receiver = if matches!(this, Value::Obj(_)) { this } else { Value::Obj(id) };
    Ok((id, receiver))
}

macro_rules! loop_method {
    ($name:ident, $op:expr, $label:literal) => {
        pub(super) fn $name(
            vm: &mut Vm,
            this: Value,
            args: &[Value],
            _data: &[Value],
        ) -> Result<Step, Throw> {
            let (id, receiver) = loop_target(vm, this, $label)?;
            start_loop(vm, $op, id, receiver, arg(args, 0), arg(args, 1))
        }
    };
}

loop_method!(map, LoopOp::Map, "map");
loop_method!(filter, LoopOp::Filter, "filter");
loop_method!(for_each, LoopOp::ForEach, "forEach");
loop_method!(find, LoopOp::Find, "find");
loop_method!(find_index, LoopOp::FindIndex, "findIndex");
loop_method!(find_last, LoopOp::FindLast, "findLast");
loop_method!(find_last_index, LoopOp::FindLastIndex, "findLastIndex");
loop_method!(some, LoopOp::Some, "some");
loop_method!(every, LoopOp::Every, "every");
loop_method!(flat_map, LoopOp::FlatMap, "flatMap");

fn reduce_impl(vm: &mut Vm, this: Value, args: &[Value], right: bool) -> Result<Step, Throw> {
    let (id, receiver) = loop_target(vm, this, if right { "reduceRight" } else { "reduce" })?;
    let generic = generic_receiver(vm, receiver) == Some(id);
    let len = if generic { generic_length(vm, id)? } else { items_of(vm, id).len() as u64 };
    let callback = arg(args, 0);
    require_callable(vm, callback)?;
    let op = if right { LoopOp::ReduceRight } else { LoopOp::Reduce };
    let (acc, index) = if args.len() >= 2 {
        (arg(args, 1), if right { len } else { 0 })
    } else {
        match first_present(vm, id, receiver, generic, len, right)? {
            Some((k, v)) => (v, if right { k } else { k + 1 }),
            None => {
                return Err(
                    vm.make_error(ErrorKind::TypeError, "Reduce of empty array with no initial value")
                );
            }
        }
    };
    let element = Value::Undefined;
    let (array, this_arg) = (id, Value::Undefined);
    let state = ArrayLoop { op, array, receiver, callback, this_arg, index, len, acc, generic, element };
    let state = boxed(vm, state);
    next_call(vm, state)
}

/// `reduce` without an initial value: the first present element (the last for `reduceRight`)
/// and its index.
fn first_present(
    vm: &mut Vm,
    id: ObjId,
    receiver: Value,
    generic: bool,
    len: u64,
    right: bool,
) -> Result<Option<(u64, Value)>, Throw> {
    if !generic {
        let items = items_of(vm, id);
        let k = if right { items.len().checked_sub(1) } else { (!items.is_empty()).then_some(0) };
        return Ok(k.and_then(|k| items.get(k).map(|v| (k as u64, *v))));
    }
    for step in 0..len {
        let k = if right { len - 1 - step } else { step };
        vm.charge(Work::Elements(1));
        if step >= MAX_PROBES {
            return Err(too_sparse(vm, if right { len - 1 } else { 0 }));
        }
        let key = index_key(vm, k)?;
        if vm.has_property_replayed(receiver, key)? {
            return Ok(Some((k, vm.get_value(receiver, key)?)));
        }
    }
    Ok(None)
}

pub(super) fn reduce(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    reduce_impl(vm, this, args, false)
}

pub(super) fn reduce_right(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    reduce_impl(vm, this, args, true)
}

fn items_of(vm: &Vm, id: ObjId) -> &[Value] {
    match &vm.heap.obj(id).kind {
        ObjKind::Array(items) => items,
        _ => &[],
    }
}
