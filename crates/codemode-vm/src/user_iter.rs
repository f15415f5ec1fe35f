//! The iteration protocol for program-defined iterables: an object whose `[Symbol.iterator]()`
//! returns an object with `next()`.
//!
//! Native iterables (arrays, strings, Maps, Sets, the built-ins' iterators, generators) keep
//! their native paths in `iter.rs` and `generator.rs`. Everything else is driven here without
//! Rust recursion: `[Symbol.iterator]()` and `next()` are ordinary calls whose results come
//! back through [`ReturnTo::Iterator`] and [`ReturnTo::IterStep`] (for-of, destructuring), or
//! through the resumable [`IterDrain`] continuation (spread, rest elements, `Array.from`, and
//! the built-ins that take an iterable).

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{Cont, Native, Step};
use crate::call::Throw;
use crate::frame::{Frame, ReturnTo};
use crate::generator::DrainInto;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::props::{Got, Key};
use crate::value::{ObjId, Value};

/// How iteration over a value starts.
pub(crate) enum IterStart {
    /// A native iterator (or generator), ready to step.
    Ready(Value),
    /// Call this `[Symbol.iterator]` method with the iterable as `this`.
    Call(Value),
}

/// What an [`IterDrain`] does when the iterable is used up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DrainThen {
    /// Finish as [`DrainInto`] says (spread, `IterRest`, `Array.from`).
    Into(DrainInto),
    /// Call built-in `native` again with the collected array in place of argument `index`
    /// (`new Map(iterable)`, `Promise.all(iterable)`, ...).
    /// `construct`: the built-in was called with `new`.
    Reenter { native: Native, construct: bool, this: Value, args: Vec<Value>, index: usize, array: ObjId },
}

/// A built-in collecting every value of a program-defined iterator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterDrain {
    /// The iterator, once `[Symbol.iterator]()` returned it (`Undefined` before).
    pub iterator: Value,
    pub next: Value,
    pub then: DrainThen,
    /// What the call being waited for returns.
    pub reading: Reading,
}

/// Which call an [`IterDrain`] waits for: `next()`, or a getter of the iterator result it
/// returned (`done`, then `value`), which the protocol reads with `Get` like any property.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reading {
    Next,
    /// The `done` getter of this iterator result.
    Done(Value),
    /// The `value` getter.
    Value,
}

impl IterDrain {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(self.iterator);
        out.push(self.next);
        if let Reading::Done(result) = self.reading {
            out.push(result);
        }
        match &self.then {
            DrainThen::Into(DrainInto::Array(a)) => out.push(Value::Obj(*a)),
            DrainThen::Into(DrainInto::ArrayFrom { array, map }) => {
                out.push(Value::Obj(*array));
                out.push(*map);
            }
            DrainThen::Reenter { this, args, array, .. } => {
                out.push(*this);
                out.extend(args.iter().copied());
                out.push(Value::Obj(*array));
            }
        }
    }

    fn array(&self) -> ObjId {
        match &self.then {
            DrainThen::Into(DrainInto::Array(array) | DrainInto::ArrayFrom { array, .. }) => *array,
            DrainThen::Reenter { array, .. } => *array,
        }
    }
}

impl Vm {
    /// `GetIterator(v)`: a native iterator when `v` has one, else the `[Symbol.iterator]`
    /// method to call. `is_async` (`for await`): a `[Symbol.asyncIterator]` method comes first
    /// (the loop awaits what `next()` returns, and each value).
    pub(crate) fn start_iteration(&mut self, v: Value, is_async: bool) -> Result<IterStart, Throw> {
        if is_async
            && let Value::Obj(id) = v
            && !matches!(self.heap.obj(id).kind, ObjKind::Generator(_))
        {
            let method = self.get_value(v, Key::Atom(self.realm.symbols.async_iterator))?;
            if !method.is_nullish() {
                if !self.is_callable(method) {
                    let desc = self.describe_for_error(v);
                    let msg = format!(
                        "{desc} is not async iterable (its [Symbol.asyncIterator] is not a function)"
                    );
                    return Err(self.make_error(ErrorKind::TypeError, &msg));
                }
                return Ok(IterStart::Call(method));
            }
        }
        if let Some(method) = self.user_iterator_method(v)? {
            return Ok(IterStart::Call(method));
        }
        Ok(IterStart::Ready(self.get_iterator(v)?))
    }

