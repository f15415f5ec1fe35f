//! `Array.fromAsync(items, mapFn?, thisArg?)`: an array from an async iterable, a sync iterable
//! (each value awaited, so an array of promises gives their values) or an array-like (each
//! element awaited), every mapped value awaited too; the returned promise settles with it.
//!
//! **Stackless without a continuation of its own.** Every step is a promise reaction: a call of
//! the program (`[Symbol.asyncIterator]()`, `next()`, `mapFn(v, k)`) is the handler of a reaction
//! on a fulfilled promise, as a bound function, and the promise it settles is awaited by
//! `#internal.arrayFromAsyncStep`, bound (as plain data) to the loop's state: the stage, the
//! result promise and array, the iterator and its `next`, `mapFn`, `thisArg`, the index. So the
//! loop is plain data in function objects, and snapshots and fuel work as for any reaction. The
//! values and errors are the specification's; the number of microtask turns is not (each call
//! takes one more), nor is it observable but by racing other promises.

use codemode_bytecode::ErrorKind;

use super::{Native, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::{Callable, ObjKind};
use crate::promise::Reaction;
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Array", "fromAsync", 1, from_async),
    NativeDef::new("#internal", "arrayFromAsyncStep", 1, step),
];

/// What the step bound to a reaction receives.
#[derive(Clone, Copy, PartialEq)]
enum Stage {
    /// The iterator `[Symbol.asyncIterator]()`/`[Symbol.iterator]()` returned.
    Iterator = 0,
    /// A `next()` result, awaited.
    Next = 1,
    /// A value to map (awaited for sync iterators and array-likes).
    Value = 2,
    /// The mapped value, awaited.
    Mapped = 3,
}

/// How the items are read.
const ASYNC: f64 = 0.0;
const SYNC: f64 = 1.0;
const ARRAY_LIKE: f64 = 2.0;

/// The loop's state, as the values the step function is bound to.
#[derive(Clone, Copy)]
struct State {
    promise: ObjId,
    array: Value,
    items: Value,
    mode: f64,
    iterator: Value,
    next: Value,
    map_fn: Value,
    this_arg: Value,
    k: f64,
    len: f64,
}

impl State {
    fn data(&self, stage: Stage, rejected: bool) -> Vec<Value> {
        vec![
            Value::Number(stage as u8 as f64),
            Value::Bool(rejected),
            Value::Obj(self.promise),
            self.array,
            self.items,
            Value::Number(self.mode),
            self.iterator,
            self.next,
            self.map_fn,
            self.this_arg,
            Value::Number(self.k),
            Value::Number(self.len),
        ]
    }

    fn from_data(data: &[Value]) -> Option<(Stage, bool, State)> {
        let Value::Number(n) = arg(data, 0) else { return None };
        // Restored state is not trusted: anything but a stage's number is refused.
        let stage = match n as u8 {
            0 => Stage::Iterator,
            1 => Stage::Next,
            2 => Stage::Value,
            3 => Stage::Mapped,
            _ => return None,
        };
        let Value::Obj(promise) = arg(data, 2) else { return None };
        let num = |i| match arg(data, i) {
            Value::Number(n) => n,
            _ => 0.0,
        };
        let state = State {
            promise,
            array: arg(data, 3),
            items: arg(data, 4),
            mode: num(5),
            iterator: arg(data, 6),
            next: arg(data, 7),
            map_fn: arg(data, 8),
            this_arg: arg(data, 9),
            k: num(10),
            len: num(11),
        };
        Some((stage, arg(data, 1) == Value::Bool(true), state))
    }
}

fn step_native(vm: &mut Vm) -> Result<Native, Throw> {
    Native::by_stable_name("#internal.arrayFromAsyncStep")
        .ok_or_else(|| vm.make_error(ErrorKind::TypeError, "unknown built-in"))
}

/// Awaits `value`, then runs `stage` of the loop with its outcome.
fn await_then(vm: &mut Vm, s: &State, stage: Stage, value: Value) -> Result<(), Throw> {
    let p = vm.promise_resolve(value)?;
    subscribe(vm, s, stage, p)
}

