//! Promise state, reactions and the job (microtask) queue's entries.

use serde::{Deserialize, Serialize};

use crate::value::{ObjId, Value};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Settled {
    Pending,
    Fulfilled(Value),
    Rejected(Value),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromiseState {
    pub settled: Settled,
    pub reactions: Vec<Reaction>,
    /// Whether a handler was ever attached (for unhandled-rejection warnings).
    pub handled: bool,
}

impl PromiseState {
    pub fn pending() -> Self {
        PromiseState { settled: Settled::Pending, reactions: Vec::new(), handled: false }
    }
}

/// What happens when a promise settles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reaction {
    /// `then(on_fulfilled, on_rejected)`; the handler's outcome settles `derived`.
    Then { on_fulfilled: Value, on_rejected: Value, derived: Option<ObjId> },
    /// `finally(f)`: calls `f()`, then passes the original outcome on to `derived`.
    Finally { on_finally: Value, derived: Option<ObjId> },
    /// Resume the suspended async function (a `Coroutine` object).
    Await { coroutine: ObjId },
    /// Settle `promise` the same way (adopting a promise's state).
    Forward { promise: ObjId },
    /// One element of `Promise.all`/`allSettled`/`any`: the combinator's state object and index.
    Combinator { kind: Combinator, state: ObjId, index: u32 },
    /// The program returned this value: serialize it and settle the program. Queued behind the
    /// microtasks already waiting, as a host awaiting the program in JavaScript would see it.
    FinishMain,
    /// A promise inside the program's result settled: look at the result again (it is finished
    /// once no promise inside it is pending; see `Vm::finish_main_settling`).
    FinishMainWith { value: Value },
    /// Resolve `promise` with a thenable (an object with a `then` method that is not a
    /// promise): call `then(resolve, reject)` on it with `promise`'s resolving functions.
    Thenable { promise: ObjId, then: Value },
    /// `then` whose derived promise is a capability of another constructor (a species): the
    /// handler's outcome goes to the capability's `resolve`/`reject` (`promise_spec.rs`).
    ThenCapability { on_fulfilled: Value, on_rejected: Value, resolve: Value, reject: Value },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Combinator {
    All,
    AllSettled,
    Any,
    Race,
}

/// A microtask.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// Run `reaction` for a promise that settled with `value`.
    Reaction { reaction: Reaction, value: Value, rejected: bool },
}
