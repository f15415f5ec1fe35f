//! Generators: `function*` objects, `next`/`return`/`throw`, and the VM's own iteration over them.
//!
//! Calling a generator function makes its frame (arguments bound) and saves it at once, like an
//! async function suspended at `await` ([`SavedFrame`]), inside a generator object
//! ([`ObjKind::Generator`]). Resuming pushes the frame back on `Vm::frames` with
//! `ret = ReturnTo::Generator(gen)`; who resumed it waits as a [`GenCaller`] in the generator's
//! state. `Yield` saves the frame again and gives the value to that caller; a `return` (or the end
//! of the body) finishes the generator; a throw leaving the frame finishes it and goes on to the
//! caller's frames like any throw. Nothing here calls JavaScript from Rust: resuming only pushes a
//! frame, and built-ins that drive a generator (`[...gen]`, `Array.from(gen)`) wait in a
//! [`Cont::GenDrain`].
//!
//! `return(v)` resumes the frame at its `yield` with `mode` true: the compiled code after every
//! `yield` then returns `v` as a `return` statement there would (inline `finally` copies
//! included). `throw(e)` resumes it by throwing `e` at the `yield`.

use codemode_bytecode::{ErrorKind, Op, Reg, Target};
use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{Cont, NativeDef, Step, arg};
use crate::call::{Pending, Throw};
use crate::frame::{Frame, ReturnTo, SavedFrame};
use crate::meter::Work;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::{ObjId, Value};

/// A generator object's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GeneratorState {
    pub status: GenStatus,
    /// The suspended frame (`SuspendedStart`/`SuspendedYield`).
    pub saved: Option<Box<SavedFrame>>,
    /// Who resumed the running generator and waits for its next yield or its end.
    pub caller: Option<GenCaller>,
    /// An async generator (`async function*`): `next`/`return`/`throw` queue requests.
    #[serde(default)]
    pub is_async: bool,
    /// An async generator's requests, oldest first: the first is the one being served.
    #[serde(default)]
    pub queue: std::collections::VecDeque<crate::async_generator::AsyncRequest>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GenStatus {
    SuspendedStart,
    SuspendedYield,
    Running,
    Done,
}

/// Where a generator's next yielded (or returned) value goes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum GenCaller {
    /// `next`/`return`/`throw` called as methods: an iterator result `{ value, done }` goes here.
    Call(ReturnTo),
    /// The interpreter's `IterNext`: a yielded value goes into `dst` of the frame below; the end
    /// sends that frame to `target`.
    IterNext { dst: Reg, target: Target },
    /// `IterClose`: nothing waits for the value.
    Discard,
    /// An async generator: the first request of its queue gets the value (its promise settles).
    Async(ObjId),
}

/// How a generator is resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ResumeMode {
    Next,
    Throw,
    Return,
}

/// What a [`Cont::GenDrain`] does with the values it collected.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DrainInto {
    /// Append them to this array (`[...gen]`, spread arguments, `IterRest`).
    Array(ObjId),
    /// `Array.from(gen, map)`: then map them.
    ArrayFrom { array: ObjId, map: Value },
}

/// A built-in collecting every value of a generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenDrain {
    pub generator: ObjId,
    pub into: DrainInto,
}

impl GenDrain {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(Value::Obj(self.generator));
        match self.into {
            DrainInto::Array(a) => out.push(Value::Obj(a)),
            DrainInto::ArrayFrom { array, map } => {
                out.push(Value::Obj(array));
                out.push(map);
            }
        }
    }
}

impl GeneratorState {
    /// Every value the state holds (GC roots).
    pub fn trace(&self, out: &mut Vec<Value>) {
        for r in &self.queue {
            out.push(r.value);
            out.push(Value::Obj(r.promise));
        }
        if let Some(GenCaller::Async(g)) = self.caller {
            out.push(Value::Obj(g));
        }
        if let Some(saved) = &self.saved {
            out.extend(saved.registers.iter().copied());
            out.push(saved.frame.this);
            if let Some(c) = saved.frame.closure {
                out.push(Value::Obj(c));
            }
        }
    }
}

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Generator.prototype", "next", 1, next),
    NativeDef::new("Generator.prototype", "return", 1, return_),
    NativeDef::new("Generator.prototype", "throw", 1, throw),
];

