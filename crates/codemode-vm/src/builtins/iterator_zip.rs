//! `Iterator.zip(iterables, options)` and `Iterator.zipKeyed(iterables, options)` (joint
//! iteration): the inputs are opened when `zip` is called (a [`Build`] continuation: the input
//! iterable's values, or the own enumerable keys of `zipKeyed`'s object, then the padding), and
//! each `next()` steps every open input in order ([`Zip`], in the helper object). The modes:
//! `"shortest"` ends with the first input that ends, `"longest"` pads the ended ones until all
//! have ended, `"strict"` throws unless all end together. Whatever ends the iteration early (a
//! throw, `return()`, an input ending) closes the inputs still open, last first.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::iterator_statics::{Completion, Flatten, GenState, Joined, close_all, close_step};
use super::iterator_statics::{enter, finish, open_flattenable, pair, set_gen, yield_value};
use super::{Cont, Step, arg, internal_fn};
use crate::Vm;
use crate::call::Throw;
use crate::heap::VALUE_SIZE;
use crate::meter::Work;
use crate::object::{IterState, ObjKind};
use crate::props::{Got, Key};
use crate::value::{ObjId, Value};

pub const DEFS: &[super::NativeDef] = &[
    super::NativeDef::new("Iterator", "zip", 1, |vm, _, a, _| zip(vm, a, false)),
    super::NativeDef::new("Iterator", "zipKeyed", 1, |vm, _, a, _| zip(vm, a, true)),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    Shortest,
    Longest,
    Strict,
}

/// A zip iterator's state (in its object).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Zip {
    /// Each input's iterator and `next`; `None` once it has ended (or thrown).
    iters: Vec<Option<(Value, Value)>>,
    mode: Mode,
    /// `"longest"`: the value standing in for each ended input.
    padding: Vec<Value>,
    /// `zipKeyed`: each input's key (the results are objects); `None` for `zip` (arrays).
    keys: Option<Vec<Value>>,
    /// This round's values so far.
    results: Vec<Value>,
    /// The input being stepped.
    index: usize,
    pub(crate) state: GenState,
}

impl Zip {
    pub fn trace(&self, out: &mut Vec<Value>) {
        for (it, next) in self.iters.iter().flatten() {
            out.extend([*it, *next]);
        }
        out.extend(self.padding.iter().copied());
        if let Some(keys) = &self.keys {
            out.extend(keys.iter().copied());
        }
        out.extend(self.results.iter().copied());
    }

    pub fn extra_bytes(&self) -> usize {
        self.iters.capacity() * std::mem::size_of::<Option<(Value, Value)>>()
            + (self.padding.capacity()
                + self.results.capacity()
                + self.keys.as_ref().map_or(0, Vec::capacity))
                * VALUE_SIZE
    }

    /// The inputs still open, in order (`[[UnderlyingIterators]]`).
    pub(crate) fn open_iterators(&self) -> Vec<Value> {
        self.iters.iter().flatten().map(|(it, _)| *it).collect()
    }
}

/// What a zip iterator's `next()` waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepPhase {
    /// The result of input `index`'s `next()`.
    Next,
    /// `"strict"`, after the first input ended: the result of input `index`'s `next()`, which
    /// must be done too.
    StrictNext,
    /// Its `done`, read through a getter or a proxy.
    StrictDone,
}

/// Where opening the inputs is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// `zip`: GetIterator of the iterables.
    Input,
    /// `zip`: the input iterator's result.
    InputNext,
    /// `zip`: GetIteratorFlattenable of one of its values.
    Element,
    /// `zipKeyed`: the object's own keys.
    Keys,
    /// `zipKeyed`: the descriptor of `keys[key_index]`.
    Descriptor,
    /// `zipKeyed`: its value.
    KeyValue,
    /// `zipKeyed`: GetIteratorFlattenable of that value.
    KeyedElement,
    /// `"longest"` with a padding iterable: GetIterator of it.
    PaddingIter,
    /// Its result.
    PaddingNext,
    /// Closing it once every input has its padding.
    PaddingClose,
    /// `zipKeyed`, `"longest"`: the padding object's value for a key.
    PaddingKey,
}

