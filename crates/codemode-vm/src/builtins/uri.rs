//! `encodeURIComponent`, `decodeURIComponent`, `encodeURI`, `decodeURI` (malformed input is a
//! `URIError: URI malformed`), and `atob`/`btoa` (forgiving base64; bad input is an Error named
//! `InvalidCharacterError`, a DOMException in Node).
//!
//! Strings are UTF-8 here, so a lone surrogate cannot reach the encoders (the one case where
//! JavaScript's encoders throw). Each function reads its input once (charged per byte) and
//! checks that its output fits before building it.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg, error_more};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("", "encodeURIComponent", 1, encode_uri_component),
    NativeDef::new("", "encodeURI", 1, encode_uri),
    NativeDef::new("", "decodeURIComponent", 1, decode_uri_component),
    NativeDef::new("", "decodeURI", 1, decode_uri),
    NativeDef::new("", "atob", 1, atob),
    NativeDef::new("", "btoa", 1, btoa),
];

/// Characters `encodeURI` leaves alone besides the unreserved ones; `decodeURI` keeps their
/// escapes (`#` included).
const URI_RESERVED: &str = ";/?:@&=+$,#";

fn is_unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_.!~*'()".contains(c)
}

/// Checks a result of `len` bytes against the string limit and the memory left.
fn check_output(vm: &mut Vm, len: usize) -> Result<(), Throw> {
    if len > crate::heap::MAX_STRING_BYTES {
        return Err(vm.make_error(ErrorKind::RangeError, "Invalid string length"));
    }
    vm.ensure_fits(len)
}

fn encode(vm: &mut Vm, args: &[Value], keep: &str) -> Result<Step, Throw> {
    let s = vm.to_rust_string(arg(args, 0))?;
    vm.charge(Work::Bytes(s.len()));
    let kept = |c: char| is_unreserved(c) || keep.contains(c);
    let len: usize = s.chars().map(|c| if kept(c) { 1 } else { 3 * c.len_utf8() }).sum();
    check_output(vm, len)?;
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 4];
    for c in s.chars() {
        if kept(c) {
            out.push(c);
        } else {
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push('%');
                out.push(hex_digit(b >> 4));
                out.push(hex_digit(b & 0xf));
            }
        }
    }
    Ok(Step::Return(vm.new_string_owned(out)?))
}

fn hex_digit(n: u8) -> char {
    char::from(b"0123456789ABCDEF"[(n & 0xf) as usize])
}

fn encode_uri_component(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    encode(vm, args, "")
}

fn encode_uri(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    encode(vm, args, URI_RESERVED)
}

/// The byte of the escape `%XY` at `bytes[i..]`, if it is one.
fn escape_at(bytes: &[u8], i: usize) -> Option<u8> {
    if bytes.get(i) != Some(&b'%') {
        return None;
    }
    let hi = (*bytes.get(i + 1)? as char).to_digit(16)?;
    let lo = (*bytes.get(i + 2)? as char).to_digit(16)?;
    Some((hi * 16 + lo) as u8)
}

/// Decodes `s`; escapes of characters in `keep` stay as they are. `None` when malformed.
fn decode_str(s: &str, keep: &str) -> Option<String> {
    let bytes = s.as_bytes();
    // Decoding only shrinks the text.
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = s.get(i..)?;
        if !rest.starts_with('%') {
            let c = rest.chars().next()?;
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        let first = escape_at(bytes, i)?;
        if first < 0x80 {
            let c = char::from(first);
            if keep.contains(c) {
                out.push_str(s.get(i..i + 3)?);
            } else {
                out.push(c);
            }
            i += 3;
            continue;
        }
        let n = match first {
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => return None,
        };
        let mut seq = [0u8; 4];
        seq[0] = first;
        for (k, slot) in seq.iter_mut().enumerate().take(n).skip(1) {
            let b = escape_at(bytes, i + 3 * k)?;
            if b & 0xc0 != 0x80 {
                return None;
            }
            *slot = b;
        }
        // Rejects overlong forms, surrogates and values past U+10FFFF, as the spec does.
        let c = std::str::from_utf8(seq.get(..n)?).ok()?;
        out.push_str(c);
        i += 3 * n;
    }
    Some(out)
}

fn decode(vm: &mut Vm, args: &[Value], keep: &str) -> Result<Step, Throw> {
    let s = vm.to_rust_string(arg(args, 0))?;
    vm.charge(Work::Bytes(s.len()));
    check_output(vm, s.len())?;
    match decode_str(&s, keep) {
        Some(out) => Ok(Step::Return(vm.new_string_owned(out)?)),
        None => Err(error_more::uri_error(vm, "URI malformed")),
    }
}

