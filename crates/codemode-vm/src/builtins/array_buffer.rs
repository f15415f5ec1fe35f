//! `ArrayBuffer`: a byte buffer that typed arrays and `DataView`s view.
//!
//! The bytes live in `ObjKind::ArrayBuffer` as a plain `Vec<u8>` (saved with the rest of the
//! heap). Memory is checked against the limit before the bytes are built (`ensure_fits`; the
//! heap charges them with the object) and growth by `resize` is charged before it happens, so
//! `new ArrayBuffer(1e12)` is a catchable `RangeError`. Resizable buffers (`maxByteLength`)
//! hold only their current length; `transfer` detaches the source.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("ArrayBuffer", 1, buffer_call, buffer_construct),
    NativeDef::new("ArrayBuffer", "isView", 1, is_view),
    NativeDef::new("ArrayBuffer.prototype", "get byteLength", 0, byte_length),
    NativeDef::new("ArrayBuffer.prototype", "get maxByteLength", 0, max_byte_length),
    NativeDef::new("ArrayBuffer.prototype", "get resizable", 0, resizable),
    NativeDef::new("ArrayBuffer.prototype", "get detached", 0, detached),
    NativeDef::new("ArrayBuffer.prototype", "slice", 2, slice),
    NativeDef::new("ArrayBuffer.prototype", "resize", 1, resize),
    NativeDef::new("ArrayBuffer.prototype", "transfer", 0, transfer),
    NativeDef::new("ArrayBuffer.prototype", "transferToFixedLength", 0, transfer_fixed),
];

/// The largest buffer a program can make (beyond the memory limit, which usually says no first).
pub const MAX_BYTE_LENGTH: usize = 1 << 30;

/// An `ArrayBuffer`'s state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BufferData {
    pub bytes: Vec<u8>,
    /// `maxByteLength` of a resizable buffer.
    pub max: Option<usize>,
    pub detached: bool,
}

/// The bytes of buffer `id`, or `None` when it is detached (or no buffer).
pub(crate) fn bytes_of(heap: &crate::heap::Heap, id: ObjId) -> Option<&[u8]> {
    match &heap.obj(id).kind {
        ObjKind::ArrayBuffer(b) if !b.detached => Some(&b.bytes),
        _ => None,
    }
}

/// The bytes of buffer `id`, to write, or `None` when it is detached.
pub(crate) fn bytes_mut(heap: &mut crate::heap::Heap, id: ObjId) -> Option<&mut Vec<u8>> {
    match &mut heap.obj_mut(id).kind {
        ObjKind::ArrayBuffer(b) if !b.detached => Some(&mut b.bytes),
        _ => None,
    }
}

/// `ToIndex(v)`: an integer in `0..=2^53-1`, else a `RangeError` with `what` in its message.
pub(crate) fn to_index(vm: &mut Vm, v: Value, what: &str) -> Result<usize, Throw> {
    if v == Value::Undefined {
        return Ok(0);
    }
    let n = vm.to_number(v)?;
    let n = if n.is_nan() { 0.0 } else { n.trunc() };
    if !(0.0..=9_007_199_254_740_991.0).contains(&n) {
        return Err(vm.make_error(ErrorKind::RangeError, &format!("Invalid {what}")));
    }
    Ok(n as usize)
}

/// A new zero-filled buffer of `len` bytes (resizable up to `max`), checked against the memory
/// limit before the bytes exist.
pub(crate) fn new_buffer(
    vm: &mut Vm,
    len: usize,
    max: Option<usize>,
    proto: Option<ObjId>,
) -> Result<ObjId, Throw> {
    if len > MAX_BYTE_LENGTH || max.is_some_and(|m| m > MAX_BYTE_LENGTH) {
        return Err(vm.make_error(ErrorKind::RangeError, "Array buffer allocation failed"));
    }
    vm.ensure_fits(len + crate::heap::OBJECT_OVERHEAD)?;
    vm.charge(Work::Bytes(len));
    let proto = proto.unwrap_or(vm.realm.binary.array_buffer);
    let data = BufferData { bytes: vec![0; len], max, detached: false };
    vm.alloc(ObjKind::ArrayBuffer(Box::new(data)), Some(proto))
}

