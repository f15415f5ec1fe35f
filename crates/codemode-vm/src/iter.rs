//! Iteration as the VM drives it natively: for-of, spread, destructuring and for-in over arrays,
//! strings, Maps, Sets and iterator objects the built-ins create.
//!
//! Program-defined iterables (`[Symbol.iterator]`) are driven by `user_iter.rs`.

use crate::meter::Work;
use codemode_bytecode::ErrorKind;

use crate::Vm;
use crate::call::Throw;
use crate::object::{IterState, MapIterMode, ObjKind};
use crate::value::{ARRAY_ITER_DONE, ArrayCursor, ObjId, Value};

impl Vm {
    /// The state of iterator object `id`, to change it (`None` for any other object).
    pub(crate) fn iter_state_mut(&mut self, id: ObjId) -> Option<&mut IterState> {
        match &mut self.heap.obj_mut(id).kind {
            ObjKind::Iterator(state) => Some(state),
            _ => None,
        }
    }

    pub(crate) fn new_iterator(&mut self, state: IterState) -> Result<Value, Throw> {
        let proto = Some(self.realm.iterator_proto);
        Ok(Value::Obj(self.alloc(ObjKind::Iterator(state), proto)?))
    }

    /// `GetIterator(v)`.
    pub(crate) fn get_iterator(&mut self, v: Value) -> Result<Value, Throw> {
        let state = match v {
            Value::Str(s) => IterState::String { string: s, next: 0 },
            Value::Obj(id) => match &self.heap.obj(id).kind {
                ObjKind::Array(_) | ObjKind::TypedArray(_) => IterState::Array { array: id, next: 0 },
                ObjKind::Map { set, .. } => IterState::Map {
                    map: id,
                    next: 0,
                    mode: if *set { MapIterMode::Keys } else { MapIterMode::Entries },
                },
                ObjKind::Iterator(_) | ObjKind::Generator(_) => return Ok(v),
                _ => return Err(self.not_iterable(v)),
            },
            _ => return Err(self.not_iterable(v)),
        };
        self.new_iterator(state)
    }

    fn not_iterable(&mut self, v: Value) -> Throw {
        let desc = match v {
            Value::Undefined => "undefined".to_string(),
            Value::Null => "null".to_string(),
            _ => self.describe_for_error(v),
        };
        self.make_error(ErrorKind::TypeError, &format!("{desc} is not iterable"))
    }

    /// One step of a [`Value::ArrayIter`] at `next`: the element (`None` when done) and the
    /// iterator to store back in its register. The array is read at each step: it may have
    /// grown or shrunk since the last one (a default initializer can push to it).
    #[inline]
    pub(crate) fn array_iter_step(&self, array: ObjId, next: u32) -> (Option<Value>, Value) {
        let item = match &self.heap.obj(array).kind {
            ObjKind::Array(items) if next != ARRAY_ITER_DONE => items.get(next as usize).copied(),
            _ => None,
        };
        match item {
            Some(v) => (Some(v), Value::ArrayIter(ArrayCursor::new(array, next.saturating_add(1)))),
            // Once done it stays done, whatever is pushed afterwards.
            None => (None, Value::ArrayIter(ArrayCursor::new(array, ARRAY_ITER_DONE))),
        }
    }

    /// The elements a [`Value::ArrayIter`] at `next` has still to give (`IterRest`).
    pub(crate) fn array_iter_rest(&self, array: ObjId, next: u32) -> Vec<Value> {
        match &self.heap.obj(array).kind {
            ObjKind::Array(items) if next != ARRAY_ITER_DONE => {
                items.get(next as usize..).map_or_else(Vec::new, <[Value]>::to_vec)
            }
            _ => Vec::new(),
        }
    }

    /// One step of the commonest native iterators, advanced in place (no clone of the state):
    /// a list, or an array iterator over an array (for-of and destructuring of arrays). `None`
    /// when `it` is some other iterator; else the next value, `None` when done.
    #[inline]
    pub(crate) fn native_step(&mut self, it: Value) -> Option<Option<Value>> {
        let Value::Obj(id) = it else { return None };
        let (array, next) = match &mut self.heap.obj_mut(id).kind {
            ObjKind::Iterator(IterState::List { items, next }) => {
                let v = items.get(*next as usize).copied();
                *next = next.saturating_add(1);
                return Some(v);
            }
            ObjKind::Iterator(IterState::Array { array, next }) => (*array, *next),
            _ => return None,
        };
        // Read at each step: the array may have grown or shrunk since the last one.
        let value = match &self.heap.obj(array).kind {
            ObjKind::Array(items) => items.get(next as usize).copied(),
            _ => return None,
        };
        if let ObjKind::Iterator(state) = &mut self.heap.obj_mut(id).kind {
            *state = match value {
                Some(_) => IterState::Array { array, next: next.saturating_add(1) },
                // Once done it stays done, whatever is pushed afterwards.
                None => IterState::Done,
            };
        }
        Some(value)
    }

