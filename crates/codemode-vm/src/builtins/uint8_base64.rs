//! `Uint8Array` to and from base64 and hex: `fromBase64`, `fromHex`, and the prototype's
//! `toBase64`, `toHex`, `setFromBase64`, `setFromHex`, as the ECMAScript proposal (stage 4)
//! specifies them: ASCII whitespace is skipped in base64, `lastChunkHandling` decides what a
//! partial final chunk does, and a `set…` that meets an error writes what came before it.

use codemode_bytecode::ErrorKind;

use super::typed_array::{ElemKind, TypedArrayData, data_of, new_typed};
use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::Slot;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Uint8Array", "fromBase64", 1, from_base64),
    NativeDef::new("Uint8Array", "fromHex", 1, from_hex),
    NativeDef::new("Uint8Array.prototype", "toBase64", 0, to_base64),
    NativeDef::new("Uint8Array.prototype", "toHex", 0, to_hex),
    NativeDef::new("Uint8Array.prototype", "setFromBase64", 1, set_from_base64),
    NativeDef::new("Uint8Array.prototype", "setFromHex", 1, set_from_hex),
];

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// What a decoding produced: the bytes, how many characters it consumed, and the error that
/// stopped it (a `SyntaxError` message), if any.
struct Decoded {
    bytes: Vec<u8>,
    read: usize,
    error: Option<&'static str>,
}

fn the_string(vm: &mut Vm, v: Value) -> Result<Vec<u8>, Throw> {
    match v {
        Value::Str(s) => Ok(vm.heap.str(s).as_bytes().to_vec()),
        _ => Err(vm.make_error(ErrorKind::TypeError, "The input must be a string")),
    }
}

