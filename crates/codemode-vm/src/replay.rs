//! Built-ins that read through getters and proxies, by replay.
//!
//! Built-ins never call JavaScript from Rust: a call is a `Step::Call` with a continuation.
//! Writing a continuation for every read a built-in makes (`Object.defineProperty` reads six
//! descriptor fields, `Array.prototype.join.call(arrayLike)` reads `length` and every index)
//! would be a state machine per built-in. Instead, while a built-in runs from
//! [`crate::builtins::call_native`] or `construct_native`, a read that meets a getter (or a
//! proxy's `get` trap) is answered from a log of the calls this invocation already made; when
//! the log has no answer, the read records the call it needs and fails, the built-in is
//! abandoned, the call runs through the trampoline (`Cont::Replay`), its result joins the log,
//! and the built-in runs again from the start with the longer log. Each run gets one answer
//! further, so a built-in that reads `n` getters runs `n + 1` times.
//!
//! **Replay is sound for reads that come before a built-in's first visible effect**, which is
//! how the specification orders nearly every built-in (arguments and descriptors are read,
//! then the object is changed). Answers are matched by the call they answer (callee, `this`,
//! arguments), in order, never by position alone: a getter that replaces itself with a data
//! property (a lazy getter) is read as data on the next run, and its logged answer is skipped,
//! not handed to the next getter.
//!
//! Outside a built-in's first run (in a continuation, or in the interpreter) there is no log:
//! `get_value` keeps its old answer there.
//!
//! The log is bounded ([`MAX_REPLAYED_CALLS`]); every run is charged as a call plus the log's
//! length, so replay can never hide work from the fuel meter.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::builtins::{Cont, Native, Step};
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

/// Calls one built-in invocation may replay through; past it, a `RangeError` (each call re-runs
/// the built-in, so the work grows with the square of this).
pub const MAX_REPLAYED_CALLS: usize = 4096;

/// A call a built-in's read needs: a getter or conversion method, or a proxy's trap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ReplayedOp {
    Call {
        callee: Value,
        this: Value,
        args: Vec<Value>,
    },
    /// A proxy's trap, run as `Reflect.get(proxy, key, receiver)` or `Reflect.has(proxy, key)`.
    Reflect {
        method: ReflectMethod,
        args: Vec<Value>,
    },
}

/// The `Reflect` functions a replayed read may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReflectMethod {
    Get,
    Has,
}

impl ReflectMethod {
    fn name(self) -> &'static str {
        match self {
            ReflectMethod::Get => "Reflect.get",
            ReflectMethod::Has => "Reflect.has",
        }
    }
}

impl ReplayedOp {
    fn trace(&self, out: &mut Vec<Value>) {
        match self {
            ReplayedOp::Call { callee, this, args } => {
                out.extend([*callee, *this]);
                out.extend(args.iter().copied());
            }
            ReplayedOp::Reflect { args, .. } => out.extend(args.iter().copied()),
        }
    }
}

/// A call made and its result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Answered {
    op: ReplayedOp,
    result: Value,
}

/// The log of one running built-in invocation (transient: it exists only while the built-in's
/// Rust code runs, so it is neither saved nor a GC root). Made only when needed: a first run
/// that meets no getter never has one.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReplayLog {
    /// The [`Vm::native_depth`] of the run it belongs to.
    depth: u32,
    answers: Vec<Answered>,
    /// Answers before this one are used (or skipped) by this run.
    cursor: usize,
    /// The first call this run needed and the log could not answer.
    request: Option<ReplayedOp>,
}

/// What runs again once the call is answered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Origin {
    /// A built-in's code, from the start.
    Native { native: Native, construct: bool, this: Value, args: Vec<Value>, data: Vec<Value> },
    /// The read of an array method's next element from an array-like (`array_loop.rs`): the
    /// callback's previous result is already applied, only the reads run again.
    LoopNext(Box<crate::builtins::ArrayLoop>),
}

/// A built-in waiting for a call its reads need, to run again with the answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replayed {
    origin: Origin,
    answers: Vec<Answered>,
    pending: ReplayedOp,
}

