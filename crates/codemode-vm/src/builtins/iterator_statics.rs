//! `Iterator.from` and `Iterator.concat`, the two prototypes their results have
//! (`%WrapForValidIteratorPrototype%`, `%IteratorHelperPrototype%`), and the iterator operations
//! the helpers share: GetIteratorFlattenable, IteratorClose whose result is checked, and
//! IteratorCloseAll (`Iterator.zip` and `zipKeyed` are in `iterator_zip.rs`).
//!
//! Every helper object (`map`, `filter`, ..., `concat`, `zip`) is a generator in the
//! specification's terms: it has a [`GenState`], so that a `next()` or `return()` reached while
//! one of its calls is running throws, and `return()` before the first `next()` or after the end
//! closes nothing it has not opened. Program code (an iterator's `next`, `return`, a getter) runs
//! through the trampoline: reads that may meet a getter happen in the first run of a built-in
//! (`#internal.getIteratorFlattenable`, `#internal.iteratorDirect`, `#internal.iteratorClose`),
//! where they replay (`replay.rs`), and state waits in a [`Statics`] continuation. A throw out of
//! a call such a continuation waits for is caught by [`caught`] (the unwinder calls it), which
//! marks the helper done and closes what the specification closes.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::{Cont, NativeDef, Step, arg, internal_fn};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{IterState, ObjKind};
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Iterator", "from", 1, from),
    NativeDef::new("Iterator", "concat", 0, concat),
    NativeDef::new("IteratorHelper.prototype", "next", 0, helper_proto_next),
    NativeDef::new("IteratorHelper.prototype", "return", 0, helper_proto_return),
    NativeDef::new("WrapForValidIterator.prototype", "next", 0, wrap_next),
    NativeDef::new("WrapForValidIterator.prototype", "return", 0, wrap_return),
    NativeDef::new("#internal", "getIteratorFlattenable", 2, flattenable),
    NativeDef::new("#internal", "iteratorDirect", 0, iterator_direct),
    NativeDef::new("#internal", "iteratorClose", 0, iterator_close),
    NativeDef::new("#internal", "toNumber", 1, |vm, _, a, _| {
        Ok(Step::Return(Value::Number(vm.to_number(arg(a, 0))?)))
    }),
];

/// A helper object's generator state (GeneratorState of the specification).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GenState {
    /// Before the first `next()`.
    Start,
    /// Between calls of `next()`.
    Yielded,
    /// A call of `next()` or `return()` is in progress (a program's code it called is running).
    Running,
    Done,
}

/// The state of an iterator made by `Iterator.from`, `concat`, `zip` or `zipKeyed` (in its
/// object, [`IterState::Joined`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Joined {
    /// `Iterator.from`'s wrapper of an iterator that does not inherit from `Iterator.prototype`:
    /// its `next` and `return` forward.
    Wrap {
        iterator: Value,
        next: Value,
    },
    Concat(Concat),
    Zip(super::iterator_zip::Zip),
}

impl Joined {
    pub fn trace(&self, out: &mut Vec<Value>) {
        match self {
            Joined::Wrap { iterator, next } => out.extend([*iterator, *next]),
            Joined::Concat(c) => {
                out.extend(c.items.iter().copied());
                if let Some((it, next)) = c.current {
                    out.extend([it, next]);
                }
            }
            Joined::Zip(z) => z.trace(out),
        }
    }

    /// Bytes the state holds besides its box (memory accounting).
    pub fn extra_bytes(&self) -> usize {
        std::mem::size_of::<Joined>()
            + match self {
                Joined::Wrap { .. } => 0,
                Joined::Concat(c) => c.items.capacity() * crate::heap::VALUE_SIZE,
                Joined::Zip(z) => z.extra_bytes(),
            }
    }
}

/// `Iterator.concat(...items)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Concat {
    /// `[Symbol.iterator]` method and iterable of each argument, in pairs.
    items: Vec<Value>,
    /// The pair to open next.
    index: usize,
    /// The open inner iterator and its `next`.
    current: Option<(Value, Value)>,
    state: GenState,
}

/// How a throw or a finished close goes on (a Completion Record).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Completion {
    /// Return this value.
    Return(Value),
    /// Throw this value.
    Throw(Value),
}

