//! The heap: arenas of strings, objects and closure cells, the atom table, memory accounting.
//!
//! **Everything is addressed by index.** Arenas are `Vec<Option<T>>` with a free list; the
//! garbage collector (`gc.rs`) marks from the machine's roots and frees unmarked slots. Nothing here
//! holds a pointer, so the whole heap derives `Serialize`/`Deserialize`.
//!
//! **Every allocation is charged** to `bytes_used` against `memory_limit`; exceeding it is
//! reported to the interpreter, which throws a `RangeError` the program cannot outgrow.

use std::hash::BuildHasherDefault;
use std::sync::LazyLock;

use compact_str::CompactString;
use serde::{Deserialize, Serialize};

pub use crate::arena::Arena;
use crate::builtins::Utf16Index;
use crate::object::Object;
use crate::value::{Atom, BigId, CellId, ObjId, StrId, Value};

/// A string value. JavaScript strings are UTF-16; we store UTF-8 and remember whether the text is
/// ASCII, where UTF-16 indices and byte indices agree. Non-ASCII text carries a [`Utf16Index`] so
/// that `length` and indexing stay O(1). Serialized as its text alone (the index is rebuilt).
///
/// Text of up to 24 bytes is stored inline (`CompactString`), without an allocation of its own:
/// most strings a program makes (keys, words, numbers, short fields of tool results) are that short.
#[derive(Clone, Debug)]
pub struct JsString {
    text: CompactString,
    /// Present exactly when the text is not ASCII.
    utf16: Option<Box<Utf16Index>>,
}

/// Strings are equal by their text (the rest is derived from it, or a cache).
impl PartialEq for JsString {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

/// Saved as its text, written in place (not copied first, as `serde(into)` would).
impl Serialize for JsString {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.text.as_str())
    }
}

impl<'de> Deserialize<'de> for JsString {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<str>::deserialize(deserializer).map(JsString::from)
    }
}

impl From<Box<str>> for JsString {
    fn from(text: Box<str>) -> Self {
        JsString::new(text)
    }
}

impl JsString {
    #[inline]
    pub fn new(text: impl Into<CompactString>) -> Self {
        let text = text.into();
        let utf16 = if text.is_ascii() { None } else { Some(Box::new(Utf16Index::build(&text))) };
        JsString { text, utf16 }
    }

    /// The text, as UTF-8.
    #[inline]
    pub fn as_str(&self) -> &str {
        self.text.as_str()
    }

    /// Whether the text is ASCII (UTF-16 indices and byte indices agree).
    #[inline]
    pub fn is_ascii(&self) -> bool {
        self.utf16.is_none()
    }

    /// Whether the text has an allocation of its own (it is longer than 24 bytes).
    #[cfg(test)]
    pub fn text_is_allocated(&self) -> bool {
        self.text.is_heap_allocated()
    }

    /// Length in UTF-16 code units (JavaScript's `length`).
    pub fn utf16_len(&self) -> usize {
        crate::builtins::Text::of(self).len()
    }

    pub(crate) fn utf16_index(&self) -> Option<&Utf16Index> {
        self.utf16.as_deref()
    }

    /// Bytes this string holds beyond the fixed overhead.
    pub fn heap_bytes(&self) -> usize {
        self.text.len() + self.utf16.as_ref().map_or(0, |i| i.bytes())
    }
}

/// A BigInt value (immutable once allocated). Serialized as its two's-complement bytes,
/// little-endian, so saved state needs no bignum support from serde.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "Vec<u8>", into = "Vec<u8>")]
pub struct JsBigInt(pub num_bigint::BigInt);

impl From<Vec<u8>> for JsBigInt {
    fn from(bytes: Vec<u8>) -> Self {
        JsBigInt(num_bigint::BigInt::from_signed_bytes_le(&bytes))
    }
}

impl From<JsBigInt> for Vec<u8> {
    fn from(b: JsBigInt) -> Self {
        b.0.to_signed_bytes_le()
    }
}

impl JsBigInt {
    /// Bytes this value holds beyond the fixed overhead (its 64-bit limbs).
    pub fn heap_bytes(&self) -> usize {
        (self.0.bits() as usize).div_ceil(64) * 8
    }
}

/// The interned property names, and the symbols. Atoms are never freed: their count is bounded
/// by the memory budget.
///
/// All names live in one string buffer (so copying the table, which every run does from the
/// pristine realm, is two allocations), indexed by a hash of the name.
///
/// **A symbol is an atom that no name finds.** `Symbol("x")` takes a fresh atom whose text is
/// its description and whose kind is not [`AtomKind::Name`]; it is left out of the name index,
/// so no string can ever produce that key. Property maps need no second key type.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Atoms {
    text: String,
    /// `(start, end)` of each name in `text`.
    spans: Vec<(u32, u32)>,
    /// What each atom is (an [`AtomKind`] as a byte); names when shorter than `spans`.
    #[serde(default)]
    kinds: Vec<u8>,
    /// Name hash → atoms with that hash (collisions are rare, so one inline slot).
    #[serde(skip)]
    index: NameIndex,
    #[serde(skip)]
    indexed: usize,
    /// `Symbol.for` keys → their symbols (rebuilt with `index`).
    #[serde(skip)]
    registry: crate::value::FastMap<Box<str>, u32>,
}

