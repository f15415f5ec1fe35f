//! Iterator helpers: `Iterator.prototype.{map, filter, take, drop, flatMap, chunks, windows}`
//! (lazy: each returns a helper iterator) and `{toArray, forEach, reduce, some, every, find,
//! includes}` (they consume), for
//! every iterator that inherits from `Iterator.prototype` (generators, the built-ins' iterators,
//! and program iterators whose class extends it).
//!
//! The underlying iterator's `next` and the program's callbacks are JavaScript calls, so both
//! kinds run as resumable steps ([`Cont::Helper`], [`Cont::Consume`]): a helper's state lives in
//! its object ([`IterState::Helper`]), a consumer's in its continuation.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::iterator_statics::{self, Completion, GenState, enter, yield_value};
use super::{Cont, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{IterState, ObjKind};
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Iterator", 0, iterator_call, iterator_construct),
    NativeDef::new("Iterator.prototype", "map", 1, |vm, t, a, _| lazy(vm, t, a, HelperOp::Map)),
    NativeDef::new("Iterator.prototype", "filter", 1, |vm, t, a, _| lazy(vm, t, a, HelperOp::Filter)),
    NativeDef::new("Iterator.prototype", "take", 1, |vm, t, a, _| lazy(vm, t, a, HelperOp::Take)),
    NativeDef::new("Iterator.prototype", "drop", 1, |vm, t, a, _| lazy(vm, t, a, HelperOp::Drop)),
    NativeDef::new("Iterator.prototype", "flatMap", 1, |vm, t, a, _| lazy(vm, t, a, HelperOp::FlatMap)),
    NativeDef::new("Iterator.prototype", "toArray", 0, |vm, t, a, _| consume(vm, t, a, ConsumeOp::ToArray)),
    NativeDef::new("Iterator.prototype", "forEach", 1, |vm, t, a, _| consume(vm, t, a, ConsumeOp::ForEach)),
    NativeDef::new("Iterator.prototype", "reduce", 1, |vm, t, a, _| consume(vm, t, a, ConsumeOp::Reduce)),
    NativeDef::new("Iterator.prototype", "some", 1, |vm, t, a, _| consume(vm, t, a, ConsumeOp::Some)),
    NativeDef::new("Iterator.prototype", "every", 1, |vm, t, a, _| consume(vm, t, a, ConsumeOp::Every)),
    NativeDef::new("Iterator.prototype", "find", 1, |vm, t, a, _| consume(vm, t, a, ConsumeOp::Find)),
    NativeDef::new("Iterator.prototype", "includes", 1, includes),
    NativeDef::new("Iterator.prototype", "chunks", 1, |vm, t, a, _| sized(vm, t, a, HelperOp::Chunks)),
    NativeDef::new("Iterator.prototype", "windows", 1, |vm, t, a, _| sized(vm, t, a, HelperOp::Windows)),
];

/// `Iterator` is abstract: it names `Iterator.prototype` (for `instanceof` and the helpers) and
/// cannot be called or constructed directly.
fn iterator_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor Iterator requires 'new'"))
}

/// `super()` of a subclass (`new Iterator()` itself is refused before this runs): a plain
/// object, which then gets the subclass's prototype.
fn iterator_construct(vm: &mut Vm, _args: &[Value]) -> Result<Step, Throw> {
    let proto = Some(vm.realm.iterator_proto);
    Ok(Step::Return(Value::Obj(vm.alloc(ObjKind::Plain, proto)?)))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HelperOp {
    Map,
    Filter,
    Take,
    Drop,
    FlatMap,
    /// Arrays of `remaining` consecutive values; the last may be shorter.
    Chunks,
    /// Sliding arrays of `remaining` values (`partial`: one shorter array when fewer came).
    Windows,
}

/// A lazy helper iterator's state (in its object).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Helper {
    op: HelperOp,
    iterator: Value,
    next: Value,
    /// The mapper or predicate (`Undefined` for `take`/`drop`).
    func: Value,
    /// What `take`/`drop` have left.
    #[serde(with = "crate::value::f64_bits")]
    remaining: f64,
    #[serde(with = "crate::value::f64_bits")]
    counter: f64,
    /// `flatMap`'s current inner iterator and its `next`.
    inner: Option<(Value, Value)>,
    pub(crate) state: GenState,
    /// `chunks`/`windows`: the array of values gathered so far (`Undefined` for the others).
    buffer: Value,
    /// `windows(n, "allow-partial")`.
    partial: bool,
}