/// Opening a zip's inputs (the helper object being built is `zip`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Build {
    zip: ObjId,
    iterables: Value,
    stage: Stage,
    /// `zip`'s input iterator and its `next` (or the padding iterator and its `next`).
    input: (Value, Value),
    /// `zipKeyed`: every own key of the object, and the one being looked at.
    all_keys: Vec<Value>,
    key_index: usize,
    padding_option: Value,
}

/// A zip built-in waiting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ZipCont {
    Build(Box<Build>),
    Step { zip: ObjId, phase: StepPhase },
}

impl ZipCont {
    pub fn trace(&self, out: &mut Vec<Value>) {
        match self {
            ZipCont::Build(b) => {
                out.extend([Value::Obj(b.zip), b.iterables, b.input.0, b.input.1, b.padding_option]);
                out.extend(b.all_keys.iter().copied());
            }
            ZipCont::Step { zip, .. } => out.push(Value::Obj(*zip)),
        }
    }

    /// Bytes of Rust data the continuation holds (the keys of `zipKeyed`'s object).
    pub fn held_bytes(&self) -> usize {
        match self {
            ZipCont::Build(b) => b.all_keys.capacity() * VALUE_SIZE,
            ZipCont::Step { .. } => 0,
        }
    }
}

fn zip_state(vm: &mut Vm, id: ObjId) -> Option<&mut Zip> {
    match vm.iter_state_mut(id)? {
        IterState::Joined(j) => match &mut **j {
            Joined::Zip(z) => Some(z),
            _ => None,
        },
        _ => None,
    }
}

