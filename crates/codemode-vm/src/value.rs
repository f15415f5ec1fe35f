//! Values: the small `Copy` enum every register, property and array element holds.
//!
//! Heap things (strings, objects, closure cells) are referred to by arena index, never by pointer,
//! so a [`Value`] is plain data that serializes as it is.

use serde::{Deserialize, Serialize};

/// Index of a string in the heap's string arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StrId(pub u32);

/// Index of an object in the heap's object arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ObjId(pub u32);

/// Index of a closure cell (a captured variable) in the heap's cell arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CellId(pub u32);

/// Index of a BigInt in the heap's BigInt arena (`heap::JsBigInt`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BigId(pub u32);

/// An interned property name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Atom(pub u32);

impl Atom {
    /// Marks a deleted property slot; never the id of an interned name.
    pub const DELETED: Atom = Atom(u32::MAX);
}

/// A value: what registers, properties and elements hold (16 bytes, see the size test). The
/// layout is Rust's default; `#[repr(C, u8)]` (every payload at offset 8) made taking a value
/// apart ([`Value::to_parts`]) cheaper (fib -0.8% instructions) but the closures workload 4-7%
/// slower in wall time (criterion, same build otherwise), so it is not used.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Value {
    Undefined,
    Null,
    Bool(bool),
    /// Serialized as its IEEE-754 bits: exact for NaN and -0, which JSON cannot carry.
    Number(#[serde(with = "f64_bits")] f64),
    Str(StrId),
    Obj(ObjId),
    /// A symbol: an atom no property name finds (see `heap::Atoms`).
    Symbol(Atom),
    /// A BigInt: an immutable arbitrary-precision integer in the heap (`bigint.rs`).
    BigInt(BigId),
    /// A register holding a captured variable's cell (never visible to programs).
    Cell(CellId),
    /// A `let`/`const` binding before its initialization (never visible to programs).
    Uninit,
    /// The iterator of a for-of or an array destructuring over a plain array: the array and the
    /// index of the next element ([`ARRAY_ITER_DONE`] once done). Held only in the iterator's
    /// register (never visible to programs), so iterating an array allocates nothing: the
    /// iterator object it replaces was most of the garbage of code like `.map(([k, v]) => ...)`.
    ArrayIter(ArrayCursor),
}

/// [`Value::ArrayIter`]'s state: the array and the index of its next element in one `u64`, laid
/// out like a number's bits (a payload of two `u32`s changed how every `Value` is copied, and
/// cost the instruction loop 2% on code that never iterates).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArrayCursor(u64);

impl ArrayCursor {
    #[inline]
    pub fn new(array: ObjId, next: u32) -> ArrayCursor {
        ArrayCursor(u64::from(array.0) << 32 | u64::from(next))
    }

    #[inline]
    pub fn array(self) -> ObjId {
        ObjId((self.0 >> 32) as u32)
    }

    #[inline]
    pub fn next(self) -> u32 {
        self.0 as u32
    }
}

/// The tags of [`Value::to_parts`]: the variants' declaration order.
pub mod tag {
    pub const UNDEFINED: u8 = 0;
    pub const NULL: u8 = 1;
    pub const BOOL: u8 = 2;
    pub const NUMBER: u8 = 3;
    pub const STR: u8 = 4;
    pub const OBJ: u8 = 5;
    pub const SYMBOL: u8 = 6;
    pub const BIGINT: u8 = 7;
    pub const CELL: u8 = 8;
    pub const UNINIT: u8 = 9;
    pub const ARRAY_ITER: u8 = 10;

    /// Whether a value of this tag refers to something in the heap (what a collection traces).
    #[inline]
    pub fn refers_to_heap(tag: u8) -> bool {
        const HEAP: u32 = 1 << STR | 1 << OBJ | 1 << BIGINT | 1 << CELL | 1 << ARRAY_ITER;
        HEAP.checked_shr(u32::from(tag)).is_some_and(|bits| bits & 1 != 0)
    }
}

