//! Mark-and-sweep garbage collection over the arenas.
//!
//! Marking uses an explicit worklist, never recursion, so no object graph can overflow the stack.
//! Roots: the realm, the register stack, every frame, queued jobs, in-flight host calls, the
//! top-level promise and the unhandled-rejection list. Sweeping frees unmarked slots onto the free
//! lists and recomputes `bytes_used`.

use crate::Vm;
use crate::frame::{Frame, ReturnTo};
use crate::heap::{BIGINT_OVERHEAD, CELL_OVERHEAD, OBJECT_OVERHEAD, STRING_OVERHEAD, VALUE_SIZE};
use crate::object::{Callable, IterState, ObjKind};
use crate::promise::{Job, Reaction, Settled};
use crate::value::{ObjId, Value};

/// A collection's mark bits (one per arena slot) and worklist. The VM keeps one between
/// collections ([`Vm::gc_marks`]): allocating and freeing these on every collection cost the
/// allocator more than the marking (freed next to the top of the C heap, they made glibc
/// consolidate its free lists each time; `closures` ran 2% more instructions).
#[derive(Clone, Debug, Default)]
pub(crate) struct Marks {
    objects: Vec<bool>,
    strings: Vec<bool>,
    cells: Vec<bool>,
    bigints: Vec<bool>,
    pub(crate) work: Vec<Value>,
}

/// The longest worklist kept between collections (1 MiB of values); a longer one, left by a
/// huge array, is freed so the cache never holds more than that beyond the mark bits.
const KEPT_WORK_CAPACITY: usize = 1 << 16;

impl Marks {
    /// Every slot unmarked, for arenas of these lengths; the worklist empty.
    fn reset(&mut self, heap: &crate::heap::Heap) {
        for (marks, len) in [
            (&mut self.objects, heap.objects.len()),
            (&mut self.strings, heap.strings.len()),
            (&mut self.cells, heap.cells.len()),
            (&mut self.bigints, heap.bigints.len()),
        ] {
            marks.clear();
            marks.resize(len, false);
        }
        self.work.clear();
    }

    /// What stays allocated after a collection: the mark bits (a byte per slot, against the
    /// slot's own size) and a worklist of at most [`KEPT_WORK_CAPACITY`] values.
    fn release(&mut self) {
        self.work.clear();
        if self.work.capacity() > KEPT_WORK_CAPACITY {
            self.work = Vec::new();
        }
    }

    fn push(&mut self, v: Value) {
        self.work.push(v);
    }

    fn push_obj(&mut self, id: ObjId) {
        self.work.push(Value::Obj(id));
    }
}

impl Vm {
    pub(crate) fn collect_garbage(&mut self) {
        // Marking and sweeping visit every slot.
        let slots = self.heap.objects.len()
            + self.heap.strings.len()
            + self.heap.cells.len()
            + self.heap.bigints.len();
        self.charge(crate::meter::Work::Elements(slots));
        let mut m = std::mem::take(&mut self.gc_marks);
        m.reset(&self.heap);
        self.keep_unchanged_base(&mut m);
        self.push_roots(&mut m);
        while let Some(v) = m.work.pop() {
            match v {
                Value::Str(s) => {
                    if let Some(flag) = m.strings.get_mut(s.0 as usize) {
                        *flag = true;
                    }
                }
                Value::BigInt(b) => {
                    if let Some(flag) = m.bigints.get_mut(b.0 as usize) {
                        *flag = true;
                    }
                }
                Value::Cell(c) => {
                    if let Some(flag) = m.cells.get_mut(c.0 as usize)
                        && !*flag
                    {
                        *flag = true;
                        m.push(self.heap.cell(c));
                    }
                }
                // An array's iterator in a register keeps the array.
                Value::ArrayIter(cursor) => m.work.push(Value::Obj(cursor.array())),
                Value::Obj(id) => {
                    let Some(flag) = m.objects.get_mut(id.0 as usize) else { continue };
                    if *flag {
                        continue;
                    }
                    *flag = true;
                    self.trace_object(id, &mut m);
                }
                _ => {}
            }
        }
        self.sweep(&m);
        m.release();
        self.gc_marks = m;
        crate::builtins::compact_maps(self);
    }