/// `zip(iterables, options)` (`keyed`: `zipKeyed`).
fn zip(vm: &mut Vm, args: &[Value], keyed: bool) -> Result<Step, Throw> {
    let name = if keyed { "Iterator.zipKeyed" } else { "Iterator.zip" };
    let iterables = arg(args, 0);
    if !matches!(iterables, Value::Obj(_)) {
        let msg = format!("{name}: the iterables argument is not an object");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let options = arg(args, 1);
    let (mode_value, padding_option) = match options {
        Value::Undefined => (Value::Undefined, Value::Undefined),
        Value::Obj(_) => {
            let mode = vm.get_named(options, "mode")?;
            let is_longest = matches!(mode, Value::Str(_)) && vm.to_rust_string(mode)? == "longest";
            let padding = if is_longest { vm.get_named(options, "padding")? } else { Value::Undefined };
            (mode, padding)
        }
        _ => {
            let msg = format!("{name}: options must be an object or undefined");
            return Err(vm.make_error(ErrorKind::TypeError, &msg));
        }
    };
    let mode = match mode_value {
        Value::Undefined => Mode::Shortest,
        Value::Str(_) => match vm.to_rust_string(mode_value)?.as_str() {
            "shortest" => Mode::Shortest,
            "longest" => Mode::Longest,
            "strict" => Mode::Strict,
            _ => return Err(bad_mode(vm, name)),
        },
        _ => return Err(bad_mode(vm, name)),
    };
    if !matches!(padding_option, Value::Undefined | Value::Obj(_)) {
        let msg = format!("{name}: options.padding must be an object or undefined");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let state = Zip {
        iters: Vec::new(),
        mode,
        padding: Vec::new(),
        keys: keyed.then(Vec::new),
        results: Vec::new(),
        index: 0,
        state: GenState::Start,
    };
    let proto = Some(vm.realm.iterator_protos[0]);
    let zip = vm.alloc(ObjKind::Iterator(IterState::Joined(Box::new(Joined::Zip(state)))), proto)?;
    let build = Box::new(Build {
        zip,
        iterables,
        stage: if keyed { Stage::Keys } else { Stage::Input },
        input: (Value::Undefined, Value::Undefined),
        all_keys: Vec::new(),
        key_index: 0,
        padding_option,
    });
    if keyed {
        let callee = internal_fn(vm, "Reflect.ownKeys", Vec::new())?;
        return Ok(Step::Call {
            callee,
            this: Value::Undefined,
            args: vec![iterables],
            cont: wait_build(build),
        });
    }
    open_flattenable(vm, iterables, Flatten::Iterable, wait_build(build))
}

fn bad_mode(vm: &mut Vm, name: &str) -> Throw {
    let msg = format!("{name}: options.mode must be \"shortest\", \"longest\" or \"strict\"");
    vm.make_error(ErrorKind::TypeError, &msg)
}

fn wait_build(build: Box<Build>) -> Cont {
    Cont::IterZip(Box::new(ZipCont::Build(build)))
}

fn wait_step(zip: ObjId, phase: StepPhase) -> Cont {
    Cont::IterZip(Box::new(ZipCont::Step { zip, phase }))
}

/// `vec.push(v)` on a vector in the heap, its growth charged first (doubling, 4 at the least).
fn push_charged(
    vm: &mut Vm,
    id: ObjId,
    v: Value,
    field: fn(&mut Zip) -> &mut Vec<Value>,
) -> Result<(), Throw> {
    let Some(z) = zip_state(vm, id) else { return Ok(()) };
    let list = field(z);
    if list.len() == list.capacity() {
        let grown = (list.capacity() * 2).max(4);
        let more = grown - list.capacity();
        vm.charge_memory(more * VALUE_SIZE)?;
        if let Some(z) = zip_state(vm, id) {
            field(z).reserve_exact(more);
        }
    }
    if let Some(z) = zip_state(vm, id) {
        field(z).push(v);
    }
    Ok(())
}

/// Adds an opened input.
fn push_input(vm: &mut Vm, id: ObjId, input: (Value, Value)) -> Result<(), Throw> {
    const SIZE: usize = std::mem::size_of::<Option<(Value, Value)>>();
    let Some(z) = zip_state(vm, id) else { return Ok(()) };
    if z.iters.len() == z.iters.capacity() {
        let grown = (z.iters.capacity() * 2).max(4);
        let more = grown - z.iters.capacity();
        vm.charge_memory(more * SIZE)?;
        if let Some(z) = zip_state(vm, id) {
            z.iters.reserve_exact(more);
        }
    }
    if let Some(z) = zip_state(vm, id) {
        z.iters.push(Some(input));
    }
    vm.charge(Work::Elements(1));
    Ok(())
}

fn call_next(input: (Value, Value), cont: Cont) -> Step {
    Step::Call { callee: input.1, this: input.0, args: Vec::new(), cont }
}

/// Resumes opening a zip's inputs.
fn resume_build(vm: &mut Vm, mut b: Box<Build>, result: Value) -> Result<Step, Throw> {
    match b.stage {
        Stage::Input => {
            b.input = pair(vm, result);
            b.stage = Stage::InputNext;
            let input = b.input;
            Ok(call_next(input, wait_build(b)))
        }
        Stage::InputNext | Stage::PaddingNext => {
            let Some((done, value)) = vm.user_iter_result(result)? else {
                return vm.read_iter_result_then(result, wait_build(b));
            };
            if b.stage == Stage::PaddingNext {
                return padding_value(vm, b, (!done).then_some(value));
            }
            if done {
                return after_inputs(vm, b);
            }
            b.stage = Stage::Element;
            open_flattenable(vm, value, Flatten::RejectPrimitives, wait_build(b))
        }
        Stage::Element => {
            push_input(vm, b.zip, pair(vm, result))?;
            b.stage = Stage::InputNext;
            let input = b.input;
            Ok(call_next(input, wait_build(b)))
        }
        Stage::Keys => {
            let keys = vm.array_items(result);
            vm.ensure_fits(keys.len().saturating_mul(VALUE_SIZE))?;
            vm.charge(Work::Elements(keys.len()));
            b.all_keys = keys;
            next_key(vm, b)
        }
        Stage::Descriptor => {
            let enumerable = match result {
                Value::Obj(_) => vm.get_named(result, "enumerable")?,
                _ => Value::Bool(false),
            };
            if !vm.to_boolean(enumerable) {
                b.key_index += 1;
                return next_key(vm, b);
            }
            b.stage = Stage::KeyValue;
            let key = b.all_keys.get(b.key_index).copied().unwrap_or(Value::Undefined);
            let callee = internal_fn(vm, "Reflect.get", Vec::new())?;
            let args = vec![b.iterables, key];
            Ok(Step::Call { callee, this: Value::Undefined, args, cont: wait_build(b) })
        }
        Stage::KeyValue => {
            if result == Value::Undefined {
                b.key_index += 1;
                return next_key(vm, b);
            }
            let key = b.all_keys.get(b.key_index).copied().unwrap_or(Value::Undefined);
            push_charged(vm, b.zip, key, |z| z.keys.get_or_insert_with(Vec::new))?;
            b.stage = Stage::KeyedElement;
            open_flattenable(vm, result, Flatten::RejectPrimitives, wait_build(b))
        }
        Stage::KeyedElement => {
            push_input(vm, b.zip, pair(vm, result))?;
            b.key_index += 1;
            next_key(vm, b)
        }
        Stage::PaddingIter => {
            b.input = pair(vm, result);
            padding_value(vm, b, None)
        }
        Stage::PaddingClose => finish_build(vm, b.zip),
        Stage::PaddingKey => {
            push_charged(vm, b.zip, result, |z| &mut z.padding)?;
            next_padding_key(vm, b)
        }
    }
}

/// `zipKeyed`: looks at the next own key (its descriptor first).
fn next_key(vm: &mut Vm, mut b: Box<Build>) -> Result<Step, Throw> {
    let Some(&key) = b.all_keys.get(b.key_index) else { return after_inputs(vm, b) };
    vm.charge(Work::Elements(1));
    b.stage = Stage::Descriptor;
    let callee = internal_fn(vm, "Reflect.getOwnPropertyDescriptor", Vec::new())?;
    let args = vec![b.iterables, key];
    Ok(Step::Call { callee, this: Value::Undefined, args, cont: wait_build(b) })
}

/// Every input is open: the padding, if `"longest"` needs one.
fn after_inputs(vm: &mut Vm, mut b: Box<Build>) -> Result<Step, Throw> {
    let (mode, count, keyed) = match zip_state(vm, b.zip) {
        Some(z) => (z.mode, z.iters.len(), z.keys.is_some()),
        None => return finish_build(vm, b.zip),
    };
    if mode != Mode::Longest {
        return finish_build(vm, b.zip);
    }
    if b.padding_option == Value::Undefined {
        vm.charge_memory(count.saturating_mul(VALUE_SIZE))?;
        if let Some(z) = zip_state(vm, b.zip) {
            z.padding = vec![Value::Undefined; count];
        }
        return finish_build(vm, b.zip);
    }
    b.all_keys = Vec::new();
    if keyed {
        return next_padding_key(vm, b);
    }
    b.stage = Stage::PaddingIter;
    let option = b.padding_option;
    open_flattenable(vm, option, Flatten::Iterable, wait_build(b))
}

/// `zip`, `"longest"`: the padding iterator gave `value` (`None`: it is done, and the rest of
/// the padding is `undefined`); its next value, or closing it once every input has one.
fn padding_value(vm: &mut Vm, mut b: Box<Build>, value: Option<Value>) -> Result<Step, Throw> {
    let count = zip_state(vm, b.zip).map_or(0, |z| z.iters.len());
    let started = b.stage == Stage::PaddingNext;
    match value {
        Some(v) => push_charged(vm, b.zip, v, |z| &mut z.padding)?,
        None if started => {
            let have = zip_state(vm, b.zip).map_or(0, |z| z.padding.len());
            vm.charge_memory(count.saturating_sub(have).saturating_mul(VALUE_SIZE))?;
            if let Some(z) = zip_state(vm, b.zip) {
                z.padding.resize(count, Value::Undefined);
            }
            return finish_build(vm, b.zip);
        }
        None => {}
    }
    let have = zip_state(vm, b.zip).map_or(0, |z| z.padding.len());
    if have >= count {
        b.stage = Stage::PaddingClose;
        let iterator = b.input.0;
        return close_step(vm, iterator, wait_build(b));
    }
    b.stage = Stage::PaddingNext;
    let input = b.input;
    Ok(call_next(input, wait_build(b)))
}

/// `zipKeyed`, `"longest"`: the padding object's value for the next key.
fn next_padding_key(vm: &mut Vm, mut b: Box<Build>) -> Result<Step, Throw> {
    let key =
        zip_state(vm, b.zip).and_then(|z| z.keys.as_ref().and_then(|k| k.get(z.padding.len())).copied());
    let Some(key) = key else { return finish_build(vm, b.zip) };
    vm.charge(Work::Elements(1));
    b.stage = Stage::PaddingKey;
    let callee = internal_fn(vm, "Reflect.get", Vec::new())?;
    let args = vec![b.padding_option, key];
    Ok(Step::Call { callee, this: Value::Undefined, args, cont: wait_build(b) })
}

fn finish_build(_vm: &mut Vm, zip: ObjId) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Obj(zip)))
}

