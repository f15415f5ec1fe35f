//! `TextEncoder` and `TextDecoder` (UTF-8 only, as the Encoding standard's encoder is).
//!
//! Decoding replaces invalid sequences with U+FFFD the way the standard does (maximal
//! subparts, which is also Rust's `from_utf8_lossy`), or throws a `TypeError` when `fatal`;
//! a leading byte-order mark is dropped unless `ignoreBOM`. `{ stream: true }` keeps an
//! incomplete sequence at the end for the next call.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::array_buffer::bytes_of;
use super::typed_array::{ElemKind, new_typed};
use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::{ObjKind, Slot};
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("TextEncoder", 0, encoder_call, encoder_construct),
    NativeDef::new("TextEncoder.prototype", "get encoding", 0, encoding),
    NativeDef::new("TextEncoder.prototype", "encode", 0, encode),
    NativeDef::new("TextEncoder.prototype", "encodeInto", 2, encode_into),
    NativeDef::ctor("TextDecoder", 0, decoder_call, decoder_construct),
    NativeDef::new("TextDecoder.prototype", "get encoding", 0, encoding),
    NativeDef::new("TextDecoder.prototype", "get fatal", 0, fatal),
    NativeDef::new("TextDecoder.prototype", "get ignoreBOM", 0, ignore_bom),
    NativeDef::new("TextDecoder.prototype", "decode", 0, decode),
];

/// A `TextEncoder` (`decoder == false`) or a `TextDecoder` and its streaming state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Codec {
    pub decoder: bool,
    pub fatal: bool,
    pub ignore_bom: bool,
    /// Bytes of an incomplete sequence kept by `decode(…, { stream: true })`.
    pub pending: Vec<u8>,
    /// Whether a streaming decode already passed the start (where a BOM is dropped).
    pub started: bool,
}

fn encoder_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor TextEncoder requires 'new'"))
}

fn decoder_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor TextDecoder requires 'new'"))
}

fn new_codec(vm: &mut Vm, codec: Codec) -> Result<Value, Throw> {
    let proto = if codec.decoder { vm.realm.binary.text_decoder } else { vm.realm.binary.text_encoder };
    Ok(Value::Obj(vm.alloc(ObjKind::TextCodec(codec), Some(proto))?))
}

fn encoder_construct(vm: &mut Vm, _args: &[Value]) -> Result<Step, Throw> {
    let codec =
        Codec { decoder: false, fatal: false, ignore_bom: false, pending: Vec::new(), started: false };
    Ok(Step::Return(new_codec(vm, codec)?))
}

fn decoder_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    if let label @ (Value::Str(_) | Value::Number(_) | Value::Obj(_) | Value::Bool(_) | Value::Null) =
        arg(args, 0)
    {
        let text = vm.to_rust_string(label)?;
        let name = text.trim_matches(|c: char| c.is_ascii_whitespace()).to_ascii_lowercase();
        let utf8 = matches!(
            name.as_str(),
            "utf-8" | "utf8" | "unicode-1-1-utf-8" | "unicode11utf8" | "unicode20utf8" | "x-unicode20utf8"
        );
        if !utf8 {
            let msg = format!("The \"{text}\" encoding is not supported");
            return Err(vm.make_error(ErrorKind::RangeError, &msg));
        }
    }
    let options = arg(args, 1);
    let (mut fatal, mut ignore_bom) = (false, false);
    if let Value::Obj(_) = options {
        let f = vm.get_named(options, "fatal")?;
        fatal = vm.to_boolean(f);
        let b = vm.get_named(options, "ignoreBOM")?;
        ignore_bom = vm.to_boolean(b);
    }
    let codec = Codec { decoder: true, fatal, ignore_bom, pending: Vec::new(), started: false };
    Ok(Step::Return(new_codec(vm, codec)?))
}

