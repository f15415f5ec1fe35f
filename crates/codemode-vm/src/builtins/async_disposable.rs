//! `AsyncDisposableStack` (`use`, `adopt`, `defer`, `move`, `disposeAsync`, also
//! `[Symbol.asyncDispose]`, `disposed`) and the asynchronous disposal loop it shares with
//! `await using` (DisposeResources with the `async-dispose` hint).
//!
//! Disposal runs as a state machine kept in the stack object itself (its [`AsyncRun`]): the
//! remaining resources stay in the stack's list (it is marked disposed, so nothing else can touch
//! them), each disposer is a `Step::Call` in a [`Cont::AsyncDispose`], and each await is a promise
//! reaction calling the internal `#internal.asyncDisposeResume` bound to the stack. A disposer's
//! throw reaches [`caught`] through the unwinder, as for `DisposableStack`. The returned promise
//! settles when every resource is disposed, rejected with the (possibly `SuppressedError`-chained)
//! error if there is one.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::disposable::{self, DisposableState, Disposal, Resource, require_callable};
use super::{Cont, Native, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::promise::Reaction;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("AsyncDisposableStack", 0, requires_new, construct),
    NativeDef::new("AsyncDisposableStack.prototype", "use", 1, use_),
    NativeDef::new("AsyncDisposableStack.prototype", "adopt", 2, adopt),
    NativeDef::new("AsyncDisposableStack.prototype", "defer", 1, defer),
    NativeDef::new("AsyncDisposableStack.prototype", "move", 0, move_),
    NativeDef::new("AsyncDisposableStack.prototype", "disposeAsync", 0, dispose_async),
    NativeDef::new("AsyncDisposableStack.prototype", "get disposed", 0, disposed),
    NativeDef::new("#internal", "asyncDisposeResume", 1, resume_after_await),
];

/// An asynchronous disposal under way (DisposeResources' locals).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AsyncRun {
    /// Settled when the disposal ends.
    promise: ObjId,
    /// The completion so far: the pending error, if any.
    error: Option<Value>,
    /// An `await using` of `null`/`undefined` was met: an await is owed.
    needs_await: bool,
    /// Some disposer's result was awaited.
    has_awaited: bool,
}

impl AsyncRun {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(Value::Obj(self.promise));
        out.extend(self.error);
    }
}

fn requires_new(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor AsyncDisposableStack requires 'new'"))
}

fn new_stack(vm: &mut Vm, resources: Vec<Resource>) -> Result<Value, Throw> {
    vm.charge_memory(resources.len() * 40)?;
    let proto = Some(vm.realm.disposable_protos[1]);
    let state = DisposableState::new(true, resources);
    Ok(Value::Obj(vm.alloc(ObjKind::Disposable(Box::new(state)), proto)?))
}

fn construct(vm: &mut Vm, _args: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(new_stack(vm, Vec::new())?))
}