    /// The `[Symbol.iterator]` method of a value the native paths do not iterate; `None` for
    /// arrays, strings, Maps, Sets, native iterators and generators.
    pub(crate) fn user_iterator_method(&mut self, v: Value) -> Result<Option<Value>, Throw> {
        let Value::Obj(id) = v else { return Ok(None) };
        if self.array_iterates_natively(v)
            || matches!(self.heap.obj(id).kind, ObjKind::Map { .. } | ObjKind::Generator(_))
            || matches!(self.heap.obj(id).kind, ObjKind::Iterator(ref s) if !s.is_called())
        {
            return Ok(None);
        }
        let method = self.get_value(v, Key::Atom(self.realm.symbols.iterator))?;
        if method.is_nullish() {
            // An array whose `[Symbol.iterator]` was deleted is not iterable.
            if matches!(self.heap.obj(id).kind, ObjKind::Array(_)) {
                let msg = "array is not iterable (its [Symbol.iterator] was removed)";
                return Err(self.make_error(ErrorKind::TypeError, msg));
            }
            return Ok(None);
        }
        if !self.is_callable(method) {
            let desc = self.describe_for_error(v);
            let msg = format!("{desc} is not iterable (its [Symbol.iterator] is not a function)");
            return Err(self.make_error(ErrorKind::TypeError, &msg));
        }
        Ok(Some(method))
    }

    /// Whether `v` is an array that iterates as the built-in `values()` would: its prototype is
    /// `Array.prototype`, it has no own `[Symbol.iterator]`, and `Array.prototype`'s is still
    /// the built-in one. Otherwise (a program replaced or deleted it) the array is iterated
    /// through whatever `[Symbol.iterator]` it has, as JavaScript does.
    pub(crate) fn array_iterates_natively(&self, v: Value) -> bool {
        static VALUES: std::sync::LazyLock<Option<crate::builtins::Native>> =
            std::sync::LazyLock::new(|| crate::builtins::Native::by_stable_name("Array.prototype.values"));
        let Value::Obj(id) = v else { return false };
        let array_proto = self.realm.array_proto;
        let iterator = self.realm.symbols.iterator;
        let obj = self.heap.obj(id);
        if !matches!(obj.kind, ObjKind::Array(_))
            || obj.proto != Some(array_proto)
            || (!obj.props.is_empty() && obj.props.find(iterator).is_some())
        {
            return false;
        }
        match self.heap.obj(array_proto).props.get(iterator).map(|slot| slot.value()) {
            Some(Value::Obj(f)) => matches!(
                self.heap.obj(f).kind,
                ObjKind::Function(crate::object::Callable::Native { native, .. }) if Some(native) == *VALUES
            ),
            _ => false,
        }
    }

    /// Checks the iterator `[Symbol.iterator]()` returned. It stays as it is in the register
    /// (`yield*` reads its `next`, `throw` and `return` like any object's); `next` is read at each
    /// step.
    pub(crate) fn wrap_user_iterator(&mut self, iterator: Value) -> Result<Value, Throw> {
        if !matches!(iterator, Value::Obj(_)) {
            let msg = "Result of the Symbol.iterator method is not an object";
            return Err(self.make_error(ErrorKind::TypeError, msg));
        }
        Ok(iterator)
    }

    /// Whether the iterator in a register is a program's object (not a native iterator or a
    /// generator).
    /// A native iterator other than a helper or a generator: closing it does nothing (it has no
    /// `return` to call).
    pub(crate) fn is_plain_native_iterator(&self, it: Value) -> bool {
        matches!(it, Value::ArrayIter(..))
            || matches!(it, Value::Obj(id) if matches!(
                &self.heap.obj(id).kind,
                ObjKind::Iterator(state) if !state.is_called()
            ))
    }