impl Replayed {
    pub fn trace(&self, out: &mut Vec<Value>) {
        match &self.origin {
            Origin::Native { this, args, data, .. } => {
                out.push(*this);
                out.extend(args.iter().copied());
                out.extend(data.iter().copied());
            }
            Origin::LoopNext(state) => state.trace(out),
        }
        for answered in &self.answers {
            answered.op.trace(out);
            out.push(answered.result);
        }
        self.pending.trace(out);
    }
}

/// How a built-in is entered.
#[derive(Clone, Copy)]
pub(crate) struct Entry<'a> {
    pub(crate) native: Native,
    pub(crate) construct: bool,
    pub(crate) this: Value,
    pub(crate) args: &'a [Value],
    pub(crate) data: &'a [Value],
}

impl Entry<'_> {
    fn run(self, vm: &mut Vm) -> Result<Step, Throw> {
        if self.construct {
            crate::builtins::construct_direct(vm, self.native, self.args)
        } else {
            crate::builtins::call_direct(vm, self.native, self.this, self.args, self.data)
        }
    }

    fn origin(self) -> Origin {
        Origin::Native {
            native: self.native,
            construct: self.construct,
            this: self.this,
            args: self.args.to_vec(),
            data: self.data.to_vec(),
        }
    }
}

impl Vm {
    /// Whether a built-in's first run is in progress (reads may replay).
    pub(crate) fn replaying(&self) -> bool {
        self.native_depth > 0
    }

    /// The result of `op` for the running built-in: from the log, or (recorded as the request)
    /// an error that abandons this run. Only call when [`Vm::replaying`].
    pub(crate) fn replayed(&mut self, op: ReplayedOp) -> Result<Value, Throw> {
        if self.native_depth == 0 {
            return Err(
                self.make_error(ErrorKind::TypeError, "a built-in read a getter outside its first run")
            );
        }
        if self.replays.last().is_none_or(|log| log.depth != self.native_depth) {
            self.replays.push(ReplayLog { depth: self.native_depth, ..ReplayLog::default() });
        }
        let Some(log) = self.replays.last() else { return Err(Value::Undefined) };
        let cursor = log.cursor;
        let found =
            log.answers.get(cursor..).and_then(|rest| rest.iter().position(|a| self.same_op(&a.op, &op)));
        let Some(log) = self.replays.last_mut() else { return Err(Value::Undefined) };
        if let Some(offset) = found {
            let at = cursor + offset;
            log.cursor = at + 1;
            return Ok(log.answers[at].result);
        }
        if log.request.is_none() {
            log.request = Some(op);
        }
        // Abandons the run; `run_native` sees the request, whatever the built-in made of this.
        Err(Value::Undefined)
    }
}

impl Vm {
    /// Whether two calls are the same call: same callee, `this` and arguments, strings compared
    /// by content (a run makes its property keys anew).
    fn same_op(&self, a: &ReplayedOp, b: &ReplayedOp) -> bool {
        let same = |x: Value, y: Value| self.same_value_zero(x, y);
        match (a, b) {
            (
                ReplayedOp::Call { callee: c1, this: t1, args: a1 },
                ReplayedOp::Call { callee: c2, this: t2, args: a2 },
            ) => {
                same(*c1, *c2)
                    && same(*t1, *t2)
                    && a1.len() == a2.len()
                    && a1.iter().zip(a2).all(|(x, y)| same(*x, *y))
            }
            (ReplayedOp::Reflect { method: m1, args: a1 }, ReplayedOp::Reflect { method: m2, args: a2 }) => {
                m1 == m2 && a1.len() == a2.len() && a1.iter().zip(a2).all(|(x, y)| same(*x, *y))
            }
            _ => false,
        }
    }
}

/// Runs a built-in with an empty log (the one way built-ins are entered from a call).
#[inline]
pub(crate) fn run_native(vm: &mut Vm, entry: Entry<'_>) -> Result<Step, Throw> {
    // The hot path (every built-in call): a counter around the call, nothing moved.
    vm.native_depth += 1;
    let outcome = entry.run(vm);
    let depth = vm.native_depth;
    vm.native_depth -= 1;
    if vm.replays.last().is_none_or(|log| log.depth != depth) {
        return outcome;
    }
    let log = vm.replays.pop().unwrap_or_default();
    match log.request {
        None => outcome,
        Some(pending) => ask(vm, entry.origin(), log.answers, pending),
    }
}