/// A throw while opening the inputs closes those already open (the input iterator too, when
/// the throw came from opening one of its values), last first.
fn build_caught(vm: &mut Vm, zip: ObjId, stage: Stage, input: Value, exc: Value) -> Result<Step, Throw> {
    let mut open = zip_state(vm, zip).map(|z| z.open_iterators()).unwrap_or_default();
    set_gen(vm, zip, GenState::Done);
    if stage == Stage::Element {
        open.insert(0, input);
    }
    if matches!(stage, Stage::Input | Stage::Keys) || open.is_empty() {
        return Err(exc);
    }
    close_all(vm, open, Completion::Throw(exc), None)
}

/// `next()` of a zip iterator.
pub(crate) fn zip_next(vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
    if enter(vm, id)?.is_none() {
        return Ok(Step::Return(vm.iter_result(Value::Undefined, true)?));
    }
    let count = match zip_state(vm, id) {
        Some(z) => z.iters.len(),
        None => 0,
    };
    if count == 0 {
        return finish(vm, id);
    }
    let have = zip_state(vm, id).map_or(0, |z| z.results.capacity());
    if have < count {
        vm.charge_memory((count - have) * VALUE_SIZE)?;
    }
    if let Some(z) = zip_state(vm, id) {
        z.results.clear();
        z.results.reserve_exact(count);
        z.index = 0;
    }
    step_round(vm, id)
}