impl Helper {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([self.iterator, self.next, self.func, self.buffer]);
        if let Some((it, next)) = self.inner {
            out.extend([it, next]);
        }
    }

    /// The iterators `return()` closes, the first last: the underlying one, and `flatMap`'s
    /// inner one when it is open.
    pub(crate) fn open_iterators(&self) -> Vec<Value> {
        let mut open = vec![self.iterator];
        open.extend(self.inner.map(|(it, _)| it));
        open
    }
}

/// Where a helper's `next()` is waiting.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Phase {
    /// For the underlying iterator's result.
    Outer,
    /// For the mapper's (or predicate's) result about `value`.
    Callback { value: Value },
    /// For `[Symbol.iterator]()` of what `flatMap`'s mapper returned.
    InnerIterator,
    /// For the inner iterator's result (`flatMap`).
    Inner,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsumeOp {
    ToArray,
    ForEach,
    Reduce,
    Some,
    Every,
    Find,
    /// `includes(search, skipped)`: `acc` is the value searched for, `counter` how many values
    /// are still to be skipped.
    Includes,
}

/// A consuming method between calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Consume {
    op: ConsumeOp,
    iterator: Value,
    next: Value,
    func: Value,
    /// The array (`toArray`) or the accumulator (`reduce`; `Uninit` before the first value).
    acc: Value,
    #[serde(with = "crate::value::f64_bits")]
    counter: f64,
    /// The value the callback is judging (`Undefined` while waiting for `next`).
    pending: Option<Value>,
}

impl Consume {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([self.iterator, self.next, self.func, self.acc]);
        if let Some(v) = self.pending {
            out.push(v);
        }
    }
}

/// `this` as an iterator (an object) and its `next` method.
fn direct(vm: &mut Vm, this: Value, method: &str) -> Result<(Value, Value), Throw> {
    if !matches!(this, Value::Obj(_)) {
        let msg = format!("Iterator.prototype.{method} called on non-object");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let next = vm.get_named(this, "next")?;
    Ok((this, next))
}

fn op_name(op: HelperOp) -> &'static str {
    match op {
        HelperOp::Map => "map",
        HelperOp::Filter => "filter",
        HelperOp::Take => "take",
        HelperOp::Drop => "drop",
        HelperOp::FlatMap => "flatMap",
        HelperOp::Chunks => "chunks",
        HelperOp::Windows => "windows",
    }
}

fn lazy(vm: &mut Vm, this: Value, args: &[Value], op: HelperOp) -> Result<Step, Throw> {
    let name = op_name(op);
    if !matches!(this, Value::Obj(_)) {
        let msg = format!("Iterator.prototype.{name} called on non-object");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let (mut func, mut remaining) = (Value::Undefined, 0.0);
    match op {
        // A refused argument closes the iterator (IteratorClose with the throw completion).
        HelperOp::Take | HelperOp::Drop => {
            let limit = arg(args, 0);
            if matches!(limit, Value::Obj(_)) {
                // Converted by a call of its own, so that a throw out of the program's
                // `valueOf` closes the iterator too.
                return iterator_statics::limit_then(vm, limit, this, op);
            }
            let n = match vm.to_number(limit) {
                Ok(n) => n,
                Err(e) => return close_and_throw(vm, this, e),
            };
            if n.is_nan() || (n.is_finite() && n > 9_007_199_254_740_991.0) {
                let e = vm.make_error(ErrorKind::RangeError, &limit_message(name));
                return close_and_throw(vm, this, e);
            }
            let n = n.trunc();
            if n < 0.0 {
                let e =
                    vm.make_error(ErrorKind::RangeError, &format!("{} must be positive", arg_display(name)));
                return close_and_throw(vm, this, e);
            }
            remaining = n;
        }
        _ => {
            func = arg(args, 0);
            if !vm.is_callable(func) {
                let e = vm.not_a_function(func);
                return close_and_throw(vm, this, e);
            }
        }
    }
    let (iterator, next) = direct(vm, this, name)?;
    let helper = Helper {
        op,
        iterator,
        next,
        func,
        remaining,
        counter: 0.0,
        inner: None,
        state: GenState::Start,
        buffer: Value::Undefined,
        partial: false,
    };
    let proto = Some(vm.realm.iterator_protos[0]);
    Ok(Step::Return(Value::Obj(vm.alloc(ObjKind::Iterator(IterState::Helper(Box::new(helper))), proto)?)))
}

fn arg_display(name: &str) -> &'static str {
    if name == "take" { "take limit" } else { "drop count" }
}

