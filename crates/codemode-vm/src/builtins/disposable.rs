//! `DisposableStack` (explicit resource management): `use`, `adopt`, `defer`, `move`,
//! `dispose` (also `[Symbol.dispose]`), `disposed`.
//!
//! Disposers are program functions, so `dispose()` runs them one by one as steps in a
//! [`Cont::Dispose`], last added first. A disposer that throws does not stop the others: the
//! unwinder hands the exception to [`caught`] (the one continuation besides a promise executor
//! that catches), and the errors are chained into a `SuppressedError` (the newest error, with the
//! earlier one as `suppressed`), thrown when every disposer has run.
//!
//! The same state serves `AsyncDisposableStack` and the hidden scope object of a block with
//! `using` declarations; their asynchronous disposal is `async_disposable.rs`, the declarations'
//! helpers `using.rs`.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::{Cont, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("DisposableStack", 0, requires_new, construct),
    NativeDef::new("DisposableStack.prototype", "use", 1, use_),
    NativeDef::new("DisposableStack.prototype", "adopt", 2, adopt),
    NativeDef::new("DisposableStack.prototype", "defer", 1, defer),
    NativeDef::new("DisposableStack.prototype", "move", 0, move_),
    NativeDef::new("DisposableStack.prototype", "dispose", 0, dispose),
    NativeDef::new("DisposableStack.prototype", "get disposed", 0, disposed),
];

/// Bytes one resource adds.
const RESOURCE_BYTES: usize = 40;

/// How a resource is disposed of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Disposal {
    /// `use(value)`: `method` is `value[Symbol.dispose]`, called with `value` as `this`.
    Use,
    /// `adopt(value, onDispose)`: `onDispose(value)`.
    Adopt,
    /// `defer(onDispose)`: `onDispose()`.
    Defer,
    /// `await using` (or `AsyncDisposableStack.prototype.use`) of a value without
    /// `[Symbol.asyncDispose]`: its `[Symbol.dispose]` is called like `Use`, and its result is
    /// not awaited (an `undefined` is).
    UseSync,
    /// `await using x = null` (or `undefined`): nothing to call, but an await is owed.
    Nothing,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    pub(crate) value: Value,
    pub(crate) method: Value,
    pub(crate) how: Disposal,
    /// Disposed with the `async-dispose` hint: the call's result is awaited.
    #[serde(default)]
    pub(crate) awaited: bool,
}

/// A `DisposableStack`'s state (also an `AsyncDisposableStack`'s, and a `using` scope's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DisposableState {
    pub disposed: bool,
    pub resources: Vec<Resource>,
    /// An `AsyncDisposableStack` (the two brands must not accept each other's objects).
    #[serde(default)]
    pub is_async: bool,
    /// An asynchronous disposal under way: the remaining resources are still in `resources`.
    #[serde(default)]
    pub run: Option<Box<super::async_disposable::AsyncRun>>,
}

impl DisposableState {
    pub(crate) fn new(is_async: bool, resources: Vec<Resource>) -> Self {
        DisposableState { disposed: false, resources, is_async, run: None }
    }

    pub fn trace(&self, out: &mut Vec<Value>) {
        for r in &self.resources {
            out.extend([r.value, r.method]);
        }
        if let Some(run) = &self.run {
            run.trace(out);
        }
    }

    pub fn extra_bytes(&self) -> usize {
        self.resources.capacity() * RESOURCE_BYTES
    }
}

/// `dispose()` between disposers: what is left (disposed last to first) and the error so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DisposeLoop {
    pub(crate) resources: Vec<Resource>,
    pub(crate) error: Option<Value>,
}

impl DisposeLoop {
    pub fn trace(&self, out: &mut Vec<Value>) {
        for r in &self.resources {
            out.extend([r.value, r.method]);
        }
        out.extend(self.error);
    }
}

fn requires_new(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor DisposableStack requires 'new'"))
}

fn new_stack(vm: &mut Vm, resources: Vec<Resource>) -> Result<Value, Throw> {
    vm.charge_memory(resources.len() * RESOURCE_BYTES)?;
    let proto = Some(vm.realm.disposable_protos[0]);
    let state = DisposableState::new(false, resources);
    Ok(Value::Obj(vm.alloc(ObjKind::Disposable(Box::new(state)), proto)?))
}

fn construct(vm: &mut Vm, _args: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(new_stack(vm, Vec::new())?))
}