/// A new buffer holding a copy of `bytes`.
pub(crate) fn buffer_from(vm: &mut Vm, bytes: &[u8]) -> Result<ObjId, Throw> {
    let id = new_buffer(vm, bytes.len(), None, None)?;
    if let Some(out) = bytes_mut(&mut vm.heap, id) {
        out.copy_from_slice(bytes);
    }
    Ok(id)
}

fn buffer_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor ArrayBuffer requires 'new'"))
}

fn buffer_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let first = args.get(..1).unwrap_or(&[]);
    if let Some(step) = super::prim_args::convert_args(vm, ".ArrayBuffer", true, Value::Undefined, first, 0)?
    {
        return Ok(step);
    }
    let len = to_index(vm, arg(args, 0), "array buffer length")?;
    let mut max = None;
    if let options @ Value::Obj(_) = arg(args, 1) {
        let m = vm.get_named(options, "maxByteLength")?;
        if m != Value::Undefined {
            let m = to_index(vm, m, "array buffer max length")?;
            if len > m {
                return Err(vm.make_error(ErrorKind::RangeError, "Invalid array buffer max length"));
            }
            max = Some(m);
        }
    }
    Ok(Step::Return(Value::Obj(new_buffer(vm, len, max, None)?)))
}

fn is_view(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let view = matches!(arg(args, 0), Value::Obj(id)
        if matches!(vm.heap.obj(id).kind, ObjKind::TypedArray(_) | ObjKind::DataView(_)));
    Ok(Step::Return(Value::Bool(view)))
}