/// A copy with room for a run's own names (see [`Arena`]'s `Clone`; the name index keeps the
/// spare capacity [`Atoms::reserve_for_runs`] gave the pristine table, as a hash map's copy does).
impl Clone for Atoms {
    fn clone(&self) -> Self {
        let mut text = String::with_capacity(self.text.len() + 1024);
        text.push_str(&self.text);
        let mut spans = Vec::with_capacity(self.spans.len() + 64);
        spans.extend_from_slice(&self.spans);
        let mut kinds = Vec::with_capacity(self.kinds.len() + 64);
        kinds.extend_from_slice(&self.kinds);
        Atoms {
            text,
            spans,
            kinds,
            index: self.index.clone(),
            indexed: self.indexed,
            registry: self.registry.clone(),
        }
    }

    /// When this table is `source` plus atoms a run added (atoms are only ever appended), the
    /// added ones are taken out of the index instead of copying the whole index again.
    fn clone_from(&mut self, source: &Self) {
        self.reset_to(source, false);
    }
}

impl Atoms {
    /// Makes this table equal to `source` (`clone_from`). `copied_from_source` says this table
    /// was a copy of `source` (or reset to it) since when atoms were only appended (its fields are
    /// private to this module, and no method rewrites an atom), so the prefix need not be
    /// compared; otherwise it is.
    pub(crate) fn reset_to(&mut self, source: &Self, copied_from_source: bool) {
        let n = source.spans.len();
        let same_prefix = if copied_from_source {
            self.spans.len() >= n && self.spans.get(n.wrapping_sub(1)) == source.spans.last()
        } else {
            self.spans.get(..n) == Some(&source.spans[..])
                && self.text.as_bytes().get(..source.text.len()) == Some(source.text.as_bytes())
                && self.kinds.get(..source.kinds.len()) == Some(&source.kinds[..])
        };
        let extends_source = self.indexed == self.spans.len()
            && source.indexed == n
            && same_prefix
            && self.text.len() >= source.text.len()
            && self.kinds.len() >= source.kinds.len();
        if extends_source {
            for i in n as u32..self.spans.len() as u32 {
                match self.kind(Atom(i)) {
                    AtomKind::Name => {
                        let hash = name_hash(self.name(Atom(i)));
                        if let Ok(entry) = self.index.find_entry(hash, |&a| a == i) {
                            entry.remove();
                        }
                    }
                    AtomKind::RegisteredSymbol => {
                        let key = self.name(Atom(i)).to_owned();
                        self.registry.remove(key.as_str());
                    }
                    AtomKind::Symbol | AtomKind::DescribedSymbol => {}
                }
            }
            self.text.truncate(source.text.len());
            self.spans.truncate(n);
            self.kinds.truncate(source.kinds.len());
        } else {
            self.text.clone_from(&source.text);
            self.spans.clone_from(&source.spans);
            self.kinds.clone_from(&source.kinds);
            self.index.clone_from(&source.index);
            self.registry.clone_from(&source.registry);
        }
        self.indexed = source.indexed;
    }
}

impl Atoms {
    #[cfg(test)]
    pub(crate) fn text_capacity(&self) -> usize {
        self.text.capacity()
    }

    /// Keeps room for a run's own names (as a copy has, see `Clone`) and gives back the rest:
    /// for a table just reset to `source`.
    fn shrink_to_spare(&mut self, source: &Self) {
        self.text.shrink_to(source.text.len() + (64 << 10));
        self.spans.shrink_to(source.spans.len() + 4096);
        self.kinds.shrink_to(source.kinds.len() + 4096);
        let (text, spans) = (&self.text, &self.spans);
        self.index.shrink_to(source.index.capacity(), |&a| name_hash(name_in(text, spans, a)));
    }
}

/// What an atom stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum AtomKind {
    /// A property name.
    Name = 0,
    /// `Symbol()`: a symbol without a description.
    Symbol = 1,
    /// `Symbol("x")`: a symbol whose description is the atom's text.
    DescribedSymbol = 2,
    /// `Symbol.for("x")`: a registered symbol, found again by its key (the text).
    RegisteredSymbol = 3,
}

impl AtomKind {
    pub fn from_byte(b: u8) -> Option<AtomKind> {
        Some(match b {
            0 => AtomKind::Name,
            1 => AtomKind::Symbol,
            2 => AtomKind::DescribedSymbol,
            3 => AtomKind::RegisteredSymbol,
            _ => return None,
        })
    }
}