/// `this` as a `DisposableStack`, or a `TypeError` naming the method.
fn this_stack(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && matches!(&vm.heap.obj(id).kind, ObjKind::Disposable(s) if !s.is_async)
    {
        return Ok(id);
    }
    let desc = vm.describe_for_error(this);
    let msg = format!("Method DisposableStack.prototype.{method} called on incompatible receiver {desc}");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

pub(crate) fn state(vm: &mut Vm, id: ObjId) -> Option<&mut DisposableState> {
    match &mut vm.heap.obj_mut(id).kind {
        ObjKind::Disposable(s) => Some(s),
        _ => None,
    }
}

/// `this` as a stack that is not disposed yet (a disposed one is a `ReferenceError`).
fn live_stack(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    let id = this_stack(vm, this, method)?;
    if state(vm, id).is_some_and(|s| s.disposed) {
        let msg = format!("DisposableStack.prototype.{method}: the stack is already disposed");
        return Err(vm.make_error(ErrorKind::ReferenceError, &msg));
    }
    Ok(id)
}

pub(crate) fn push(vm: &mut Vm, id: ObjId, resource: Resource) -> Result<(), Throw> {
    vm.charge_memory(RESOURCE_BYTES)?;
    if let Some(s) = state(vm, id) {
        s.resources.push(resource);
    }
    Ok(())
}

pub(crate) fn require_callable(vm: &mut Vm, f: Value, what: &str) -> Result<(), Throw> {
    if vm.is_callable(f) {
        return Ok(());
    }
    let desc = vm.describe_for_error(f);
    Err(vm.make_error(ErrorKind::TypeError, &format!("{what} must be a function ({desc})")))
}

fn use_(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = live_stack(vm, this, "use")?;
    let value = arg(args, 0);
    if value.is_nullish() {
        return Ok(Step::Return(value));
    }
    if !matches!(value, Value::Obj(_)) {
        let desc = vm.describe_for_error(value);
        let msg = format!("DisposableStack.prototype.use: {desc} is not an object");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let method = vm.get_value(value, Key::Atom(vm.realm.symbols.dispose))?;
    require_callable(vm, method, "the value's [Symbol.dispose]")?;
    push(vm, id, Resource { value, method, how: Disposal::Use, awaited: false })?;
    Ok(Step::Return(value))
}

fn adopt(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = live_stack(vm, this, "adopt")?;
    let (value, on_dispose) = (arg(args, 0), arg(args, 1));
    require_callable(vm, on_dispose, "onDispose")?;
    push(vm, id, Resource { value, method: on_dispose, how: Disposal::Adopt, awaited: false })?;
    Ok(Step::Return(value))
}

fn defer(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = live_stack(vm, this, "defer")?;
    let on_dispose = arg(args, 0);
    require_callable(vm, on_dispose, "onDispose")?;
    let r = Resource { value: Value::Undefined, method: on_dispose, how: Disposal::Defer, awaited: false };
    push(vm, id, r)?;
    Ok(Step::Return(Value::Undefined))
}

/// `move()`: a new stack takes the resources; this one is disposed (without disposing them).
fn move_(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = live_stack(vm, this, "move")?;
    let resources = state(vm, id).map(|s| std::mem::take(&mut s.resources)).unwrap_or_default();
    if let Some(s) = state(vm, id) {
        s.disposed = true;
    }
    Ok(Step::Return(new_stack(vm, resources)?))
}

fn disposed(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_stack(vm, this, "disposed")?;
    Ok(Step::Return(Value::Bool(state(vm, id).is_some_and(|s| s.disposed))))
}

fn dispose(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_stack(vm, this, "dispose")?;
    let Some(s) = state(vm, id) else { return Ok(Step::Return(Value::Undefined)) };
    if s.disposed {
        return Ok(Step::Return(Value::Undefined));
    }
    s.disposed = true;
    let resources = std::mem::take(&mut s.resources);
    next_disposal(vm, DisposeLoop { resources, error: None })
}

/// Calls the next disposer, or ends: `undefined`, or the error the disposers threw.
pub(crate) fn next_disposal(vm: &mut Vm, mut state: DisposeLoop) -> Result<Step, Throw> {
    loop {
        let Some(r) = state.resources.pop() else {
            return match state.error {
                Some(error) => Err(error),
                None => Ok(Step::Return(Value::Undefined)),
            };
        };
        let Some((this, args)) = call_of(vm, &r) else { continue };
        return Ok(Step::Call { callee: r.method, this, args, cont: Cont::Dispose(Box::new(state)) });
    }
}

/// How a resource's disposer is called (`this` and the arguments), charged as a call; `None` for
/// a resource with nothing to call.
pub(crate) fn call_of(vm: &mut Vm, r: &Resource) -> Option<(Value, Vec<Value>)> {
    let call = match r.how {
        Disposal::Use | Disposal::UseSync => (r.value, Vec::new()),
        Disposal::Adopt => (Value::Undefined, vec![r.value]),
        Disposal::Defer => (Value::Undefined, Vec::new()),
        Disposal::Nothing => return None,
    };
    vm.charge(crate::meter::Work::Call { args: 1 });
    Some(call)
}

/// A disposer threw `error`: remember it (the earlier error becomes its `suppressed`) and go on.
pub(crate) fn caught(vm: &mut Vm, mut state: DisposeLoop, error: Value) -> Result<Step, Throw> {
    state.error = Some(combine(vm, state.error, error)?);
    next_disposal(vm, state)
}

/// The error a disposal has after `error` is thrown with `earlier` pending: `error` alone, or a
/// `SuppressedError` of `error` suppressing `earlier`.
pub(crate) fn combine(vm: &mut Vm, earlier: Option<Value>, error: Value) -> Result<Value, Throw> {
    match earlier {
        None => Ok(error),
        Some(earlier) => super::error_more::suppressed_error(vm, error, earlier),
    }
}
