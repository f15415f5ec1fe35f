//! UTF-16 views of UTF-8 strings: JavaScript counts code units, codemode stores UTF-8. ASCII
//! text takes the fast path where byte and code-unit indices agree. Pure functions.

use serde::{Deserialize, Serialize};

/// Every this many UTF-16 units, [`Utf16Index`] remembers where the text is.
const STRIDE: usize = 32;

/// Positions in a non-ASCII string: for every [`STRIDE`]th code unit, the byte offset and unit
/// index of the first character starting at or after it. Built once when the string is made
/// (which is O(n) anyway), it makes indexing and `length` O(1) (a scan of at most one stride)
/// instead of O(n), at a cost of 8 bytes per 32 units.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Utf16Index {
    units: usize,
    /// `(unit, byte)` of mark `k`: the first character whose unit index is `>= k * STRIDE`.
    marks: Box<[(u32, u32)]>,
}

impl Utf16Index {
    pub fn build(s: &str) -> Utf16Index {
        let mut marks = Vec::with_capacity(s.len() / STRIDE + 1);
        let mut unit = 0usize;
        for (b, c) in s.char_indices() {
            if unit >= marks.len() * STRIDE {
                marks.push((unit as u32, b as u32));
            }
            unit += c.len_utf16();
        }
        Utf16Index { units: unit, marks: marks.into_boxed_slice() }
    }

    /// Bytes this index holds (for memory accounting).
    pub fn bytes(&self) -> usize {
        self.marks.len() * std::mem::size_of::<(u32, u32)>()
    }

    /// A mark at or before unit `u`: `(unit, byte)` of a character start.
    fn mark_before_unit(&self, u: usize) -> (usize, usize) {
        let mut k = (u / STRIDE).min(self.marks.len().saturating_sub(1));
        while let Some(&(mu, mb)) = self.marks.get(k) {
            if mu as usize <= u || k == 0 {
                return (mu as usize, mb as usize);
            }
            k -= 1;
        }
        (0, 0)
    }

    /// A mark at or before byte `b`.
    fn mark_before_byte(&self, b: usize) -> (usize, usize) {
        let k = self.marks.partition_point(|&(_, mb)| mb as usize <= b);
        match k.checked_sub(1).and_then(|k| self.marks.get(k)) {
            Some(&(mu, mb)) => (mu as usize, mb as usize),
            None => (0, 0),
        }
    }
}

/// A string with its ASCII flag: for ASCII text every operation below is O(1) or O(result);
/// other text uses the string's [`Utf16Index`] when it has one (heap strings do), else converts
/// as needed (O(n)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Text<'a> {
    pub s: &'a str,
    pub ascii: bool,
    pub index: Option<&'a Utf16Index>,
}

impl<'a> Text<'a> {
    /// Scans `s` for non-ASCII bytes (prefer [`Text::of`] for heap strings: their flag is known).
    pub fn new(s: &'a str) -> Self {
        Text { s, ascii: s.is_ascii(), index: None }
    }

    pub fn of(js: &'a crate::heap::JsString) -> Self {
        Text { s: js.as_str(), ascii: js.is_ascii(), index: js.utf16_index() }
    }

    /// Length in UTF-16 code units.
    pub fn len(self) -> usize {
        match (self.ascii, self.index) {
            (true, _) => self.s.len(),
            (false, Some(index)) => index.units,
            (false, None) => self.s.encode_utf16().count(),
        }
    }

    /// The UTF-16 index of byte offset `b` (a char boundary).
    pub fn unit_of_byte(self, b: usize) -> usize {
        if self.ascii {
            return b.min(self.s.len());
        }
        let (u0, b0) = self.index.map_or((0, 0), |i| i.mark_before_byte(b));
        let part = self.s.get(b0..b.min(self.s.len())).unwrap_or("");
        u0 + part.encode_utf16().count()
    }

    /// The character containing UTF-16 unit `u`: its byte offset and unit index (`None` past the
    /// end).
    fn char_at_unit(self, u: usize) -> Option<(usize, usize, char)> {
        let (mut unit, b0) = self.index.map_or((0, 0), |i| i.mark_before_unit(u));
        if unit > u {
            // `u` is the second half of the surrogate pair just before the mark.
            let c = self.s.get(..b0)?.chars().next_back()?;
            return Some((b0 - c.len_utf8(), unit - c.len_utf16(), c));
        }
        for (b, c) in self.s.get(b0..)?.char_indices() {
            let n = c.len_utf16();
            if u < unit + n {
                return Some((b0 + b, unit, c));
            }
            unit += n;
        }
        None
    }

    /// The byte offset of UTF-16 index `u` (an index inside a surrogate pair rounds up to the
    /// end of that character; past the end clamps to the length).
    pub fn byte_of_unit(self, u: usize) -> usize {
        if self.ascii {
            return u.min(self.s.len());
        }
        match self.char_at_unit(u) {
            Some((b, unit, _)) if unit == u => b,
            Some((b, _, c)) => b + c.len_utf8(),
            None => self.s.len(),
        }
    }

