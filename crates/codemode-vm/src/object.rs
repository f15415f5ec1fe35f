//! Objects: an ordered property map, a prototype link, and a kind that carries whatever the
//! object is besides its properties (array elements, a closure, a promise's state, ...).

use serde::{Deserialize, Serialize};

use crate::builtins::Native;
use crate::frame::SavedFrame;
use crate::promise::PromiseState;
use crate::value::{Atom, CellId, ObjId, StrId, Value};

pub const ACCESSOR: u8 = 1;
pub const HIDDEN: u8 = 2; // not enumerable
/// A class's private name (`#x`): hidden from every enumeration and reflection, reached only by
/// the private-name instructions. Always set together with [`HIDDEN`].
pub const PRIVATE: u8 = 4;
/// Not writable: assignments throw a `TypeError`.
pub const READONLY: u8 = 8;
/// Not configurable: cannot be deleted or redefined.
pub const FIXED: u8 = 16;

/// Object-level integrity ([`PropMap::integrity`]).
pub mod integrity {
    /// No property can be added (`Object.preventExtensions`, `seal`, `freeze`).
    pub const NON_EXTENSIBLE: u8 = 1;
    /// Array elements cannot be removed (`seal`, `freeze`).
    pub const SEALED_ELEMENTS: u8 = 2;
    /// Array elements cannot be written (`freeze`).
    pub const FROZEN_ELEMENTS: u8 = 4;
    /// Not an integrity level: a function whose `name` and `length` are real slots now (see
    /// `Vm::own_function_props`), so they are no longer answered from its code.
    pub const OWN_FUNCTION_PROPS: u8 = 8;
}

/// A property: its key, its flags and its value, in 16 bytes. The value is kept as
/// [`Value::to_parts`] (a tag and a `u64`), not as a [`Value`], whose 16 bytes are mostly padding:
/// the key and flags fit beside the tag, so a property costs 16 bytes instead of 24 (an object of
/// four properties allocates 64 bytes for them, not 96). Saved as `{key, value, flags}`.
#[derive(Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(from = "SlotData", into = "SlotData")]
pub struct Slot {
    pub key: Atom,
    pub flags: u8,
    tag: u8,
    bits: u64,
}

impl Slot {
    #[inline]
    pub fn new(key: Atom, value: Value, flags: u8) -> Slot {
        let (tag, bits) = value.to_parts();
        Slot { key, flags, tag, bits }
    }

    #[inline]
    pub fn value(&self) -> Value {
        Value::from_parts(self.tag, self.bits)
    }

    /// Whether the value refers to something in the heap: the collector decodes only those.
    #[inline]
    pub fn value_refers_to_heap(&self) -> bool {
        crate::value::tag::refers_to_heap(self.tag)
    }

    #[inline]
    pub fn set_value(&mut self, value: Value) {
        (self.tag, self.bits) = value.to_parts();
    }
}

impl std::fmt::Debug for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slot")
            .field("key", &self.key)
            .field("value", &self.value())
            .field("flags", &self.flags)
            .finish()
    }
}

/// [`Slot`] as saved (the format before slots were packed).
#[derive(Serialize, Deserialize)]
struct SlotData {
    key: Atom,
    value: Value,
    flags: u8,
}

impl From<SlotData> for Slot {
    fn from(d: SlotData) -> Slot {
        Slot::new(d.key, d.value, d.flags)
    }
}

impl From<Slot> for SlotData {
    fn from(s: Slot) -> SlotData {
        SlotData { key: s.key, value: s.value(), flags: s.flags }
    }
}

/// Properties in insertion order. Small maps are searched linearly (most objects have a handful of
/// properties); past [`INDEX_THRESHOLD`] a hash index is kept beside them.
///
/// **Every operation is O(1) amortized.** `delete` leaves a tombstone (a slot whose key is
/// [`Atom::DELETED`]) instead of shifting the slots and rebuilding the index; the map compacts
/// itself when tombstones outnumber live slots. Iterate with [`PropMap::iter`], which skips them.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PropMap {
    slots: Vec<Slot>,
    /// Tombstones among `slots`.
    #[serde(default)]
    deleted: u32,
    /// [`integrity`] bits of the object that owns the map (kept here, in the map's padding, so
    /// that objects do not grow).
    #[serde(default)]
    pub integrity: u8,
    /// Boxed: most objects never have one, and the map's table would make every object 24 bytes
    /// larger (an `Object` is 96 bytes with the box, 120 without).
    #[serde(skip)]
    index: Option<Box<crate::value::FastMap<Atom, u32>>>,
}