/// The atom index: the name atoms, found by [`name_hash`] of their text and compared by text.
/// It holds only the atoms' numbers (4 bytes an entry, where a map from hash to atoms took 32):
/// a run's copy of the built-ins' index is made for every run.
type NameIndex = hashbrown::HashTable<u32>;

/// The text of atom `atom` given the table's text and spans (a free function so that the index
/// can be rehashed while it is borrowed mutably).
fn name_in<'t>(text: &'t str, spans: &[(u32, u32)], atom: u32) -> &'t str {
    match spans.get(atom as usize) {
        Some(&(start, end)) => text.get(start as usize..end as usize).unwrap_or(""),
        None => "",
    }
}

fn name_hash(name: &str) -> u64 {
    use std::hash::BuildHasher;
    BuildHasherDefault::<ahash::AHasher>::default().hash_one(name)
}

impl Atoms {
    pub fn intern(&mut self, name: &str) -> Atom {
        if let Some(atom) = self.lookup(name) {
            return atom;
        }
        self.insert_new(name)
    }

    /// Adds `name`, which [`Atoms::lookup`] just did not find.
    pub fn insert_new(&mut self, name: &str) -> Atom {
        self.insert_kind(name, AtomKind::Name)
    }

    /// Adds an atom of `kind`; only names are indexed (symbols are found by identity alone,
    /// registered ones through [`Atoms::registered`]).
    pub fn insert_kind(&mut self, text: &str, kind: AtomKind) -> Atom {
        if self.indexed != self.spans.len() {
            self.rebuild_index();
        }
        let i = self.spans.len() as u32;
        let start = self.text.len() as u32;
        self.text.push_str(text);
        self.spans.push((start, self.text.len() as u32));
        if kind != AtomKind::Name || !self.kinds.is_empty() {
            self.kinds.resize(i as usize, AtomKind::Name as u8);
            self.kinds.push(kind as u8);
        }
        match kind {
            AtomKind::Name => {
                let (all, spans) = (&self.text, &self.spans);
                self.index.insert_unique(name_hash(text), i, |&a| name_hash(name_in(all, spans, a)));
            }
            AtomKind::RegisteredSymbol => {
                self.registry.insert(text.into(), i);
            }
            AtomKind::Symbol | AtomKind::DescribedSymbol => {}
        }
        self.indexed += 1;
        Atom(i)
    }

    /// What `atom` stands for.
    #[inline]
    pub fn kind(&self, atom: Atom) -> AtomKind {
        match self.kinds.get(atom.0 as usize) {
            Some(&b) => AtomKind::from_byte(b).unwrap_or(AtomKind::Name),
            None => AtomKind::Name,
        }
    }

    /// Whether `atom` is a symbol.
    #[inline]
    pub fn is_symbol(&self, atom: Atom) -> bool {
        self.kind(atom) != AtomKind::Name
    }

    /// The symbol `Symbol.for(key)` registered, if any.
    pub fn registered(&mut self, key: &str) -> Option<Atom> {
        if self.indexed != self.spans.len() {
            self.rebuild_index();
        }
        self.registry.get(key).copied().map(Atom)
    }

    /// The kinds of the atoms after the first `count` (for snapshots).
    pub(crate) fn kinds_from(&self, count: usize) -> Vec<u8> {
        (count..self.spans.len()).map(|i| self.kind(Atom(i as u32)) as u8).collect()
    }

    /// Spare room in the name index for the names a run adds: called once on the pristine
    /// table, whose copies keep it (a full index would be rehashed whole by a run's first name).
    pub(crate) fn reserve_for_runs(&mut self) {
        if self.indexed != self.spans.len() {
            self.rebuild_index();
        }
        let (text, spans) = (&self.text, &self.spans);
        self.index.reserve(256, |&a| name_hash(name_in(text, spans, a)));
    }

    pub fn lookup(&mut self, name: &str) -> Option<Atom> {
        if self.indexed != self.spans.len() {
            self.rebuild_index();
        }
        let (text, spans) = (&self.text, &self.spans);
        self.index.find(name_hash(name), |&a| name_in(text, spans, a) == name).copied().map(Atom)
    }

    /// How many names are interned.
    pub fn count(&self) -> usize {
        self.spans.len()
    }

    /// All names, one after another (for fingerprints).
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The names interned after the first `count`, in order (`None` if a span is damaged).
    pub(crate) fn names_from(&self, count: usize) -> Option<Vec<&str>> {
        let spans = self.spans.get(count..)?;
        spans.iter().map(|&(start, end)| self.text.get(start as usize..end as usize)).collect()
    }

    /// [`Atoms::lookup`] of an array index's decimal text (the name an ordinary object keeps it
    /// under), written on the stack: a read of `o[i]` that misses must not allocate.
    pub fn lookup_index(&mut self, index: u32) -> Option<Atom> {
        self.lookup(codemode_ir::IntegerDigits::of_u32(index).as_str())
    }

