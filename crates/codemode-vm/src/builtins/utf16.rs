//! UTF-16 views of UTF-8 strings: JavaScript counts code units, codemode stores UTF-8. ASCII
//! text takes the fast path where byte and code-unit indices agree. Pure functions.

use serde::{Deserialize, Serialize};

/// A string with its ASCII flag: for ASCII text every operation below is O(1) or O(result);
/// other text is converted to UTF-16 as needed (O(n)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Text<'a> {
    pub s: &'a str,
    pub ascii: bool,
}

impl<'a> Text<'a> {
    /// Scans `s` for non-ASCII bytes (prefer [`Text::of`] for heap strings: their flag is known).
    pub fn new(s: &'a str) -> Self {
        Text { s, ascii: s.is_ascii() }
    }

    pub fn of(js: &'a crate::heap::JsString) -> Self {
        Text { s: &js.text, ascii: js.ascii }
    }

    /// Length in UTF-16 code units.
    pub fn len(self) -> usize {
        if self.ascii { self.s.len() } else { self.s.encode_utf16().count() }
    }

    /// The UTF-16 index of byte offset `b` (a char boundary).
    pub fn unit_of_byte(self, b: usize) -> usize {
        if self.ascii {
            return b.min(self.s.len());
        }
        let prefix = self.s.get(..b).unwrap_or(self.s);
        prefix.encode_utf16().count()
    }

    /// The byte offset of UTF-16 index `u` (an index inside a surrogate pair rounds up to the
    /// end of that character; past the end clamps to the length).
    pub fn byte_of_unit(self, u: usize) -> usize {
        if self.ascii {
            return u.min(self.s.len());
        }
        let mut units = 0;
        for (b, c) in self.s.char_indices() {
            if units >= u {
                return b;
            }
            units += c.len_utf16();
        }
        self.s.len()
    }

    /// Code units `[start, end)` as a string (lone surrogates become U+FFFD).
    pub fn slice(self, start: usize, end: usize) -> String {
        if end <= start {
            return String::new();
        }
        if self.ascii {
            return self.s.get(start..end.min(self.s.len())).unwrap_or("").to_string();
        }
        let units: Vec<u16> = self.s.encode_utf16().collect();
        let end = end.min(units.len());
        units.get(start.min(end)..end).map(String::from_utf16_lossy).unwrap_or_default()
    }

    /// The code unit at `i`.
    pub fn at(self, i: usize) -> Option<u16> {
        if self.ascii { self.s.as_bytes().get(i).map(|b| *b as u16) } else { self.s.encode_utf16().nth(i) }
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