fn subscribe(vm: &mut Vm, s: &State, stage: Stage, p: ObjId) -> Result<(), Throw> {
    let native = step_native(vm)?;
    let on_fulfilled = vm.alloc_native(native, s.data(stage, false))?;
    let on_rejected = vm.alloc_native(native, s.data(stage, true))?;
    vm.add_reaction(p, Reaction::Then { on_fulfilled, on_rejected, derived: None })
}

/// Calls `callee` with `this` and `args` in a later job, then runs `stage` with its awaited
/// outcome (a throw is a rejection).
fn call_then(
    vm: &mut Vm,
    s: &State,
    stage: Stage,
    callee: Value,
    this: Value,
    args: Vec<Value>,
) -> Result<(), Throw> {
    let Value::Obj(target) = callee else { return Err(vm.not_a_function(callee)) };
    let derived = call_later(vm, target, this, args.into_boxed_slice())?;
    subscribe(vm, s, stage, derived)
}

/// Calls `target` with `this` and `args` in a later job (as a reaction to a settled promise):
/// the promise its outcome settles, a throw rejecting it.
fn call_later(vm: &mut Vm, target: ObjId, this: Value, args: Box<[Value]>) -> Result<ObjId, Throw> {
    let kind = ObjKind::Function(Callable::Bound { target, this, args });
    let proto = Some(vm.realm.function_proto);
    let bound = Value::Obj(vm.alloc(kind, proto)?);
    let start = vm.promise_resolve(Value::Undefined)?;
    let derived = vm.new_promise()?;
    vm.add_reaction(
        start,
        Reaction::Then { on_fulfilled: bound, on_rejected: Value::Undefined, derived: Some(derived) },
    )?;
    Ok(derived)
}

fn from_async(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let promise = vm.new_promise()?;
    if let Err(error) = start(vm, promise, args) {
        vm.reject_promise(promise, error)?;
    }
    Ok(Step::Return(Value::Obj(promise)))
}

