//! `Promise.all`/`allSettled`/`any`/`race` by the specification's steps (PerformPromiseAll &
//! co), for a constructor other than the intrinsic, an overridden `Promise.resolve` or
//! `Promise.prototype.then`, or items that are not plain values and intrinsic promises: per item
//! `C.resolve(item)`, then `Invoke(nextPromise, "then", [onFulfilled, onRejected])` with resolve
//! and reject *element functions* (real function objects, `length` 1, anonymous).
//!
//! The loop is a resumable state machine ([`Combine`], `Cont::Combine`): each call to program
//! code (`[Symbol.iterator]()`, `next()`, a getter on the result, `C.resolve`, `then`) is a
//! `Step::Call` and the loop goes on in [`resume`], so an endless iterator is stepped one item
//! at a time. A throw out of `C.resolve` or `then` first closes the iterator (`call.rs` sees
//! [`Combine::open_iterator`]), then unwinds to the combinator's catching continuation, which
//! rejects its capability; a throw out of the iterator itself leaves it as it is.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::promise_spec::internal_fn;
use super::{Cont, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::promise::Combinator;
use crate::props::Key;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("#internal", "combinatorGeneral", 2, general),
    NativeDef::new("#internal", "combinatorElement", 1, element),
    NativeDef::new("#internal", "getNext", 0, get_next),
    NativeDef::new("#internal", "closeIterator", 0, close_iterator),
];

/// Element function roles (the function's data slot 3).
const ROLE_ALL: f64 = 0.0;
const ROLE_FULFILLED: f64 = 1.0;
const ROLE_REJECTED: f64 = 2.0;
const ROLE_ANY: f64 = 3.0;

/// What the loop waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// `iterable[Symbol.iterator]()`.
    Iterator,
    /// The iterator's `next` (read through a getter, perhaps).
    Next,
    /// `next()`'s result.
    Result,
    /// That result read as a plain `{ done, value }`.
    Plain,
    /// `C.resolve(value)`.
    Resolved,
    /// `nextPromise.then(...)`.
    Then,
}

/// The loop's state between calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Combine {
    kind: Combinator,
    /// The constructor (`this` of `C.resolve`).
    c: Value,
    promise_resolve: Value,
    /// The capability.
    promise: Value,
    resolve: Value,
    reject: Value,
    /// Items collected already (the direct path's fallback), used when `iterator` is undefined.
    items: Vec<Value>,
    iterator: Value,
    next: Value,
    index: usize,
    /// `[values, remainingElementsCount, resolve, reject]`, shared with the element functions.
    shared: Value,
    phase: Phase,
    /// Whether a throw now must close the iterator (it came from `C.resolve` or `then`).
    open: bool,
}

impl Combine {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([self.c, self.promise_resolve, self.promise, self.resolve, self.reject, self.shared]);
        out.extend([self.iterator, self.next]);
        out.extend(self.items.iter().copied());
    }

    /// The iterator a throw must close before it rejects the combinator's promise.
    pub(crate) fn open_iterator(&self) -> Option<Value> {
        (self.open && self.iterator != Value::Undefined).then_some(self.iterator)
    }
}

/// A throw while [`Combine::open_iterator`]: `iterator.return()`, then the throw goes on
/// (whatever `return` does, `Cont::ThrowAfter` keeps the original error, as IteratorClose does).
pub(crate) fn close_then_throw(vm: &mut Vm, iterator: Value, error: Value) -> Result<Step, Throw> {
    let close = internal_fn(vm, "#internal.closeIterator", Vec::new())?;
    Ok(Step::Call { callee: close, this: iterator, args: Vec::new(), cont: Cont::ThrowAfter(error) })
}

/// `#internal.closeIterator`: `this.return()` when there is one (its result is not looked at).
fn close_iterator(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let ret = vm.get_named(this, "return")?;
    if !vm.is_callable(ret) {
        return Ok(Step::Return(Value::Undefined));
    }
    Ok(Step::TailCall { callee: ret, this, args: Vec::new() })
}

/// `#internal.getNext`: `this.next`, a getter run by replay.
fn get_next(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(vm.get_named(this, "next")?))
}

pub(crate) fn kind_of(v: Value) -> Combinator {
    match v {
        Value::Number(1.0) => Combinator::AllSettled,
        Value::Number(2.0) => Combinator::Any,
        Value::Number(3.0) => Combinator::Race,
        _ => Combinator::All,
    }
}