/// An option of `options` that must be one of `allowed` (the first is the default).
fn option(vm: &mut Vm, options: Value, name: &str, allowed: &[&'static str]) -> Result<&'static str, Throw> {
    let v = match options {
        Value::Undefined => return Ok(allowed[0]),
        Value::Obj(_) => vm.get_named(options, name)?,
        _ => return Err(vm.make_error(ErrorKind::TypeError, "The options must be an object")),
    };
    if v == Value::Undefined {
        return Ok(allowed[0]);
    }
    if let Value::Str(s) = v {
        let text = vm.heap.str(s);
        if let Some(found) = allowed.iter().find(|a| **a == text) {
            return Ok(found);
        }
    }
    Err(vm.make_error(ErrorKind::TypeError, &format!("Invalid {name} option")))
}

fn skip_space(s: &[u8], mut i: usize) -> usize {
    while s.get(i).is_some_and(|c| matches!(c, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')) {
        i += 1;
    }
    i
}

/// Decodes a chunk of 2, 3 or 4 characters (`Err` when `strict` and the padding bits are set).
fn decode_chunk(chunk: &[u8], strict: bool, out: &mut Vec<u8>) -> Result<(), &'static str> {
    let mut n: u32 = 0;
    for i in 0..4 {
        let c = chunk.get(i).copied().unwrap_or(b'A');
        let v = STANDARD.iter().position(|x| *x == c).unwrap_or(0) as u32;
        n = (n << 6) | v;
    }
    let b = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
    let keep = match chunk.len() {
        2 => 1,
        3 => 2,
        _ => 3,
    };
    if strict && b[keep..].iter().any(|x| *x != 0) {
        return Err("Extra bits in the last base64 chunk");
    }
    out.extend_from_slice(&b[..keep]);
    Ok(())
}

fn from_base64_bytes(s: &[u8], url: bool, last: &str, max: usize) -> Decoded {
    let mut d = Decoded { bytes: Vec::new(), read: 0, error: None };
    if max == 0 {
        return d;
    }
    let mut chunk: Vec<u8> = Vec::with_capacity(4);
    let mut i = 0;
    let fail = |mut d: Decoded, msg| {
        d.error = Some(msg);
        d
    };
    loop {
        i = skip_space(s, i);
        if i == s.len() {
            if !chunk.is_empty() {
                match last {
                    "stop-before-partial" => return d,
                    "loose" => {
                        if chunk.len() == 1 {
                            return fail(d, "Invalid base64: a lone final character");
                        }
                        let _ = decode_chunk(&chunk, false, &mut d.bytes);
                    }
                    _ => return fail(d, "Invalid base64: incomplete final chunk"),
                }
            }
            d.read = s.len();
            return d;
        }
        let mut c = s[i];
        i += 1;
        if c == b'=' {
            if chunk.len() < 2 {
                return fail(d, "Invalid base64: misplaced padding");
            }
            i = skip_space(s, i);
            if chunk.len() == 2 {
                if i == s.len() {
                    if last == "stop-before-partial" {
                        return d;
                    }
                    return fail(d, "Invalid base64: incomplete padding");
                }
                if s[i] == b'=' {
                    i = skip_space(s, i + 1);
                }
            }
            if i < s.len() {
                return fail(d, "Invalid base64: characters after padding");
            }
            if let Err(msg) = decode_chunk(&chunk, last == "strict", &mut d.bytes) {
                return fail(d, msg);
            }
            d.read = s.len();
            return d;
        }
        if url {
            match c {
                b'+' | b'/' => return fail(d, "Invalid base64url character"),
                b'-' => c = b'+',
                b'_' => c = b'/',
                _ => {}
            }
        }
        if !STANDARD.contains(&c) {
            return fail(d, "Invalid base64 character");
        }
        let remaining = max - d.bytes.len();
        if (remaining == 1 && chunk.len() == 2) || (remaining == 2 && chunk.len() == 3) {
            return d;
        }
        chunk.push(c);
        if chunk.len() == 4 {
            let _ = decode_chunk(&chunk, false, &mut d.bytes);
            chunk.clear();
            d.read = i;
            if d.bytes.len() == max {
                return d;
            }
        }
    }
}

fn from_hex_bytes(s: &[u8], max: usize) -> Decoded {
    let mut d = Decoded { bytes: Vec::new(), read: 0, error: None };
    if !s.len().is_multiple_of(2) {
        d.error = Some("Invalid hex: odd length");
        return d;
    }
    while d.read < s.len() && d.bytes.len() < max {
        let pair = &s[d.read..d.read + 2];
        let hex = |c: u8| (c as char).to_digit(16);
        match (hex(pair[0]), hex(pair[1])) {
            (Some(h), Some(l)) => d.bytes.push((h * 16 + l) as u8),
            _ => {
                d.error = Some("Invalid hex character");
                return d;
            }
        }
        d.read += 2;
    }
    d
}

fn new_uint8(vm: &mut Vm, bytes: &[u8]) -> Result<Value, Throw> {
    let id = new_typed(vm, ElemKind::Uint8, bytes.len())?;
    if let Some(t) = data_of(vm, id)
        && let Some(dst) = super::array_buffer::bytes_mut(&mut vm.heap, t.buffer)
    {
        dst.copy_from_slice(bytes);
    }
    Ok(Value::Obj(id))
}

fn from_base64(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = the_string(vm, arg(args, 0))?;
    let alphabet = option(vm, arg(args, 1), "alphabet", &["base64", "base64url"])?;
    let last = option(vm, arg(args, 1), "lastChunkHandling", &["loose", "strict", "stop-before-partial"])?;
    vm.charge(Work::Bytes(s.len()));
    let d = from_base64_bytes(&s, alphabet == "base64url", last, usize::MAX);
    if let Some(msg) = d.error {
        return Err(vm.make_error(ErrorKind::SyntaxError, msg));
    }
    Ok(Step::Return(new_uint8(vm, &d.bytes)?))
}

fn from_hex(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = the_string(vm, arg(args, 0))?;
    vm.charge(Work::Bytes(s.len()));
    let d = from_hex_bytes(&s, usize::MAX);
    if let Some(msg) = d.error {
        return Err(vm.make_error(ErrorKind::SyntaxError, msg));
    }
    Ok(Step::Return(new_uint8(vm, &d.bytes)?))
}

/// The `Uint8Array` behind `this` and its bytes' range, or a `TypeError`.
fn this_uint8(vm: &mut Vm, this: Value, method: &str) -> Result<(TypedArrayData, usize), Throw> {
    if let Value::Obj(id) = this
        && let Some(t) = data_of(vm, id)
        && t.kind == ElemKind::Uint8
    {
        return match t.len(&vm.heap) {
            Some(len) => Ok((t, len)),
            None => {
                let msg = format!("Cannot perform Uint8Array.prototype.{method} on a detached ArrayBuffer");
                Err(vm.make_error(ErrorKind::TypeError, &msg))
            }
        };
    }
    let msg = format!("Uint8Array.prototype.{method} called on a value that is not a Uint8Array");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

fn bytes(vm: &Vm, t: &TypedArrayData, len: usize) -> Vec<u8> {
    super::array_buffer::bytes_of(&vm.heap, t.buffer)
        .and_then(|b| b.get(t.offset..t.offset + len))
        .unwrap_or(&[])
        .to_vec()
}

fn to_base64(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_uint8(vm, this, "toBase64")?;
    let options = arg(args, 0);
    let alphabet = option(vm, options, "alphabet", &["base64", "base64url"])?;
    let omit = match options {
        Value::Obj(_) => {
            let v = vm.get_named(options, "omitPadding")?;
            vm.to_boolean(v)
        }
        _ => false,
    };
    let (t, len) = this_uint8(vm, this, "toBase64")?;
    let data = bytes(vm, &t, len);
    vm.ensure_fits(data.len() / 3 * 4 + 4)?;
    vm.charge(Work::Bytes(data.len()));
    let mut out = String::with_capacity(data.len() / 3 * 4 + 4);
    for chunk in data.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for k in 0..=chunk.len() {
            let mut c = STANDARD[((n >> (18 - 6 * k)) & 63) as usize];
            if alphabet == "base64url" {
                c = match c {
                    b'+' => b'-',
                    b'/' => b'_',
                    c => c,
                };
            }
            out.push(c as char);
        }
        if !omit {
            for _ in chunk.len()..3 {
                out.push('=');
            }
        }
    }
    Ok(Step::Return(vm.new_string_owned(out)?))
}

fn to_hex(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (t, len) = this_uint8(vm, this, "toHex")?;
    let data = bytes(vm, &t, len);
    vm.ensure_fits(data.len() * 2)?;
    vm.charge(Work::Bytes(data.len()));
    let mut out = String::with_capacity(data.len() * 2);
    for b in data {
        out.push_str(&format!("{b:02x}"));
    }
    Ok(Step::Return(vm.new_string_owned(out)?))
}

/// Writes `d.bytes` into the array, then throws `d.error` or returns `{ read, written }`.
fn finish_set(vm: &mut Vm, t: &TypedArrayData, d: Decoded) -> Result<Step, Throw> {
    if let Some(dst) = super::array_buffer::bytes_mut(&mut vm.heap, t.buffer)
        && let Some(dst) = dst.get_mut(t.offset..t.offset + d.bytes.len())
    {
        dst.copy_from_slice(&d.bytes);
    }
    if let Some(msg) = d.error {
        return Err(vm.make_error(ErrorKind::SyntaxError, msg));
    }
    let (r, w) = (vm.heap.atoms.intern("read"), vm.heap.atoms.intern("written"));
    let slots = vec![
        Slot::new(r, Value::Number(d.read as f64), 0),
        Slot::new(w, Value::Number(d.bytes.len() as f64), 0),
    ];
    Ok(Step::Return(vm.new_object_with(slots)?))
}

fn set_from_base64(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_uint8(vm, this, "setFromBase64")?;
    let s = the_string(vm, arg(args, 0))?;
    let alphabet = option(vm, arg(args, 1), "alphabet", &["base64", "base64url"])?;
    let last = option(vm, arg(args, 1), "lastChunkHandling", &["loose", "strict", "stop-before-partial"])?;
    let (t, len) = this_uint8(vm, this, "setFromBase64")?;
    vm.charge(Work::Bytes(s.len()));
    let d = from_base64_bytes(&s, alphabet == "base64url", last, len);
    finish_set(vm, &t, d)
}

fn set_from_hex(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_uint8(vm, this, "setFromHex")?;
    let s = the_string(vm, arg(args, 0))?;
    let (t, len) = this_uint8(vm, this, "setFromHex")?;
    vm.charge(Work::Bytes(s.len()));
    let d = from_hex_bytes(&s, len);
    finish_set(vm, &t, d)
}

#[cfg(test)]
mod tests {
    use super::{from_base64_bytes, from_hex_bytes};

    #[test]
    fn base64_decodes_with_whitespace_padding_and_partial_chunks() {
        let d = from_base64_bytes(b"SGVs bG8=", false, "loose", usize::MAX);
        assert_eq!((d.bytes.as_slice(), d.read, d.error), (&b"Hello"[..], 9, None));
        let d = from_base64_bytes(b"SGVsbG8", false, "loose", usize::MAX);
        assert_eq!(d.bytes, b"Hello");
        assert!(from_base64_bytes(b"SGVsbG8", false, "strict", usize::MAX).error.is_some());
        let d = from_base64_bytes(b"SGVsbG8", false, "stop-before-partial", usize::MAX);
        assert_eq!((d.bytes.as_slice(), d.read), (&b"Hel"[..], 4));
        assert!(from_base64_bytes(b"SGVsbG9=", false, "strict", usize::MAX).error.is_some());
        assert!(from_base64_bytes(b"-_8", false, "loose", usize::MAX).error.is_some());
        assert_eq!(from_base64_bytes(b"-_8", true, "loose", usize::MAX).bytes, vec![0xfb, 0xff]);
        let d = from_base64_bytes(b"SGVsbG8=", false, "loose", 4);
        assert_eq!((d.bytes.as_slice(), d.read), (&b"Hel"[..], 4));
    }

    #[test]
    fn hex_decodes_pairs_and_refuses_odd_lengths() {
        assert_eq!(from_hex_bytes(b"00ffA0", usize::MAX).bytes, vec![0, 255, 160]);
        assert!(from_hex_bytes(b"abc", usize::MAX).error.is_some());
        let d = from_hex_bytes(b"0g", usize::MAX);
        assert!(d.error.is_some() && d.bytes.is_empty());
        assert_eq!(from_hex_bytes(b"010203", 2).read, 4);
    }
}