fn this_stack(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && matches!(&vm.heap.obj(id).kind, ObjKind::Disposable(s) if s.is_async)
    {
        return Ok(id);
    }
    let desc = vm.describe_for_error(this);
    let msg =
        format!("Method AsyncDisposableStack.prototype.{method} called on incompatible receiver {desc}");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

fn live_stack(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    let id = this_stack(vm, this, method)?;
    if disposable::state(vm, id).is_some_and(|s| s.disposed) {
        let msg = format!("AsyncDisposableStack.prototype.{method}: the stack is already disposed");
        return Err(vm.make_error(ErrorKind::ReferenceError, &msg));
    }
    Ok(id)
}

fn use_(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = live_stack(vm, this, "use")?;
    let value = arg(args, 0);
    let resource = super::using::resource(vm, value, true)?;
    disposable::push(vm, id, resource)?;
    Ok(Step::Return(value))
}

fn adopt(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = live_stack(vm, this, "adopt")?;
    let (value, on_dispose) = (arg(args, 0), arg(args, 1));
    require_callable(vm, on_dispose, "onDisposeAsync")?;
    disposable::push(vm, id, Resource { value, method: on_dispose, how: Disposal::Adopt, awaited: true })?;
    Ok(Step::Return(value))
}

fn defer(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = live_stack(vm, this, "defer")?;
    let on_dispose = arg(args, 0);
    require_callable(vm, on_dispose, "onDisposeAsync")?;
    let r = Resource { value: Value::Undefined, method: on_dispose, how: Disposal::Defer, awaited: true };
    disposable::push(vm, id, r)?;
    Ok(Step::Return(Value::Undefined))
}

fn move_(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = live_stack(vm, this, "move")?;
    let resources = disposable::state(vm, id).map(|s| std::mem::take(&mut s.resources)).unwrap_or_default();
    if let Some(s) = disposable::state(vm, id) {
        s.disposed = true;
    }
    Ok(Step::Return(new_stack(vm, resources)?))
}

fn disposed(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_stack(vm, this, "disposed")?;
    Ok(Step::Return(Value::Bool(disposable::state(vm, id).is_some_and(|s| s.disposed))))
}

/// `disposeAsync()`: a promise; a wrong receiver rejects it rather than throwing.
fn dispose_async(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = match this_stack(vm, this, "disposeAsync") {
        Ok(id) => id,
        Err(error) => {
            let p = vm.new_promise()?;
            vm.reject_promise(p, error)?;
            return Ok(Step::Return(Value::Obj(p)));
        }
    };
    let Some(s) = disposable::state(vm, id) else { return Ok(Step::Return(Value::Undefined)) };
    if s.disposed {
        let p = vm.promise_resolve(Value::Undefined)?;
        return Ok(Step::Return(Value::Obj(p)));
    }
    s.disposed = true;
    start(vm, id, None)
}

/// Starts disposing `stack`'s resources, last first, with `error` pending; the step returns the
/// promise that settles when they are all disposed (the first disposer is called right away).
pub(crate) fn start(vm: &mut Vm, stack: ObjId, error: Option<Value>) -> Result<Step, Throw> {
    let promise = vm.new_promise()?;
    if let Some(s) = disposable::state(vm, stack) {
        s.disposed = true;
        s.run = Some(Box::new(AsyncRun { promise, error, needs_await: false, has_awaited: false }));
    }
    step(vm, stack)
}

/// What the loop does next, decided with the stack's state borrowed.
enum Next {
    Await,
    Call(Resource),
    Finish { promise: ObjId, error: Option<Value> },
}

/// Disposes the next resource, awaits, or settles the promise.
fn step(vm: &mut Vm, stack: ObjId) -> Result<Step, Throw> {
    loop {
        let Some(s) = disposable::state(vm, stack) else { return Ok(Step::Return(Value::Undefined)) };
        let Some(run) = s.run.as_deref_mut() else { return Ok(Step::Return(Value::Undefined)) };
        let promise = run.promise;
        let next = match s.resources.last().copied() {
            // A sync disposer after an `await using x = null` waits for the await it owes.
            Some(r) if !r.awaited && run.needs_await && !run.has_awaited => {
                run.needs_await = false;
                Next::Await
            }
            Some(r) => {
                s.resources.pop();
                if r.how == Disposal::Nothing {
                    run.needs_await = true;
                    continue;
                }
                Next::Call(r)
            }
            None if run.needs_await && !run.has_awaited => {
                run.needs_await = false;
                Next::Await
            }
            None => {
                let error = run.error.take();
                s.run = None;
                s.resources = Vec::new();
                Next::Finish { promise, error }
            }
        };
        return match next {
            Next::Await => await_then(vm, stack, promise, Value::Undefined),
            Next::Call(r) => {
                let Some((this, args)) = disposable::call_of(vm, &r) else { continue };
                let cont = Cont::AsyncDispose { stack, how: r.how, awaited: r.awaited };
                Ok(Step::Call { callee: r.method, this, args, cont })
            }
            Next::Finish { promise, error } => {
                match error {
                    Some(e) => vm.reject_promise(promise, e)?,
                    None => vm.resolve_promise(promise, Value::Undefined)?,
                }
                Ok(Step::Return(Value::Obj(promise)))
            }
        };
    }
}

/// Awaits `value`, then goes on with the loop (`#internal.asyncDisposeResume`).
fn await_then(vm: &mut Vm, stack: ObjId, promise: ObjId, value: Value) -> Result<Step, Throw> {
    let Some(resume) = Native::by_stable_name("#internal.asyncDisposeResume") else {
        return Err(vm.make_error(ErrorKind::TypeError, "unknown built-in"));
    };
    let awaited = vm.promise_resolve(value)?;
    let on_fulfilled = vm.alloc_native(resume, vec![Value::Obj(stack), Value::Bool(false)])?;
    let on_rejected = vm.alloc_native(resume, vec![Value::Obj(stack), Value::Bool(true)])?;
    vm.add_reaction(awaited, Reaction::Then { on_fulfilled, on_rejected, derived: None })?;
    Ok(Step::Return(Value::Obj(promise)))
}

fn run_of(vm: &mut Vm, stack: ObjId) -> Option<&mut AsyncRun> {
    disposable::state(vm, stack).and_then(|s| s.run.as_deref_mut())
}

/// Records `error` (a disposer threw, or its result rejected).
fn record(vm: &mut Vm, stack: ObjId, error: Value) -> Result<(), Throw> {
    let earlier = run_of(vm, stack).and_then(|run| run.error.take());
    let combined = disposable::combine(vm, earlier, error)?;
    if let Some(run) = run_of(vm, stack) {
        run.error = Some(combined);
    }
    Ok(())
}

/// A disposer returned `result`: awaited for the `async-dispose` hint (the fallback to a sync
/// `[Symbol.dispose]` awaits `undefined`), else the loop goes on at once.
pub(crate) fn resume(
    vm: &mut Vm,
    stack: ObjId,
    how: Disposal,
    awaited: bool,
    result: Value,
) -> Result<Step, Throw> {
    if !awaited {
        return step(vm, stack);
    }
    let Some(run) = run_of(vm, stack) else { return Ok(Step::Return(Value::Undefined)) };
    run.has_awaited = true;
    let promise = run.promise;
    let value = if how == Disposal::UseSync { Value::Undefined } else { result };
    await_then(vm, stack, promise, value)
}

/// A disposer threw `error`. The fallback wrapper of a sync `[Symbol.dispose]` turns that into a
/// rejected promise, which is awaited; other throws go on at once.
pub(crate) fn caught(
    vm: &mut Vm,
    stack: ObjId,
    how: Disposal,
    awaited: bool,
    error: Value,
) -> Result<Step, Throw> {
    record(vm, stack, error)?;
    if awaited && how == Disposal::UseSync {
        let Some(run) = run_of(vm, stack) else { return Ok(Step::Return(Value::Undefined)) };
        run.has_awaited = true;
        let promise = run.promise;
        return await_then(vm, stack, promise, Value::Undefined);
    }
    step(vm, stack)
}

/// `#internal.asyncDisposeResume(value)`, data = [stack, rejected]: an await is over. An error
/// the loop itself meets (out of memory) rejects the disposal's promise.
fn resume_after_await(vm: &mut Vm, _this: Value, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(stack) = arg(data, 0) else { return Ok(Step::Return(Value::Undefined)) };
    let outcome = if arg(data, 1) == Value::Bool(true) {
        record(vm, stack, arg(args, 0)).and_then(|()| step(vm, stack))
    } else {
        step(vm, stack)
    };
    match outcome {
        Ok(step) => Ok(step),
        Err(error) => {
            let promise = run_of(vm, stack).map(|run| run.promise);
            if let Some(s) = disposable::state(vm, stack) {
                s.run = None;
            }
            if let Some(p) = promise {
                vm.reject_promise(p, error)?;
            }
            Ok(Step::Return(Value::Undefined))
        }
    }
}