/// The buffer behind `this`, or a `TypeError` naming the method.
fn this_buffer(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    if let Value::Obj(id) = this
        && matches!(vm.heap.obj(id).kind, ObjKind::ArrayBuffer(_))
    {
        return Ok(id);
    }
    let msg = format!("Method ArrayBuffer.prototype.{method} called on incompatible receiver");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

fn data(vm: &Vm, id: ObjId) -> Option<&BufferData> {
    match &vm.heap.obj(id).kind {
        ObjKind::ArrayBuffer(b) => Some(b),
        _ => None,
    }
}

fn byte_length(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_buffer(vm, this, "byteLength")?;
    let n = data(vm, id).map_or(0, |b| if b.detached { 0 } else { b.bytes.len() });
    Ok(Step::Return(Value::Number(n as f64)))
}

fn max_byte_length(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_buffer(vm, this, "maxByteLength")?;
    let n = data(vm, id).map_or(0, |b| if b.detached { 0 } else { b.max.unwrap_or(b.bytes.len()) });
    Ok(Step::Return(Value::Number(n as f64)))
}

fn resizable(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_buffer(vm, this, "resizable")?;
    Ok(Step::Return(Value::Bool(data(vm, id).is_some_and(|b| b.max.is_some()))))
}

fn detached(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_buffer(vm, this, "detached")?;
    Ok(Step::Return(Value::Bool(data(vm, id).is_some_and(|b| b.detached))))
}

fn detached_error(vm: &mut Vm, method: &str) -> Throw {
    let msg = format!("Cannot perform ArrayBuffer.prototype.{method} on a detached ArrayBuffer");
    vm.make_error(ErrorKind::TypeError, &msg)
}

fn slice(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_buffer(vm, this, "slice")?;
    if let Some(step) =
        super::prim_args::convert_args(vm, "ArrayBuffer.prototype.slice", false, this, args, 0)?
    {
        return Ok(step);
    }
    let Some(len) = bytes_of(&vm.heap, id).map(<[u8]>::len) else {
        return Err(detached_error(vm, "slice"));
    };
    let start = super::relative_index(vm, arg(args, 0), len, 0)?;
    let end = super::relative_index(vm, arg(args, 1), len, len)?;
    let n = end.saturating_sub(start);
    let out = new_buffer(vm, n, None, None)?;
    // The conversions above ran program code in JavaScript; here they cannot detach the buffer,
    // but a shrunk resizable one is read within its current bounds.
    let copied: Vec<u8> =
        bytes_of(&vm.heap, id).and_then(|b| b.get(start..end.min(b.len()))).unwrap_or(&[]).to_vec();
    vm.charge(Work::Bytes(copied.len()));
    if let Some(dst) = bytes_mut(&mut vm.heap, out) {
        let k = copied.len().min(dst.len());
        dst[..k].copy_from_slice(&copied[..k]);
    }
    Ok(Step::Return(Value::Obj(out)))
}

fn resize(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_buffer(vm, this, "resize")?;
    let Some(max) = data(vm, id).and_then(|b| b.max) else {
        let msg = "Method ArrayBuffer.prototype.resize called on incompatible receiver #<ArrayBuffer>";
        return Err(vm.make_error(ErrorKind::TypeError, msg));
    };
    if let Some(step) =
        super::prim_args::convert_args(vm, "ArrayBuffer.prototype.resize", false, this, args, 0)?
    {
        return Ok(step);
    }
    let len = to_index(vm, arg(args, 0), "length")?;
    if data(vm, id).is_some_and(|b| b.detached) {
        return Err(detached_error(vm, "resize"));
    }
    if len > max {
        return Err(
            vm.make_error(ErrorKind::RangeError, "ArrayBuffer.prototype.resize: Invalid length parameter")
        );
    }
    let old = bytes_of(&vm.heap, id).map_or(0, <[u8]>::len);
    if len > old {
        let grow = match data(vm, id) {
            Some(b) => len.saturating_sub(b.bytes.capacity()),
            None => 0,
        };
        vm.charge_memory(grow)?;
        vm.charge(Work::Bytes(len - old));
    }
    if let Some(bytes) = bytes_mut(&mut vm.heap, id) {
        bytes.resize(len, 0);
    }
    Ok(Step::Return(Value::Undefined))
}

fn transfer_impl(vm: &mut Vm, this: Value, args: &[Value], fixed: bool) -> Result<Step, Throw> {
    let method = if fixed { "transferToFixedLength" } else { "transfer" };
    let id = this_buffer(vm, this, method)?;
    let name = format!("ArrayBuffer.prototype.{method}");
    if let Some(step) = super::prim_args::convert_args(vm, &name, false, this, args, 0)? {
        return Ok(step);
    }
    let len = match arg(args, 0) {
        Value::Undefined => bytes_of(&vm.heap, id).map_or(0, <[u8]>::len),
        v => to_index(vm, v, "array buffer length")?,
    };
    let Some((detached, source_max)) = data(vm, id).map(|b| (b.detached, b.max)) else {
        return Ok(Step::Return(Value::Undefined));
    };
    if detached {
        return Err(detached_error(vm, method));
    }
    let max = if fixed { None } else { source_max };
    if max.is_some_and(|m| len > m) {
        return Err(vm.make_error(ErrorKind::RangeError, "Invalid array buffer length"));
    }
    let out = new_buffer(vm, len, max, None)?;
    // The source's bytes move out; it is detached.
    let bytes = match &mut vm.heap.obj_mut(id).kind {
        ObjKind::ArrayBuffer(b) => {
            b.detached = true;
            std::mem::take(&mut b.bytes)
        }
        _ => Vec::new(),
    };
    let k = len.min(bytes.len());
    vm.charge(Work::Bytes(k));
    if let Some(dst) = bytes_mut(&mut vm.heap, out) {
        dst[..k].copy_from_slice(&bytes[..k]);
    }
    Ok(Step::Return(Value::Obj(out)))
}

fn transfer(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    transfer_impl(vm, this, args, false)
}

fn transfer_fixed(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    transfer_impl(vm, this, args, true)
}