    pub(crate) fn is_user_iterator(&self, it: Value) -> bool {
        match it {
            Value::Obj(id) => match &self.heap.obj(id).kind {
                // Helpers are stepped through their `next()` like a program's iterator.
                ObjKind::Iterator(state) if state.is_called() => true,
                ObjKind::Iterator(_) | ObjKind::Generator(_) => false,
                _ => true,
            },
            _ => false,
        }
    }

    /// The program iterator in a register and its `next` method.
    fn as_user_iterator(&mut self, it: Value) -> Result<Option<(Value, Value)>, Throw> {
        if !self.is_user_iterator(it) {
            return Ok(None);
        }
        let next = self.get_named(it, "next")?;
        Ok(Some((it, next)))
    }

    /// Calls the program iterator's `next()`; the result goes to `ret`.
    pub(crate) fn user_iter_next(&mut self, it: Value, ret: ReturnTo) -> Result<(), Throw> {
        let Some((iterator, next)) = self.as_user_iterator(it)? else { return Ok(()) };
        if !self.is_callable(next) {
            return Err(self.not_a_function(next));
        }
        let pending = self.call_value(next, iterator, &[], ret)?;
        self.deliver(pending)
    }

    /// `(done, value)` of an iterator result a program's `next()` returned.
    /// `None` when reading `done` or `value` would run program code (a getter, a proxy's trap):
    /// a built-in then reads the result through `#internal.readIterResult` first
    /// ([`Vm::read_iter_result_then`]), whose plain copy comes back to the same step.
    pub(crate) fn user_iter_result(&mut self, result: Value) -> Result<Option<(bool, Value)>, Throw> {
        self.require_iter_result(result)?;
        for key in [self.realm.atoms.done, self.realm.atoms.value] {
            let runs_code = match self.get(result, Key::Atom(key))? {
                crate::props::Got::Value(_) => false,
                // A built-in getter runs in place (`get_value`); a program's needs the trampoline.
                crate::props::Got::Getter(callee) => !matches!(
                    callee,
                    Value::Obj(f) if matches!(
                        self.heap.obj(f).kind,
                        ObjKind::Function(crate::object::Callable::Native { .. })
                    )
                ),
                crate::props::Got::Proxy(..) => true,
            };
            if runs_code {
                return Ok(None);
            }
        }
        let done = self.get_value(result, Key::Atom(self.realm.atoms.done))?;
        if self.to_boolean(done) {
            return Ok(Some((true, Value::Undefined)));
        }
        let value = self.get_value(result, Key::Atom(self.realm.atoms.value))?;
        Ok(Some((false, value)))
    }

    /// Reads an iterator result whose `done` or `value` runs program code through
    /// `#internal.readIterResult`, then resumes `cont` with its plain `{ done, value }` copy.
    pub(crate) fn read_iter_result_then(
        &mut self,
        result: Value,
        cont: crate::builtins::Cont,
    ) -> Result<Step, Throw> {
        let reader = crate::builtins::internal_fn(self, "#internal.readIterResult", Vec::new())?;
        Ok(Step::Call { callee: reader, this: Value::Undefined, args: vec![result], cont })
    }

    /// An iterator result with a `done` or `value` getter, for [`Self::deliver_iter_step`]: read
    /// by `#internal.readIterResult`, whose plain copy comes back to the same step.
    fn read_through_getters(&mut self, result: Value, dst: u16, target: u32) -> Result<(), Throw> {
        let reader = crate::builtins::internal_fn(self, "#internal.readIterResult", Vec::new())?;
        let pending =
            self.call_value(reader, Value::Undefined, &[result], ReturnTo::IterStep { dst, target })?;
        self.deliver(pending)
    }

    /// An iterator result must be an object.
    fn require_iter_result(&mut self, result: Value) -> Result<(), Throw> {
        if !matches!(result, Value::Obj(_)) {
            let desc = self.describe_for_error(result);
            let msg = format!("Iterator result {desc} is not an object");
            return Err(self.make_error(ErrorKind::TypeError, &msg));
        }
        Ok(())
    }