    /// Code units `[start, end)` as a string (lone surrogates become U+FFFD).
    pub fn slice(self, start: usize, end: usize) -> String {
        if end <= start {
            return String::new();
        }
        if self.ascii {
            return self.s.get(start..end.min(self.s.len())).unwrap_or("").to_string();
        }
        let Some((b0, u0, _)) = self.char_at_unit(start) else { return String::new() };
        let b1 = self.byte_of_unit(end);
        let units: Vec<u16> = self.s.get(b0..b1.max(b0)).unwrap_or("").encode_utf16().collect();
        let (from, to) = (start - u0, (end - u0).min(units.len()));
        units.get(from.min(to)..to).map(String::from_utf16_lossy).unwrap_or_default()
    }

    /// The code unit at `i`.
    pub fn at(self, i: usize) -> Option<u16> {
        if self.ascii {
            return self.s.as_bytes().get(i).map(|b| *b as u16);
        }
        let (_, unit, c) = self.char_at_unit(i)?;
        let mut buf = [0u16; 2];
        c.encode_utf16(&mut buf).get(i - unit).copied()
    }

    /// The UTF-16 index of the first occurrence of `needle` at or after unit index `from`.
    pub fn find_from(self, needle: &str, from: usize) -> Option<usize> {
        if from > self.len() {
            return None;
        }
        let b = self.byte_of_unit(from);
        let pos = self.s.get(b..)?.find(needle)?;
        Some(self.unit_of_byte(b + pos))
    }
}

/// Converts increasing byte offsets of one string to UTF-16 indices in O(distance) each, so a
/// pass over all matches of a non-ASCII string stays linear.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct UnitCursor {
    byte: usize,
    unit: usize,
}

impl UnitCursor {
    pub fn unit_of_byte(&mut self, t: Text<'_>, b: usize) -> usize {
        if t.ascii {
            return b.min(t.s.len());
        }
        if b < self.byte {
            *self = UnitCursor::default();
        }
        let step = t.s.get(self.byte..b).map_or(0, |part| part.encode_utf16().count());
        self.byte = b;
        self.unit += step;
        self.unit
    }
}

/// Length in UTF-16 code units.
pub(crate) fn unit_len(s: &str) -> usize {
    Text::new(s).len()
}

/// The UTF-16 index of byte offset `b` (a char boundary) in `s`.
pub(crate) fn unit_of_byte(s: &str, b: usize) -> usize {
    Text::new(s.get(..b).unwrap_or(s)).unit_of_byte(b)
}

/// The byte offset of UTF-16 index `u` in `s`.
pub(crate) fn byte_of_unit(s: &str, u: usize) -> usize {
    Text::new(s).byte_of_unit(u)
}

/// Code units `[start, end)` of `s`.
pub(crate) fn unit_slice(s: &str, start: usize, end: usize) -> String {
    Text::new(s).slice(start, end)
}

pub(crate) fn clamp_index(n: f64, len: usize) -> usize {
    if n.is_nan() || n <= 0.0 { 0 } else { n.min(len as f64) as usize }
}

pub(crate) fn to_integer(n: f64) -> f64 {
    if n.is_nan() { 0.0 } else { n.trunc() }
}

#[cfg(test)]
mod index_tests {
    use super::{Text, Utf16Index};

    /// The index answers exactly what a full UTF-16 conversion answers, at every position,
    /// including the halves of surrogate pairs and positions past the end.
    #[test]
    fn utf16_index_agrees_with_a_full_conversion() {
        let pieces = ["a", "é", "😀", "漢", "bc", "𝄞x"];
        let mut seed = 7u64;
        for len in [1usize, 5, 31, 32, 33, 64, 65, 200, 1000] {
            let mut s = String::new();
            for _ in 0..len {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                s.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let index = Utf16Index::build(&s);
            let fast = Text { s: &s, ascii: s.is_ascii(), index: Some(&index) };
            let slow = Text { s: &s, ascii: s.is_ascii(), index: None };
            let units: Vec<u16> = s.encode_utf16().collect();
            assert_eq!(fast.len(), units.len());
            for u in 0..units.len() + 3 {
                assert_eq!(fast.at(u), units.get(u).copied(), "at({u}) of {s:?}");
                assert_eq!(fast.byte_of_unit(u), slow.byte_of_unit(u), "byte_of_unit({u})");
                for end in [u, u + 1, u + 7, u + 40] {
                    assert_eq!(fast.slice(u, end), slow.slice(u, end), "slice({u}, {end})");
                }
            }
            for (b, _) in s.char_indices() {
                assert_eq!(fast.unit_of_byte(b), slow.unit_of_byte(b), "unit_of_byte({b})");
            }
        }
    }
}