/// [`Value::ArrayIter`]'s index once the iteration is done (it stays done, whatever is pushed
/// afterwards); never an array index, which is below 2³² − 1.
pub const ARRAY_ITER_DONE: u32 = u32::MAX;

impl Value {
    /// The value as a tag ([`tag`]) and a `u64` payload, for records that keep other fields
    /// beside it in the 7 bytes a `Value` pads ([`crate::object::Slot`]); [`Value::from_parts`]
    /// undoes it.
    #[inline]
    pub fn to_parts(self) -> (u8, u64) {
        match self {
            Value::Undefined => (tag::UNDEFINED, 0),
            Value::Null => (tag::NULL, 0),
            Value::Bool(b) => (tag::BOOL, u64::from(b)),
            Value::Number(n) => (tag::NUMBER, n.to_bits()),
            Value::Str(id) => (tag::STR, u64::from(id.0)),
            Value::Obj(id) => (tag::OBJ, u64::from(id.0)),
            Value::Symbol(atom) => (tag::SYMBOL, u64::from(atom.0)),
            Value::BigInt(id) => (tag::BIGINT, u64::from(id.0)),
            Value::Cell(id) => (tag::CELL, u64::from(id.0)),
            Value::Uninit => (tag::UNINIT, 0),
            Value::ArrayIter(cursor) => (tag::ARRAY_ITER, cursor.0),
        }
    }

    /// The value [`Value::to_parts`] took apart (a tag it never makes reads as `undefined`).
    #[inline]
    pub fn from_parts(tag: u8, bits: u64) -> Value {
        match tag {
            tag::NULL => Value::Null,
            tag::BOOL => Value::Bool(bits != 0),
            tag::NUMBER => Value::Number(f64::from_bits(bits)),
            tag::STR => Value::Str(StrId(bits as u32)),
            tag::OBJ => Value::Obj(ObjId(bits as u32)),
            tag::SYMBOL => Value::Symbol(Atom(bits as u32)),
            tag::BIGINT => Value::BigInt(BigId(bits as u32)),
            tag::CELL => Value::Cell(CellId(bits as u32)),
            tag::UNINIT => Value::Uninit,
            tag::ARRAY_ITER => Value::ArrayIter(ArrayCursor(bits)),
            _ => Value::Undefined,
        }
    }

    #[inline]
    pub fn is_nullish(self) -> bool {
        matches!(self, Value::Undefined | Value::Null)
    }
}

/// `true` when `n` is an integer that can index an array (0 ≤ n < 2³² − 1).
#[inline]
pub fn as_array_index(n: f64) -> Option<u32> {
    // The round trip through `u32` (which saturates, and takes NaN to 0) is cheaper than
    // `fract`, a call to libm's `trunc` on baseline x86-64; -0 is index 0, as before.
    let i = n as u32;
    if i as f64 == n && i != u32::MAX { Some(i) } else { None }
}

/// Parses a canonical array-index string (`"0"`, `"17"`, not `"01"` or `"-1"`).
pub fn parse_array_index(s: &str) -> Option<u32> {
    let bytes = s.as_bytes();
    if bytes.is_empty() || bytes.len() > 10 || (bytes.len() > 1 && bytes[0] == b'0') {
        return None;
    }
    if !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n: u64 = s.parse().ok()?;
    if n < 4_294_967_295 { Some(n as u32) } else { None }
}

pub use codemode_bytecode::f64_bits;
pub use codemode_ir::{FastMap, FastSet};