/// args: [iterable, kind, promise, resolve, reject]; `this` is `C`. Reads `C.resolve` first
/// (GetPromiseResolve, before the iterable is touched) and checks it is callable, then
/// `iterable[Symbol.iterator]`, and calls it.
fn general(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let promise_resolve = vm.get_named(this, "resolve")?;
    if !vm.is_callable(promise_resolve) {
        return Err(vm.make_error(ErrorKind::TypeError, "Promise resolve is not a function"));
    }
    let iterable = arg(args, 0);
    let method = vm.get_value(iterable, Key::Atom(vm.realm.symbols.iterator))?;
    if !vm.is_callable(method) {
        let desc = vm.describe_for_error(iterable);
        return Err(vm.make_error(ErrorKind::TypeError, &format!("{desc} is not iterable")));
    }
    let parts = Parts {
        c: this,
        promise_resolve,
        promise: arg(args, 2),
        resolve: arg(args, 3),
        reject: arg(args, 4),
    };
    let mut state = new_state(vm, kind_of(arg(args, 1)), parts, Vec::new())?;
    state.phase = Phase::Iterator;
    Ok(Step::Call { callee: method, this: iterable, args: Vec::new(), cont: Cont::Combine(state) })
}

/// The constructor, its `resolve`, and the capability.
pub(crate) struct Parts {
    pub c: Value,
    pub promise_resolve: Value,
    pub promise: Value,
    pub resolve: Value,
    pub reject: Value,
}

fn new_state(vm: &mut Vm, kind: Combinator, parts: Parts, items: Vec<Value>) -> Result<Box<Combine>, Throw> {
    let values = vm.new_array(Vec::new())?;
    let shared = vm.new_array(vec![values, Value::Number(1.0), parts.resolve, parts.reject])?;
    Ok(Box::new(Combine {
        kind,
        c: parts.c,
        promise_resolve: parts.promise_resolve,
        promise: parts.promise,
        resolve: parts.resolve,
        reject: parts.reject,
        items,
        iterator: Value::Undefined,
        next: Value::Undefined,
        index: 0,
        shared,
        phase: Phase::Resolved,
        open: false,
    }))
}

/// Starts the loop over `items` collected already.
pub(crate) fn start(vm: &mut Vm, kind: Combinator, parts: Parts, items: Vec<Value>) -> Result<Step, Throw> {
    vm.charge(crate::meter::Work::Elements(items.len()));
    let state = new_state(vm, kind, parts, items)?;
    advance(vm, state)
}

/// The next item: from the collected items, or the iterator's `next()`.
fn advance(vm: &mut Vm, mut state: Box<Combine>) -> Result<Step, Throw> {
    if state.iterator == Value::Undefined {
        let Some(item) = state.items.get(state.index).copied() else { return finish(vm, *state) };
        return Ok(call_resolve(state, item));
    }
    if !vm.is_callable(state.next) {
        return Err(vm.not_a_function(state.next));
    }
    // A throw out of `next()` or the result's reads leaves the iterator as it is.
    state.open = false;
    state.phase = Phase::Result;
    Ok(Step::Call { callee: state.next, this: state.iterator, args: Vec::new(), cont: Cont::Combine(state) })
}

/// `C.resolve(item)`.
fn call_resolve(mut state: Box<Combine>, item: Value) -> Step {
    state.phase = Phase::Resolved;
    Step::Call { callee: state.promise_resolve, this: state.c, args: vec![item], cont: Cont::Combine(state) }
}

/// The iteration is done: remainingElementsCount drops by the initial 1.
fn finish(vm: &mut Vm, state: Combine) -> Result<Step, Throw> {
    if state.kind == Combinator::Race {
        return Ok(Step::Return(state.promise));
    }
    let shared = vm.array_items(state.shared);
    let values = arg(&shared, 0);
    let remaining = match arg(&shared, 1) {
        Value::Number(n) => n - 1.0,
        _ => 0.0,
    };
    vm.define(state.shared, Key::Index(1), Value::Number(remaining))?;
    if remaining > 0.0 {
        return Ok(Step::Return(state.promise));
    }
    let (callee, outcome) = if state.kind == Combinator::Any {
        (state.reject, super::aggregate_error(vm, "All promises were rejected", values)?)
    } else {
        (state.resolve, values)
    };
    Ok(Step::Call {
        callee,
        this: Value::Undefined,
        args: vec![outcome],
        cont: Cont::ReturnValue(state.promise),
    })
}

/// A new element function for `index`; `called` is the alreadyCalled record it shares.
fn element_fn(vm: &mut Vm, state: &Combine, called: Value, role: f64) -> Result<Value, Throw> {
    let index = Value::Number(state.index as f64);
    internal_fn(vm, "#internal.combinatorElement", vec![state.shared, index, called, Value::Number(role)])
}