    /// [`Atoms::lookup`] of a heap string's text.
    pub fn lookup_in(&mut self, strings: &Arena<JsString>, id: StrId) -> Option<Atom> {
        let text = match strings.slots().get(id.0 as usize) {
            Some(Some(s)) => s.as_str(),
            _ => "",
        };
        self.lookup(text)
    }

    pub fn name(&self, atom: Atom) -> &str {
        name_in(&self.text, &self.spans, atom.0)
    }

    /// After deserialization the index is empty; it is rebuilt on first use.
    fn rebuild_index(&mut self) {
        let mut index = NameIndex::default();
        let mut registry: crate::value::FastMap<Box<str>, u32> = Default::default();
        for i in 0..self.spans.len() as u32 {
            match self.kind(Atom(i)) {
                AtomKind::Name => {
                    let (text, spans) = (&self.text, &self.spans);
                    index.insert_unique(name_hash(self.name(Atom(i))), i, |&a| {
                        name_hash(name_in(text, spans, a))
                    });
                }
                AtomKind::RegisteredSymbol => {
                    registry.insert(self.name(Atom(i)).into(), i);
                }
                AtomKind::Symbol | AtomKind::DescribedSymbol => {}
            }
        }
        self.index = index;
        self.registry = registry;
        self.indexed = self.spans.len();
    }
}

/// Raised when an allocation would exceed the memory limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory;

/// Bytes charged between collections at the least (a collection also waits for the traced heap
/// to double). Smaller keeps a program that makes garbage fast small in memory; each collection
/// marks the live heap and sweeps what was made since, so too small costs time. The built-ins a
/// run has not written are neither traced nor swept nor counted as traced heap (`gc.rs`), which
/// made an eighth of the former 1 MiB affordable: closures runs ~1,000 collections.
pub const MIN_GC_THRESHOLD: usize = 1 << 17;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Heap {
    pub strings: Arena<JsString>,
    pub objects: Arena<Object>,
    pub cells: Arena<Value>,
    /// BigInt values (`Value::BigInt`).
    #[serde(default)]
    pub bigints: Arena<JsBigInt>,
    pub atoms: Atoms,
    /// Approximate bytes held by live heap things (recomputed by every collection).
    pub bytes_used: usize,
    pub memory_limit: usize,
    /// Bytes allocated since the last collection; a collection runs when it passes `gc_threshold`.
    pub allocated_since_gc: usize,
    pub gc_threshold: usize,
    /// Bytes held outside the arenas for the rest of the run (console lines, host-call records,
    /// interned names): charged once, kept in `bytes_used` by every collection.
    #[serde(default)]
    pub retained: usize,
    /// Set when a charge was refused: the next safe point collects, so the handler that catches
    /// the out-of-memory `RangeError` runs with the garbage gone.
    #[serde(default)]
    pub collect_soon: bool,
    /// Map/Set entries deleted since the last collection (the collector compacts maps only when
    /// there were some).
    #[serde(default)]
    pub map_deletes: usize,
    /// Where writes through a dangling id land (see [`Heap::obj_mut`]).
    #[serde(skip)]
    scratch: Object,
    /// `allocated_since_gc` at which [`Heap::wants_collection`] turns true: its conditions folded
    /// into one threshold (see [`Heap::retrigger`]), so the checks at calls and backward jumps
    /// are one comparison. Derived state, recomputed whenever an input changes other than by
    /// [`Heap::charge`] (which moves `bytes_used` and `allocated_since_gc` together).
    #[serde(skip)]
    gc_trigger: usize,
    /// The address of the heap whose copy this is (see [`Heap::copy_for_run`]), against which
    /// the arenas record the slots a run changed; `None` for a heap that was built or restored.
    /// An address, not a reference, so the heap stays plain data; compared, never followed.
    #[serde(skip)]
    tracked_from: Option<usize>,
    /// Which atoms recently looked-up strings' texts are ([`Heap::string_atom`]). A cache, kept
    /// beside the strings rather than in each (which made every string slot 8 bytes larger).
    #[serde(skip)]
    atom_cache: AtomCache,
    /// Short strings made lately, by text ([`Heap::alloc_string`] hands out one of them again
    /// instead of a new string with the same text).
    #[serde(skip)]
    recent_strings: RecentStrings,
}

/// A direct-mapped cache from heap string ids to the atoms of their texts: `o[k]` with the same
/// key string hashes its text once. **Emptied whenever string slots are freed** (their ids are
/// reused for other texts); strings are immutable, so nothing else can make an entry wrong.
#[derive(Debug, Default)]
struct AtomCache {
    /// `(string id, atom)`, at `id % ATOM_CACHE_SLOTS`; empty until the first entry.
    entries: Vec<(u32, u32)>,
}

/// Entries of the [`AtomCache`] (8 bytes each).
const ATOM_CACHE_SLOTS: usize = 512;
/// An [`AtomCache`] entry that holds nothing (no string has this id).
const NO_STRING: u32 = u32::MAX;

