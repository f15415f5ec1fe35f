//! Promise operations and the microtask queue: creating, resolving and rejecting promises,
//! attaching reactions, and running jobs, with the ordering ECMA-262 specifies (a reaction runs
//! as its own job; adopting a promise's state takes one extra job, as `NewPromiseResolveThenableJob`).

use crate::Vm;
use crate::call::Throw;
use crate::frame::{Frame, JsFrame, ReturnTo};
use crate::object::ObjKind;
use crate::promise::{Combinator, Job, PromiseState, Reaction, Settled};
use crate::value::{ObjId, Value};

impl Vm {
    pub(crate) fn new_promise(&mut self) -> Result<ObjId, Throw> {
        let proto = Some(self.realm.promise_proto);
        let p = self.alloc(ObjKind::Promise(Box::new(PromiseState::pending())), proto)?;
        self.pending_promises = self.pending_promises.saturating_add(1);
        Ok(p)
    }

    fn promise_state(&mut self, p: ObjId) -> Option<&mut PromiseState> {
        match &mut self.heap.obj_mut(p).kind {
            ObjKind::Promise(state) => Some(state),
            _ => None,
        }
    }

    /// How promise `p` stands, marking it handled: its outcome is being taken up (the boundary
    /// settles a promise it meets), so a rejection is not also an unhandled-rejection warning.
    pub(crate) fn take_settlement(&mut self, p: ObjId) -> Settled {
        match self.promise_state(p) {
            Some(state) => {
                state.handled = true;
                state.settled
            }
            None => Settled::Pending,
        }
    }

    pub(crate) fn is_promise(&self, v: Value) -> Option<ObjId> {
        match v {
            Value::Obj(id) if matches!(self.heap.obj(id).kind, ObjKind::Promise(_)) => Some(id),
            _ => None,
        }
    }

    /// Resolves `p` with `v`: adopts `v`'s state when it is a promise, else fulfills.
    pub(crate) fn resolve_promise(&mut self, p: ObjId, v: Value) -> Result<(), Throw> {
        if self.is_promise(v) == Some(p) {
            let e = self
                .make_error(codemode_bytecode::ErrorKind::TypeError, "Chaining cycle detected for promise");
            return self.reject_promise(p, e);
        }
        // A promise whose `then` is the intrinsic one, read from an unchanged prototype: its
        // state is adopted directly. Any other promise is a thenable like the rest.
        if let Some(inner) = self.is_promise(v)
            && crate::builtins::plain_promise(self, inner)
        {
            // NewPromiseResolveThenableJob: one job to call then, which adds the reaction.
            self.charge_memory(std::mem::size_of::<Job>())?;
            self.jobs.push_back(Job::Reaction {
                reaction: Reaction::Forward { promise: p },
                value: v,
                rejected: false,
            });
            return Ok(());
        }
        // A thenable object: its `then` decides (NewPromiseResolveThenableJob).
        if let Value::Obj(id) = v
            && matches!(self.heap.obj(id).kind, ObjKind::Plain | ObjKind::Function(_) | ObjKind::Promise(_))
        {
            let then = self.get_value(v, crate::props::Key::Atom(self.realm.atoms.then))?;
            if self.is_callable(then) {
                self.charge_memory(std::mem::size_of::<Job>())?;
                let reaction = Reaction::Thenable { promise: p, then };
                self.jobs.push_back(Job::Reaction { reaction, value: v, rejected: false });
                return Ok(());
            }
        }
        self.settle(p, Settled::Fulfilled(v));
        Ok(())
    }

    pub(crate) fn reject_promise(&mut self, p: ObjId, v: Value) -> Result<(), Throw> {
        self.settle(p, Settled::Rejected(v));
        Ok(())
    }

    fn settle(&mut self, p: ObjId, outcome: Settled) {
        let Some(state) = self.promise_state(p) else { return };
        if !matches!(state.settled, Settled::Pending) {
            return;
        }
        state.settled = outcome;
        if self.pending_promises != usize::MAX {
            self.pending_promises = self.pending_promises.saturating_sub(1);
        }
        let Some(state) = self.promise_state(p) else { return };
        let reactions = std::mem::take(&mut state.reactions);
        let handled = state.handled;
        let (value, rejected) = match outcome {
            Settled::Fulfilled(v) => (v, false),
            Settled::Rejected(v) => (v, true),
            Settled::Pending => return,
        };
        if rejected && !handled {
            self.rejected_unhandled.push(p);
        }
        for reaction in reactions {
            self.jobs.push_back(Job::Reaction { reaction, value, rejected });
        }
    }