const INDEX_THRESHOLD: usize = 12;

impl Clone for PropMap {
    fn clone(&self) -> Self {
        PropMap {
            slots: self.slots.clone(),
            deleted: self.deleted,
            integrity: self.integrity,
            index: self.index.clone(),
        }
    }

    /// Reuses this map's slot buffer when it has exactly the capacity a fresh copy would have:
    /// memory accounting reads capacities, so a reset heap (see `Heap::reset_to`) must not
    /// differ from a copy in them.
    fn clone_from(&mut self, source: &Self) {
        if self.slots.capacity() == source.slots.len() {
            self.slots.clone_from(&source.slots);
        } else {
            self.slots = source.slots.clone();
        }
        self.deleted = source.deleted;
        self.integrity = source.integrity;
        self.index = source.index.clone();
    }
}

/// Bytes per entry of a property map's hash index (key, position, control byte, load factor).
pub const INDEX_ENTRY_BYTES: usize = 16;

impl PropMap {
    #[inline]
    pub fn find(&self, key: Atom) -> Option<usize> {
        if key == Atom::DELETED {
            return None;
        }
        if self.slots.len() <= INDEX_THRESHOLD {
            self.slots.iter().position(|s| s.key == key)
        } else if let Some(index) = &self.index {
            index.get(&key).map(|&i| i as usize)
        } else {
            self.slots.iter().position(|s| s.key == key)
        }
    }

    /// A map of data properties whose keys are distinct and live (a JSON object's members),
    /// built at once.
    pub fn from_distinct(slots: Vec<Slot>) -> PropMap {
        let mut map = PropMap { slots, deleted: 0, integrity: 0, index: None };
        if map.slots.len() > INDEX_THRESHOLD {
            map.rebuild_index();
        }
        map
    }

    /// Whether the map keeps a hash index (more than a handful of properties: searching it
    /// costs a hash).
    #[inline]
    pub fn is_indexed(&self) -> bool {
        self.index.is_some()
    }

    /// The slot at `index` (from [`PropMap::find`]); a tombstone is a slot whose key is
    /// [`Atom::DELETED`].
    #[inline]
    pub fn slot(&self, index: usize) -> Option<&Slot> {
        self.slots.get(index)
    }

    /// The slot at `index` (from [`PropMap::find`]), to update in place.
    #[inline]
    pub fn slot_mut(&mut self, index: usize) -> Option<&mut Slot> {
        self.slots.get_mut(index)
    }

    #[inline]
    pub fn get(&self, key: Atom) -> Option<&Slot> {
        self.find(key).and_then(|i| self.slots.get(i))
    }

    /// Sets a data property (adding it at the end when new). Returns the slot index.
    pub fn set(&mut self, key: Atom, value: Value, flags: u8) -> usize {
        if let Some(i) = self.find(key) {
            if let Some(slot) = self.slots.get_mut(i) {
                slot.set_value(value);
                slot.flags = flags;
            }
            return i;
        }
        self.slots.push(Slot::new(key, value, flags));
        let i = self.slots.len() - 1;
        if self.slots.len() > INDEX_THRESHOLD {
            match &mut self.index {
                Some(index) => {
                    index.insert(key, i as u32);
                }
                None => self.rebuild_index(),
            }
        }
        i
    }

    pub fn remove(&mut self, key: Atom) -> bool {
        let Some(i) = self.find(key) else { return false };
        if let Some(slot) = self.slots.get_mut(i) {
            *slot = Slot::new(Atom::DELETED, Value::Undefined, 0);
            self.deleted += 1;
        }
        if let Some(index) = &mut self.index {
            index.remove(&key);
        }
        if self.deleted as usize * 2 > self.slots.len() {
            self.compact();
        }
        true
    }

    /// Drops the tombstones (amortized: runs after as many deletes as there are live slots).
    fn compact(&mut self) {
        self.slots.retain(|s| s.key != Atom::DELETED);
        self.deleted = 0;
        if self.slots.len() > INDEX_THRESHOLD {
            self.rebuild_index();
        } else {
            self.index = None;
        }
    }