/// A copy starts empty: every run copies the pristine heap, and a cache need not come along.
impl Clone for AtomCache {
    fn clone(&self) -> Self {
        AtomCache::default()
    }
}

impl AtomCache {
    #[inline]
    fn get(&self, id: StrId) -> Option<Atom> {
        match self.entries.get(id.0 as usize % ATOM_CACHE_SLOTS) {
            Some(&(s, atom)) if s == id.0 => Some(Atom(atom)),
            _ => None,
        }
    }

    fn put(&mut self, id: StrId, atom: Atom) {
        if self.entries.is_empty() {
            self.entries = vec![(NO_STRING, 0); ATOM_CACHE_SLOTS];
        }
        if let Some(entry) = self.entries.get_mut(id.0 as usize % ATOM_CACHE_SLOTS) {
            *entry = (id.0, atom.0);
        }
    }

    fn clear(&mut self) {
        self.entries.fill((NO_STRING, 0));
    }
}

/// A direct-mapped cache from short texts (by hash) to heap strings made lately with them, for
/// [`Heap::alloc_string`] to share. Emptied whenever string slots are freed (their ids are
/// reused for other texts); **a hit is checked against the live string's text**, so a hash
/// collision or a stale entry only misses.
#[derive(Debug, Default)]
struct RecentStrings {
    /// `(string id, the text's hash)` at the text's place; empty until the first entry. The
    /// hash is compared first: most texts that share a place differ in it.
    entries: Vec<(u32, u32)>,
}

/// Where a text's [`RecentStrings`] entry is, and its hash.
#[derive(Clone, Copy)]
struct RecentPlace {
    index: usize,
    hash: u32,
}

/// Entries of [`RecentStrings`] (8 bytes each).
const RECENT_STRING_SLOTS: usize = 1024;
/// The longest text [`RecentStrings`] keeps: what a string slot holds without an allocation,
/// where the slot is the whole cost of a string.
const RECENT_STRING_BYTES: usize = 24;

/// A copy starts empty, like [`AtomCache`]'s.
impl Clone for RecentStrings {
    fn clone(&self) -> Self {
        RecentStrings::default()
    }
}

impl RecentStrings {
    /// Where a text's entry is (`None`: too long to keep).
    #[inline]
    fn place_of(text: &str) -> Option<RecentPlace> {
        const MIX: u64 = 0x517c_c1b7_2722_0a95;
        let bytes = text.as_bytes();
        if bytes.len() > RECENT_STRING_BYTES {
            return None;
        }
        // Read as at most three (overlapping) words, without a loop: this runs for every short
        // string made, and a byte loop was most of its cost.
        let n = bytes.len();
        let word = |at: usize| {
            bytes
                .get(at..at + 8)
                .map_or(0, |w| u64::from_le_bytes(<[u8; 8]>::try_from(w).unwrap_or_default()))
        };
        let half = |at: usize| {
            bytes
                .get(at..at + 4)
                .map_or(0, |w| u64::from(u32::from_le_bytes(<[u8; 4]>::try_from(w).unwrap_or_default())))
        };
        let (first, last, middle) = if n >= 8 {
            (word(0), word(n - 8), if n > 16 { word(8) } else { 0 })
        } else if n >= 4 {
            (half(0), half(n - 4), 0)
        } else {
            let byte = |at: usize| bytes.get(at).map_or(0, |&b| u64::from(b));
            (byte(0) | byte(n / 2) << 8 | byte(n.wrapping_sub(1)) << 16, 0, 0)
        };
        let mut hash = n as u64;
        for word in [first, last, middle] {
            hash = (hash.rotate_left(5) ^ word).wrapping_mul(MIX);
        }
        Some(RecentPlace { index: (hash >> 32) as usize % RECENT_STRING_SLOTS, hash: hash as u32 })
    }

    #[inline]
    fn get(&self, place: RecentPlace) -> Option<StrId> {
        match self.entries.get(place.index) {
            Some(&(id, hash)) if hash == place.hash && id != NO_STRING => Some(StrId(id)),
            _ => None,
        }
    }

    fn put(&mut self, place: RecentPlace, id: StrId) {
        if self.entries.is_empty() {
            self.entries = vec![(NO_STRING, 0); RECENT_STRING_SLOTS];
        }
        if let Some(entry) = self.entries.get_mut(place.index) {
            *entry = (id.0, place.hash);
        }
    }

    fn clear(&mut self) {
        self.entries.fill((NO_STRING, 0));
    }
}

