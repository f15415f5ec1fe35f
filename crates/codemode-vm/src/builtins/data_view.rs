//! `DataView`: reads and writes numbers of every size at any byte offset of a buffer, in either
//! byte order (big-endian unless `littleEndian` is true).

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::array_buffer::{bytes_mut, bytes_of, to_index};
use super::typed_array::ElemKind;
use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::heap::Heap;
use crate::object::ObjKind;
use crate::value::{ObjId, Value};

/// A `DataView`'s window on its buffer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewData {
    pub buffer: ObjId,
    pub offset: usize,
    /// Bytes, or `None` when the view tracks a resizable buffer's length.
    pub length: Option<usize>,
}

impl ViewData {
    /// The current byte length, or `None` when detached or out of bounds.
    fn len(&self, heap: &Heap) -> Option<usize> {
        let total = bytes_of(heap, self.buffer)?.len();
        match self.length {
            None => (self.offset <= total).then(|| total - self.offset),
            Some(n) => n.checked_add(self.offset).filter(|end| *end <= total).map(|_| n),
        }
    }
}

macro_rules! accessors {
    ($(($kind:ident, $get:ident, $set:ident, $get_name:literal, $set_name:literal)),* $(,)?) => {
        $(
            fn $get(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
                get(vm, this, args, ElemKind::$kind, $get_name)
            }
            fn $set(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
                set(vm, this, args, ElemKind::$kind, $set_name)
            }
        )*
        pub const DEFS: &[NativeDef] = &[
            NativeDef::ctor("DataView", 1, view_call, view_construct),
            NativeDef::new("DataView.prototype", "get buffer", 0, get_buffer),
            NativeDef::new("DataView.prototype", "get byteLength", 0, get_byte_length),
            NativeDef::new("DataView.prototype", "get byteOffset", 0, get_byte_offset),
            $(
                NativeDef::new("DataView.prototype", $get_name, 1, $get),
                NativeDef::new("DataView.prototype", $set_name, 2, $set),
            )*
        ];
    };
}

accessors!(
    (Int8, get_int8, set_int8, "getInt8", "setInt8"),
    (Uint8, get_uint8, set_uint8, "getUint8", "setUint8"),
    (Int16, get_int16, set_int16, "getInt16", "setInt16"),
    (Uint16, get_uint16, set_uint16, "getUint16", "setUint16"),
    (Int32, get_int32, set_int32, "getInt32", "setInt32"),
    (Uint32, get_uint32, set_uint32, "getUint32", "setUint32"),
    (Float32, get_float32, set_float32, "getFloat32", "setFloat32"),
    (Float64, get_float64, set_float64, "getFloat64", "setFloat64"),
    (Float16, get_float16, set_float16, "getFloat16", "setFloat16"),
    (BigInt64, get_bigint64, set_bigint64, "getBigInt64", "setBigInt64"),
    (BigUint64, get_biguint64, set_biguint64, "getBigUint64", "setBigUint64"),
);

fn view_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor DataView requires 'new'"))
}

fn view_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    // The buffer, then the offset, are checked before the length converts.
    if !matches!(arg(args, 0), Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::ArrayBuffer(_))) {
        let msg = "First argument to DataView constructor must be an ArrayBuffer";
        return Err(vm.make_error(ErrorKind::TypeError, msg));
    }
    if !matches!(arg(args, 1), Value::Obj(_)) {
        to_index(vm, arg(args, 1), "DataView offset")?;
    }
    if let Some(step) = super::prim_args::convert_args(vm, ".DataView", true, Value::Undefined, args, 1)? {
        return Ok(step);
    }
    let buffer = match arg(args, 0) {
        Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::ArrayBuffer(_)) => id,
        _ => {
            let msg = "First argument to DataView constructor must be an ArrayBuffer";
            return Err(vm.make_error(ErrorKind::TypeError, msg));
        }
    };
    let offset = to_index(vm, arg(args, 1), "DataView offset")?;
    let (total, resizable) = match &vm.heap.obj(buffer).kind {
        ObjKind::ArrayBuffer(b) if !b.detached => (b.bytes.len(), b.max.is_some()),
        _ => {
            return Err(vm.make_error(
                ErrorKind::TypeError,
                "Cannot perform DataView constructor on a detached ArrayBuffer",
            ));
        }
    };
    if offset > total {
        let msg = format!("Start offset {offset} is outside the bounds of the buffer");
        return Err(vm.make_error(ErrorKind::RangeError, &msg));
    }
    let length = match arg(args, 2) {
        Value::Undefined if resizable => None,
        Value::Undefined => Some(total - offset),
        v => {
            let n = to_index(vm, v, "DataView length")?;
            if offset.checked_add(n).is_none_or(|end| end > total) {
                let msg = format!("Invalid DataView length {n}");
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            }
            Some(n)
        }
    };
    let proto = vm.realm.binary.data_view;
    let id = vm.alloc(ObjKind::DataView(ViewData { buffer, offset, length }), Some(proto))?;
    Ok(Step::Return(Value::Obj(id)))
}