    fn rebuild_index(&mut self) {
        self.index = Some(Box::new(
            self.slots
                .iter()
                .enumerate()
                .filter(|(_, s)| s.key != Atom::DELETED)
                .map(|(i, s)| (s.key, i as u32))
                .collect(),
        ));
    }

    /// The live properties in insertion order.
    /// Slots held, deleted ones included: an upper bound of the live properties.
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Slot> {
        self.slots.iter().filter(|s| s.key != Atom::DELETED)
    }

    /// The slots [`PropMap::set`] of `key` would add to the allocation (charged before, then
    /// reserved with [`PropMap::reserve_exact`]).
    pub fn growth_for(&self, key: Atom) -> usize {
        if self.slots.len() < self.slots.capacity() || self.find(key).is_some() {
            0
        } else {
            self.slots.capacity().max(4)
        }
    }

    /// [`PropMap::growth_for`] of a key known to be absent.
    #[inline]
    pub fn growth_for_new(&self) -> usize {
        if self.slots.len() < self.slots.capacity() { 0 } else { self.slots.capacity().max(4) }
    }

    /// Adds a slot for a key known to be absent (after [`PropMap::find`] said so).
    pub fn push_new(&mut self, key: Atom, value: Value, flags: u8) {
        self.slots.push(Slot::new(key, value, flags));
        if self.slots.len() > INDEX_THRESHOLD {
            let i = self.slots.len() - 1;
            match &mut self.index {
                Some(index) => {
                    index.insert(key, i as u32);
                }
                None => self.rebuild_index(),
            }
        }
    }

    /// Bytes the hash index holds (about: entries, control bytes and spare capacity).
    pub fn index_bytes(&self) -> usize {
        self.index.as_ref().map_or(0, |i| i.capacity() * INDEX_ENTRY_BYTES)
    }

    pub fn reserve_exact(&mut self, additional: usize) {
        self.slots.reserve_exact(additional);
    }

    /// Slots allocated (live, deleted and spare), for memory accounting.
    pub fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    /// Sets the flags of every live slot to `flags | extra`, except accessors, which get only
    /// the bits of `accessor_extra` (freezing leaves accessors callable).
    pub fn add_flags(&mut self, extra: u8, accessor_extra: u8) {
        for slot in self.slots.iter_mut().filter(|s| s.key != Atom::DELETED) {
            slot.flags |= if slot.flags & ACCESSOR != 0 { accessor_extra } else { extra };
        }
    }

    /// Whether every live slot has all of `flags` (accessors: all of `accessor_flags`).
    pub fn all_have(&self, flags: u8, accessor_flags: u8) -> bool {
        self.iter().all(|s| {
            let want = if s.flags & ACCESSOR != 0 { accessor_flags } else { flags };
            s.flags & want == want
        })
    }

    pub fn is_empty(&self) -> bool {
        self.slots.len() == self.deleted as usize
    }
}

/// The cells a closure captured. Most closures capture one or none: one is kept inline, so
/// creating such a closure allocates nothing beyond its object; either way 16 bytes (the box's
/// non-null pointer tells the two apart). Saved as the list of cells.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "Box<[CellId]>", into = "Box<[CellId]>")]
pub enum Captures {
    One(CellId),
    Many(Box<[CellId]>),
}

impl From<Box<[CellId]>> for Captures {
    fn from(cells: Box<[CellId]>) -> Self {
        match *cells {
            [one] => Captures::One(one),
            _ => Captures::Many(cells),
        }
    }
}

impl From<Captures> for Box<[CellId]> {
    fn from(captures: Captures) -> Self {
        match captures {
            Captures::One(one) => Box::new([one]),
            Captures::Many(cells) => cells,
        }
    }
}

impl std::ops::Deref for Captures {
    type Target = [CellId];

    fn deref(&self) -> &[CellId] {
        match self {
            Captures::One(one) => std::slice::from_ref(one),
            Captures::Many(cells) => cells,
        }
    }
}

/// An array's elements. Up to two are kept in the object itself, without an allocation of their
/// own: pairs (`[key, value]`, `split` into two) are the commonest small arrays, and this fits in
/// the object kind's size as it is.
pub type Elements = smallvec::SmallVec<[Value; 2]>;