/// Per-thing overheads used for accounting: the arena slot (objects take 96 bytes, strings 32,
/// cells 24), the arena's spare capacity (it grows by doubling) and the allocator's headers.
pub const STRING_OVERHEAD: usize = 64;
pub const OBJECT_OVERHEAD: usize = 176;
pub const CELL_OVERHEAD: usize = 40;
/// A BigInt's slot (a `Vec` header and sign) with its allocation's header.
pub const BIGINT_OVERHEAD: usize = 48;
pub const VALUE_SIZE: usize = 16;
/// How many things beyond the pristine heap's a spare heap's arenas keep room for
/// ([`Heap::trim_for_reuse`]): about 2.5 MB of slots in all.
pub(crate) const SPARE_SLOTS: usize = 16 << 10;

/// The longest string a program can build (in bytes of UTF-8).
pub const MAX_STRING_BYTES: usize = 256 << 20;
/// The longest array a program can build.
pub const MAX_ARRAY_LENGTH: usize = 64 << 20;

impl Heap {
    /// Makes this heap equal to `pristine` (as a copy of it would be, capacities included where
    /// accounting reads them), reusing its buffers: how a finished run's heap is reused by the
    /// next run (`Vm::new`). Every field is named, so a new one cannot be forgotten.
    pub(crate) fn reset_to(&mut self, pristine: &Heap) {
        let Heap {
            strings,
            objects,
            cells,
            bigints,
            atoms,
            bytes_used,
            memory_limit,
            allocated_since_gc,
            gc_threshold,
            retained,
            collect_soon,
            map_deletes,
            scratch,
            gc_trigger,
            tracked_from: _,
            atom_cache: _,
            recent_strings: _,
        } = pristine;
        // The arenas copy only what the run changed when this heap was last tracked from
        // `pristine` (a copy of it, or reset to it), and every slot otherwise.
        let tracked = self.tracked_from == Some(std::ptr::from_ref(pristine).addr());
        self.strings.reset_to(strings, tracked);
        self.objects.reset_to(objects, tracked);
        self.cells.reset_to(cells, tracked);
        self.bigints.reset_to(bigints, tracked);
        self.atoms.reset_to(atoms, tracked);
        self.bytes_used = *bytes_used;
        self.memory_limit = *memory_limit;
        self.allocated_since_gc = *allocated_since_gc;
        self.gc_threshold = *gc_threshold;
        self.retained = *retained;
        self.collect_soon = *collect_soon;
        self.map_deletes = *map_deletes;
        self.scratch.clone_from(scratch);
        self.gc_trigger = *gc_trigger;
        // The run's strings are gone: their ids will name other texts.
        self.atom_cache.clear();
        self.recent_strings.clear();
        self.track_from(pristine);
    }

    /// Drops what building the pristine realm left beyond its contents (the arenas' growth room
    /// and the caches), which every process that starts a runtime would otherwise keep: runs
    /// work on copies, which get their own room ([`Arena`]'s `Clone`).
    pub(crate) fn settle_pristine(&mut self) {
        self.strings.shrink_to(self.strings.len());
        self.objects.shrink_to(self.objects.len());
        self.cells.shrink_to(self.cells.len());
        self.bigints.shrink_to(self.bigints.len());
        self.atoms.text.shrink_to_fit();
        self.atoms.spans.shrink_to_fit();
        self.atoms.kinds.shrink_to_fit();
        self.atom_cache = AtomCache::default();
        self.recent_strings = RecentStrings::default();
        // The built-ins are not garbage: a run's first collection is due after its own
        // allocations, however large the global environment grows.
        self.allocated_since_gc = 0;
        self.retrigger();
    }

    /// A copy of `pristine` for a run, which records what the run changes so that
    /// [`Heap::reset_to`] the same `pristine` copies only that.
    pub(crate) fn copy_for_run(pristine: &Heap) -> Heap {
        let mut heap = pristine.clone();
        heap.track_from(pristine);
        heap
    }

    /// Records changes from now on against `pristine`, which this heap equals.
    fn track_from(&mut self, pristine: &Heap) {
        self.strings.track_from(&pristine.strings);
        self.objects.track_from(&pristine.objects);
        self.cells.track_from(&pristine.cells);
        self.bigints.track_from(&pristine.bigints);
        self.tracked_from = Some(std::ptr::from_ref(pristine).addr());
    }

    /// Bounds what a heap just reset to `pristine` keeps beyond it, for a spare heap waiting for
    /// the next run: each arena keeps room for [`SPARE_SLOTS`] more things (a run like most
    /// reuses it without growing or faulting in pages), and no more, so a big run's memory is
    /// given back. Capacities are not observable: accounting reads only the objects' own maps.
    pub(crate) fn trim_for_reuse(&mut self, pristine: &Heap) {
        self.strings.shrink_to(pristine.strings.len() + SPARE_SLOTS);
        self.objects.shrink_to(pristine.objects.len() + SPARE_SLOTS);
        self.cells.shrink_to(pristine.cells.len() + SPARE_SLOTS);
        self.bigints.shrink_to(pristine.bigints.len());
        self.atoms.shrink_to_spare(&pristine.atoms);
    }

