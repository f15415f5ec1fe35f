//! `String.prototype.split` and the arrays of pieces it and `match` return.

use std::borrow::Cow;

use compact_str::CompactString;

use super::regexp;
use super::string::recv;
use super::{Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

pub(super) fn split(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    // A string `this` is read where it is (converting it has no effects, so it may wait for the
    // limit and separator); anything else is converted first.
    let subject = recv(vm, this, "split")?;
    let len = subject.as_str(vm).len();
    let limit = match arg(args, 1) {
        Value::Undefined => u32::MAX as usize,
        v => crate::numconv::to_uint32(vm.to_number(v)?) as usize,
    };
    let sep = arg(args, 0);
    if let Some(re) = regexp::as_regexp(vm, sep) {
        // The expression runs while the VM allocates: on a copy of the subject.
        vm.charge(Work::Bytes(len));
        let s = subject.as_str(vm).to_owned();
        let parts = regexp::split(vm, re, &s, limit)?;
        vm.charge(Work::Elements(parts.len()));
        let mut items = Vec::with_capacity(parts.len());
        for p in parts {
            items.push(match p {
                Some(p) => vm.new_string_owned(p)?,
                None => Value::Undefined,
            });
        }
        return Ok(Step::Return(vm.new_array(items)?));
    }
    if limit == 0 {
        return Ok(Step::Return(vm.new_array(Vec::new())?));
    }
    if sep == Value::Undefined {
        vm.charge(Work::Bytes(len));
        let whole = CompactString::from(subject.as_str(vm));
        return strings_array(vm, vec![whole]);
    }
    let sep = vm.to_rust_string(sep)?;
    // At most as many pieces as the memory left can hold: checked while they are built (one
    // more than fits means out of memory).
    vm.charge(Work::Scan(len));
    vm.ensure_fits(len)?;
    let max_pieces = vm.split_pieces_that_fit(len);
    // Each piece is copied out while the subject is borrowed (a short one inline, no
    // allocation), then moved into its heap string.
    let parts: Vec<CompactString> =
        split_str(subject.as_str(vm), &sep, limit.min(max_pieces.saturating_add(1)))
            .into_iter()
            .map(CompactString::from)
            .collect();
    if parts.len() > max_pieces {
        return Err(vm.out_of_memory());
    }
    strings_array(vm, parts)
}

/// `split` by a string separator (pure). The pieces borrow from `s` (no allocation per piece)
/// except single code units of a non-ASCII string split by `""`.
pub(crate) fn split_str<'a>(s: &'a str, sep: &str, limit: usize) -> Vec<Cow<'a, str>> {
    let mut parts = Vec::new();
    if limit == 0 {
        return parts;
    }
    if sep.is_empty() {
        // Every code unit.
        if s.is_ascii() {
            parts.extend((0..s.len()).take(limit).map(|i| Cow::Borrowed(s.get(i..i + 1).unwrap_or(""))));
        } else {
            // One piece per code unit; the halves of a surrogate pair become U+FFFD.
            for u in s.encode_utf16().take(limit) {
                parts.push(Cow::Owned(String::from_utf16_lossy(&[u])));
            }
        }
        return parts;
    }
    // A one-byte separator (",", ":", "\n") is searched as a character: a byte scan instead of
    // the general substring searcher.
    match sep.as_bytes() {
        [b] if b.is_ascii() => parts.extend(s.split(char::from(*b)).take(limit).map(Cow::Borrowed)),
        _ => parts.extend(s.split(sep).take(limit).map(Cow::Borrowed)),
    }
    parts
}

/// An array of new strings, one per piece (each moved into its heap string: a piece of up to
/// 24 bytes is held inline, with no allocation of its own).
pub(super) fn strings_array(vm: &mut Vm, parts: Vec<CompactString>) -> Result<Step, Throw> {
    vm.charge(Work::Elements(parts.len()));
    let mut items = Vec::with_capacity(parts.len());
    for p in parts {
        items.push(vm.new_string_owned(p)?);
    }
    Ok(Step::Return(vm.new_array(items)?))
}

#[cfg(test)]
mod tests {
    use super::split_str;

    #[test]
    fn split_edges() {
        assert_eq!(split_str("a,b,,c", ",", usize::MAX), ["a", "b", "", "c"]);
        assert_eq!(split_str("a,b,,c", ",", 2), ["a", "b"]);
        assert_eq!(split_str("abc", "", usize::MAX), ["a", "b", "c"]);
        assert_eq!(split_str("", ",", usize::MAX), [""]);
        assert!(split_str("", "", usize::MAX).is_empty());
        assert_eq!(split_str("ab", "ab", usize::MAX), ["", ""]);
        assert_eq!(split_str("héé", "", usize::MAX), ["h", "é", "é"]);
        assert_eq!(split_str("a😀", "", usize::MAX), ["a", "\u{FFFD}", "\u{FFFD}"]);
    }
}