    /// The next value of a native iterator, or `None` when done.
    pub(crate) fn iter_next(&mut self, it: Value) -> Result<Option<Value>, Throw> {
        if let Some(step) = self.native_step(it) {
            return Ok(step);
        }
        let Value::Obj(id) = it else { return Ok(None) };
        let state = match &self.heap.obj(id).kind {
            ObjKind::Iterator(s) => s.clone(),
            _ => return Ok(None),
        };
        let (value, next_state) = match state {
            // Over an array it was stepped in place above (`native_step`).
            IterState::Array { array, next } => match &self.heap.obj(array).kind {
                ObjKind::TypedArray(t) => match t.get(&self.heap, next as usize) {
                    Some(n) => (Some(self.elem_value(n)?), IterState::Array { array, next: next + 1 }),
                    None => (None, IterState::Done),
                },
                _ => (None, IterState::Done),
            },
            IterState::String { string, next } => {
                let text = self.heap.str(string);
                match text.get(next as usize..).and_then(|rest| rest.chars().next()) {
                    Some(c) => {
                        let len = c.len_utf8() as u32;
                        let v = self.new_string(c.encode_utf8(&mut [0; 4]))?;
                        (Some(v), IterState::String { string, next: next + len })
                    }
                    None => (None, IterState::Done),
                }
            }
            IterState::Map { map, mut next, mode } => {
                let entry = match &self.heap.obj(map).kind {
                    ObjKind::Map { entries, .. } => {
                        let mut found = None;
                        while let Some(e) = entries.get(next as usize) {
                            next += 1;
                            if let Some(pair) = e {
                                found = Some(*pair);
                                break;
                            }
                        }
                        found
                    }
                    _ => None,
                };
                match entry {
                    Some((k, v)) => {
                        let out = match mode {
                            MapIterMode::Keys => k,
                            MapIterMode::Values => v,
                            MapIterMode::Entries => self.new_array([k, v])?,
                        };
                        (Some(out), IterState::Map { map, next, mode })
                    }
                    None => (None, IterState::Done),
                }
            }
            // Lists advanced in place above.
            IterState::List { .. } | IterState::Done => (None, IterState::Done),
            IterState::Helper(_) | IterState::Joined(_) => {
                let msg = "an iterator helper cannot be stepped here; spread it into an array first";
                return Err(self.make_error(ErrorKind::TypeError, msg));
            }
        };
        if let ObjKind::Iterator(s) = &mut self.heap.obj_mut(id).kind {
            *s = next_state;
        }
        Ok(value)
    }

    /// An iterator over the enumerable string keys of `v` and its prototypes (for-in).
    pub(crate) fn for_in_iterator(&mut self, v: Value) -> Result<Value, Throw> {
        let mut items = Vec::new();
        if let Value::Obj(start) = v {
            // Keys already produced (shadowed keys further up the chain are skipped): a hash set,
            // so enumeration is linear in the number of keys.
            let mut seen: crate::value::FastSet<crate::props::Key> = Default::default();
            let mut cur = Some(start);
            let mut depth = 0;
            while let Some(id) = cur {
                depth += 1;
                if depth > 10_000 {
                    break;
                }
                if let ObjKind::Proxy { .. } = self.heap.obj(id).kind {
                    return Err(self.proxy_unsupported("for-in"));
                }
                for key in self.own_keys(id)? {
                    if seen.insert(key) {
                        items.push(self.key_to_value(key)?);
                    }
                }
                cur = self.heap.obj(id).proto;
            }
        } else if let Value::Str(s) = v {
            let n = self.heap.string(s).utf16_len();
            for i in 0..n {
                items.push(self.new_string(&i.to_string())?);
            }
        }
        self.charge(Work::Elements(items.len()));
        self.new_iterator(IterState::List { items, next: 0 })
    }

    /// All values of an iterable (spread, `Array.from`, `Promise.all`).
    pub(crate) fn collect_iterable(&mut self, v: Value) -> Result<Vec<Value>, Throw> {
        if let Value::Obj(id) = v
            && let ObjKind::Array(items) = &self.heap.obj(id).kind
        {
            return Ok(items.to_vec());
        }
        if self.as_generator(v).is_some() {
            let msg = "a generator cannot be iterated here; spread it into an array first ([...gen])";
            return Err(self.make_error(ErrorKind::TypeError, msg));
        }
        let it = self.get_iterator(v)?;
        let mut out = Vec::new();
        while let Some(x) = self.iter_next(it)? {
            // The list is Rust's until the caller makes it an array: its growth is charged
            // before it happens (a 16 MB string's characters held 256 MB uncharged).
            if out.len() == out.capacity() {
                let more = out.capacity().max(4);
                self.charge_memory(more * crate::heap::VALUE_SIZE)?;
                out.reserve_exact(more);
            }
            out.push(x);
        }
        Ok(out)
    }
}