/// Steps the inputs from `index` on; the round's result once every input has given a value.
fn step_round(vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
    loop {
        let Some(z) = zip_state(vm, id) else { return finish(vm, id) };
        let Some(&slot) = z.iters.get(z.index) else { break };
        match slot {
            Some(input) => return Ok(call_next(input, wait_step(id, StepPhase::Next))),
            None => {
                let pad = z.padding.get(z.index).copied().unwrap_or(Value::Undefined);
                z.results.push(pad);
                z.index += 1;
            }
        }
    }
    let Some(z) = zip_state(vm, id) else { return finish(vm, id) };
    // Drained, not taken: the buffer (charged once) serves every round.
    let values: Vec<Value> = z.results.drain(..).collect();
    let keys = z.keys.clone();
    vm.charge(Work::Elements(values.len()));
    let out = match keys {
        None => vm.new_array(values)?,
        Some(keys) => {
            let obj = Value::Obj(vm.alloc(ObjKind::Plain, None)?);
            for (key, value) in keys.into_iter().zip(values) {
                let key = vm.to_key(key)?;
                vm.define(obj, key, value)?;
            }
            obj
        }
    };
    yield_value(vm, id, out)
}

fn resume_step(vm: &mut Vm, id: ObjId, phase: StepPhase, result: Value) -> Result<Step, Throw> {
    let Some(z) = zip_state(vm, id) else { return finish(vm, id) };
    let (mode, index) = (z.mode, z.index);
    match phase {
        StepPhase::Next => {
            let Some((done, value)) = vm.user_iter_result(result)? else {
                return vm.read_iter_result_then(result, wait_step(id, phase));
            };
            vm.charge(Work::Elements(1));
            if !done {
                if let Some(z) = zip_state(vm, id) {
                    z.results.push(value);
                    z.index += 1;
                }
                return step_round(vm, id);
            }
            let open = ended(vm, id, index);
            let done = vm.iter_result(Value::Undefined, true)?;
            match mode {
                Mode::Shortest => close_all(vm, open, Completion::Return(done), Some(id)),
                Mode::Strict if index != 0 => {
                    let e =
                        vm.make_error(ErrorKind::TypeError, "Iterator.zip (strict): an input ended early");
                    close_all(vm, open, Completion::Throw(e), Some(id))
                }
                Mode::Strict => {
                    if let Some(z) = zip_state(vm, id) {
                        z.index = 1;
                    }
                    strict_check(vm, id)
                }
                Mode::Longest if open.is_empty() => finish(vm, id),
                Mode::Longest => {
                    if let Some(z) = zip_state(vm, id) {
                        let pad = z.padding.get(index).copied().unwrap_or(Value::Undefined);
                        z.results.push(pad);
                        z.index += 1;
                    }
                    step_round(vm, id)
                }
            }
        }
        StepPhase::StrictNext => {
            if !matches!(result, Value::Obj(_)) {
                let desc = vm.describe_for_error(result);
                let msg = format!("Iterator result {desc} is not an object");
                return Err(vm.make_error(ErrorKind::TypeError, &msg));
            }
            match vm.get(result, Key::Atom(vm.realm.atoms.done))? {
                Got::Value(done) => strict_done(vm, id, vm.to_boolean(done)),
                Got::Getter(_) | Got::Proxy(..) => {
                    let callee = internal_fn(vm, "Reflect.get", Vec::new())?;
                    let done = vm.new_string("done")?;
                    let cont = wait_step(id, StepPhase::StrictDone);
                    Ok(Step::Call { callee, this: Value::Undefined, args: vec![result, done], cont })
                }
            }
        }
        StepPhase::StrictDone => strict_done(vm, id, vm.to_boolean(result)),
    }
}