/// The message of a `take`/`drop` argument that is NaN or past `2^53 - 1`.
fn limit_message(name: &str) -> String {
    format!("{} must be a number no greater than 2^53 - 1", arg_display(name))
}

/// Closes `iterator` (IteratorClose: its `return()`, if it has one, whose result must be an
/// object) and then answers `answer`.
fn close_then(vm: &mut Vm, iterator: Value, answer: Value) -> Result<Step, Throw> {
    iterator_statics::close_step(vm, iterator, Cont::ReturnValue(answer))
}

fn helper_state(vm: &mut Vm, id: ObjId) -> Option<&mut Helper> {
    match vm.iter_state_mut(id)? {
        IterState::Helper(h) => Some(h),
        _ => None,
    }
}

/// `next()` of a helper iterator.
pub(crate) fn helper_next(vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
    if enter(vm, id)?.is_none() {
        return Ok(Step::Return(vm.iter_result(Value::Undefined, true)?));
    }
    // Running now: whatever fails before the first call leaves it done, not running.
    helper_start(vm, id).inspect_err(|_| finish(vm, id))
}

fn helper_start(vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
    let Some(h) = helper_state(vm, id) else { return Ok(Step::Return(Value::Undefined)) };
    let h = h.clone();
    if let Some((it, next)) = h.inner {
        return Ok(call(next, it, Vec::new(), id, Phase::Inner));
    }
    match h.op {
        HelperOp::Take if h.remaining <= 0.0 => {
            let done = vm.iter_result(Value::Undefined, true)?;
            return iterator_statics::close_all(vm, vec![h.iterator], Completion::Return(done), Some(id));
        }
        HelperOp::Take => {
            if let Some(h) = helper_state(vm, id) {
                h.remaining -= 1.0;
            }
        }
        _ => {}
    }
    Ok(call(h.next, h.iterator, Vec::new(), id, Phase::Outer))
}

fn call(callee: Value, this: Value, args: Vec<Value>, helper: ObjId, phase: Phase) -> Step {
    Step::Call { callee, this, args, cont: Cont::Helper { helper, phase } }
}

fn finish(vm: &mut Vm, id: ObjId) {
    if let Some(h) = helper_state(vm, id) {
        h.state = GenState::Done;
        h.inner = None;
    }
}

/// A throw out of a call a helper's `next()` waited for, or out of its own steps: the helper is
/// done, and the underlying iterator is closed unless the throw came from it (its `next()` or
/// the result it gave); the throw goes on.
pub(crate) fn helper_caught(vm: &mut Vm, id: ObjId, phase: Phase, exc: Value) -> Result<Step, Throw> {
    let iterator = helper_state(vm, id).map(|h| h.iterator);
    finish(vm, id);
    match (phase, iterator) {
        (Phase::Outer, _) | (_, None) => Err(exc),
        (_, Some(iterator)) => iterator_statics::close_all(vm, vec![iterator], Completion::Throw(exc), None),
    }
}

/// Resumes a helper's `next()` with what the call it waited for returned.
pub(crate) fn resume_helper(vm: &mut Vm, id: ObjId, phase: Phase, result: Value) -> Result<Step, Throw> {
    helper_step(vm, id, phase, result).or_else(|e| helper_caught(vm, id, phase, e))
}

