//! `String.prototype.split` and the arrays of pieces it and `match` return.

use compact_str::CompactString;

use super::regexp;
use super::string::{Recv, recv};
use super::{Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

pub(super) fn split(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(step) =
        super::regexp_protocol::delegate(vm, this, args, super::regexp_protocol::Matcher::Split)?
    {
        return Ok(step);
    }
    split_impl(vm, this, args)
}

/// `split` once no matcher of the separator's own was found.
pub(super) fn split_impl(vm: &mut Vm, this: Value, args: &[Value]) -> Result<Step, Throw> {
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
    // The separator is read in place too when it is a string (no copy per call).
    let sep = match sep {
        Value::Str(id) => Recv::Heap(id),
        v => Recv::Owned(vm.to_rust_string(v)?),
    };
    // At most as many pieces as the memory left can hold: checked while they are built (one
    // more than fits means out of memory).
    vm.charge(Work::Scan(len));
    vm.ensure_fits(len)?;
    let max_pieces = vm.split_pieces_that_fit(len);
    let parts = split_str(subject.as_str(vm), sep.as_str(vm), limit.min(max_pieces.saturating_add(1)));
    if parts.len() > max_pieces {
        return Err(vm.out_of_memory());
    }
    strings_array(vm, parts)
}

/// `split` by a string separator (pure), each piece copied out where it will stay (a piece of
/// up to 24 bytes inline, no allocation), to be moved into its heap string.
pub(crate) fn split_str(s: &str, sep: &str, limit: usize) -> Vec<CompactString> {
    let mut parts = Vec::new();
    if limit == 0 {
        return parts;
    }
    if sep.is_empty() {
        // Every code unit.
        if s.is_ascii() {
            parts
                .extend((0..s.len()).take(limit).map(|i| CompactString::from(s.get(i..i + 1).unwrap_or(""))));
        } else {
            // One piece per code unit; the halves of a surrogate pair become U+FFFD.
            for u in s.encode_utf16().take(limit) {
                parts.push(CompactString::from(String::from_utf16_lossy(&[u])));
            }
        }
        return parts;
    }
    match sep.as_bytes() {
        // A short subject and a one-byte separator (a field of a CSV line, `key:value`): a
        // byte loop, cheaper there than setting up a searcher per piece.
        [b] if b.is_ascii() && s.len() <= 64 => {
            let mut start = 0;
            for (i, byte) in s.bytes().enumerate() {
                if parts.len() == limit {
                    return parts;
                }
                if byte == *b {
                    // An ASCII byte is never inside a multi-byte character: `i` is a boundary.
                    parts.push(CompactString::from(s.get(start..i).unwrap_or("")));
                    start = i + 1;
                }
            }
            if parts.len() < limit {
                parts.push(CompactString::from(s.get(start..).unwrap_or("")));
            }
        }
        // A one-byte separator is searched as a character: a byte scan instead of the general
        // substring searcher.
        [b] if b.is_ascii() => parts.extend(s.split(char::from(*b)).take(limit).map(CompactString::from)),
        _ => parts.extend(s.split(sep).take(limit).map(CompactString::from)),
    }
    parts
}

/// An array of new strings, one per piece (each moved into its heap string: a piece of up to
/// 24 bytes is held inline, with no allocation of its own).
pub(super) fn strings_array(vm: &mut Vm, parts: Vec<CompactString>) -> Result<Step, Throw> {
    vm.charge(Work::Elements(parts.len()));
    let mut items = crate::object::Elements::with_capacity(parts.len());
    for p in parts {
        items.push(vm.new_string_owned(p)?);
    }
    Ok(Step::Return(vm.new_array(items)?))
}

#[cfg(test)]
mod tests {
    use super::{CompactString, split_str};

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
        // Short subjects take the byte loop, long ones the searcher: the same pieces.
        assert_eq!(split_str("héllo,wörld,", ",", usize::MAX), ["héllo", "wörld", ""]);
        assert_eq!(split_str(",", ",", usize::MAX), ["", ""]);
        assert_eq!(split_str("a:b:c", ":", 0), Vec::<CompactString>::new());
        assert_eq!(split_str("a:b:c", ":", 1), ["a"]);
        assert_eq!(split_str("a:b:c", ":", 3), ["a", "b", "c"]);
        let long = "é,".repeat(50);
        let short_pieces: Vec<CompactString> = long.split(',').map(CompactString::from).collect();
        assert_eq!(split_str(&long, ",", usize::MAX), short_pieces);
        assert_eq!(split_str(&long, ",", 7), short_pieces[..7]);
    }
}