    pub fn new(memory_limit: usize) -> Self {
        let mut heap = Heap {
            strings: Arena::default(),
            objects: Arena::default(),
            cells: Arena::default(),
            bigints: Arena::default(),
            atoms: Atoms::default(),
            bytes_used: 0,
            memory_limit,
            allocated_since_gc: 0,
            gc_threshold: MIN_GC_THRESHOLD,
            retained: 0,
            collect_soon: false,
            map_deletes: 0,
            scratch: Object::plain(None),
            gc_trigger: 0,
            tracked_from: None,
            atom_cache: AtomCache::default(),
            recent_strings: RecentStrings::default(),
        };
        heap.retrigger();
        heap
    }

    /// Charges `bytes` to the budget; a charge that does not fit is refused and not recorded.
    pub fn charge(&mut self, bytes: usize) -> Result<(), OutOfMemory> {
        let used = self.bytes_used.saturating_add(bytes);
        if used > self.memory_limit {
            self.set_collect_soon();
            return Err(OutOfMemory);
        }
        self.bytes_used = used;
        self.allocated_since_gc = self.allocated_since_gc.saturating_add(bytes);
        Ok(())
    }

    /// Charges `bytes` that stay allocated until the run ends (see [`Heap::retained`]).
    pub fn charge_retained(&mut self, bytes: usize) -> Result<(), OutOfMemory> {
        self.charge(bytes)?;
        self.retained = self.retained.saturating_add(bytes);
        Ok(())
    }

    /// Whether enough was allocated since the last collection to collect again: after the heap
    /// doubles, or, close to the limit, after every sixteenth of it, so that an out-of-memory
    /// `RangeError` is raised with little garbage in the heap. One comparison against the
    /// threshold [`Heap::retrigger`] derived (checked against the full rule in debug builds).
    #[inline(always)]
    pub fn wants_collection(&self) -> bool {
        let wants = self.allocated_since_gc >= self.gc_trigger;
        debug_assert_eq!(wants, self.wants_collection_by_rule(), "stale gc_trigger");
        wants
    }

    /// The collection rule [`Heap::wants_collection`] folds into `gc_trigger`.
    fn wants_collection_by_rule(&self) -> bool {
        self.collect_soon
            || self.allocated_since_gc > self.gc_threshold
            || (self.bytes_used > self.memory_limit / 4 * 3
                && self.allocated_since_gc > self.memory_limit / 16)
    }

    /// Recomputes `gc_trigger` after `collect_soon`, `gc_threshold`, `memory_limit` or
    /// `bytes_used` changed other than through [`Heap::charge`]. A charge adds the same bytes to
    /// `bytes_used` and `allocated_since_gc`, so `base = bytes_used - allocated_since_gc` stays put
    /// between these calls and the rule is a threshold on `allocated_since_gc` alone:
    /// `a > gc_threshold || (a + base > limit*3/4 && a > limit/16)`, that is
    /// `a > min(gc_threshold, max(limit*3/4 - base, limit/16))`.
    pub fn retrigger(&mut self) {
        if self.collect_soon {
            self.gc_trigger = 0;
            return;
        }
        let base = self.bytes_used.saturating_sub(self.allocated_since_gc);
        let near_limit = (self.memory_limit / 4 * 3).saturating_sub(base).max(self.memory_limit / 16);
        self.gc_trigger = self.gc_threshold.min(near_limit).saturating_add(1);
    }

    /// Asks for a collection at the next safe point (a refused charge).
    pub fn set_collect_soon(&mut self) {
        self.collect_soon = true;
        self.gc_trigger = 0;
    }

    /// A string of `s`'s text: a new one, or, for a short text, one made lately with the same
    /// text (strings are immutable, so sharing one cannot be observed). Rows of data repeat
    /// their short texts (`"g" + i % 97`, a status, a parsed name): 100,000 rows then hold a
    /// hundred strings, not 100,000 slots.
    #[inline]
    pub fn alloc_string(&mut self, s: JsString) -> Result<StrId, OutOfMemory> {
        if s.text.len() > MAX_STRING_BYTES {
            return Err(OutOfMemory);
        }
        let recent = RecentStrings::place_of(s.as_str());
        // Only a live string of the same text is shared: even an entry the sweep forgot to
        // drop could not hand out a freed id or another text.
        if let Some(place) = recent
            && let Some(id) = self.recent_strings.get(place)
            && let Some(Some(same)) = self.strings.slots().get(id.0 as usize)
            && same.as_str() == s.as_str()
        {
            return Ok(id);
        }
        self.charge(STRING_OVERHEAD + s.heap_bytes())?;
        let id = StrId(self.strings.insert(s));
        if let Some(place) = recent {
            self.recent_strings.put(place, id);
        }
        Ok(id)
    }

    pub fn alloc_object(&mut self, o: Object) -> Result<ObjId, OutOfMemory> {
        self.charge(OBJECT_OVERHEAD + o.extra_bytes())?;
        Ok(ObjId(self.objects.insert(o)))
    }