fn helper_step(vm: &mut Vm, id: ObjId, phase: Phase, result: Value) -> Result<Step, Throw> {
    let Some(h) = helper_state(vm, id).map(|h| h.clone()) else { return Ok(Step::Return(Value::Undefined)) };
    match phase {
        Phase::Outer => {
            let Some((done, value)) = vm.user_iter_result(result)? else {
                return vm.read_iter_result_then(result, Cont::Helper { helper: id, phase });
            };
            if done {
                finish(vm, id);
                if let Some(last) = last_chunk(vm, &h)? {
                    return Ok(Step::Return(vm.iter_result(last, false)?));
                }
                return Ok(Step::Return(vm.iter_result(Value::Undefined, true)?));
            }
            vm.charge(Work::Elements(1));
            match h.op {
                HelperOp::Chunks | HelperOp::Windows => match gather(vm, &h, value)? {
                    Some(array) => yield_value(vm, id, array),
                    None => Ok(call(h.next, h.iterator, Vec::new(), id, Phase::Outer)),
                },
                HelperOp::Take => yield_value(vm, id, value),
                HelperOp::Drop if h.remaining > 0.0 => {
                    if let Some(h) = helper_state(vm, id) {
                        h.remaining -= 1.0;
                    }
                    Ok(call(h.next, h.iterator, Vec::new(), id, Phase::Outer))
                }
                HelperOp::Drop => yield_value(vm, id, value),
                HelperOp::Map | HelperOp::Filter | HelperOp::FlatMap => {
                    let counter = h.counter;
                    if let Some(h) = helper_state(vm, id) {
                        h.counter += 1.0;
                    }
                    Ok(call(
                        h.func,
                        Value::Undefined,
                        vec![value, Value::Number(counter)],
                        id,
                        Phase::Callback { value },
                    ))
                }
            }
        }
        Phase::Callback { value } => match h.op {
            HelperOp::Map => yield_value(vm, id, result),
            HelperOp::Filter if vm.to_boolean(result) => yield_value(vm, id, value),
            HelperOp::Filter => Ok(call(h.next, h.iterator, Vec::new(), id, Phase::Outer)),
            _ => {
                // flatMap: iterate what the mapper returned (an iterable or an iterator; not a
                // string primitive).
                let cont = Cont::Helper { helper: id, phase: Phase::InnerIterator };
                iterator_statics::open_flattenable(
                    vm,
                    result,
                    iterator_statics::Flatten::RejectPrimitives,
                    cont,
                )
            }
        },
        Phase::InnerIterator => {
            let (inner, next) = iterator_statics::pair(vm, result);
            if let Some(h) = helper_state(vm, id) {
                h.inner = Some((inner, next));
            }
            Ok(call(next, inner, Vec::new(), id, Phase::Inner))
        }
        Phase::Inner => {
            let Some((done, value)) = vm.user_iter_result(result)? else {
                return vm.read_iter_result_then(result, Cont::Helper { helper: id, phase });
            };
            if !done {
                return yield_value(vm, id, value);
            }
            if let Some(h) = helper_state(vm, id) {
                h.inner = None;
            }
            Ok(call(h.next, h.iterator, Vec::new(), id, Phase::Outer))
        }
    }
}