    /// **A run's copy of the pristine heap is not traced where the run has not written it.**
    /// Every slot the copy started with is kept (marked before tracing), and of those only the
    /// ones the arenas list as written since are traced: a slot never written still equals the
    /// pristine's, which refers only to slots the copy started with (the pristine heap is
    /// closed), all kept; so anything newer that is reachable is reachable from a root or a
    /// written slot. The built-ins (hundreds of objects) were the fixed cost of every
    /// collection; what this keeps that tracing would have freed (a built-in the program
    /// unlinked) the pristine heap holds anyway. A heap without a base (built or restored) has
    /// `base_len` 0 and is traced whole.
    fn keep_unchanged_base(&self, m: &mut Marks) {
        let heap = &self.heap;
        for (marks, base) in [
            (&mut m.objects, heap.objects.base_len()),
            (&mut m.strings, heap.strings.base_len()),
            (&mut m.cells, heap.cells.base_len()),
            (&mut m.bigints, heap.bigints.base_len()),
        ] {
            if let Some(kept) = marks.get_mut(..base) {
                kept.fill(true);
            }
        }
        for &i in heap.objects.changed_below_base() {
            if heap.objects.slots().get(i as usize).is_some_and(Option::is_some) {
                self.trace_object(ObjId(i), m);
            }
        }
        for &i in heap.cells.changed_below_base() {
            if let Some(Some(v)) = heap.cells.slots().get(i as usize) {
                m.push(*v);
            }
        }
    }

    pub(crate) fn push_roots(&self, m: &mut Marks) {
        let r = &self.realm;
        for id in r.objects() {
            m.push_obj(id);
        }
        m.push_obj(self.main_promise);
        for values in &r.consts {
            m.work.extend(values.iter().copied());
        }
        m.work.extend(self.stack.iter().copied());
        if let Some(v) = self.parked {
            m.push(v);
        }
        for frame in &self.frames {
            match frame {
                Frame::Js(f) => {
                    m.push(f.this);
                    if let Some(c) = f.closure {
                        m.push_obj(c);
                    }
                    if let Some(p) = f.async_promise {
                        m.push_obj(p);
                    }
                    push_ret(f.ret, m);
                }
                Frame::Native(f) => {
                    f.cont.trace(&mut m.work);
                    push_ret(f.ret, m);
                }
            }
        }
        for job in &self.jobs {
            match job {
                Job::Reaction { reaction, value, .. } => {
                    m.push(*value);
                    push_reaction(reaction, m);
                }
            }
        }
        for id in self.host.pending_promises() {
            m.push_obj(id);
        }
        for v in self.host.module_values() {
            m.push(v);
        }
        if let Some((_, ret)) = self.host.blocked {
            push_ret(ret, m);
        }
        for id in &self.rejected_unhandled {
            m.push_obj(*id);
        }
    }