/// IteratorCloseAll: closes `iters` from the last to the first, then completes with
/// `completion` (the first throw replaces a return completion; later throws are dropped).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CloseAll {
    iters: Vec<Value>,
    completion: Completion,
    /// The helper that is done once the iterators are closed.
    owner: Option<ObjId>,
}

/// What a built-in of this module waits for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Statics {
    /// `Iterator.from`: GetIteratorFlattenable's `[iterator, next]`.
    From,
    /// `#internal.getIteratorFlattenable`: the iterator `[Symbol.iterator]()` returned.
    Opened,
    /// `#internal.iteratorClose`: what `return()` returned, which must be an object.
    Closed,
    CloseAll(CloseAll),
    /// A `concat` iterator's `next()`: the inner iterator's `[Symbol.iterator]()`, its `next`
    /// (read by `#internal.iteratorDirect`), or its result.
    Concat {
        helper: ObjId,
        phase: ConcatPhase,
    },
    /// `take`/`drop` of `iterator` waiting for their limit converted to a number (a throw
    /// closes the iterator).
    Limit {
        op: super::iterator_helpers::HelperOp,
        iterator: Value,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConcatPhase {
    Open,
    Direct,
    Step,
}

impl Statics {
    pub fn trace(&self, out: &mut Vec<Value>) {
        match self {
            Statics::From | Statics::Opened | Statics::Closed => {}
            Statics::CloseAll(c) => {
                out.extend(c.iters.iter().copied());
                if let Some(owner) = c.owner {
                    out.push(Value::Obj(owner));
                }
                match c.completion {
                    Completion::Return(v) | Completion::Throw(v) => out.push(v),
                }
            }
            Statics::Concat { helper, .. } => out.push(Value::Obj(*helper)),
            Statics::Limit { iterator, .. } => out.push(*iterator),
        }
    }
}

/// `take`/`drop` with an object for a limit: converted by `#internal.toNumber` (a call of its
/// own, through the program's `valueOf`), then the method runs again with the number.
pub(crate) fn limit_then(
    vm: &mut Vm,
    limit: Value,
    iterator: Value,
    op: super::iterator_helpers::HelperOp,
) -> Result<Step, Throw> {
    let callee = internal_fn(vm, "#internal.toNumber", Vec::new())?;
    let cont = wait(Statics::Limit { op, iterator });
    Ok(Step::Call { callee, this: Value::Undefined, args: vec![limit], cont })
}

fn wait(statics: Statics) -> Cont {
    Cont::IterStatics(Box::new(statics))
}

/// How GetIteratorFlattenable treats its argument (`#internal.getIteratorFlattenable`'s second
/// argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flatten {
    /// `Iterator.from`: a string primitive is iterated.
    IterateStrings = 0,
    /// `zip`'s inputs: primitives are refused.
    RejectPrimitives = 1,
    /// GetIterator: the value must have a `[Symbol.iterator]` method.
    Iterable = 2,
}

/// The step that opens `value` as [`Flatten`] says and resumes `cont` with `[iterator, next]`.
pub(crate) fn open_flattenable(vm: &mut Vm, value: Value, how: Flatten, cont: Cont) -> Result<Step, Throw> {
    let callee = internal_fn(vm, "#internal.getIteratorFlattenable", Vec::new())?;
    Ok(Step::Call {
        callee,
        this: Value::Undefined,
        args: vec![value, Value::Number(how as u8 as f64)],
        cont,
    })
}