    /// Stores a BigInt (sizes are capped by the operators before they compute, `bigint.rs`).
    pub fn alloc_bigint(&mut self, b: num_bigint::BigInt) -> Result<BigId, OutOfMemory> {
        let b = JsBigInt(b);
        self.charge(BIGINT_OVERHEAD + b.heap_bytes())?;
        Ok(BigId(self.bigints.insert(b)))
    }

    /// The BigInt at `id` (zero for a dangling id, which only a corrupt snapshot could hold and
    /// restore refuses).
    #[inline]
    pub fn bigint(&self, id: BigId) -> &num_bigint::BigInt {
        match self.bigints.slots().get(id.0 as usize) {
            Some(Some(b)) => &b.0,
            _ => &ZERO_BIGINT,
        }
    }

    pub fn alloc_cell(&mut self, v: Value) -> Result<CellId, OutOfMemory> {
        self.charge(CELL_OVERHEAD)?;
        Ok(CellId(self.cells.insert(v)))
    }

    #[inline]
    pub fn string(&self, id: StrId) -> &JsString {
        match self.strings.slots().get(id.0 as usize) {
            Some(Some(s)) => s,
            _ => &EMPTY_STRING,
        }
    }

    /// The atom of a heap string's text, if that name is interned: looked up, then remembered
    /// for a while (`o[k]` with the same key string hashes its text once).
    #[inline]
    pub fn string_atom(&mut self, id: StrId) -> Option<Atom> {
        if let Some(atom) = self.atom_cache.get(id) {
            return Some(atom);
        }
        let atom = self.atoms.lookup_in(&self.strings, id)?;
        self.remember_atom(id, atom);
        Some(atom)
    }

    /// The atom of heap string `id`'s text when it was looked up lately (never for an array
    /// index's text: those are index keys).
    #[inline]
    pub fn known_atom(&self, id: StrId) -> Option<Atom> {
        self.atom_cache.get(id)
    }

    /// Notes that heap string `id`'s text is `atom`'s name (see [`Heap::string_atom`]).
    pub fn remember_atom(&mut self, id: StrId, atom: Atom) {
        self.atom_cache.put(id, atom);
    }

    /// Forgets every remembered string id (atoms of strings, recent short strings): string
    /// slots were freed, and their ids will be reused (the collector's sweep calls this).
    pub(crate) fn forget_string_ids(&mut self) {
        self.atom_cache.clear();
        self.recent_strings.clear();
    }

    #[inline]
    pub fn str(&self, id: StrId) -> &str {
        self.string(id).as_str()
    }

    #[inline]
    pub fn obj(&self, id: ObjId) -> &Object {
        match self.objects.slots().get(id.0 as usize) {
            Some(Some(o)) => o,
            _ => &DEAD_OBJECT,
        }
    }

    /// The object at `id`, if that slot is live.
    pub fn obj_checked(&self, id: ObjId) -> Option<&Object> {
        self.objects.slots().get(id.0 as usize).and_then(Option::as_ref)
    }

    /// The object at `id`. A dangling id (only possible from a corrupt snapshot, which restore
    /// validates) yields a scratch object rather than a panic.
    #[inline]
    pub fn obj_mut(&mut self, id: ObjId) -> &mut Object {
        match self.objects.get_mut(id.0 as usize) {
            Some(Some(o)) => o,
            _ => &mut self.scratch,
        }
    }

    #[inline]
    pub fn cell(&self, id: CellId) -> Value {
        match self.cells.slots().get(id.0 as usize) {
            Some(Some(v)) => *v,
            _ => Value::Undefined,
        }
    }

    #[inline]
    pub fn set_cell(&mut self, id: CellId, v: Value) {
        if let Some(Some(slot)) = self.cells.get_mut(id.0 as usize) {
            *slot = v;
        }
    }
}

static ZERO_BIGINT: num_bigint::BigInt = num_bigint::BigInt::ZERO;
static EMPTY_STRING: LazyLock<JsString> = LazyLock::new(|| JsString::new(""));
static DEAD_OBJECT: LazyLock<Object> = LazyLock::new(|| Object::plain(None));

#[cfg(test)]
mod tests {
    /// An index read finds the name an ordinary object keeps it under, for every width of
    /// number, and never a name that was not interned.
    #[test]
    fn an_index_is_looked_up_by_its_decimal_name() {
        let mut atoms = super::Atoms::default();
        let names = ["0", "7", "42", "1000", "4294967295"];
        let interned: Vec<_> = names.iter().map(|n| atoms.intern(n)).collect();
        for (n, atom) in [0u32, 7, 42, 1000, u32::MAX].into_iter().zip(interned) {
            assert_eq!(atoms.lookup_index(n), Some(atom), "{n}");
        }
        for n in [1u32, 10, 70, 100, 4_294_967_294] {
            assert_eq!(atoms.lookup_index(n), None, "{n}");
        }
    }
}