    /// Adds a reaction to `p` (queues it at once when `p` already settled).
    pub(crate) fn add_reaction(&mut self, p: ObjId, reaction: Reaction) -> Result<(), Throw> {
        // A pending reaction becomes a queued job: charge the larger of the two.
        self.charge_memory(std::mem::size_of::<Job>())?;
        let Some(state) = self.promise_state(p) else { return Ok(()) };
        state.handled = true;
        match state.settled {
            Settled::Pending => state.reactions.push(reaction),
            Settled::Fulfilled(v) => {
                self.jobs.push_back(Job::Reaction { reaction, value: v, rejected: false })
            }
            Settled::Rejected(v) => {
                self.rejected_unhandled.retain(|q| *q != p);
                self.jobs.push_back(Job::Reaction { reaction, value: v, rejected: true })
            }
        }
        Ok(())
    }

    /// PromiseResolve: `v` itself when it is a promise, else a promise fulfilled with `v`.
    pub(crate) fn promise_resolve(&mut self, v: Value) -> Result<ObjId, Throw> {
        if let Some(p) = self.is_promise(v) {
            return Ok(p);
        }
        let p = self.new_promise()?;
        self.resolve_promise(p, v)?;
        Ok(p)
    }

    /// `p.then(on_fulfilled, on_rejected)`: returns the derived promise.
    pub(crate) fn promise_then(
        &mut self,
        p: ObjId,
        on_fulfilled: Value,
        on_rejected: Value,
    ) -> Result<ObjId, Throw> {
        let derived = self.new_promise()?;
        self.add_reaction(p, Reaction::Then { on_fulfilled, on_rejected, derived: Some(derived) })?;
        Ok(derived)
    }

    pub(crate) fn run_job(&mut self, job: Job) -> Result<(), Throw> {
        match job {
            Job::Reaction { reaction, value, rejected } => self.run_reaction(reaction, value, rejected),
        }
    }

    fn run_reaction(&mut self, reaction: Reaction, value: Value, rejected: bool) -> Result<(), Throw> {
        match reaction {
            Reaction::Then { on_fulfilled, on_rejected, derived } => {
                let handler = if rejected { on_rejected } else { on_fulfilled };
                let ret = derived.map_or(ReturnTo::Discard, ReturnTo::Settle);
                if self.is_callable(handler) {
                    let result = self.call_value(handler, Value::Undefined, &[value], ret);
                    match result.and_then(|p| self.deliver(p)) {
                        Ok(()) => Ok(()),
                        Err(e) => match derived {
                            Some(d) => self.reject_promise(d, e),
                            None => Ok(()),
                        },
                    }
                } else {
                    match derived {
                        Some(d) if rejected => self.reject_promise(d, value),
                        Some(d) => self.resolve_promise(d, value),
                        None => Ok(()),
                    }
                }
            }
            Reaction::Finally { on_finally, derived } => {
                if !self.is_callable(on_finally) {
                    return match derived {
                        Some(d) if rejected => self.reject_promise(d, value),
                        Some(d) => self.resolve_promise(d, value),
                        None => Ok(()),
                    };
                }
                // Call f(); when its result settles, pass the original outcome on.
                let Some(derived) = derived else {
                    let p = self.call_value(on_finally, Value::Undefined, &[], ReturnTo::Discard)?;
                    return self.deliver(p);
                };
                let gate = self.new_promise()?;
                let pass = self.alloc_native(
                    crate::builtins::Native::FINALLY_PASS,
                    vec![value, Value::Bool(rejected)],
                )?;
                self.add_reaction(
                    gate,
                    Reaction::Then {
                        on_fulfilled: pass,
                        on_rejected: Value::Undefined,
                        derived: Some(derived),
                    },
                )?;
                let result = self.call_value(on_finally, Value::Undefined, &[], ReturnTo::Settle(gate));
                match result.and_then(|p| self.deliver(p)) {
                    Ok(()) => Ok(()),
                    Err(e) => self.reject_promise(gate, e),
                }
            }
            Reaction::Await { coroutine } => self.resume_coroutine(coroutine, value, rejected),
            Reaction::Forward { promise } => {
                // First half (the thenable job): subscribe `promise` to `value`'s outcome.
                match self.is_promise(value) {
                    Some(inner) if !rejected => self.add_reaction(
                        inner,
                        Reaction::Combinator { kind: Combinator::Race, state: promise, index: u32::MAX },
                    ),
                    _ => {
                        if rejected {
                            self.reject_promise(promise, value)
                        } else {
                            self.resolve_promise(promise, value)
                        }
                    }
                }
            }
            Reaction::Combinator { kind, state, index } => {
                self.run_combinator(kind, state, index, value, rejected)
            }
            Reaction::FinishMain => self.finish_main_settling(value, rejected),
            // How the awaited promise ended is for the result's conversion to see.
            Reaction::FinishMainWith { value: result } => self.finish_main_settling(result, false),
            Reaction::ThenCapability { on_fulfilled, on_rejected, resolve, reject } => {
                let handler = if rejected { on_rejected } else { on_fulfilled };
                self.run_capability_reaction(handler, resolve, reject, value, rejected)
            }
            Reaction::Thenable { promise, then } => {
                let resolve = self.alloc_native(
                    crate::builtins::Native::PROMISE_RESOLVE_FUNCTION,
                    vec![Value::Obj(promise)],
                )?;
                let reject = self.alloc_native(
                    crate::builtins::Native::PROMISE_REJECT_FUNCTION,
                    vec![Value::Obj(promise)],
                )?;
                let result =
                    self.call_value(then, value, &[resolve, reject], ReturnTo::RejectOnThrow(promise));
                match result.and_then(|p| self.deliver(p)) {
                    Ok(()) => Ok(()),
                    Err(e) => self.reject_promise(promise, e),
                }
            }
        }
    }