    /// [`ReturnTo::IterStep`]: the next value into `dst` of the frame below, or a jump to
    /// `target` when the iterator is done.
    pub(crate) fn deliver_iter_step(&mut self, result: Value, dst: u16, target: u32) -> Result<(), Throw> {
        self.require_iter_result(result)?;
        let (done_atom, value_atom) = (self.realm.atoms.done, self.realm.atoms.value);
        let done = match self.get(result, Key::Atom(done_atom))? {
            Got::Getter(_) | Got::Proxy(..) => return self.read_through_getters(result, dst, target),
            Got::Value(done) => self.to_boolean(done),
        };
        let value = if done {
            Value::Undefined
        } else {
            match self.get(result, Key::Atom(value_atom))? {
                Got::Getter(_) | Got::Proxy(..) => return self.read_through_getters(result, dst, target),
                Got::Value(v) => v,
            }
        };
        if let Some(Frame::Js(f)) = self.frames.last_mut() {
            if done {
                f.pc = target;
            } else {
                let i = f.base as usize + dst as usize;
                if let Some(slot) = self.stack.get_mut(i) {
                    *slot = value;
                }
            }
        }
        Ok(())
    }

    /// `IterClose` of a wrapped iterator: calls its `return()` when it has one. Returns whether a
    /// frame was pushed.
    pub(crate) fn user_iter_close(&mut self, it: Value) -> Result<bool, Throw> {
        if !self.is_user_iterator(it) {
            return Ok(false);
        }
        let iterator = it;
        let method = self.get_named(iterator, "return")?;
        if method.is_nullish() {
            return Ok(false);
        }
        let frames = self.frames.len();
        let pending = self.call_value(method, iterator, &[], ReturnTo::Discard)?;
        self.deliver(pending)?;
        Ok(self.frames.len() > frames)
    }

    /// A step collecting every value of the iterable `v` (whose `[Symbol.iterator]` is
    /// `method`) and then finishing as `then` says.
    pub(crate) fn drain_user_iterable(&mut self, v: Value, method: Value, then: DrainThen) -> Step {
        let drain =
            IterDrain { iterator: Value::Undefined, next: Value::Undefined, then, reading: Reading::Next };
        Step::Call { callee: method, this: v, args: Vec::new(), cont: Cont::IterDrain(Box::new(drain)) }
    }

    /// A step collecting the remaining values of the wrapped iterator `it`.
    pub(crate) fn drain_user_iterator(&mut self, it: Value, into: DrainInto) -> Result<Step, Throw> {
        let Some((iterator, next)) = self.as_user_iterator(it)? else {
            return Ok(Step::Return(Value::Undefined));
        };
        if !self.is_callable(next) {
            return Err(self.not_a_function(next));
        }
        let drain = IterDrain { iterator, next, then: DrainThen::Into(into), reading: Reading::Next };
        Ok(Step::Call {
            callee: next,
            this: iterator,
            args: Vec::new(),
            cont: Cont::IterDrain(Box::new(drain)),
        })
    }

    /// Native iterables for a built-in that takes one: their values at once, or the step that
    /// collects a program-defined iterable (or a generator) and calls built-in `native` again with
    /// the array in place of argument `index`.
    pub(crate) fn collect_or_reenter(
        &mut self,
        native: &str,
        construct: bool,
        this: Value,
        args: &[Value],
        index: usize,
    ) -> Result<Result<Vec<Value>, Step>, Throw> {
        let v = args.get(index).copied().unwrap_or(Value::Undefined);
        match self.collect_iterable_or_reenter(native, construct, this, args, index)? {
            Some(collected) => Ok(collected),
            None => self.collect_iterable(v).map(Ok),
        }
    }