/// Bytes an array object's elements hold outside it (none while they fit inline).
#[inline]
pub fn elements_bytes(object: &Object) -> usize {
    match &object.kind {
        ObjKind::Array(items) if items.spilled() => items.capacity() * crate::heap::VALUE_SIZE,
        _ => 0,
    }
}

/// What a function object calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Callable {
    /// A compiled function with its captured cells; arrows also carry the `this` they closed over.
    Closure { func: u32, captures: Captures, this: Value },
    /// A built-in, with values it was bound to (resolving functions, `Promise.all` elements, ...).
    Native { native: Native, data: Box<[Value]> },
    /// `tools.a.b`: reading a property goes one level deeper; calling it calls the tool at `path`.
    Tool { path: Box<str> },
    /// `f.bind(this, ...args)`.
    Bound { target: ObjId, this: Value, args: Box<[Value]> },
    /// A class constructor: a compiled function callable only with `new`, and the closure that
    /// defines its instances' fields (`undefined` when the class declares none).
    Class { func: u32, captures: Captures, fields: Value },
}

/// The state of an iterator the VM drives natively (for-of, spread, destructuring, for-in).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum IterState {
    /// Array elements (also `arguments` and array `values()`).
    Array {
        array: ObjId,
        next: u32,
    },
    /// A string's code points; `next` is a byte offset.
    String {
        string: StrId,
        next: u32,
    },
    /// A precomputed list (for-in keys, `Object.entries` iterators, Map/Set snapshots).
    List {
        items: Vec<Value>,
        next: u32,
    },
    /// `[key, value]` or key or value of a Map, live over its entries.
    Map {
        map: ObjId,
        next: u32,
        mode: MapIterMode,
    },
    /// An iterator helper (`it.map(f)`, ...): stepped by calls, never natively.
    Helper(Box<crate::builtins::Helper>),
    /// What `Iterator.from` (a wrapper), `Iterator.concat`, `zip` and `zipKeyed` return:
    /// stepped by calls, never natively (`builtins/iterator_statics.rs`).
    Joined(Box<crate::builtins::Joined>),
    Done,
}