fn next(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    resume_step(vm, this, ResumeMode::Next, arg(args, 0), "Generator.prototype.next")
}

fn return_(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    resume_step(vm, this, ResumeMode::Return, arg(args, 0), "Generator.prototype.return")
}

fn throw(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    resume_step(vm, this, ResumeMode::Throw, arg(args, 0), "Generator.prototype.throw")
}

pub(crate) fn resume_step(
    vm: &mut Vm,
    this: Value,
    mode: ResumeMode,
    value: Value,
    name: &str,
) -> Result<Step, Throw> {
    let is_async = name.starts_with("Async");
    match vm.as_generator(this) {
        Some(generator) if vm.is_async_generator(generator) == is_async => {
            Ok(Step::Resume { generator, mode, value, cont: None })
        }
        _ => {
            let msg = format!("{name} called on an incompatible receiver");
            Err(vm.make_error(ErrorKind::TypeError, &msg))
        }
    }
}

/// Resumes a [`Cont::GenDrain`] with the iterator result of one `next()`.
pub(crate) fn resume_drain(vm: &mut Vm, drain: GenDrain, result: Value) -> Result<Step, Throw> {
    let (done, value) = vm.read_iter_result(result);
    if !done {
        let (DrainInto::Array(array) | DrainInto::ArrayFrom { array, .. }) = drain.into;
        vm.charge(Work::Elements(1));
        vm.array_push(Value::Obj(array), value)?;
        let generator = drain.generator;
        return Ok(Step::Resume {
            generator,
            mode: ResumeMode::Next,
            value: Value::Undefined,
            cont: Some(Cont::GenDrain(Box::new(drain))),
        });
    }
    match drain.into {
        DrainInto::Array(array) => Ok(Step::Return(Value::Obj(array))),
        DrainInto::ArrayFrom { array, map: Value::Undefined } => Ok(Step::Return(Value::Obj(array))),
        DrainInto::ArrayFrom { array, map } => {
            crate::builtins::array_from(vm, Value::Undefined, &[Value::Obj(array), map], &[])
        }
    }
}

impl Vm {
    /// The generator object `v` is, if it is one.
    pub(crate) fn as_generator(&self, v: Value) -> Option<ObjId> {
        match v {
            Value::Obj(id) if matches!(self.heap.obj(id).kind, ObjKind::Generator(_)) => Some(id),
            _ => None,
        }
    }

    /// Whether `generator` is an async generator.
    pub(crate) fn is_async_generator(&self, generator: ObjId) -> bool {
        matches!(&self.heap.obj(generator).kind, ObjKind::Generator(s) if s.is_async)
    }

    /// The generator object `v` is, if it is a synchronous one; an async generator is a
    /// `TypeError` here (it can only be iterated by `for await`).
    pub(crate) fn as_sync_generator(&mut self, v: Value) -> Result<Option<ObjId>, Throw> {
        match self.as_generator(v) {
            Some(g) if self.is_async_generator(g) => {
                let msg = "an async generator is not iterable; use for await (const x of gen)";
                Err(self.make_error(ErrorKind::TypeError, msg))
            }
            other => Ok(other),
        }
    }

    /// A step collecting every remaining value of `generator` into `into`.
    pub(crate) fn drain_generator(&mut self, generator: ObjId, into: DrainInto) -> Step {
        let cont = Some(Cont::GenDrain(Box::new(GenDrain { generator, into })));
        Step::Resume { generator, mode: ResumeMode::Next, value: Value::Undefined, cont }
    }

    /// `(done, value)` of an iterator result a generator produced (plain data properties).
    fn read_iter_result(&mut self, result: Value) -> (bool, Value) {
        let Value::Obj(id) = result else { return (true, Value::Undefined) };
        let (value_atom, done_atom) = (self.realm.atoms.value, self.realm.atoms.done);
        let props = &self.heap.obj(id).props;
        let done = props.get(done_atom).map(|s| s.value());
        let value = props.get(value_atom).map_or(Value::Undefined, |s| s.value());
        (done.is_none_or(|d| d == Value::Bool(true)), value)
    }

