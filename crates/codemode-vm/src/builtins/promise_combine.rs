//! `Promise.all`/`allSettled`/`any`/`race` by the specification's steps (PerformPromiseAll &
//! co), for a constructor other than the intrinsic, an overridden `Promise.resolve` or
//! `Promise.prototype.then`, or items that are not plain values and intrinsic promises: per item
//! `C.resolve(item)`, then `Invoke(nextPromise, "then", [onFulfilled, onRejected])` with resolve
//! and reject *element functions* (real function objects, `length` 1, anonymous).
//!
//! The loop is a resumable state machine ([`Combine`], `Cont::Combine`): each call to program
//! code is a `Step::Call` and the loop goes on in [`resume`]. A throw out of `C.resolve` or
//! `then` unwinds to the combinator's catching continuation, which rejects its capability.
//!
//! Known simplification: the iterable is collected before the loop (`collect_or_reenter`), so
//! a program-defined iterator's `next()` calls all happen before the first `C.resolve`, and an
//! iterator is never closed by an abrupt `resolve`/`then` (it is already exhausted).

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
    NativeDef::new("#internal", "combinatorCollect", 2, collect),
    NativeDef::new("#internal", "combinatorElement", 1, element),
];

/// Element function roles (the function's data slot 3).
const ROLE_ALL: f64 = 0.0;
const ROLE_FULFILLED: f64 = 1.0;
const ROLE_REJECTED: f64 = 2.0;
const ROLE_ANY: f64 = 3.0;

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
    items: Vec<Value>,
    index: usize,
    /// `[values, remainingElementsCount, resolve, reject]`, shared with the element functions.
    shared: Value,
    /// Waiting for `then` (else for `C.resolve`).
    after_then: bool,
}

impl Combine {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.extend([self.c, self.promise_resolve, self.promise, self.resolve, self.reject, self.shared]);
        out.extend(self.items.iter().copied());
    }
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
/// (GetPromiseResolve, before the iterable is touched) and checks it is callable.
fn general(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let promise_resolve = vm.get_named(this, "resolve")?;
    if !vm.is_callable(promise_resolve) {
        return Err(
            vm.make_error(codemode_bytecode::ErrorKind::TypeError, "Promise resolve is not a function")
        );
    }
    let collect = internal_fn(vm, "#internal.combinatorCollect", Vec::new())?;
    let mut all = args.to_vec();
    all.truncate(5);
    all.resize(5, Value::Undefined);
    all.push(promise_resolve);
    Ok(Step::TailCall { callee: collect, this, args: all })
}

/// args: [iterable, kind, promise, resolve, reject, promiseResolve]: collects the iterable (a
/// built-in of its own, so that `C.resolve`'s getter is not read again when it re-enters).
fn collect(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let items = match vm.collect_or_reenter("#internal.combinatorCollect", false, this, args, 0)? {
        Ok(items) => items,
        Err(step) => return Ok(step),
    };
    let parts = Parts {
        c: this,
        promise_resolve: arg(args, 5),
        promise: arg(args, 2),
        resolve: arg(args, 3),
        reject: arg(args, 4),
    };
    start(vm, kind_of(arg(args, 1)), parts, items)
}

/// The constructor, its `resolve`, and the capability.
pub(crate) struct Parts {
    pub c: Value,
    pub promise_resolve: Value,
    pub promise: Value,
    pub resolve: Value,
    pub reject: Value,
}

/// Starts the loop over `items`.
pub(crate) fn start(vm: &mut Vm, kind: Combinator, parts: Parts, items: Vec<Value>) -> Result<Step, Throw> {
    vm.charge(crate::meter::Work::Elements(items.len()));
    let values = vm.new_array(Vec::new())?;
    let shared = vm.new_array(vec![values, Value::Number(1.0), parts.resolve, parts.reject])?;
    let state = Combine {
        kind,
        c: parts.c,
        promise_resolve: parts.promise_resolve,
        promise: parts.promise,
        resolve: parts.resolve,
        reject: parts.reject,
        items,
        index: 0,
        shared,
        after_then: false,
    };
    next_item(vm, state)
}

/// `C.resolve(items[index])`, or the end of the loop.
fn next_item(vm: &mut Vm, mut state: Combine) -> Result<Step, Throw> {
    let Some(item) = state.items.get(state.index).copied() else { return finish(vm, state) };
    state.after_then = false;
    Ok(Step::Call {
        callee: state.promise_resolve,
        this: state.c,
        args: vec![item],
        cont: Cont::Combine(Box::new(state)),
    })
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

/// The loop resumed with what `C.resolve` or `then` returned.
pub(crate) fn resume(vm: &mut Vm, mut state: Box<Combine>, result: Value) -> Result<Step, Throw> {
    if state.after_then {
        state.index += 1;
        return next_item(vm, *state);
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
    state.after_then = true;
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