/// Runs the reads of an array method's next element with an empty log (`array_loop.rs`).
pub(crate) fn run_loop_next(vm: &mut Vm, state: Box<crate::builtins::ArrayLoop>) -> Result<Step, Throw> {
    let (outcome, log) =
        logged(vm, Vec::new(), |vm| crate::builtins::array_loop::next_call(vm, state.clone()));
    match log.request {
        None => outcome,
        Some(pending) => ask(vm, Origin::LoopNext(state), log.answers, pending),
    }
}

/// Runs `run` with a log holding `answers` (made on first use when there are none); gives its
/// outcome and the log.
#[inline]
fn logged(
    vm: &mut Vm,
    answers: Vec<Answered>,
    run: impl FnOnce(&mut Vm) -> Result<Step, Throw>,
) -> (Result<Step, Throw>, ReplayLog) {
    vm.native_depth += 1;
    let depth = vm.native_depth;
    if !answers.is_empty() {
        vm.replays.push(ReplayLog { depth, answers, cursor: 0, request: None });
    }
    let outcome = run(vm);
    vm.native_depth -= 1;
    let log = match vm.replays.last() {
        Some(log) if log.depth == depth => vm.replays.pop().unwrap_or_default(),
        _ => ReplayLog::default(),
    };
    (outcome, log)
}

/// The call `pending` through the trampoline, `origin` to run again with its answer.
fn ask(vm: &mut Vm, origin: Origin, answers: Vec<Answered>, pending: ReplayedOp) -> Result<Step, Throw> {
    if answers.len() >= MAX_REPLAYED_CALLS {
        let msg = format!(
            "a built-in read more than {MAX_REPLAYED_CALLS} getters or proxy traps in one call (each one runs it again)"
        );
        return Err(vm.make_error(ErrorKind::RangeError, &msg));
    }
    let (callee, this, args) = match &pending {
        ReplayedOp::Call { callee, this, args } => (*callee, *this, args.clone()),
        ReplayedOp::Reflect { method, args } => {
            (vm.builtin_fn(method.name())?, Value::Undefined, args.clone())
        }
    };
    let replayed = Replayed { origin, answers, pending };
    Ok(Step::Call { callee, this, args, cont: Cont::Replay(Box::new(replayed)) })
}

/// [`Cont::Replay`]: the call answered; the built-in (or the read) runs again with the answer
/// logged.
pub(crate) fn resume(vm: &mut Vm, replayed: Replayed, result: Value) -> Result<Step, Throw> {
    let Replayed { origin, mut answers, pending } = replayed;
    answers.push(Answered { op: pending, result });
    vm.charge(Work::Call { args: 0 });
    vm.charge(Work::Elements(answers.len()));
    let (outcome, log) = match &origin {
        Origin::Native { native, construct, this, args, data } => {
            let entry = Entry { native: *native, construct: *construct, this: *this, args, data };
            vm.charge(Work::Elements(args.len()));
            logged(vm, answers, |vm| entry.run(vm))
        }
        Origin::LoopNext(state) => {
            logged(vm, answers, |vm| crate::builtins::array_loop::next_call(vm, state.clone()))
        }
    };
    match log.request {
        None => outcome,
        Some(pending) => ask(vm, origin, log.answers, pending),
    }
}

impl Vm {
    /// HasProperty for a built-in's reads: on a proxy (the object or one on its chain), its
    /// `has` trap runs by replay; outside a built-in's run a proxy answers `false`.
    pub(crate) fn has_property_replayed(&mut self, o: Value, key: crate::props::Key) -> Result<bool, Throw> {
        match self.has_found(o, key) {
            crate::proxy::HasFound::Yes => Ok(true),
            crate::proxy::HasFound::Proxy(p) if self.replaying() => {
                let key = self.key_to_value(key)?;
                let args = vec![Value::Obj(p), key];
                let has = self.replayed(ReplayedOp::Reflect { method: ReflectMethod::Has, args })?;
                Ok(self.to_boolean(has))
            }
            _ => Ok(false),
        }
    }
}