/// The synchronous part: checks `mapFn`, finds how to read the items, and starts the loop.
fn start(vm: &mut Vm, promise: ObjId, args: &[Value]) -> Result<(), Throw> {
    let (items, map_fn, this_arg) = (arg(args, 0), arg(args, 1), arg(args, 2));
    if map_fn != Value::Undefined && !vm.is_callable(map_fn) {
        let desc = vm.describe_for_error(map_fn);
        return Err(vm.make_error(ErrorKind::TypeError, &format!("{desc} is not a function")));
    }
    if items.is_nullish() {
        let msg = format!("{} is not iterable", if items == Value::Null { "null" } else { "undefined" });
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let array = vm.new_array(Vec::new())?;
    let mut s = State {
        promise,
        array,
        items,
        mode: ASYNC,
        iterator: Value::Undefined,
        next: Value::Undefined,
        map_fn,
        this_arg,
        k: 0.0,
        len: 0.0,
    };
    for (name, mode) in [("asyncIterator", ASYNC), ("iterator", SYNC)] {
        let Some(symbol) = vm.realm.symbols.named(name) else { continue };
        let method = vm.get_value(items, Key::Atom(symbol))?;
        if method.is_nullish() {
            continue;
        }
        if !vm.is_callable(method) {
            return Err(vm.make_error(ErrorKind::TypeError, &format!("Symbol.{name} is not a function")));
        }
        s.mode = mode;
        return call_then(vm, &s, Stage::Iterator, method, items, Vec::new());
    }
    // An array-like: `length` now, each element awaited in turn.
    s.mode = ARRAY_LIKE;
    let len = vm.get_named(items, "length")?;
    let len = vm.to_number(len)?;
    s.len = if len.is_nan() || len <= 0.0 { 0.0 } else { len.trunc().min(9_007_199_254_740_991.0) };
    next_element(vm, &mut s)
}

/// Reads the next element of an array-like (awaited), or finishes.
fn next_element(vm: &mut Vm, s: &mut State) -> Result<(), Throw> {
    if s.k >= s.len {
        return finish(vm, s);
    }
    let key = vm.to_key(Value::Number(s.k))?;
    let v = vm.get_value(s.items, key)?;
    await_then(vm, s, Stage::Value, v)
}

/// Asks the iterator for its next result.
fn next_result(vm: &mut Vm, s: &State) -> Result<(), Throw> {
    call_then(vm, s, Stage::Next, s.next, s.iterator, Vec::new())
}

/// Settles the result with the array (its elements were defined at `0..k` in order, so its
/// `length` is `k` already).
fn finish(vm: &mut Vm, s: &State) -> Result<(), Throw> {
    vm.resolve_promise(s.promise, s.array)
}

/// `#internal.arrayFromAsyncStep(value)`, data = the stage, whether it is a rejection, the state.
fn step(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let Some((stage, rejected, mut s)) = State::from_data(data) else {
        return Ok(Step::Return(Value::Undefined));
    };
    let value = arg(args, 0);
    let outcome = if rejected { Err(value) } else { advance(vm, stage, &mut s, value) };
    if let Err(error) = outcome {
        // A throw of `mapFn` or a rejected value closes the iterator (its `return()` result is
        // not waited for); errors of the iterator itself do not.
        if matches!(stage, Stage::Value | Stage::Mapped) && s.mode != ARRAY_LIKE {
            close(vm, &s)?;
        }
        vm.reject_promise(s.promise, error)?;
    }
    Ok(Step::Return(Value::Undefined))
}

fn close(vm: &mut Vm, s: &State) -> Result<(), Throw> {
    let Ok(ret) = vm.get_named(s.iterator, "return") else { return Ok(()) };
    if let Value::Obj(target) = ret
        && vm.is_callable(ret)
    {
        let derived = call_later(vm, target, s.iterator, Box::default())?;
        // Its outcome is dropped: handled, so a rejection is not reported as unhandled.
        vm.add_reaction(
            derived,
            Reaction::Then { on_fulfilled: Value::Undefined, on_rejected: Value::Undefined, derived: None },
        )?;
    }
    Ok(())
}

fn advance(vm: &mut Vm, stage: Stage, s: &mut State, value: Value) -> Result<(), Throw> {
    match stage {
        Stage::Iterator => {
            if !matches!(value, Value::Obj(_)) {
                let name = if s.mode == SYNC { "iterator" } else { "asyncIterator" };
                let msg = format!("Result of the Symbol.{name} method is not an object");
                return Err(vm.make_error(ErrorKind::TypeError, &msg));
            }
            s.iterator = value;
            s.next = vm.get_named(value, "next")?;
            if !vm.is_callable(s.next) {
                let desc = vm.describe_for_error(s.next);
                return Err(vm.make_error(ErrorKind::TypeError, &format!("{desc} is not a function")));
            }
            next_result(vm, s)
        }
        Stage::Next => {
            if !matches!(value, Value::Obj(_)) {
                let desc = vm.describe_for_error(value);
                return Err(
                    vm.make_error(ErrorKind::TypeError, &format!("Iterator result {desc} is not an object"))
                );
            }
            let done = vm.get_named(value, "done")?;
            if vm.to_boolean(done) {
                return finish(vm, s);
            }
            let v = vm.get_named(value, "value")?;
            if s.mode == SYNC { await_then(vm, s, Stage::Value, v) } else { advance(vm, Stage::Value, s, v) }
        }
        Stage::Value => {
            if s.map_fn == Value::Undefined {
                return advance(vm, Stage::Mapped, s, value);
            }
            let args = vec![value, Value::Number(s.k)];
            call_then(vm, s, Stage::Mapped, s.map_fn, s.this_arg, args)
        }
        Stage::Mapped => {
            let key = vm.to_key(Value::Number(s.k))?;
            vm.define(s.array, key, value)?;
            s.k += 1.0;
            if s.mode == ARRAY_LIKE { next_element(vm, s) } else { next_result(vm, s) }
        }
    }
}
