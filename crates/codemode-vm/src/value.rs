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

/// [`Value::ArrayIter`]'s index once the iteration is done (it stays done, whatever is pushed
/// afterwards); never an array index, which is below 2³² − 1.
pub const ARRAY_ITER_DONE: u32 = u32::MAX;

impl Value {
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