    /// `GeneratorStart`: the top frame (a generator function whose parameters are bound)
    /// becomes a suspended generator; the generator object goes to the frame's caller. Its
    /// prototype is the function's `prototype` (which inherits `next`, `return`, `throw`).
    pub(crate) fn start_generator(&mut self) -> Result<(), Throw> {
        let Some(Frame::Js(f)) = self.frames.last() else { return Ok(()) };
        let is_async = self.module.functions.get(f.func as usize).is_some_and(|c| c.is_async);
        let fallback = if is_async { self.realm.async_generator_proto } else { self.realm.generator_proto };
        let proto = match f.closure {
            Some(c) => match self.get_value(Value::Obj(c), Key::Atom(self.realm.atoms.prototype))? {
                Value::Obj(p) => p,
                _ => fallback,
            },
            None => fallback,
        };
        let Some(Frame::Js(mut frame)) = self.frames.pop() else { return Ok(()) };
        let base = frame.base as usize;
        let registers = self.stack.get(base..).map(<[Value]>::to_vec).unwrap_or_default();
        self.stack.truncate(base);
        let caller = frame.ret;
        frame.ret = ReturnTo::Discard;
        let saved = Some(Box::new(SavedFrame { frame, registers, await_dst: 0 }));
        let state = GeneratorState {
            status: GenStatus::SuspendedStart,
            saved,
            caller: None,
            is_async,
            queue: Default::default(),
        };
        let generator = self.alloc(ObjKind::Generator(Box::new(state)), Some(proto))?;
        self.deliver(Some((caller, Value::Obj(generator))))
    }

    fn generator_state(&mut self, generator: ObjId) -> Option<&mut GeneratorState> {
        match &mut self.heap.obj_mut(generator).kind {
            ObjKind::Generator(state) => Some(state),
            _ => None,
        }
    }

    /// Resumes `generator` with `mode` and `value`; `caller` receives what it yields or returns.
    /// A suspended generator's frame is pushed (and runs next); a finished one answers at once.
    pub(crate) fn resume_generator(
        &mut self,
        generator: ObjId,
        mode: ResumeMode,
        value: Value,
        caller: GenCaller,
    ) -> Result<Pending, Throw> {
        let Some(state) = self.generator_state(generator) else { return Ok(None) };
        let status = state.status;
        if status == GenStatus::Running {
            return Err(self.make_error(ErrorKind::TypeError, "Generator is already running"));
        }
        if status == GenStatus::Done || (status == GenStatus::SuspendedStart && mode != ResumeMode::Next) {
            state.status = GenStatus::Done;
            state.saved = None;
            return match mode {
                ResumeMode::Throw => Err(value),
                ResumeMode::Next => self.generator_result(caller, Value::Undefined, true),
                ResumeMode::Return => self.generator_result(caller, value, true),
            };
        }
        self.check_call_depth()?;
        let Some(state) = self.generator_state(generator) else { return Ok(None) };
        let Some(saved) = state.saved.take() else { return Ok(None) };
        state.status = GenStatus::Running;
        state.caller = Some(caller);
        let SavedFrame { mut frame, registers, .. } = *saved;
        let base = self.grow_stack(registers.len())?;
        frame.base = base as u32;
        frame.ret = ReturnTo::Generator(generator);
        if let Some(window) = self.stack.get_mut(base..) {
            window.copy_from_slice(&registers);
        }
        let at = frame.pc.checked_sub(1);
        let func = frame.func;
        self.frames.push(Frame::Js(frame));
        if status == GenStatus::SuspendedStart {
            return Ok(None);
        }
        // Resumed at a `yield`: its registers receive the value and the mode.
        let module = self.module.clone();
        let op = at.and_then(|at| module.functions.get(func as usize)?.code.get(at as usize).copied());
        if let Some(Op::Yield { dst, mode: mode_reg, .. }) = op {
            if let Some(slot) = self.stack.get_mut(base + dst as usize) {
                *slot = value;
            }
            if let Some(slot) = self.stack.get_mut(base + mode_reg as usize) {
                *slot = Value::Bool(mode == ResumeMode::Return);
            }
        }
        if mode == ResumeMode::Throw {
            // Thrown at the `yield`: the generator's own handlers see it first.
            return Err(value);
        }
        Ok(None)
    }