    /// [`Vm::collect_or_reenter`], or `None` when argument `index` is not iterable (not a native
    /// iterable, not a generator, no `[Symbol.iterator]`, which is read once): the caller reads it
    /// as an array-like (`new Uint8Array({ length: 2 })`, `TypedArray.from`).
    pub(crate) fn collect_iterable_or_reenter(
        &mut self,
        native: &str,
        construct: bool,
        this: Value,
        args: &[Value],
        index: usize,
    ) -> Result<Option<Result<Vec<Value>, Step>>, Throw> {
        let v = args.get(index).copied().unwrap_or(Value::Undefined);
        let generator = self.as_sync_generator(v)?;
        let method = if generator.is_some() { None } else { self.user_iterator_method(v)? };
        if generator.is_none() && method.is_none() {
            let native_iterable = match v {
                Value::Obj(id) => matches!(
                    self.heap.obj(id).kind,
                    ObjKind::Array(_) | ObjKind::Map { .. } | ObjKind::Iterator(_)
                ),
                Value::Str(_) => true,
                _ => false,
            };
            return if native_iterable { self.collect_iterable(v).map(|l| Some(Ok(l))) } else { Ok(None) };
        }
        let Some(native) = Native::by_stable_name(native) else {
            return Err(self.make_error(ErrorKind::TypeError, "unknown built-in"));
        };
        let Value::Obj(array) = self.new_array(Vec::new())? else { return Ok(Some(Ok(Vec::new()))) };
        let then = DrainThen::Reenter { native, construct, this, args: args.to_vec(), index, array };
        Ok(Some(Err(match (generator, method) {
            (Some(g), _) => {
                let drain = IterDrain {
                    iterator: Value::Obj(g),
                    next: Value::Undefined,
                    then,
                    reading: Reading::Next,
                };
                next_of_generator(g, drain)
            }
            (None, Some(method)) => self.drain_user_iterable(v, method, then),
            (None, None) => return Ok(Some(Ok(Vec::new()))),
        })))
    }
}

/// Resumes an [`IterDrain`] with what the last call returned: the iterator (first), then each
/// iterator result.
pub(crate) fn resume_drain(vm: &mut Vm, mut drain: IterDrain, result: Value) -> Result<Step, Throw> {
    if drain.iterator == Value::Undefined {
        let iterator = vm.wrap_user_iterator(result)?;
        if let Some(g) = vm.as_sync_generator(iterator)? {
            drain.iterator = Value::Obj(g);
            return Ok(next_of_generator(g, drain));
        }
        match vm.as_user_iterator(iterator)? {
            Some((iterator, next)) => {
                if !vm.is_callable(next) {
                    return Err(vm.not_a_function(next));
                }
                drain.iterator = iterator;
                drain.next = next;
            }
            None => {
                // A native iterator: its values at once.
                let array = Value::Obj(drain.array());
                while let Some(v) = vm.iter_next(iterator)? {
                    vm.charge(Work::Elements(1));
                    vm.array_push(array, v)?;
                }
                return finish(vm, drain.then);
            }
        }
    } else {
        let value = match read_iter_result(vm, &mut drain, result)? {
            ResultRead::Call(read, of) => return read.step(vm, of, Cont::IterDrain(Box::new(drain))),
            ResultRead::Done => return finish(vm, drain.then),
            ResultRead::Value(v) => v,
        };
        drain.reading = Reading::Next;
        vm.charge(Work::Elements(1));
        vm.array_push(Value::Obj(drain.array()), value)?;
        if let Some(g) = vm.as_generator(drain.iterator) {
            return Ok(next_of_generator(g, drain));
        }
    }
    let (callee, this) = (drain.next, drain.iterator);
    Ok(Step::Call { callee, this, args: Vec::new(), cont: Cont::IterDrain(Box::new(drain)) })
}

/// A property read that runs program code: a getter, or a proxy's `get`.
enum Deferred {
    Getter(Value),
    Proxy(ObjId, Key),
}

impl Deferred {
    fn of(got: Got) -> Result<Deferred, Value> {
        match got {
            Got::Value(v) => Err(v),
            Got::Getter(g) => Ok(Deferred::Getter(g)),
            Got::Proxy(p, key) => Ok(Deferred::Proxy(p, key)),
        }
    }

    /// The step making the read on `receiver`, its value going to `cont`.
    fn step(self, vm: &mut Vm, receiver: Value, cont: Cont) -> Result<Step, Throw> {
        match self {
            Deferred::Getter(callee) => Ok(Step::Call { callee, this: receiver, args: Vec::new(), cont }),
            Deferred::Proxy(p, key) => vm.proxy_get_call(p, key, receiver, cont),
        }
    }
}

/// Where reading an iterator result got to.
enum ResultRead {
    /// Make this read of the result object; its value comes back to the drain.
    Call(Deferred, Value),
    Done,
    Value(Value),
}