fn this_codec(
    vm: &mut Vm,
    this: Value,
    decoder: Option<bool>,
    method: &str,
) -> Result<(ObjId, Codec), Throw> {
    if let Value::Obj(id) = this
        && let ObjKind::TextCodec(c) = &vm.heap.obj(id).kind
        && decoder.is_none_or(|d| d == c.decoder)
    {
        return Ok((id, c.clone()));
    }
    let owner = if decoder == Some(false) { "TextEncoder" } else { "TextDecoder" };
    let msg = format!("Method {owner}.prototype.{method} called on incompatible receiver");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

fn encoding(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_codec(vm, this, None, "encoding")?;
    Ok(Step::Return(vm.new_string("utf-8")?))
}

fn fatal(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (_, c) = this_codec(vm, this, Some(true), "fatal")?;
    Ok(Step::Return(Value::Bool(c.fatal)))
}

fn ignore_bom(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (_, c) = this_codec(vm, this, Some(true), "ignoreBOM")?;
    Ok(Step::Return(Value::Bool(c.ignore_bom)))
}

fn encode(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_codec(vm, this, Some(false), "encode")?;
    let text = match arg(args, 0) {
        Value::Undefined => String::new(),
        v => vm.to_rust_string(v)?,
    };
    let out = new_typed(vm, ElemKind::Uint8, text.len())?;
    vm.charge(Work::Bytes(text.len()));
    if let ObjKind::TypedArray(t) = &vm.heap.obj(out).kind {
        let buffer = t.buffer;
        if let Some(bytes) = super::array_buffer::bytes_mut(&mut vm.heap, buffer) {
            bytes.copy_from_slice(text.as_bytes());
        }
    }
    Ok(Step::Return(Value::Obj(out)))
}

fn encode_into(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_codec(vm, this, Some(false), "encodeInto")?;
    let text = vm.to_rust_string(arg(args, 0))?;
    let target = match arg(args, 1) {
        Value::Obj(id) => match &vm.heap.obj(id).kind {
            ObjKind::TypedArray(t) if t.kind == ElemKind::Uint8 => Some(t.clone()),
            _ => None,
        },
        _ => None,
    };
    let Some(t) = target else {
        let msg = "The \"dest\" argument must be an instance of Uint8Array.";
        return Err(vm.make_error(ErrorKind::TypeError, msg));
    };
    let room = t.len(&vm.heap).unwrap_or(0);
    let (mut read, mut written) = (0usize, 0usize);
    for c in text.chars() {
        if written + c.len_utf8() > room {
            break;
        }
        written += c.len_utf8();
        read += c.len_utf16();
    }
    vm.charge(Work::Bytes(written));
    if let Some(bytes) = super::array_buffer::bytes_mut(&mut vm.heap, t.buffer)
        && let Some(dst) = bytes.get_mut(t.offset..t.offset + written)
    {
        dst.copy_from_slice(&text.as_bytes()[..written]);
    }
    let (r, w) = (vm.heap.atoms.intern("read"), vm.heap.atoms.intern("written"));
    let slots =
        vec![Slot::new(r, Value::Number(read as f64), 0), Slot::new(w, Value::Number(written as f64), 0)];
    Ok(Step::Return(vm.new_object_with(slots)?))
}

/// The bytes an `ArrayBuffer`, typed array or `DataView` shows.
fn input_bytes(vm: &mut Vm, v: Value) -> Result<Vec<u8>, Throw> {
    let bad = "The \"input\" argument must be an instance of ArrayBuffer or ArrayBufferView";
    let Value::Obj(id) = v else {
        return if v == Value::Undefined {
            Ok(Vec::new())
        } else {
            Err(vm.make_error(ErrorKind::TypeError, bad))
        };
    };
    let (buffer, start, len) = match &vm.heap.obj(id).kind {
        ObjKind::ArrayBuffer(_) => (id, 0, bytes_of(&vm.heap, id).map_or(0, <[u8]>::len)),
        ObjKind::TypedArray(t) => (t.buffer, t.offset, t.len(&vm.heap).unwrap_or(0) * t.kind.size()),
        ObjKind::DataView(d) => {
            let total = bytes_of(&vm.heap, d.buffer).map_or(0, <[u8]>::len);
            let len = d.length.unwrap_or(total.saturating_sub(d.offset));
            (d.buffer, d.offset, len.min(total.saturating_sub(d.offset)))
        }
        _ => return Err(vm.make_error(ErrorKind::TypeError, bad)),
    };
    vm.ensure_fits(len)?;
    Ok(bytes_of(&vm.heap, buffer)
        .and_then(|b| b.get(start..start.saturating_add(len)))
        .unwrap_or(&[])
        .to_vec())
}

fn decode(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let (id, mut codec) = this_codec(vm, this, Some(true), "decode")?;
    let mut bytes = std::mem::take(&mut codec.pending);
    bytes.extend(input_bytes(vm, arg(args, 0))?);
    let options = arg(args, 1);
    let stream = match options {
        Value::Obj(_) => {
            let s = vm.get_named(options, "stream")?;
            vm.to_boolean(s)
        }
        _ => false,
    };
    vm.charge(Work::Bytes(bytes.len()));
    // Streaming: an incomplete sequence at the end waits for the next call.
    if stream {
        let cut = incomplete_tail(&bytes);
        codec.pending = bytes.split_off(bytes.len() - cut);
    }
    let mut body: &[u8] = &bytes;
    if !codec.started && !codec.ignore_bom && body.starts_with(&[0xEF, 0xBB, 0xBF]) {
        body = &body[3..];
    }
    let text = if codec.fatal {
        match std::str::from_utf8(body) {
            Ok(s) => s.to_string(),
            Err(_) => {
                if let ObjKind::TextCodec(c) = &mut vm.heap.obj_mut(id).kind {
                    c.pending.clear();
                    c.started = false;
                }
                let msg = "The encoded data was not valid for encoding utf-8";
                return Err(vm.make_error(ErrorKind::TypeError, msg));
            }
        }
    } else {
        String::from_utf8_lossy(body).into_owned()
    };
    codec.started = stream && (codec.started || !bytes.is_empty());
    if !stream {
        codec.pending.clear();
    }
    if let ObjKind::TextCodec(c) = &mut vm.heap.obj_mut(id).kind {
        *c = codec;
    }
    vm.ensure_fits(text.len())?;
    Ok(Step::Return(vm.new_string_owned(text)?))
}

/// How many bytes at the end of `bytes` start a UTF-8 sequence that is not complete yet.
fn incomplete_tail(bytes: &[u8]) -> usize {
    for back in 1..=3.min(bytes.len()) {
        let b = bytes[bytes.len() - back];
        if b & 0xC0 == 0x80 {
            continue;
        }
        let need = match b {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return 0,
        };
        return if back < need { back } else { 0 };
    }
    0
}