/// `#internal.getIteratorFlattenable(value, how)`: `[iterator, next]`.
fn flattenable(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let value = arg(args, 0);
    let how = match arg(args, 1) {
        Value::Number(0.0) => Flatten::IterateStrings,
        Value::Number(1.0) => Flatten::RejectPrimitives,
        _ => Flatten::Iterable,
    };
    let accepted = match value {
        Value::Obj(_) => true,
        Value::Str(_) => how == Flatten::IterateStrings,
        _ => false,
    };
    if !accepted {
        let desc = vm.describe_for_error(value);
        let msg = format!("{desc} is not an object (an iterator or an iterable is expected)");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let method = vm.get_value(value, Key::Atom(vm.realm.symbols.iterator))?;
    if method.is_nullish() {
        if how == Flatten::Iterable {
            let desc = vm.describe_for_error(value);
            return Err(vm.make_error(ErrorKind::TypeError, &format!("{desc} is not iterable")));
        }
        return iterator_direct(vm, value, &[], &[]);
    }
    if !vm.is_callable(method) {
        let desc = vm.describe_for_error(value);
        let msg = format!("{desc} is not iterable (its [Symbol.iterator] is not a function)");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    Ok(Step::Call { callee: method, this: value, args: Vec::new(), cont: wait(Statics::Opened) })
}

/// `#internal.iteratorDirect` (this: the iterator): GetIteratorDirect, `[iterator, next]`.
fn iterator_direct(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    require_object(vm, this, "the iterator")?;
    let next = vm.get_named(this, "next")?;
    Ok(Step::Return(vm.new_array(vec![this, next])?))
}

fn require_object(vm: &mut Vm, v: Value, what: &str) -> Result<(), Throw> {
    if matches!(v, Value::Obj(_)) {
        return Ok(());
    }
    let desc = vm.describe_for_error(v);
    Err(vm.make_error(ErrorKind::TypeError, &format!("{what} ({desc}) is not an object")))
}

/// `[iterator, next]` out of the array `#internal.getIteratorFlattenable` returned.
pub(crate) fn pair(vm: &Vm, array: Value) -> (Value, Value) {
    match array {
        Value::Obj(id) => match &vm.heap.obj(id).kind {
            ObjKind::Array(items) => (
                items.first().copied().unwrap_or(Value::Undefined),
                items.get(1).copied().unwrap_or(Value::Undefined),
            ),
            _ => (Value::Undefined, Value::Undefined),
        },
        _ => (Value::Undefined, Value::Undefined),
    }
}

/// `#internal.iteratorClose` (this: the iterator): IteratorClose with a normal completion: its
/// `return()`, if it has one, whose result must be an object.
fn iterator_close(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let method = vm.get_named(this, "return")?;
    if method.is_nullish() {
        return Ok(Step::Return(Value::Undefined));
    }
    if !vm.is_callable(method) {
        let desc = vm.describe_for_error(method);
        return Err(
            vm.make_error(ErrorKind::TypeError, &format!("The iterator's return ({desc}) is not a function"))
        );
    }
    Ok(Step::Call { callee: method, this, args: Vec::new(), cont: wait(Statics::Closed) })
}

/// The step that closes `iterator` (checked, as [`iterator_close`]) and resumes `cont`.
pub(crate) fn close_step(vm: &mut Vm, iterator: Value, cont: Cont) -> Result<Step, Throw> {
    let callee = internal_fn(vm, "#internal.iteratorClose", Vec::new())?;
    Ok(Step::Call { callee, this: iterator, args: Vec::new(), cont })
}

/// IteratorCloseAll of `iters` (closed last to first) with `completion`; `owner` (a helper) is
/// done afterwards, and running until then.
pub(crate) fn close_all(
    vm: &mut Vm,
    iters: Vec<Value>,
    completion: Completion,
    owner: Option<ObjId>,
) -> Result<Step, Throw> {
    next_close(vm, CloseAll { iters, completion, owner })
}

fn next_close(vm: &mut Vm, mut c: CloseAll) -> Result<Step, Throw> {
    while let Some(iterator) = c.iters.pop() {
        if matches!(iterator, Value::Obj(_)) {
            let owner = c.owner;
            return close_step(vm, iterator, wait(Statics::CloseAll(c))).inspect_err(|_| {
                if let Some(owner) = owner {
                    set_gen(vm, owner, GenState::Done);
                }
            });
        }
    }
    if let Some(owner) = c.owner {
        set_gen(vm, owner, GenState::Done);
    }
    match c.completion {
        Completion::Return(v) => Ok(Step::Return(v)),
        Completion::Throw(e) => Err(e),
    }
}

/// The generator state of helper `id` (`None`: not a helper).
pub(crate) fn gen_of(vm: &Vm, id: ObjId) -> Option<GenState> {
    match &vm.heap.obj(id).kind {
        ObjKind::Iterator(IterState::Helper(h)) => Some(h.state),
        ObjKind::Iterator(IterState::Joined(j)) => match &**j {
            Joined::Wrap { .. } => None,
            Joined::Concat(c) => Some(c.state),
            Joined::Zip(z) => Some(z.state),
        },
        _ => None,
    }
}

pub(crate) fn set_gen(vm: &mut Vm, id: ObjId, state: GenState) {
    match vm.iter_state_mut(id) {
        Some(IterState::Helper(h)) => h.state = state,
        Some(IterState::Joined(j)) => match &mut **j {
            Joined::Wrap { .. } => {}
            Joined::Concat(c) => c.state = state,
            Joined::Zip(z) => z.state = state,
        },
        _ => {}
    }
}

/// GeneratorValidate for `next()`/`return()`: `Ok(None)` when the helper is done (the answer is
/// `{ value: undefined, done: true }`), else its state, which becomes running.
pub(crate) fn enter(vm: &mut Vm, id: ObjId) -> Result<Option<GenState>, Throw> {
    match gen_of(vm, id) {
        Some(GenState::Running) => {
            Err(vm.make_error(ErrorKind::TypeError, "Generator is already running (an iterator helper)"))
        }
        Some(GenState::Done) | None => Ok(None),
        Some(state) => {
            set_gen(vm, id, GenState::Running);
            Ok(Some(state))
        }
    }
}

/// `{ value, done: false }` from a helper's `next()`, which is suspended again.
pub(crate) fn yield_value(vm: &mut Vm, id: ObjId, value: Value) -> Result<Step, Throw> {
    if gen_of(vm, id) == Some(GenState::Running) {
        set_gen(vm, id, GenState::Yielded);
    }
    Ok(Step::Return(vm.iter_result(value, false)?))
}

/// `{ value: undefined, done: true }` from a helper that is now done.
pub(crate) fn finish(vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
    set_gen(vm, id, GenState::Done);
    Ok(Step::Return(vm.iter_result(Value::Undefined, true)?))
}

/// Whether `v` has `Iterator.prototype` on its prototype chain (OrdinaryHasInstance of
/// `Iterator`, whose `prototype` cannot change).
fn inherits_iterator(vm: &mut Vm, v: Value) -> bool {
    let Value::Obj(mut id) = v else { return false };
    let target = vm.realm.iterator_proto;
    let mut depth = 0;
    let found = loop {
        depth += 1;
        match vm.heap.obj(id).proto {
            Some(p) if p == target => break true,
            Some(p) => id = p,
            None => break false,
        }
    };
    vm.charge(Work::Elements(depth));
    found
}

/// `Iterator.from(O)`.
fn from(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    open_flattenable(vm, arg(args, 0), Flatten::IterateStrings, wait(Statics::From))
}

fn from_opened(vm: &mut Vm, array: Value) -> Result<Step, Throw> {
    let (iterator, next) = pair(vm, array);
    if inherits_iterator(vm, iterator) {
        return Ok(Step::Return(iterator));
    }
    let proto = Some(vm.realm.iterator_protos[1]);
    let state = IterState::Joined(Box::new(Joined::Wrap { iterator, next }));
    Ok(Step::Return(Value::Obj(vm.alloc(ObjKind::Iterator(state), proto)?)))
}

fn wrapped(vm: &mut Vm, this: Value, method: &str) -> Result<(Value, Value), Throw> {
    if let Value::Obj(id) = this
        && let ObjKind::Iterator(IterState::Joined(j)) = &vm.heap.obj(id).kind
        && let Joined::Wrap { iterator, next } = &**j
    {
        return Ok((*iterator, *next));
    }
    let msg = format!("%WrapForValidIteratorPrototype%.{method} called on an incompatible receiver");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

/// `%WrapForValidIteratorPrototype%.next()`: the wrapped iterator's `next()`.
fn wrap_next(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (iterator, next) = wrapped(vm, this, "next")?;
    Ok(Step::TailCall { callee: next, this: iterator, args: Vec::new() })
}

/// `%WrapForValidIteratorPrototype%.return()`: the wrapped iterator's `return()`, or
/// `{ value: undefined, done: true }` when it has none.
fn wrap_return(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (iterator, _) = wrapped(vm, this, "return")?;
    let method = vm.get_named(iterator, "return")?;
    if method.is_nullish() {
        return Ok(Step::Return(vm.iter_result(Value::Undefined, true)?));
    }
    if !vm.is_callable(method) {
        return Err(vm.not_a_function(method));
    }
    Ok(Step::TailCall { callee: method, this: iterator, args: Vec::new() })
}

/// `Iterator.concat(...items)`: every item's `[Symbol.iterator]` is read now, each is opened
/// when the one before it is done.
fn concat(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    vm.ensure_fits(args.len().saturating_mul(2 * crate::heap::VALUE_SIZE))?;
    let mut items = Vec::with_capacity(args.len() * 2);
    for &item in args {
        if !matches!(item, Value::Obj(_)) {
            let desc = vm.describe_for_error(item);
            let msg = format!("Iterator.concat: {desc} is not an object (an iterable is expected)");
            return Err(vm.make_error(ErrorKind::TypeError, &msg));
        }
        let method = vm.get_value(item, Key::Atom(vm.realm.symbols.iterator))?;
        if method == Value::Undefined || method == Value::Null {
            return Err(vm.make_error(ErrorKind::TypeError, "Iterator.concat: an argument is not iterable"));
        }
        if !vm.is_callable(method) {
            let msg = "Iterator.concat: an argument's [Symbol.iterator] is not a function";
            return Err(vm.make_error(ErrorKind::TypeError, msg));
        }
        items.extend([method, item]);
    }
    vm.charge(Work::Elements(args.len()));
    let state = Joined::Concat(Concat { items, index: 0, current: None, state: GenState::Start });
    let proto = Some(vm.realm.iterator_protos[0]);
    Ok(Step::Return(Value::Obj(vm.alloc(ObjKind::Iterator(IterState::Joined(Box::new(state))), proto)?)))
}

fn concat_state(vm: &mut Vm, id: ObjId) -> Option<&mut Concat> {
    match vm.iter_state_mut(id)? {
        IterState::Joined(j) => match &mut **j {
            Joined::Concat(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

fn concat_call(callee: Value, this: Value, helper: ObjId, phase: ConcatPhase) -> Step {
    Step::Call { callee, this, args: Vec::new(), cont: wait(Statics::Concat { helper, phase }) }
}

/// Steps the open inner iterator, or opens the next one.
fn concat_advance(vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
    let Some(c) = concat_state(vm, id) else { return finish(vm, id) };
    if let Some((iterator, next)) = c.current {
        return Ok(concat_call(next, iterator, id, ConcatPhase::Step));
    }
    let (Some(&method), Some(&iterable)) = (c.items.get(c.index), c.items.get(c.index + 1)) else {
        return finish(vm, id);
    };
    c.index += 2;
    Ok(concat_call(method, iterable, id, ConcatPhase::Open))
}

fn resume_concat(vm: &mut Vm, id: ObjId, phase: ConcatPhase, result: Value) -> Result<Step, Throw> {
    match phase {
        ConcatPhase::Open => {
            require_object(vm, result, "The result of [Symbol.iterator]()")?;
            let callee = internal_fn(vm, "#internal.iteratorDirect", Vec::new())?;
            let cont = wait(Statics::Concat { helper: id, phase: ConcatPhase::Direct });
            Ok(Step::Call { callee, this: result, args: Vec::new(), cont })
        }
        ConcatPhase::Direct => {
            let current = pair(vm, result);
            if let Some(c) = concat_state(vm, id) {
                c.current = Some(current);
            }
            concat_advance(vm, id)
        }
        ConcatPhase::Step => {
            let Some((done, value)) = vm.user_iter_result(result)? else {
                let cont = wait(Statics::Concat { helper: id, phase });
                return vm.read_iter_result_then(result, cont);
            };
            vm.charge(Work::Elements(1));
            if !done {
                return yield_value(vm, id, value);
            }
            if let Some(c) = concat_state(vm, id) {
                c.current = None;
            }
            concat_advance(vm, id)
        }
    }
}

/// `%IteratorHelperPrototype%.next()`.
fn helper_proto_next(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = helper_of(vm, this, "next")?;
    match &vm.heap.obj(id).kind {
        ObjKind::Iterator(IterState::Helper(_)) => super::helper_next(vm, id),
        ObjKind::Iterator(IterState::Joined(j)) if matches!(**j, Joined::Zip(_)) => {
            super::iterator_zip::zip_next(vm, id)
        }
        _ => {
            if enter(vm, id)?.is_none() {
                return Ok(Step::Return(vm.iter_result(Value::Undefined, true)?));
            }
            concat_advance(vm, id).inspect_err(|_| set_gen(vm, id, GenState::Done))
        }
    }
}

/// `%IteratorHelperPrototype%.return()`.
fn helper_proto_return(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = helper_of(vm, this, "return")?;
    let state = match enter(vm, id)? {
        Some(state) => state,
        None => return Ok(Step::Return(vm.iter_result(Value::Undefined, true)?)),
    };
    let open: Vec<Value> = match &vm.heap.obj(id).kind {
        ObjKind::Iterator(IterState::Helper(h)) => h.open_iterators(),
        ObjKind::Iterator(IterState::Joined(j)) => match &**j {
            Joined::Concat(c) => c.current.map(|(it, _)| it).into_iter().collect(),
            Joined::Zip(z) => z.open_iterators(),
            Joined::Wrap { .. } => Vec::new(),
        },
        _ => Vec::new(),
    };
    let done = vm.iter_result(Value::Undefined, true)?;
    if state == GenState::Start {
        // Closed before it started: done at once, then its underlying iterators closed.
        set_gen(vm, id, GenState::Done);
        return close_all(vm, open, Completion::Return(done), None);
    }
    close_all(vm, open, Completion::Return(done), Some(id))
}

/// `this` as a helper object (made by the iterator helpers, `concat` or `zip`).
fn helper_of(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && gen_of(vm, id).is_some()
    {
        return Ok(id);
    }
    let msg = format!("%IteratorHelperPrototype%.{method} called on an incompatible receiver");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

/// Resumes a built-in of this module with what the call it waited for returned.
pub(crate) fn resume(vm: &mut Vm, statics: Statics, result: Value) -> Result<Step, Throw> {
    match statics {
        Statics::From => from_opened(vm, result),
        Statics::Opened => {
            require_object(vm, result, "The result of [Symbol.iterator]()")?;
            let callee = internal_fn(vm, "#internal.iteratorDirect", Vec::new())?;
            Ok(Step::TailCall { callee, this: result, args: Vec::new() })
        }
        Statics::Closed => {
            require_object(vm, result, "The result of the iterator's return()")?;
            Ok(Step::Return(Value::Undefined))
        }
        Statics::CloseAll(c) => next_close(vm, c),
        Statics::Concat { helper, phase } => {
            resume_concat(vm, helper, phase, result).inspect_err(|_| set_gen(vm, helper, GenState::Done))
        }
        Statics::Limit { op, iterator } => {
            // The method again, as a call of its own (its reads of `next` replay there).
            let name = if op == super::iterator_helpers::HelperOp::Take { "take" } else { "drop" };
            let callee = internal_fn(vm, &format!("Iterator.prototype.{name}"), Vec::new())?;
            Ok(Step::TailCall { callee, this: iterator, args: vec![result] })
        }
    }
}

/// A throw out of a call a [`Statics`] waited for (the unwinder hands it here): closing goes on
/// (the first throw replacing a return completion), a `concat` iterator is done.
pub(crate) fn caught(vm: &mut Vm, statics: Statics, exc: Value) -> Result<Step, Throw> {
    match statics {
        Statics::CloseAll(mut c) => {
            if let Completion::Return(_) = c.completion {
                c.completion = Completion::Throw(exc);
            }
            next_close(vm, c)
        }
        Statics::Concat { helper, .. } => {
            set_gen(vm, helper, GenState::Done);
            Err(exc)
        }
        Statics::Limit { iterator, .. } => close_all(vm, vec![iterator], Completion::Throw(exc), None),
        Statics::From | Statics::Opened | Statics::Closed => Err(exc),
    }
}