impl IterState {
    /// Whether the iterator is stepped through its `next()` like a program's iterator (a
    /// helper or a joined iterator), not natively.
    pub(crate) fn is_called(&self) -> bool {
        matches!(self, IterState::Helper(_) | IterState::Joined(_))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MapIterMode {
    Keys,
    Values,
    Entries,
}

/// A Map's hash index (`builtins/map_set.rs`): slots holding entry positions; none for a small
/// map. **One pointer wide**, so that the `Map` variant stays within the 40 bytes of the largest
/// variants: wider (a boxed slice, 16 bytes), it made rustc keep `ObjKind`'s tag in the entries'
/// capacity instead of a byte of its own, and every kind test in the VM paid to decode it (1–2%
/// more instructions across the benchmark workloads). Saved as the slice of slots.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapIndex(Option<Box<Box<[u32]>>>);

impl MapIndex {
    /// An index of these slots (none when empty).
    pub(crate) fn new(slots: Vec<u32>) -> MapIndex {
        MapIndex((!slots.is_empty()).then(|| Box::new(slots.into_boxed_slice())))
    }

    pub(crate) fn slots(&self) -> &[u32] {
        self.0.as_deref().map_or(&[], |slots| slots)
    }

    pub(crate) fn slots_mut(&mut self) -> &mut [u32] {
        self.0.as_deref_mut().map_or(&mut [], |slots| slots)
    }
}

impl Serialize for MapIndex {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.slots().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for MapIndex {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<MapIndex, D::Error> {
        Vec::<u32>::deserialize(deserializer).map(MapIndex::new)
    }
}

/// What an Error object carries besides `name` and `message`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorInfo {
    /// How an uncaught throw of this error is classified (host failures are tagged).
    pub kind: crate::host::FailureKind,
    /// Where it was created (1-based line, column).
    pub location: Option<(u32, u32)>,
    /// The frames running when it was made (`Error.prototype.stack`, `stack_trace.rs`).
    #[serde(default)]
    pub stack: Option<Box<crate::stack_trace::StackTrace>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ObjKind {
    Plain,
    Array(Elements),
    Function(Callable),
    Error(ErrorInfo),
    Promise(Box<PromiseState>),
    Iterator(IterState),
    /// A suspended async function activation.
    Coroutine(Box<SavedFrame>),
    /// A generator object: its suspended frame and state.
    Generator(Box<crate::generator::GeneratorState>),
    RegExp {
        source: Box<str>,
        flags: Box<str>,
        last_index: u32,
    },
    Date(#[serde(with = "crate::value::f64_bits")] f64),
    /// A getter/setter pair stored as the value of an accessor property slot.
    Accessor {
        get: Value,
        set: Value,
    },
    /// Map and Set: entries in insertion order; deleted entries become `None` so live iterators
    /// keep their place.
    /// `live` counts the entries that are `Some`; `table` is the hash index of entry positions
    /// (`builtins/map_set.rs`; empty for small maps).
    Map {
        entries: Vec<Option<(Value, Value)>>,
        set: bool,
        live: u32,
        table: MapIndex,
    },
    /// `WeakMap`, `WeakSet`, `WeakRef` (`builtins/weak.rs`).
    Weak(Box<crate::builtins::WeakState>),
    /// `DisposableStack` (`builtins/disposable.rs`).
    Disposable(Box<crate::builtins::disposable::DisposableState>),
    /// Boxed primitives (`new String("x")` is not supported; used for `Object(1)`-style wrappers).
    Boxed(Value),
    /// An `ArrayBuffer`: its bytes (`builtins/array_buffer.rs`).
    ArrayBuffer(Box<crate::builtins::BufferData>),
    /// A typed array: a view of a buffer (`builtins/typed_array.rs`).
    TypedArray(crate::builtins::TypedArrayData),
    /// A `DataView` (`builtins/data_view.rs`).
    DataView(crate::builtins::ViewData),
    /// A `TextEncoder` or `TextDecoder` (`builtins/text_codec.rs`).
    TextCodec(crate::builtins::Codec),
    /// A `URL`, a `URLSearchParams` or an iterator of one (`builtins/url.rs`).
    Url(Box<crate::builtins::UrlState>),
    /// A `Proxy` (`proxy.rs`): no own properties and no prototype link of its own (`proto` is
    /// `None`), so ordinary lookups meet it only where they miss, at the end of a chain.
    /// `handler` is `None` once revoked; `callable`/`constructor` are fixed at creation from the
    /// target.
    Proxy {
        target: ObjId,
        handler: Option<ObjId>,
        callable: bool,
        constructor: bool,
    },
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Object {
    pub proto: Option<ObjId>,
    pub props: PropMap,
    pub kind: ObjKind,
}

impl Clone for Object {
    fn clone(&self) -> Self {
        Object { proto: self.proto, props: self.props.clone(), kind: self.kind.clone() }
    }

    /// Keeps the property map's buffer where it can (see [`PropMap`]'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.proto = source.proto;
        self.props.clone_from(&source.props);
        self.kind = source.kind.clone();
    }
}

impl Default for Object {
    fn default() -> Self {
        Object::plain(None)
    }
}

impl Object {
    pub fn plain(proto: Option<ObjId>) -> Self {
        Object { proto, props: PropMap::default(), kind: ObjKind::Plain }
    }

    pub fn with_kind(proto: Option<ObjId>, kind: ObjKind) -> Self {
        Object { proto, props: PropMap::default(), kind }
    }

    /// Bytes beyond the fixed overhead, for memory accounting.
    #[inline]
    pub fn extra_bytes(&self) -> usize {
        // The objects made most often (plain objects and closures before their first property,
        // arrays) answer here, inline; the rest out of line.
        if self.props.capacity() == 0 {
            match &self.kind {
                ObjKind::Plain => return 0,
                ObjKind::Function(Callable::Closure { captures, .. }) => {
                    return captures.len() * std::mem::size_of::<CellId>();
                }
                ObjKind::Array(_) => return elements_bytes(self),
                _ => {}
            }
        }
        self.extra_bytes_any()
    }

    /// Whether the object holds no allocation of its own (no property storage; plain, or a
    /// closure with at most one capture): dropping it frees nothing, so the collector's sweep
    /// forgets it instead (most garbage is such closures and empty objects).
    #[inline]
    pub fn holds_nothing(&self) -> bool {
        // Every field named: a new one has to be considered here.
        let Object { proto: _, props, kind } = self;
        props.capacity() == 0
            && !props.is_indexed()
            && match kind {
                ObjKind::Plain => true,
                ObjKind::Array(items) => !items.spilled(),
                ObjKind::Function(Callable::Closure { captures, .. }) => match captures {
                    Captures::One(_) => true,
                    Captures::Many(list) => list.is_empty(),
                },
                _ => false,
            }
    }

    /// [`Object::extra_bytes`] of any object.
    #[inline]
    fn extra_bytes_any(&self) -> usize {
        use crate::heap::VALUE_SIZE;
        use std::mem::size_of;
        let kind = match &self.kind {
            ObjKind::Array(_) => elements_bytes(self),
            ObjKind::Map { entries, table, .. } => {
                entries.capacity() * 2 * VALUE_SIZE + std::mem::size_of_val::<[u32]>(table.slots())
            }
            ObjKind::Promise(p) => {
                size_of::<PromiseState>() + p.reactions.capacity() * size_of::<crate::promise::Reaction>()
            }
            ObjKind::Coroutine(saved) => size_of::<SavedFrame>() + saved.registers.capacity() * VALUE_SIZE,
            ObjKind::Generator(state) => {
                size_of::<crate::generator::GeneratorState>()
                    + state
                        .saved
                        .as_ref()
                        .map_or(0, |s| size_of::<SavedFrame>() + s.registers.capacity() * VALUE_SIZE)
            }
            ObjKind::Function(Callable::Closure { captures, .. } | Callable::Class { captures, .. }) => {
                captures.len() * size_of::<CellId>()
            }
            ObjKind::Function(Callable::Native { data, .. }) => data.len() * VALUE_SIZE,
            ObjKind::Function(Callable::Bound { args, .. }) => args.len() * VALUE_SIZE,
            ObjKind::Function(Callable::Tool { path }) => path.len(),
            ObjKind::Iterator(IterState::List { items, .. }) => items.capacity() * VALUE_SIZE,
            ObjKind::Iterator(IterState::Joined(j)) => j.extra_bytes(),
            ObjKind::RegExp { source, flags, .. } => source.len() + flags.len(),
            ObjKind::Weak(w) => w.extra_bytes(),
            ObjKind::Disposable(d) => d.extra_bytes(),
            ObjKind::Url(u) => u.extra_bytes(),
            ObjKind::ArrayBuffer(b) => size_of::<crate::builtins::BufferData>() + b.bytes.capacity(),
            ObjKind::Error(info) => info.stack.as_ref().map_or(0, |t| t.heap_bytes()),
            _ => 0,
        };
        self.props.capacity() * size_of::<Slot>() + self.props.index_bytes() + kind
    }

    pub fn is_callable(&self) -> bool {
        matches!(self.kind, ObjKind::Function(_) | ObjKind::Proxy { callable: true, .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// **An object's kind is 48 bytes and the `Map` variant's index one pointer.** A variant
    /// wider than the 40-byte ones (`Array`, `Function`) moves the tag into a niche, which every
    /// kind test then decodes (sizes alone do not show it: `RUSTC_BOOTSTRAP=1 cargo rustc -p
    /// codemode-vm --lib -- -Zprint-type-sizes` lists `discriminant: 1 bytes` for `ObjKind`).
    #[test]
    fn obj_kind_stays_small_with_map_index_one_pointer() {
        assert_eq!(std::mem::size_of::<MapIndex>(), 8);
        assert_eq!(std::mem::size_of::<ObjKind>(), 48);
    }

    #[test]
    fn map_index_saves_as_its_slots() {
        let index = MapIndex::new(vec![3, u32::MAX, 1]);
        let json = serde_json::to_string(&index).unwrap_or_default();
        assert_eq!(json, "[3,4294967295,1]");
        let back: MapIndex = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, index);
        let empty: MapIndex = serde_json::from_str("[]").unwrap_or_else(|_| MapIndex::new(vec![9]));
        assert_eq!(empty, MapIndex::default());
        assert!(empty.slots().is_empty());
    }
}