    pub(crate) fn is_callable(&self, v: Value) -> bool {
        matches!(v, Value::Obj(id) if self.heap.obj(id).is_callable())
    }

    /// One input of `Promise.all` & co. settled. `state` is the combinator's state array
    /// `[resultPromise, valuesArray, remainingCount]`; for `Race` it is the result promise itself.
    fn run_combinator(
        &mut self,
        kind: Combinator,
        state: ObjId,
        index: u32,
        value: Value,
        rejected: bool,
    ) -> Result<(), Throw> {
        if kind == Combinator::Race {
            return if rejected {
                self.reject_promise(state, value)
            } else {
                self.resolve_promise(state, value)
            };
        }
        let items = self.array_items(Value::Obj(state));
        let (Some(Value::Obj(result)), Some(values), Some(Value::Number(remaining))) =
            (items.first().copied(), items.get(1).copied(), items.get(2).copied())
        else {
            return Ok(());
        };
        let slot_value = match kind {
            Combinator::All => {
                if rejected {
                    return self.reject_promise(result, value);
                }
                value
            }
            Combinator::Any => {
                if !rejected {
                    return self.resolve_promise(result, value);
                }
                value
            }
            Combinator::AllSettled => {
                let o = self.new_object()?;
                let status = self.intern_string(if rejected { "rejected" } else { "fulfilled" })?;
                self.define(o, crate::props::Key::Atom(self.realm.atoms.status), status)?;
                let key = if rejected { "reason" } else { "value" };
                let atom = self.heap.atoms.intern(key);
                self.define(o, crate::props::Key::Atom(atom), value)?;
                o
            }
            Combinator::Race => value,
        };
        self.define(values, crate::props::Key::Index(index), slot_value)?;
        let remaining = remaining - 1.0;
        self.define(Value::Obj(state), crate::props::Key::Index(2), Value::Number(remaining))?;
        if remaining <= 0.0 {
            if kind == Combinator::Any {
                let e = crate::builtins::aggregate_error(self, "All promises were rejected", values)?;
                return self.reject_promise(result, e);
            }
            return self.resolve_promise(result, values);
        }
        Ok(())
    }

    /// Starts the top-level script: its frame, and the promise its completion settles.
    pub(crate) fn start_main(&mut self) -> Result<(), Throw> {
        let main = self.new_promise()?;
        self.main_promise = main;
        let count = self.module.functions.first().map_or(0, |f| f.register_count as usize);
        self.grow_stack(count)?;
        self.frames.push(Frame::Js(JsFrame {
            func: 0,
            pc: 0,
            base: 0,
            this: Value::Undefined,
            closure: None,
            ret: ReturnTo::Discard,
            async_promise: Some(main),
        }));
        Ok(())
    }

    /// Promises rejected with no handler attached by the end of the run, in rejection order.
    pub(crate) fn unhandled_rejections(&self) -> Vec<Value> {
        self.rejected_unhandled
            .iter()
            .filter(|p| **p != self.main_promise)
            .filter_map(|p| match &self.heap.obj(*p).kind {
                ObjKind::Promise(state) if !state.handled => match state.settled {
                    Settled::Rejected(v) => Some(v),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }
}
