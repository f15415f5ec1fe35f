//! Async generators (`async function*`): generators whose `next`/`return`/`throw` return promises.
//!
//! The frame is a generator's ([`crate::generator`]) that may also `await`: an `await` suspends it
//! like an async function's, keeping `ret = ReturnTo::Generator`, so it resumes as the same
//! running generator. Requests queue in the generator's state ([`AsyncRequest`]); the first one
//! is served: a `yield` (of an awaited value) fulfils its promise with `{ value, done: false }`,
//! the end with `{ value, done: true }`, a throw leaving the body rejects it. Then the next request
//! is served: at once when the generator is done, by resuming the frame otherwise.

use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{NativeDef, Step, arg};
use crate::call::Throw;
use crate::frame::ReturnTo;
use crate::generator::{GenCaller, GenStatus, ResumeMode, resume_step};
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

/// One `next`/`return`/`throw` call waiting for an async generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AsyncRequest {
    pub mode: ResumeMode,
    pub value: Value,
    /// The promise the call returned.
    pub promise: ObjId,
}

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("AsyncGenerator.prototype", "next", 1, next),
    NativeDef::new("AsyncGenerator.prototype", "return", 1, return_),
    NativeDef::new("AsyncGenerator.prototype", "throw", 1, throw),
];

fn next(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    resume_step(vm, this, ResumeMode::Next, arg(args, 0), "AsyncGenerator.prototype.next")
}

fn return_(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    resume_step(vm, this, ResumeMode::Return, arg(args, 0), "AsyncGenerator.prototype.return")
}

fn throw(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    resume_step(vm, this, ResumeMode::Throw, arg(args, 0), "AsyncGenerator.prototype.throw")
}

impl Vm {
    fn async_queue(&mut self, generator: ObjId) -> Option<&mut crate::generator::GeneratorState> {
        match &mut self.heap.obj_mut(generator).kind {
            ObjKind::Generator(state) if state.is_async => Some(state),
            _ => None,
        }
    }

    /// `next`/`return`/`throw` on an async generator: a new promise goes to `ret` at once; the
    /// request is served now when the generator is not running, else when its turn comes.
    pub(crate) fn async_generator_enqueue(
        &mut self,
        generator: ObjId,
        mode: ResumeMode,
        value: Value,
        ret: ReturnTo,
    ) -> Result<(), Throw> {
        let promise = self.new_promise()?;
        let Some(state) = self.async_queue(generator) else { return Ok(()) };
        state.queue.push_back(AsyncRequest { mode, value, promise });
        self.deliver(Some((ret, Value::Obj(promise))))?;
        self.async_generator_resume_next(generator)
    }

    /// Serves the first queued request unless the generator is running: a finished (or not yet
    /// started and returned/thrown into) generator answers at once; a suspended one is resumed.
    pub(crate) fn async_generator_resume_next(&mut self, generator: ObjId) -> Result<(), Throw> {
        // Every request answered here settles one promise; the queue is bounded by memory.
        loop {
            let Some(state) = self.async_queue(generator) else { return Ok(()) };
            if state.status == GenStatus::Running {
                return Ok(());
            }
            let Some(front) = state.queue.front().cloned() else { return Ok(()) };
            let finished = state.status == GenStatus::Done
                || (state.status == GenStatus::SuspendedStart && front.mode != ResumeMode::Next);
            if !finished {
                let caller = GenCaller::Async(generator);
                let pending = self.resume_generator(generator, front.mode, front.value, caller)?;
                return self.deliver(pending);
            }
            state.status = GenStatus::Done;
            state.saved = None;
            state.queue.pop_front();
            self.charge(crate::meter::Work::Units(1));
            match front.mode {
                ResumeMode::Next => {
                    let result = self.iter_result(Value::Undefined, true)?;
                    self.resolve_promise(front.promise, result)?;
                }
                ResumeMode::Return => {
                    let result = self.iter_result(front.value, true)?;
                    self.resolve_promise(front.promise, result)?;
                }
                ResumeMode::Throw => self.reject_promise(front.promise, front.value)?,
            }
        }
    }

    /// The served request's outcome: `{ value, done }` or a rejection; then the next request.
    pub(crate) fn async_generator_settle(
        &mut self,
        generator: ObjId,
        outcome: Result<Value, Throw>,
        done: bool,
    ) -> Result<(), Throw> {
        let Some(state) = self.async_queue(generator) else { return Ok(()) };
        if let Some(front) = state.queue.pop_front() {
            match outcome {
                Ok(value) => {
                    let result = self.iter_result(value, done)?;
                    self.resolve_promise(front.promise, result)?;
                }
                Err(exc) => self.reject_promise(front.promise, exc)?,
            }
        }
        self.async_generator_resume_next(generator)
    }

    /// A throw left an async generator's frame: it is done and the served request is rejected
    /// (nothing below waits for the frame). `false` for a synchronous generator.
    pub(crate) fn async_generator_threw(&mut self, generator: ObjId, exc: Throw) -> Result<bool, Throw> {
        if !self.is_async_generator(generator) {
            return Ok(false);
        }
        self.finish_generator(generator);
        self.async_generator_settle(generator, Err(exc), true)?;
        Ok(true)
    }
}