    pub(crate) fn trace_object(&self, id: ObjId, m: &mut Marks) {
        let obj = self.heap.obj(id);
        if let Some(p) = obj.proto {
            m.push_obj(p);
        }
        for slot in obj.props.iter().filter(|slot| slot.value_refers_to_heap()) {
            m.push(slot.value());
        }
        match &obj.kind {
            ObjKind::Plain | ObjKind::Error(_) | ObjKind::RegExp { .. } | ObjKind::Date(_) => {}
            ObjKind::Array(items) => m.work.extend(items.iter().copied()),
            ObjKind::ArrayBuffer(_) | ObjKind::TextCodec(_) => {}
            ObjKind::TypedArray(t) => m.push_obj(t.buffer),
            ObjKind::DataView(d) => m.push_obj(d.buffer),
            ObjKind::Function(c) => match c {
                Callable::Closure { captures, this, .. } => {
                    m.work.extend(captures.iter().map(|c| Value::Cell(*c)));
                    m.push(*this);
                }
                Callable::Class { captures, fields, .. } => {
                    m.work.extend(captures.iter().map(|c| Value::Cell(*c)));
                    m.push(*fields);
                }
                Callable::Native { data, .. } => m.work.extend(data.iter().copied()),
                Callable::Tool { .. } => {}
                Callable::Bound { target, this, args } => {
                    m.push_obj(*target);
                    m.push(*this);
                    m.work.extend(args.iter().copied());
                }
            },
            ObjKind::Promise(p) => {
                match p.settled {
                    Settled::Fulfilled(v) | Settled::Rejected(v) => m.push(v),
                    Settled::Pending => {}
                }
                for r in &p.reactions {
                    push_reaction(r, m);
                }
            }
            ObjKind::Iterator(state) => match state {
                IterState::Array { array, .. } => m.push_obj(*array),
                IterState::String { string, .. } => m.push(Value::Str(*string)),
                IterState::List { items, .. } => m.work.extend(items.iter().copied()),
                IterState::Map { map, .. } => m.push_obj(*map),
                IterState::Helper(h) => {
                    let mut out = Vec::new();
                    h.trace(&mut out);
                    m.work.extend(out);
                }
                IterState::Joined(j) => {
                    let mut out = Vec::new();
                    j.trace(&mut out);
                    m.work.extend(out);
                }
                IterState::Done => {}
            },
            ObjKind::Coroutine(saved) => {
                m.work.extend(saved.registers.iter().copied());
                m.push(saved.frame.this);
                if let Some(c) = saved.frame.closure {
                    m.push_obj(c);
                }
                if let Some(p) = saved.frame.async_promise {
                    m.push_obj(p);
                }
                push_ret(saved.frame.ret, m);
            }
            ObjKind::Generator(state) => {
                state.trace(&mut m.work);
                if let Some(crate::generator::GenCaller::Call(ret)) = state.caller {
                    push_ret(ret, m);
                }
            }
            ObjKind::Accessor { get, set } => {
                m.push(*get);
                m.push(*set);
            }
            ObjKind::Map { entries, .. } => {
                for (k, v) in entries.iter().flatten() {
                    m.push(*k);
                    m.push(*v);
                }
            }
            ObjKind::Boxed(v) => m.push(*v),
            ObjKind::Proxy { target, handler, .. } => {
                m.push_obj(*target);
                if let Some(h) = handler {
                    m.push_obj(*h);
                }
            }
            ObjKind::Weak(w) => {
                let mut out = Vec::new();
                w.trace(&mut out);
                m.work.extend(out);
            }
            ObjKind::Disposable(d) => {
                let mut out = Vec::new();
                d.trace(&mut out);
                m.work.extend(out);
            }
            ObjKind::Url(u) => u.trace(&mut m.work),
        }
    }

    fn sweep(&mut self, m: &Marks) {
        let mut bytes = self.stack.capacity() * VALUE_SIZE
            + self.frames.capacity() * std::mem::size_of::<crate::frame::Frame>()
            + self.jobs.len() * std::mem::size_of::<Job>()
            + self.heap.retained
            + self.host.in_flight_bytes()
            + self.frames.iter().map(crate::frame::Frame::held_bytes).sum::<usize>();
        let objects = sweep_arena(
            &mut self.heap.objects,
            &m.objects,
            |o| OBJECT_OVERHEAD + o.extra_bytes(),
            crate::object::Object::holds_nothing,
        );
        let strings =
            sweep_arena(&mut self.heap.strings, &m.strings, |s| STRING_OVERHEAD + s.heap_bytes(), |_| false);
        self.heap.forget_string_ids();
        let cells = sweep_arena(&mut self.heap.cells, &m.cells, |_| CELL_OVERHEAD, |_| false);
        let bigints =
            sweep_arena(&mut self.heap.bigints, &m.bigints, |b| BIGINT_OVERHEAD + b.heap_bytes(), |_| false);
        let mut untraced = 0;
        for swept in [objects, strings, cells, bigints] {
            bytes += swept.kept;
            untraced += swept.unchanged_base;
        }
        self.heap.bytes_used = bytes;
        self.stack_charged = self.stack.capacity();
        self.heap.allocated_since_gc = 0;
        self.heap.collect_soon = false;
        // Collect again after the traced heap doubles (at least `MIN_GC_THRESHOLD` later; close
        // to the limit, `wants_collection` collects sooner). The unwritten built-ins are not
        // traced, so they do not count: they would let a small program's garbage grow to their
        // size before each collection.
        self.heap.gc_threshold = (bytes - untraced.min(bytes)).max(crate::heap::MIN_GC_THRESHOLD);
        self.heap.retrigger();
    }
}