/// JSON values inside saved state are stored as JSON text: binary formats (the snapshot's
/// `postcard`) cannot decode a self-describing `serde_json::Value`, and text works in both.
pub mod json_text {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        let text = serde_json::to_string(value).map_err(S::Error::custom)?;
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let text = String::deserialize(d)?;
        serde_json::from_str(&text).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod size_tests {
    /// Every register, property and element holds a `Value`: it stays two words (a BigInt is an
    /// arena index like a string).
    #[test]
    fn a_value_is_16_bytes() {
        assert_eq!(std::mem::size_of::<super::Value>(), 16);
    }

    /// Array indices are exactly the integers 0 ≤ n < 2^32 - 1 (-0 included).
    #[test]
    fn array_indices_are_the_integers_below_two_to_the_32_minus_one() {
        let p32 = 4_294_967_296.0;
        for (n, index) in [
            (0.0, Some(0)),
            (-0.0, Some(0)),
            (7.0, Some(7)),
            (p32 - 2.0, Some(u32::MAX - 1)),
            (p32 - 1.0, None),
            (p32, None),
            (-1.0, None),
            (0.5, None),
            (f64::NAN, None),
            (f64::INFINITY, None),
            (1e300, None),
        ] {
            assert_eq!(super::as_array_index(n), index, "{n}");
        }
    }

    /// A property keeps its key and flags in the padding of its value's 16 bytes (see
    /// `object::Slot`): a four-property object allocates 64 bytes for them, not 96.
    #[test]
    fn a_property_slot_is_16_bytes() {
        assert_eq!(std::mem::size_of::<crate::object::Slot>(), 16);
    }

    /// A slot gives back exactly the value put in it, of every kind (NaN's and -0's bits too).
    #[test]
    fn a_value_survives_being_taken_apart() {
        use super::*;
        let values = [
            Value::Undefined,
            Value::Null,
            Value::Bool(false),
            Value::Bool(true),
            Value::Number(-0.0),
            Value::Number(f64::from_bits(0x7ff8_0000_dead_beef)),
            Value::Number(1.5e300),
            Value::Str(StrId(u32::MAX)),
            Value::Obj(ObjId(7)),
            Value::Symbol(Atom(3)),
            Value::BigInt(BigId(9)),
            Value::Cell(CellId(11)),
            Value::Uninit,
            Value::ArrayIter(ArrayCursor::new(ObjId(5), ARRAY_ITER_DONE)),
        ];
        for v in values {
            let slot = crate::object::Slot::new(Atom(1), v, 3);
            let back = slot.value();
            match (v, back) {
                (Value::Number(a), Value::Number(b)) => assert_eq!(a.to_bits(), b.to_bits()),
                _ => assert_eq!(v, back),
            }
            assert_eq!((slot.key, slot.flags), (Atom(1), 3));
            // The collector traces exactly the slots whose value lives in the heap.
            let in_heap = matches!(
                v,
                Value::Str(_) | Value::Obj(_) | Value::BigInt(_) | Value::Cell(_) | Value::ArrayIter(_)
            );
            assert_eq!(slot.value_refers_to_heap(), in_heap, "{v:?}");
        }
    }

    /// Every object's header sits in the object arena (and is copied when the arena grows): the
    /// rare parts (a property map's hash index) are boxed to keep it at 96 bytes.
    #[test]
    fn an_object_is_96_bytes() {
        assert_eq!(std::mem::size_of::<crate::object::Object>(), 96);
    }

    /// A string's slot holds text of up to 24 bytes itself (no allocation of its own) in 32 bytes,
    /// within what [`crate::heap::STRING_OVERHEAD`] accounts for a string: the atom cache and
    /// the ASCII flag are not in it (see `heap::AtomCache`).
    #[test]
    fn a_string_slot_is_32_bytes_and_holds_short_text() {
        assert_eq!(std::mem::size_of::<Option<crate::heap::JsString>>(), 32);
        assert!(std::mem::size_of::<Option<crate::heap::JsString>>() < crate::heap::STRING_OVERHEAD);
        let short = crate::heap::JsString::new("twenty-four bytes, ascii");
        assert_eq!(short.as_str().len(), 24);
        assert!(!short.text_is_allocated());
        assert!(crate::heap::JsString::new("twenty-five bytes, ascii!").text_is_allocated());
    }
}