fn this_view(vm: &mut Vm, this: Value, method: &str) -> Result<ViewData, Throw> {
    if let Value::Obj(id) = this
        && let ObjKind::DataView(d) = &vm.heap.obj(id).kind
    {
        return Ok(d.clone());
    }
    let msg = format!("Method DataView.prototype.{method} called on incompatible receiver");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

fn detached(vm: &mut Vm, method: &str) -> Throw {
    let msg = format!("Cannot perform DataView.prototype.{method} on a detached ArrayBuffer");
    vm.make_error(ErrorKind::TypeError, &msg)
}

fn get_buffer(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Obj(this_view(vm, this, "buffer")?.buffer)))
}

fn get_byte_length(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let d = this_view(vm, this, "byteLength")?;
    match d.len(&vm.heap) {
        Some(n) => Ok(Step::Return(Value::Number(n as f64))),
        None => Err(detached(vm, "byteLength")),
    }
}

fn get_byte_offset(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let d = this_view(vm, this, "byteOffset")?;
    match d.len(&vm.heap) {
        Some(_) => Ok(Step::Return(Value::Number(d.offset as f64))),
        None => Err(detached(vm, "byteOffset")),
    }
}

/// The buffer range `[start, start + size)` of a `get`/`set` at `index`, checked.
fn range(vm: &mut Vm, d: &ViewData, index: usize, size: usize, method: &str) -> Result<usize, Throw> {
    let Some(len) = d.len(&vm.heap) else { return Err(detached(vm, method)) };
    if index.checked_add(size).is_none_or(|end| end > len) {
        return Err(vm.make_error(ErrorKind::RangeError, "Offset is outside the bounds of the DataView"));
    }
    Ok(d.offset + index)
}

fn get(vm: &mut Vm, this: Value, args: &[Value], kind: ElemKind, method: &str) -> Result<Step, Throw> {
    let name = format!("DataView.prototype.{method}");
    if let Some(step) = super::prim_args::convert_args(vm, &name, false, this, args, 0)? {
        return Ok(step);
    }
    let d = this_view(vm, this, method)?;
    let index = to_index(vm, arg(args, 0), "offset")?;
    let little = vm.to_boolean(arg(args, 1));
    let start = range(vm, &d, index, kind.size(), method)?;
    let e = bytes_of(&vm.heap, d.buffer)
        .and_then(|b| b.get(start..start + kind.size()))
        .map_or(super::typed_array::Elem::Num(0.0), |b| kind.decode(b, little));
    Ok(Step::Return(vm.elem_value(e)?))
}

fn set(vm: &mut Vm, this: Value, args: &[Value], kind: ElemKind, method: &str) -> Result<Step, Throw> {
    // The index is checked before the value converts (by a program's valueOf, maybe).
    this_view(vm, this, method)?;
    if !matches!(arg(args, 0), Value::Obj(_)) {
        to_index(vm, arg(args, 0), "offset")?;
    }
    let name = format!("DataView.prototype.{method}");
    if let Some(step) = super::prim_args::convert_args(vm, &name, false, this, args, 0)? {
        return Ok(step);
    }
    let d = this_view(vm, this, method)?;
    let index = to_index(vm, arg(args, 0), "offset")?;
    let n = vm.to_elem(kind, arg(args, 1))?;
    let little = vm.to_boolean(arg(args, 2));
    let start = range(vm, &d, index, kind.size(), method)?;
    if let Some(b) = bytes_mut(&mut vm.heap, d.buffer).and_then(|b| b.get_mut(start..start + kind.size())) {
        kind.encode(n, b, little);
    }
    Ok(Step::Return(Value::Undefined))
}