/// Input `index` ended: it is no longer open. The inputs still open.
fn ended(vm: &mut Vm, id: ObjId, index: usize) -> Vec<Value> {
    let Some(z) = zip_state(vm, id) else { return Vec::new() };
    if let Some(slot) = z.iters.get_mut(index) {
        *slot = None;
    }
    z.open_iterators()
}

/// `"strict"` after the first input ended: the next input must be done too.
fn strict_check(vm: &mut Vm, id: ObjId) -> Result<Step, Throw> {
    loop {
        let Some(z) = zip_state(vm, id) else { return finish(vm, id) };
        match z.iters.get(z.index) {
            None => return finish(vm, id),
            Some(Some(input)) => return Ok(call_next(*input, wait_step(id, StepPhase::StrictNext))),
            Some(None) => z.index += 1,
        }
    }
}

fn strict_done(vm: &mut Vm, id: ObjId, done: bool) -> Result<Step, Throw> {
    let index = zip_state(vm, id).map_or(0, |z| z.index);
    vm.charge(Work::Elements(1));
    if done {
        ended(vm, id, index);
        if let Some(z) = zip_state(vm, id) {
            z.index += 1;
        }
        return strict_check(vm, id);
    }
    let open = zip_state(vm, id).map(|z| z.open_iterators()).unwrap_or_default();
    let e = vm.make_error(ErrorKind::TypeError, "Iterator.zip (strict): an input did not end with the first");
    close_all(vm, open, Completion::Throw(e), Some(id))
}

/// A throw from stepping input `index` (or reading its result): it is no longer open, the
/// others are closed, last first, and the throw goes on.
fn step_caught(vm: &mut Vm, id: ObjId, exc: Value) -> Result<Step, Throw> {
    let index = zip_state(vm, id).map_or(0, |z| z.index);
    let open = ended(vm, id, index);
    close_all(vm, open, Completion::Throw(exc), Some(id))
}

/// Resumes a zip built-in with what the call it waited for returned.
pub(crate) fn resume(vm: &mut Vm, cont: ZipCont, result: Value) -> Result<Step, Throw> {
    match cont {
        ZipCont::Build(b) => {
            let (zip, stage, input) = (b.zip, b.stage, b.input.0);
            resume_build(vm, b, result).or_else(|e| build_caught(vm, zip, stage, input, e))
        }
        ZipCont::Step { zip, phase } => {
            resume_step(vm, zip, phase, result).or_else(|e| step_caught(vm, zip, e))
        }
    }
}

/// A throw out of a call a [`ZipCont`] waited for (the unwinder hands it here).
pub(crate) fn caught(vm: &mut Vm, cont: ZipCont, exc: Value) -> Result<Step, Throw> {
    match cont {
        ZipCont::Build(b) => build_caught(vm, b.zip, b.stage, b.input.0, exc),
        ZipCont::Step { zip, .. } => step_caught(vm, zip, exc),
    }
}