    /// Gives `value` to `caller`: an iterator result, a register, or nothing.
    fn generator_result(&mut self, caller: GenCaller, value: Value, done: bool) -> Result<Pending, Throw> {
        match caller {
            GenCaller::Call(ret) => {
                let result = self.iter_result(value, done)?;
                Ok(Some((ret, result)))
            }
            GenCaller::IterNext { dst, target } => {
                if !done {
                    return Ok(Some((ReturnTo::Reg(dst), value)));
                }
                if let Some(Frame::Js(f)) = self.frames.last_mut() {
                    f.pc = target;
                }
                Ok(None)
            }
            GenCaller::Discard => Ok(None),
            GenCaller::Async(generator) => {
                self.async_generator_settle(generator, Ok(value), done)?;
                Ok(None)
            }
        }
    }

    /// `{ value, done }`.
    pub(crate) fn iter_result(&mut self, value: Value, done: bool) -> Result<Value, Throw> {
        let result = self.new_object()?;
        let (value_atom, done_atom) = (self.realm.atoms.value, self.realm.atoms.done);
        self.define(result, Key::Atom(value_atom), value)?;
        self.define(result, Key::Atom(done_atom), Value::Bool(done))?;
        Ok(result)
    }

    /// `Yield`: the top frame (a running generator) is saved; `value` goes to its caller.
    pub(crate) fn generator_yield(&mut self, value: Value) -> Result<(), Throw> {
        let Some(Frame::Js(f)) = self.frames.last() else { return Ok(()) };
        let ReturnTo::Generator(generator) = f.ret else {
            return Err(self.make_error(ErrorKind::SyntaxError, "yield outside a running generator"));
        };
        let Some(Frame::Js(frame)) = self.frames.pop() else { return Ok(()) };
        let base = frame.base as usize;
        let registers = self.stack.get(base..).map(<[Value]>::to_vec).unwrap_or_default();
        self.stack.truncate(base);
        let Some(state) = self.generator_state(generator) else { return Ok(()) };
        state.status = GenStatus::SuspendedYield;
        state.saved = Some(Box::new(SavedFrame { frame, registers, await_dst: 0 }));
        let caller = state.caller.take().unwrap_or(GenCaller::Discard);
        let pending = self.generator_result(caller, value, false)?;
        self.deliver(pending)
    }

    /// The generator's frame returned `value`: it is done.
    pub(crate) fn generator_returned(&mut self, generator: ObjId, value: Value) -> Result<(), Throw> {
        let caller = self.finish_generator(generator);
        let pending = self.generator_result(caller, value, true)?;
        self.deliver(pending)
    }

    /// Marks the generator done (its frame returned or threw) and hands back who waited for it.
    pub(crate) fn finish_generator(&mut self, generator: ObjId) -> GenCaller {
        match self.generator_state(generator) {
            Some(state) => {
                state.status = GenStatus::Done;
                state.saved = None;
                state.caller.take().unwrap_or(GenCaller::Discard)
            }
            None => GenCaller::Discard,
        }
    }

    /// `IterNext` over a generator: resumes it; the value arrives in `dst`, or the end jumps to
    /// `target`.
    pub(crate) fn generator_iter_next(
        &mut self,
        generator: ObjId,
        dst: Reg,
        target: Target,
    ) -> Result<(), Throw> {
        self.charge(Work::Call { args: 0 });
        let caller = GenCaller::IterNext { dst, target };
        let pending = self.resume_generator(generator, ResumeMode::Next, Value::Undefined, caller)?;
        self.deliver(pending)
    }

    /// `IterClose`: a suspended generator runs its `return()` (its `finally` blocks); anything
    /// else is left alone. Returns whether a frame was pushed.
    pub(crate) fn iter_close(&mut self, iter: Value) -> Result<bool, Throw> {
        let Some(generator) = self.as_generator(iter) else { return Ok(false) };
        if self.is_async_generator(generator) {
            let frames = self.frames.len();
            self.async_generator_enqueue(generator, ResumeMode::Return, Value::Undefined, ReturnTo::Discard)?;
            return Ok(self.frames.len() > frames);
        }
        let status = self.generator_state(generator).map(|s| s.status);
        match status {
            Some(GenStatus::SuspendedYield) => {
                self.charge(Work::Call { args: 0 });
                let pending = self.resume_generator(
                    generator,
                    ResumeMode::Return,
                    Value::Undefined,
                    GenCaller::Discard,
                )?;
                self.deliver(pending)?;
                Ok(true)
            }
            Some(GenStatus::SuspendedStart) => {
                self.finish_generator(generator);
                Ok(false)
            }
            _ => Ok(false),
        }
    }
}