/// Reads `done`, then `value`, of the iterator result being drained, each through its getter
/// when it has one; `returned` is what the call the drain waited for returned.
fn read_iter_result(vm: &mut Vm, drain: &mut IterDrain, returned: Value) -> Result<ResultRead, Throw> {
    let (done_atom, value_atom) = (vm.realm.atoms.done, vm.realm.atoms.value);
    let result = match drain.reading {
        Reading::Value => {
            drain.reading = Reading::Next;
            return Ok(ResultRead::Value(returned));
        }
        Reading::Done(result) => {
            if vm.to_boolean(returned) {
                return Ok(ResultRead::Done);
            }
            result
        }
        Reading::Next => {
            vm.require_iter_result(returned)?;
            match Deferred::of(vm.get(returned, Key::Atom(done_atom))?) {
                Ok(read) => {
                    drain.reading = Reading::Done(returned);
                    return Ok(ResultRead::Call(read, returned));
                }
                Err(done) if vm.to_boolean(done) => return Ok(ResultRead::Done),
                Err(_) => returned,
            }
        }
    };
    match Deferred::of(vm.get(result, Key::Atom(value_atom))?) {
        Ok(read) => {
            drain.reading = Reading::Value;
            Ok(ResultRead::Call(read, result))
        }
        Err(v) => {
            drain.reading = Reading::Next;
            Ok(ResultRead::Value(v))
        }
    }
}

/// The step resuming generator `g` with `next()`, its result going to `drain`.
fn next_of_generator(g: ObjId, drain: IterDrain) -> Step {
    let cont = Some(Cont::IterDrain(Box::new(drain)));
    Step::Resume { generator: g, mode: crate::generator::ResumeMode::Next, value: Value::Undefined, cont }
}

fn finish(vm: &mut Vm, then: DrainThen) -> Result<Step, Throw> {
    match then {
        DrainThen::Into(DrainInto::Array(array)) => Ok(Step::Return(Value::Obj(array))),
        DrainThen::Into(DrainInto::ArrayFrom { array, map: Value::Undefined }) => {
            Ok(Step::Return(Value::Obj(array)))
        }
        DrainThen::Into(DrainInto::ArrayFrom { array, map }) => {
            crate::builtins::array_from(vm, Value::Undefined, &[Value::Obj(array), map], &[])
        }
        DrainThen::Reenter { native, construct, this, mut args, index, array } => {
            if let Some(slot) = args.get_mut(index) {
                *slot = Value::Obj(array);
            }
            if construct {
                return crate::builtins::construct_native(vm, native, &args);
            }
            crate::builtins::call_native(vm, native, this, &args, &[])
        }
    }
}

/// `#internal.readIterResult(result)`: a plain `{ done, value }` copy of an iterator result whose
/// `done` or `value` is a getter, read as the protocol does (`done` first; `value` only when not
/// done), each getter through the trampoline.
pub(crate) fn read_iter_result_native(
    vm: &mut Vm,
    _this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    let result = crate::builtins::arg(args, 0);
    match Deferred::of(vm.get(result, Key::Atom(vm.realm.atoms.done))?) {
        Ok(read) => read.step(vm, result, Cont::IterResult { done_of: result }),
        Err(done) => after_done(vm, result, done),
    }
}

/// Resumes [`read_iter_result_native`] with what a getter returned.
pub(crate) fn resume_iter_result(vm: &mut Vm, done_of: Value, returned: Value) -> Result<Step, Throw> {
    match done_of {
        Value::Undefined => plain_result(vm, false, returned),
        result => after_done(vm, result, returned),
    }
}

fn after_done(vm: &mut Vm, result: Value, done: Value) -> Result<Step, Throw> {
    if vm.to_boolean(done) {
        return plain_result(vm, true, Value::Undefined);
    }
    match Deferred::of(vm.get(result, Key::Atom(vm.realm.atoms.value))?) {
        Ok(read) => read.step(vm, result, Cont::IterResult { done_of: Value::Undefined }),
        Err(v) => plain_result(vm, false, v),
    }
}

fn plain_result(vm: &mut Vm, done: bool, value: Value) -> Result<Step, Throw> {
    Ok(Step::Return(vm.iter_result(value, done)?))
}