fn decode_uri_component(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    decode(vm, args, "")
}

fn decode_uri(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    decode(vm, args, URI_RESERVED)
}

// ---- base64 ----

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

/// Why forgiving-base64 decoding failed (Node's two messages).
enum Base64Error {
    InvalidCharacter,
    BadLength,
}

/// WHATWG forgiving-base64 decode: ASCII whitespace ignored, `=` padding optional.
fn forgiving_base64(s: &str) -> Result<Vec<u8>, Base64Error> {
    let mut data: Vec<u8> =
        s.bytes().filter(|b| !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')).collect();
    // Node reports a character outside the alphabet before anything else.
    if data.iter().any(|&c| c != b'=' && base64_value(c).is_none()) {
        return Err(Base64Error::InvalidCharacter);
    }
    if data.len().is_multiple_of(4) {
        if data.ends_with(b"==") {
            data.truncate(data.len() - 2);
        } else if data.ends_with(b"=") {
            data.truncate(data.len() - 1);
        }
    }
    // Padding left anywhere else is an invalid character, reported before a bad length.
    if data.contains(&b'=') {
        return Err(Base64Error::InvalidCharacter);
    }
    if data.len() % 4 == 1 {
        return Err(Base64Error::BadLength);
    }
    let mut out = Vec::with_capacity(data.len() / 4 * 3 + 2);
    let mut acc = 0u32;
    let mut bits = 0;
    for &c in &data {
        let v = base64_value(c).ok_or(Base64Error::InvalidCharacter)?;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}

/// The string's text, or Node's TypeError when the argument is missing.
fn required_text(vm: &mut Vm, args: &[Value], name: &str) -> Result<String, Throw> {
    if args.is_empty() {
        let msg = format!("The \"{name}\" argument must be specified");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    vm.to_rust_string(arg(args, 0))
}

fn atob(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = required_text(vm, args, "input")?;
    vm.charge(Work::Bytes(s.len()));
    // Whitespace-free data (at most the input), then at most two UTF-8 bytes per decoded byte.
    check_output(vm, 2 * s.len())?;
    match forgiving_base64(&s) {
        Ok(bytes) => {
            let out: String = bytes.into_iter().map(char::from).collect();
            Ok(Step::Return(vm.new_string_owned(out)?))
        }
        Err(Base64Error::InvalidCharacter) => {
            Err(error_more::named_error(vm, "InvalidCharacterError", "Invalid character"))
        }
        Err(Base64Error::BadLength) => Err(error_more::named_error(
            vm,
            "InvalidCharacterError",
            "The string to be decoded is not correctly encoded.",
        )),
    }
}

fn btoa(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = required_text(vm, args, "input")?;
    vm.charge(Work::Bytes(s.len()));
    let mut bytes = Vec::with_capacity(s.len());
    for c in s.chars() {
        match u8::try_from(u32::from(c)) {
            Ok(b) => bytes.push(b),
            Err(_) => return Err(error_more::named_error(vm, "InvalidCharacterError", "Invalid character")),
        }
    }
    let len = bytes.len().div_ceil(3) * 4;
    check_output(vm, len)?;
    let mut out = String::with_capacity(len);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(BASE64[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    Ok(Step::Return(vm.new_string_owned(out)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_keeps_reserved_escapes_and_rejects_malformed() {
        assert_eq!(decode_str("%E4%BD%A0%2F%3f", URI_RESERVED).as_deref(), Some("你%2F%3f"));
        assert_eq!(decode_str("%E4%BD%A0%2F%3f", "").as_deref(), Some("你/?"));
        for bad in ["%", "%z1", "%C0%80", "%E4%BD", "%ED%A0%80", "%80", "%F8%80%80%80"] {
            assert!(decode_str(bad, "").is_none(), "{bad}");
        }
    }

    #[test]
    fn base64_forgiving() {
        assert_eq!(forgiving_base64(" YW Jj ZA ").ok(), Some(b"abcd".to_vec()));
        assert_eq!(forgiving_base64("YQ").ok(), Some(b"a".to_vec()));
        assert!(matches!(forgiving_base64("Y"), Err(Base64Error::BadLength)));
        assert!(matches!(forgiving_base64("YQ="), Err(Base64Error::InvalidCharacter)));
        assert!(matches!(forgiving_base64("abc=="), Err(Base64Error::InvalidCharacter)));
    }
}