fn consume(vm: &mut Vm, this: Value, args: &[Value], op: ConsumeOp) -> Result<Step, Throw> {
    let name = match op {
        ConsumeOp::ToArray => "toArray",
        ConsumeOp::ForEach => "forEach",
        ConsumeOp::Reduce => "reduce",
        ConsumeOp::Some => "some",
        ConsumeOp::Every => "every",
        ConsumeOp::Find => "find",
        ConsumeOp::Includes => "includes",
    };
    if !matches!(this, Value::Obj(_)) {
        let msg = format!("Iterator.prototype.{name} called on non-object");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let func = arg(args, 0);
    if !matches!(op, ConsumeOp::ToArray | ConsumeOp::Includes) && !vm.is_callable(func) {
        let e = vm.not_a_function(func);
        return close_and_throw(vm, this, e);
    }
    let (iterator, next) = direct(vm, this, name)?;
    let acc = match op {
        ConsumeOp::ToArray => vm.new_array(Vec::new())?,
        ConsumeOp::Reduce if args.len() >= 2 => arg(args, 1),
        ConsumeOp::Reduce => Value::Uninit,
        _ => Value::Undefined,
    };
    let state = Consume { op, iterator, next, func, acc, counter: 0.0, pending: None };
    Ok(Step::Call { callee: next, this: iterator, args: Vec::new(), cont: Cont::Consume(Box::new(state)) })
}

/// A throw out of a call a consuming method waited for: when its callback threw, the iterator
/// is closed (whatever closing throws, the callback's throw goes on); a throw from `next()`
/// goes on as it is.
pub(crate) fn consume_caught(vm: &mut Vm, c: &Consume, exc: Value) -> Result<Step, Throw> {
    if c.pending.is_none() {
        return Err(exc);
    }
    iterator_statics::close_all(vm, vec![c.iterator], Completion::Throw(exc), None)
}

/// Resumes a consuming method with the result of `next()` (or of its callback).
pub(crate) fn resume_consume(vm: &mut Vm, mut c: Box<Consume>, result: Value) -> Result<Step, Throw> {
    if let Some(value) = c.pending.take() {
        // The callback about `value` returned `result`.
        let stop = match c.op {
            ConsumeOp::Reduce => {
                c.acc = result;
                None
            }
            ConsumeOp::Some if vm.to_boolean(result) => Some(Value::Bool(true)),
            ConsumeOp::Every if !vm.to_boolean(result) => Some(Value::Bool(false)),
            ConsumeOp::Find if vm.to_boolean(result) => Some(value),
            _ => None,
        };
        if let Some(answer) = stop {
            return close_then(vm, c.iterator, answer);
        }
    } else {
        let Some((done, value)) = vm.user_iter_result(result)? else {
            return vm.read_iter_result_then(result, Cont::Consume(c));
        };
        if done {
            return Ok(Step::Return(match c.op {
                ConsumeOp::ToArray => c.acc,
                ConsumeOp::Reduce if c.acc == Value::Uninit => {
                    return Err(
                        vm.make_error(ErrorKind::TypeError, "Reduce of empty iterator with no initial value")
                    );
                }
                ConsumeOp::Reduce => c.acc,
                ConsumeOp::Some | ConsumeOp::Includes => Value::Bool(false),
                ConsumeOp::Every => Value::Bool(true),
                ConsumeOp::ForEach | ConsumeOp::Find => Value::Undefined,
            }));
        }
        vm.charge(Work::Elements(1));
        let counter = Value::Number(c.counter);
        if c.op != ConsumeOp::Includes {
            c.counter += 1.0;
        }
        match c.op {
            ConsumeOp::ToArray => vm.array_push(c.acc, value)?,
            ConsumeOp::Includes if c.counter > 0.0 => c.counter -= 1.0,
            ConsumeOp::Includes if vm.same_value_zero(value, c.acc) => {
                return close_then(vm, c.iterator, Value::Bool(true));
            }
            ConsumeOp::Includes => {}
            ConsumeOp::Reduce if c.acc == Value::Uninit => c.acc = value,
            _ => {
                let args = match c.op {
                    ConsumeOp::Reduce => vec![c.acc, value, counter],
                    _ => vec![value, counter],
                };
                let callee = c.func;
                c.pending = Some(value);
                return Ok(Step::Call { callee, this: Value::Undefined, args, cont: Cont::Consume(c) });
            }
        }
    }
    let (callee, this) = (c.next, c.iterator);
    Ok(Step::Call { callee, this, args: Vec::new(), cont: Cont::Consume(c) })
}

/// Throws `error` after closing `iterator` (`IteratorClose` with a throw completion: the
/// argument checks of `includes`, `chunks` and `windows` close the iterator they refuse).
fn close_and_throw(vm: &mut Vm, iterator: Value, error: Throw) -> Result<Step, Throw> {
    iterator_statics::close_all(vm, vec![iterator], Completion::Throw(error), None)
}

/// `includes(searchElement, skippedElements = 0)`.
fn includes(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !matches!(this, Value::Obj(_)) {
        return Err(vm.make_error(ErrorKind::TypeError, "Iterator.prototype.includes called on non-object"));
    }
    let skipped = match arg(args, 1) {
        Value::Undefined => 0.0,
        Value::Number(n) if n.is_nan() || (n.is_finite() && n.fract() != 0.0) => {
            let e = vm.make_error(ErrorKind::TypeError, "skippedElements must be an integral number");
            return close_and_throw(vm, this, e);
        }
        Value::Number(n) if n < 0.0 || (n.is_finite() && n > 9_007_199_254_740_991.0) => {
            let e = vm.make_error(ErrorKind::RangeError, "skippedElements must be between 0 and 2^53 - 1");
            return close_and_throw(vm, this, e);
        }
        Value::Number(n) => n,
        _ => {
            let e = vm.make_error(ErrorKind::TypeError, "skippedElements must be a number");
            return close_and_throw(vm, this, e);
        }
    };
    let (iterator, next) = direct(vm, this, "includes")?;
    let state = Consume {
        op: ConsumeOp::Includes,
        iterator,
        next,
        func: Value::Undefined,
        acc: arg(args, 0),
        counter: skipped,
        pending: None,
    };
    Ok(Step::Call { callee: next, this: iterator, args: Vec::new(), cont: Cont::Consume(Box::new(state)) })
}

/// `chunks(chunkSize)` and `windows(windowSize, undersized = "only-full")`.
fn sized(vm: &mut Vm, this: Value, args: &[Value], op: HelperOp) -> Result<Step, Throw> {
    let name = op_name(op);
    if !matches!(this, Value::Obj(_)) {
        let msg = format!("Iterator.prototype.{name} called on non-object");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let what = if op == HelperOp::Chunks { "chunkSize" } else { "windowSize" };
    let size = match arg(args, 0) {
        Value::Number(n) if !n.is_finite() || n.fract() != 0.0 => {
            let e = vm.make_error(ErrorKind::TypeError, &format!("{what} must be an integral number"));
            return close_and_throw(vm, this, e);
        }
        Value::Number(n) if !(1.0..=4_294_967_295.0).contains(&n) => {
            let e = vm.make_error(ErrorKind::RangeError, &format!("{what} must be between 1 and 2^32 - 1"));
            return close_and_throw(vm, this, e);
        }
        Value::Number(n) => n,
        _ => {
            let e = vm.make_error(ErrorKind::TypeError, &format!("{what} must be a number"));
            return close_and_throw(vm, this, e);
        }
    };
    let mut partial = false;
    if op == HelperOp::Windows {
        let undersized = arg(args, 1);
        let text = match undersized {
            Value::Undefined => Some("only-full".to_string()),
            Value::Str(_) => Some(vm.to_rust_string(undersized)?),
            _ => None,
        };
        match text.as_deref() {
            Some("only-full") => {}
            Some("allow-partial") => partial = true,
            _ => {
                let msg = "undersized must be \"only-full\" or \"allow-partial\"";
                let e = vm.make_error(ErrorKind::TypeError, msg);
                return close_and_throw(vm, this, e);
            }
        }
    }
    let (iterator, next) = direct(vm, this, name)?;
    let buffer = vm.new_array(Vec::new())?;
    let helper = Helper {
        op,
        iterator,
        next,
        func: Value::Undefined,
        remaining: size,
        counter: 0.0,
        inner: None,
        state: GenState::Start,
        buffer,
        partial,
    };
    let proto = Some(vm.realm.iterator_protos[0]);
    Ok(Step::Return(Value::Obj(vm.alloc(ObjKind::Iterator(IterState::Helper(Box::new(helper))), proto)?)))
}

/// Adds `value` to a `chunks`/`windows` buffer; the array to yield when one is complete.
fn gather(vm: &mut Vm, h: &Helper, value: Value) -> Result<Option<Value>, Throw> {
    let size = h.remaining as usize;
    if h.op == HelperOp::Windows
        && let Value::Obj(b) = h.buffer
        && let ObjKind::Array(items) = &mut vm.heap.obj_mut(b).kind
        && items.len() >= size
        && !items.is_empty()
    {
        items.remove(0);
    }
    vm.array_push(h.buffer, value)?;
    let Value::Obj(b) = h.buffer else { return Ok(None) };
    let ObjKind::Array(items) = &mut vm.heap.obj_mut(b).kind else { return Ok(None) };
    if items.len() < size {
        return Ok(None);
    }
    // A chunk hands its buffer over; a window copies it (the next window shares all but one).
    let out = if h.op == HelperOp::Chunks { std::mem::take(items).into_vec() } else { items.to_vec() };
    vm.charge(Work::Elements(out.len()));
    Ok(Some(vm.new_array(out)?))
}

/// At exhaustion: the last, shorter chunk, or the one partial window, if there is one.
fn last_chunk(vm: &mut Vm, h: &Helper) -> Result<Option<Value>, Throw> {
    let items = match h.op {
        HelperOp::Chunks => vm.array_items(h.buffer),
        HelperOp::Windows if h.partial => vm.array_items(h.buffer),
        _ => return Ok(None),
    };
    if items.is_empty() || items.len() >= h.remaining as usize {
        return Ok(None);
    }
    // An out-of-memory error is thrown, not taken for "no last chunk".
    vm.new_array(items).map(Some)
}