/// What [`sweep_arena`] kept: the bytes of every kept slot, and of those the base's slots not
/// written since (kept without tracing).
struct Swept {
    kept: usize,
    unchanged_base: usize,
}

/// Sweeps one arena: frees every slot its marks do not keep (marks are indexed like the slots; a
/// slot past them, none, is kept) and returns the bytes (`size`) of those it keeps. A value that
/// `holds_nothing` is forgotten rather than dropped ([`crate::arena::Arena::free_where`]). The
/// slots a run's copy started with are all kept ([`Vm::keep_unchanged_base`]): the ones it has
/// not written are counted as one remembered sum, not visited.
fn sweep_arena<T>(
    arena: &mut crate::arena::Arena<T>,
    marks: &[bool],
    size: impl Fn(&T) -> usize,
    holds_nothing: impl Fn(&T) -> bool,
) -> Swept {
    let base = arena.base_len().min(marks.len());
    let unchanged_base = arena.unchanged_base_bytes(&size);
    let mut bytes = unchanged_base;
    for &i in arena.changed_below_base() {
        if let Some(Some(value)) = arena.slots().get(i as usize) {
            bytes += size(value);
        }
    }
    arena.free_where(
        base,
        |i, value| {
            let keep = marks.get(i).copied().unwrap_or(true);
            if keep {
                bytes += size(value);
            }
            keep
        },
        holds_nothing,
    );
    Swept { kept: bytes, unchanged_base }
}

fn push_ret(ret: ReturnTo, m: &mut Marks) {
    match ret {
        ReturnTo::Settle(p) => m.push_obj(p),
        ReturnTo::Construct { this, new_target, .. } => {
            m.push_obj(this);
            m.push_obj(new_target);
        }
        ReturnTo::ConstructDerived { new_target, .. } => m.push_obj(new_target),
        ReturnTo::SuperNative { proto, .. } => m.push_obj(proto),
        ReturnTo::RejectOnThrow(p) | ReturnTo::Generator(p) => m.push_obj(p),
        ReturnTo::Reg(_)
        | ReturnTo::SuperResult(_)
        | ReturnTo::Native
        | ReturnTo::Discard
        | ReturnTo::JumpUnless(_)
        | ReturnTo::Iterator(_)
        | ReturnTo::IterStep { .. } => {}
    }
}

fn push_reaction(r: &Reaction, m: &mut Marks) {
    match r {
        Reaction::Then { on_fulfilled, on_rejected, derived } => {
            m.push(*on_fulfilled);
            m.push(*on_rejected);
            if let Some(d) = derived {
                m.push_obj(*d);
            }
        }
        Reaction::Finally { on_finally, derived } => {
            m.push(*on_finally);
            if let Some(d) = derived {
                m.push_obj(*d);
            }
        }
        Reaction::Await { coroutine } => m.push_obj(*coroutine),
        Reaction::Forward { promise } => m.push_obj(*promise),
        Reaction::Combinator { state, .. } => m.push_obj(*state),
        Reaction::FinishMain => {}
        Reaction::FinishMainWith { value } => m.push(*value),
        Reaction::Thenable { promise, then } => {
            m.push_obj(*promise);
            m.push(*then);
        }
        Reaction::ThenCapability { on_fulfilled, on_rejected, resolve, reject } => {
            for v in [on_fulfilled, on_rejected, resolve, reject] {
                m.push(*v);
            }
        }
    }
}