/// The loop resumed with what its last call returned.
pub(crate) fn resume(vm: &mut Vm, mut state: Box<Combine>, result: Value) -> Result<Step, Throw> {
    match state.phase {
        Phase::Iterator => {
            if !matches!(result, Value::Obj(_)) {
                return Err(vm.make_error(
                    ErrorKind::TypeError,
                    "Result of the Symbol.iterator method is not an object",
                ));
            }
            state.iterator = result;
            state.phase = Phase::Next;
            let get = internal_fn(vm, "#internal.getNext", Vec::new())?;
            return Ok(Step::Call {
                callee: get,
                this: result,
                args: Vec::new(),
                cont: Cont::Combine(state),
            });
        }
        Phase::Next => {
            state.next = result;
            return advance(vm, state);
        }
        Phase::Result => {
            if !matches!(result, Value::Obj(_)) {
                let desc = vm.describe_for_error(result);
                return Err(
                    vm.make_error(ErrorKind::TypeError, &format!("Iterator result {desc} is not an object"))
                );
            }
            state.phase = Phase::Plain;
            return vm.read_iter_result_then(result, Cont::Combine(state));
        }
        Phase::Plain => {
            // A plain `{ done, value }` copy: data properties only.
            let done = vm.get_named(result, "done")?;
            if vm.to_boolean(done) {
                return finish(vm, *state);
            }
            let value = vm.get_named(result, "value")?;
            state.open = true;
            return Ok(call_resolve(state, value));
        }
        Phase::Then => {
            state.index += 1;
            return advance(vm, state);
        }
        Phase::Resolved => {}
    }
    let next_promise = result;
    let (on_fulfilled, on_rejected) = if state.kind == Combinator::Race {
        (state.resolve, state.reject)
    } else {
        // Append an empty slot and count one more pending element.
        let shared = vm.array_items(state.shared);
        let values = arg(&shared, 0);
        vm.define(values, Key::Index(state.index as u32), Value::Undefined)?;
        let remaining = match arg(&shared, 1) {
            Value::Number(n) => n + 1.0,
            _ => 1.0,
        };
        vm.define(state.shared, Key::Index(1), Value::Number(remaining))?;
        let called = vm.new_array(vec![Value::Bool(false)])?;
        match state.kind {
            Combinator::AllSettled => (
                element_fn(vm, &state, called, ROLE_FULFILLED)?,
                element_fn(vm, &state, called, ROLE_REJECTED)?,
            ),
            Combinator::Any => (state.resolve, element_fn(vm, &state, called, ROLE_ANY)?),
            _ => (element_fn(vm, &state, called, ROLE_ALL)?, state.reject),
        }
    };
    let invoke = internal_fn(vm, "#internal.invokeThen", Vec::new())?;
    state.phase = Phase::Then;
    Ok(Step::Call {
        callee: invoke,
        this: next_promise,
        args: vec![on_fulfilled, on_rejected],
        cont: Cont::Combine(state),
    })
}

/// A resolve or reject element function: data = [shared, index, alreadyCalled, role].
fn element(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let called = arg(data, 2);
    if arg(&vm.array_items(called), 0) == Value::Bool(true) {
        return Ok(Step::Return(Value::Undefined));
    }
    vm.define(called, Key::Index(0), Value::Bool(true))?;
    let shared_value = arg(data, 0);
    let shared = vm.array_items(shared_value);
    let values = arg(&shared, 0);
    let index = match arg(data, 1) {
        Value::Number(n) if n >= 0.0 && n < f64::from(u32::MAX) => n as u32,
        _ => return Ok(Step::Return(Value::Undefined)),
    };
    let x = arg(args, 0);
    let role = match arg(data, 3) {
        Value::Number(n) => n,
        _ => ROLE_ALL,
    };
    let v = if role == ROLE_FULFILLED || role == ROLE_REJECTED {
        let o = vm.new_object()?;
        let fulfilled = role == ROLE_FULFILLED;
        let status = vm.intern_string(if fulfilled { "fulfilled" } else { "rejected" })?;
        vm.define(o, Key::Atom(vm.realm.atoms.status), status)?;
        let atom = vm.heap.atoms.intern(if fulfilled { "value" } else { "reason" });
        vm.define(o, Key::Atom(atom), x)?;
        o
    } else {
        x
    };
    vm.define(values, Key::Index(index), v)?;
    let remaining = match arg(&shared, 1) {
        Value::Number(n) => n - 1.0,
        _ => 0.0,
    };
    vm.define(shared_value, Key::Index(1), Value::Number(remaining))?;
    if remaining > 0.0 {
        return Ok(Step::Return(Value::Undefined));
    }
    if role == ROLE_ANY {
        let e = super::aggregate_error(vm, "All promises were rejected", values)?;
        return Ok(Step::TailCall { callee: arg(&shared, 3), this: Value::Undefined, args: vec![e] });
    }
    Ok(Step::TailCall { callee: arg(&shared, 2), this: Value::Undefined, args: vec![values] })
}
