//! Typed arrays: `%TypedArray%`, its prototype's getters, the nine constructors
//! (`Int8Array` … `Float64Array`), and the integer-indexed exotic behaviour `props.rs` asks for.
//!
//! A typed array is `ObjKind::TypedArray(TypedArrayData)`: an element kind, the `ArrayBuffer`
//! it views, a byte offset and a length (`None`: it tracks a resizable buffer's length). The
//! elements are the buffer's bytes, little-endian. Numeric keys never reach the property map:
//! an in-range index reads or writes the buffer, anything else that is a canonical numeric
//! string (`"-0"`, `"1.5"`, `"-1"`, an index past the end) reads `undefined` and ignores
//! writes. `BigInt64Array`/`BigUint64Array` hold 64-bit integers read as BigInts: elements move
//! through Rust as [`Elem`] (a Number or a 64-bit integer), converted from values by the kind's
//! content type ([`Vm::to_elem`]: ToNumber, or ToBigInt for the BigInt kinds) and back to values
//! by [`Vm::elem_value`].
//! The methods are in `typed_array_methods.rs` and (those that call back) `typed_array_loop.rs`;
//! element types and their byte conversions in `typed_array_kind.rs`.

use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::array_buffer::{self, bytes_mut, bytes_of, new_buffer, to_index};
use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::heap::{Heap, OutOfMemory};
use crate::meter::Work;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::{ObjId, Value};

pub use super::typed_array_kind::{Elem, ElemKind};

/// A typed array's view of its buffer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TypedArrayData {
    pub kind: ElemKind,
    pub buffer: ObjId,
    pub offset: usize,
    /// Elements, or `None` when the view tracks a resizable buffer's length.
    pub length: Option<usize>,
}

impl TypedArrayData {
    /// The current length, or `None` when the view is out of bounds (its buffer detached or
    /// shrunk below it). Checked arithmetic: restored state is not trusted.
    pub fn len(&self, heap: &Heap) -> Option<usize> {
        let total = bytes_of(heap, self.buffer)?.len();
        let size = self.kind.size();
        match self.length {
            None => (self.offset <= total).then(|| (total - self.offset) / size),
            Some(n) => n.checked_mul(size)?.checked_add(self.offset).filter(|end| *end <= total).map(|_| n),
        }
    }

    /// Element `i`, if in bounds.
    pub fn get(&self, heap: &Heap, i: usize) -> Option<Elem> {
        let size = self.kind.size();
        if i >= self.len(heap)? {
            return None;
        }
        let start = self.offset + i * size;
        let b = bytes_of(heap, self.buffer)?.get(start..start + size)?;
        Some(self.kind.decode(b, true))
    }

    /// Stores `n` at element `i` when it is in bounds.
    pub fn put(&self, heap: &mut Heap, i: usize, n: Elem) {
        let size = self.kind.size();
        if self.len(heap).is_none_or(|len| i >= len) {
            return;
        }
        let start = self.offset + i * size;
        if let Some(b) = bytes_mut(heap, self.buffer).and_then(|b| b.get_mut(start..start + size)) {
            self.kind.encode(n, b, true);
        }
    }
}

/// The intrinsic prototypes of the binary-data built-ins (allocated with the realm).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BinaryProtos {
    pub array_buffer: ObjId,
    /// `%TypedArray%.prototype`.
    pub typed_array: ObjId,
    /// `%TypedArray%` itself (set when the built-ins are installed).
    pub typed_array_ctor: ObjId,
    /// `Int8Array.prototype` … in [`ElemKind::ALL`] order.
    pub kinds: [ObjId; 11],
    pub data_view: ObjId,
    pub text_encoder: ObjId,
    pub text_decoder: ObjId,
}

impl BinaryProtos {
    pub fn new(
        object_proto: ObjId,
        obj: &mut impl FnMut(Option<ObjId>, ObjKind) -> Result<ObjId, OutOfMemory>,
    ) -> Result<BinaryProtos, OutOfMemory> {
        let p = Some(object_proto);
        let array_buffer = obj(p, ObjKind::Plain)?;
        let typed_array = obj(p, ObjKind::Plain)?;
        let mut kinds = [typed_array; 11];
        for k in &mut kinds {
            *k = obj(Some(typed_array), ObjKind::Plain)?;
        }
        Ok(BinaryProtos {
            array_buffer,
            typed_array,
            typed_array_ctor: typed_array,
            kinds,
            data_view: obj(p, ObjKind::Plain)?,
            text_encoder: obj(p, ObjKind::Plain)?,
            text_decoder: obj(p, ObjKind::Plain)?,
        })
    }

    pub fn ids(&self) -> impl Iterator<Item = ObjId> + '_ {
        [
            self.array_buffer,
            self.typed_array,
            self.typed_array_ctor,
            self.data_view,
            self.text_encoder,
            self.text_decoder,
        ]
        .into_iter()
        .chain(self.kinds.iter().copied())
    }

    /// The prototype of the constructor `name`, if it is one of these.
    pub fn named(&self, name: &str) -> Option<ObjId> {
        Some(match name {
            "ArrayBuffer" => self.array_buffer,
            "TypedArray" => self.typed_array,
            "DataView" => self.data_view,
            "TextEncoder" => self.text_encoder,
            "TextDecoder" => self.text_decoder,
            _ => {
                let i = ElemKind::ALL.iter().position(|k| k.name() == name)?;
                self.kinds[i]
            }
        })
    }
}

macro_rules! constructors {
    ($(($kind:ident, $call:ident, $construct:ident)),* $(,)?) => {
        $(
            fn $call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
                let msg = format!("Constructor {} requires 'new'", ElemKind::$kind.name());
                Err(vm.make_error(ErrorKind::TypeError, &msg))
            }
            fn $construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
                construct(vm, ElemKind::$kind, args)
            }
        )*
    };
}

constructors!(
    (Int8, int8_call, int8_construct),
    (Uint8, uint8_call, uint8_construct),
    (Uint8Clamped, uint8c_call, uint8c_construct),
    (Int16, int16_call, int16_construct),
    (Uint16, uint16_call, uint16_construct),
    (Int32, int32_call, int32_construct),
    (Uint32, uint32_call, uint32_construct),
    (Float32, float32_call, float32_construct),
    (Float64, float64_call, float64_construct),
    (BigInt64, bigint64_call, bigint64_construct),
    (BigUint64, biguint64_call, biguint64_construct),
);

pub const DEFS: &[NativeDef] = &[
    // `%TypedArray%`: installed as a global, then taken off the global object (install_values).
    NativeDef::ctor("TypedArray", 0, abstract_call, abstract_construct),
    NativeDef::ctor("Int8Array", 3, int8_call, int8_construct),
    NativeDef::ctor("Uint8Array", 3, uint8_call, uint8_construct),
    NativeDef::ctor("Uint8ClampedArray", 3, uint8c_call, uint8c_construct),
    NativeDef::ctor("Int16Array", 3, int16_call, int16_construct),
    NativeDef::ctor("Uint16Array", 3, uint16_call, uint16_construct),
    NativeDef::ctor("Int32Array", 3, int32_call, int32_construct),
    NativeDef::ctor("Uint32Array", 3, uint32_call, uint32_construct),
    NativeDef::ctor("Float32Array", 3, float32_call, float32_construct),
    NativeDef::ctor("Float64Array", 3, float64_call, float64_construct),
    NativeDef::ctor("BigInt64Array", 3, bigint64_call, bigint64_construct),
    NativeDef::ctor("BigUint64Array", 3, biguint64_call, biguint64_construct),
    NativeDef::new("TypedArray.prototype", "get buffer", 0, get_buffer),
    NativeDef::new("TypedArray.prototype", "get byteLength", 0, get_byte_length),
    NativeDef::new("TypedArray.prototype", "get byteOffset", 0, get_byte_offset),
    NativeDef::new("TypedArray.prototype", "get length", 0, get_length),
];

fn abstract_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Constructor TypedArray requires 'new'"))
}

fn abstract_construct(vm: &mut Vm, _args: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "Abstract class TypedArray not directly constructable"))
}

/// A new typed array of `len` zeroed elements over a new buffer.
pub(crate) fn new_typed(vm: &mut Vm, kind: ElemKind, len: usize) -> Result<ObjId, Throw> {
    let bytes = len.saturating_mul(kind.size());
    if bytes > array_buffer::MAX_BYTE_LENGTH {
        let msg = format!("Invalid typed array length: {len}");
        return Err(vm.make_error(ErrorKind::RangeError, &msg));
    }
    let buffer = new_buffer(vm, bytes, None, None)?;
    view(vm, kind, buffer, 0, Some(len))
}

/// A typed array over `buffer`.
pub(crate) fn view(
    vm: &mut Vm,
    kind: ElemKind,
    buffer: ObjId,
    offset: usize,
    length: Option<usize>,
) -> Result<ObjId, Throw> {
    let proto = vm.realm.binary.kinds[kind.index()];
    vm.alloc(ObjKind::TypedArray(TypedArrayData { kind, buffer, offset, length }), Some(proto))
}

/// A new typed array holding `values` (converted with ToNumber, or ToBigInt for a BigInt kind).
pub(crate) fn from_values(vm: &mut Vm, kind: ElemKind, values: &[Value]) -> Result<ObjId, Throw> {
    let id = new_typed(vm, kind, values.len())?;
    fill_from(vm, id, values)?;
    Ok(id)
}

/// Stores `values` into typed array `id` from index 0.
pub(crate) fn fill_from(vm: &mut Vm, id: ObjId, values: &[Value]) -> Result<(), Throw> {
    vm.charge(Work::Elements(values.len()));
    let Some(kind) = data_of(vm, id).map(|t| t.kind) else { return Ok(()) };
    for (i, v) in values.iter().enumerate() {
        let n = vm.to_elem(kind, *v)?;
        if let Some(t) = data_of(vm, id) {
            t.put(&mut vm.heap, i, n);
        }
    }
    Ok(())
}

/// The typed array data of `id`, if it is one (a copy: it is small).
pub(crate) fn data_of(vm: &Vm, id: ObjId) -> Option<TypedArrayData> {
    match &vm.heap.obj(id).kind {
        ObjKind::TypedArray(t) => Some(t.clone()),
        _ => None,
    }
}

/// The elements of typed array `id` (empty when out of bounds), checked against the memory limit
/// before the copy is made.
pub(crate) fn numbers(vm: &mut Vm, id: ObjId) -> Result<Vec<Elem>, Throw> {
    let Some(t) = data_of(vm, id) else { return Ok(Vec::new()) };
    let len = t.len(&vm.heap).unwrap_or(0);
    vm.ensure_fits(len.saturating_mul(std::mem::size_of::<Elem>()))?;
    vm.charge(Work::Elements(len));
    let size = t.kind.size();
    Ok(match bytes_of(&vm.heap, t.buffer).and_then(|b| b.get(t.offset..t.offset + len * size)) {
        Some(b) => b.chunks_exact(size).map(|c| t.kind.decode(c, true)).collect(),
        None => Vec::new(),
    })
}

fn construct(vm: &mut Vm, kind: ElemKind, args: &[Value]) -> Result<Step, Throw> {
    let first = arg(args, 0);
    // An object first argument is a source, never converted; the offset and length are.
    let skip = usize::from(matches!(first, Value::Obj(_)));
    let name = format!(".{}", kind.name());
    if let Some(step) = super::prim_args::convert_args(vm, &name, true, Value::Undefined, args, skip)? {
        return Ok(step);
    }
    let Value::Obj(src) = first else {
        let what = format!("typed array length: {}", describe_number(vm, first));
        let len = to_index(vm, first, &what)?;
        return Ok(Step::Return(Value::Obj(new_typed(vm, kind, len)?)));
    };
    let values: Vec<Value> = match &vm.heap.obj(src).kind {
        ObjKind::ArrayBuffer(_) => return construct_view(vm, kind, src, arg(args, 1), arg(args, 2)),
        ObjKind::TypedArray(s) => {
            if s.kind.is_bigint() != kind.is_bigint() {
                return Err(content_type_mismatch(vm));
            }
            let nums = numbers(vm, src)?;
            let id = new_typed(vm, kind, nums.len())?;
            if let Some(t) = data_of(vm, id) {
                for (i, n) in nums.into_iter().enumerate() {
                    t.put(&mut vm.heap, i, n);
                }
            }
            return Ok(Step::Return(Value::Obj(id)));
        }
        _ => match vm.collect_iterable_or_reenter(&name, true, Value::Undefined, args, 0)? {
            Some(Ok(values)) => values,
            Some(Err(step)) => return Ok(step),
            None => array_like(vm, first)?,
        },
    };
    Ok(Step::Return(Value::Obj(from_values(vm, kind, &values)?)))
}

/// A BigInt typed array filled from a Number one or the reverse.
pub(crate) fn content_type_mismatch(vm: &mut Vm) -> Throw {
    vm.make_error(ErrorKind::TypeError, "Cannot mix BigInt and other types, use explicit conversions")
}

impl Vm {
    /// A value converted for a typed array of `kind`: ToNumber, or ToBigInt (modulo 2^64) for
    /// the BigInt kinds.
    pub(crate) fn to_elem(&mut self, kind: ElemKind, v: Value) -> Result<Elem, Throw> {
        if !kind.is_bigint() {
            return Ok(Elem::Num(self.to_number(v)?));
        }
        let b = self.to_bigint(v)?;
        let wrapped = crate::bigint::wrap_to_bits(&b, 64, kind == ElemKind::BigInt64);
        Ok(Elem::Big(num_traits::ToPrimitive::to_i128(&wrapped).unwrap_or(0)))
    }

    /// An element as a value (a BigInt element is allocated).
    pub(crate) fn elem_value(&mut self, e: Elem) -> Result<Value, Throw> {
        match e {
            Elem::Num(n) => Ok(Value::Number(n)),
            Elem::Big(i) => self.new_bigint(num_bigint::BigInt::from(i)),
        }
    }

    /// Elements as values (BigInt elements allocated), checked against the memory limit first.
    pub(crate) fn elem_values(&mut self, elems: Vec<Elem>) -> Result<Vec<Value>, Throw> {
        self.ensure_fits(elems.len().saturating_mul(crate::heap::VALUE_SIZE))?;
        elems.into_iter().map(|e| self.elem_value(e)).collect()
    }

    /// Element `i` of `t` as a value, `undefined` out of bounds.
    pub(crate) fn typed_get(&mut self, t: &TypedArrayData, i: usize) -> Result<Value, Throw> {
        match t.get(&self.heap, i) {
            Some(e) => self.elem_value(e),
            None => Ok(Value::Undefined),
        }
    }
}

fn describe_number(vm: &mut Vm, v: Value) -> String {
    match vm.to_number(v) {
        Ok(n) => crate::numconv::number_to_string(n),
        Err(_) => String::new(),
    }
}

/// The elements of an array-like object (`{ length, 0: …, 1: … }`).
pub(crate) fn array_like(vm: &mut Vm, v: Value) -> Result<Vec<Value>, Throw> {
    let len = vm.get_named(v, "length")?;
    let len = vm.to_number(len)?;
    let len = if len.is_nan() || len < 0.0 { 0 } else { len.min(9e15) as usize };
    if len > crate::heap::MAX_ARRAY_LENGTH {
        return Err(vm.make_error(ErrorKind::RangeError, &format!("Invalid typed array length: {len}")));
    }
    vm.ensure_fits(len * crate::heap::VALUE_SIZE)?;
    vm.charge(Work::Elements(len));
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        out.push(vm.get_value(v, Key::Index(i as u32))?);
    }
    Ok(out)
}

/// `new Int16Array(buffer, byteOffset, length)`.
fn construct_view(
    vm: &mut Vm,
    kind: ElemKind,
    buffer: ObjId,
    offset: Value,
    length: Value,
) -> Result<Step, Throw> {
    let size = kind.size();
    let name = kind.name();
    let offset = to_index(vm, offset, "typed array offset")?;
    if offset % size != 0 {
        let msg = format!("start offset of {name} should be a multiple of {size}");
        return Err(vm.make_error(ErrorKind::RangeError, &msg));
    }
    let new_length = match length {
        Value::Undefined => None,
        v => Some(to_index(vm, v, "typed array length")?),
    };
    let (total, resizable) = match &vm.heap.obj(buffer).kind {
        ObjKind::ArrayBuffer(b) if !b.detached => (b.bytes.len(), b.max.is_some()),
        _ => {
            return Err(
                vm.make_error(ErrorKind::TypeError, "Cannot perform Construct on a detached ArrayBuffer")
            );
        }
    };
    let length = match new_length {
        None if resizable => {
            if offset > total {
                let msg = format!("Start offset {offset} is outside the bounds of the buffer");
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            }
            None
        }
        None => {
            if total % size != 0 {
                let msg = format!("byte length of {name} should be a multiple of {size}");
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            }
            if offset > total {
                let msg = format!("Start offset {offset} is outside the bounds of the buffer");
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            }
            Some((total - offset) / size)
        }
        Some(n) => {
            if n.checked_mul(size).and_then(|b| b.checked_add(offset)).is_none_or(|end| end > total) {
                let msg = format!("Invalid typed array length: {n}");
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            }
            Some(n)
        }
    };
    Ok(Step::Return(Value::Obj(view(vm, kind, buffer, offset, length)?)))
}

/// The typed array behind `this` and its current length, or a `TypeError` naming the method
/// (also when its buffer is detached or it is out of bounds).
pub(crate) fn this_typed(
    vm: &mut Vm,
    this: Value,
    method: &str,
) -> Result<(ObjId, TypedArrayData, usize), Throw> {
    let Value::Obj(id) = this else { return Err(not_typed(vm, method)) };
    let Some(t) = data_of(vm, id) else { return Err(not_typed(vm, method)) };
    match t.len(&vm.heap) {
        Some(len) => Ok((id, t, len)),
        None => {
            let msg = format!("Cannot perform %TypedArray%.prototype.{method} on a detached ArrayBuffer");
            Err(vm.make_error(ErrorKind::TypeError, &msg))
        }
    }
}

fn not_typed(vm: &mut Vm, method: &str) -> Throw {
    vm.make_error(
        ErrorKind::TypeError,
        &format!("this is not a typed array (in %TypedArray%.prototype.{method})"),
    )
}

fn getter_target(vm: &mut Vm, this: Value, name: &str) -> Result<TypedArrayData, Throw> {
    if let Value::Obj(id) = this
        && let Some(t) = data_of(vm, id)
    {
        return Ok(t);
    }
    Err(not_typed(vm, name))
}

fn get_buffer(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Obj(getter_target(vm, this, "buffer")?.buffer)))
}

fn get_byte_length(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let t = getter_target(vm, this, "byteLength")?;
    Ok(Step::Return(Value::Number((t.len(&vm.heap).unwrap_or(0) * t.kind.size()) as f64)))
}

fn get_byte_offset(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let t = getter_target(vm, this, "byteOffset")?;
    let offset = if t.len(&vm.heap).is_some() { t.offset } else { 0 };
    Ok(Step::Return(Value::Number(offset as f64)))
}

fn get_length(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let t = getter_target(vm, this, "length")?;
    Ok(Step::Return(Value::Number(t.len(&vm.heap).unwrap_or(0) as f64)))
}

// ---- the integer-indexed exotic object (hooks called by props.rs and friends) ----

/// Whether `name` is a canonical numeric string (`ToString(ToNumber(name)) == name`, or `"-0"`).
fn canonical_numeric(name: &str) -> bool {
    name == "-0" || crate::numconv::number_to_string(crate::numconv::string_to_number(name)) == name
}

/// Whether `key` is a numeric key of a typed array: an index, or a canonical numeric name.
pub(crate) fn is_numeric_key(heap: &Heap, key: Key) -> bool {
    match key {
        Key::Index(_) => true,
        Key::Atom(a) => {
            let name = heap.atoms.name(a);
            name.as_bytes().first().is_some_and(|b| b.is_ascii_digit() || matches!(b, b'-' | b'I' | b'N'))
                && canonical_numeric(name)
        }
    }
}

/// `[[Get]]` of a numeric key: `Some(element or undefined)`; `None` for other keys.
pub(crate) fn indexed_get(vm: &mut Vm, t: &TypedArrayData, key: Key) -> Result<Option<Value>, Throw> {
    if !is_numeric_key(&vm.heap, key) {
        return Ok(None);
    }
    Ok(Some(match key {
        Key::Index(i) => vm.typed_get(t, i as usize)?,
        Key::Atom(_) => Value::Undefined,
    }))
}

/// `[[HasProperty]]` of a numeric key: `Some(in range)`; `None` for other keys.
pub(crate) fn indexed_has(heap: &Heap, t: &TypedArrayData, key: Key) -> Option<bool> {
    if !is_numeric_key(heap, key) {
        return None;
    }
    Some(match key {
        Key::Index(i) => t.len(heap).is_some_and(|len| (i as usize) < len),
        Key::Atom(_) => false,
    })
}

/// `[[Set]]` of a numeric key on typed array `id`: converts the value, writes it when the
/// index is in range (else ignores it) and returns `true`; `false` for other keys.
pub(crate) fn indexed_set(vm: &mut Vm, id: ObjId, key: Key, v: Value) -> Result<bool, Throw> {
    let Some(t) = data_of(vm, id) else { return Ok(false) };
    if !is_numeric_key(&vm.heap, key) {
        return Ok(false);
    }
    let n = vm.to_elem(t.kind, v)?;
    if let Key::Index(i) = key {
        t.put(&mut vm.heap, i as usize, n);
    }
    Ok(true)
}

/// The own index keys of a typed array (for `own_string_keys`).
pub(crate) fn index_keys(heap: &Heap, t: &TypedArrayData) -> impl Iterator<Item = Key> + use<> {
    (0..t.len(heap).unwrap_or(0) as u32).map(Key::Index)
}

/// Installs what the table cannot say: getters (defs named `get x`), `BYTES_PER_ELEMENT`, the
/// constructors' prototype chain (`Int8Array.__proto__ === %TypedArray%`), and takes
/// `%TypedArray%` off the global object.
pub(crate) fn install_values(vm: &mut Vm) -> Result<(), Throw> {
    use crate::object::{ACCESSOR, FIXED, HIDDEN, READONLY};
    let table = super::table();
    for (i, def) in table.iter().enumerate() {
        let Some(prop) = def.name.strip_prefix("get ") else { continue };
        let owner = vm.owner_object(def.owner)?;
        let atom = vm.heap.atoms.intern(def.name);
        vm.heap.obj_mut(owner).props.remove(atom);
        let getter = vm.alloc_native(super::Native(i as u16), Vec::new())?;
        let acc = vm.alloc(ObjKind::Accessor { get: getter, set: Value::Undefined }, None)?;
        let atom = vm.heap.atoms.intern(prop);
        vm.heap.obj_mut(owner).props.set(atom, Value::Obj(acc), ACCESSOR | HIDDEN);
    }
    let global = vm.realm.global;
    // The constructors' `prototype` is neither writable nor configurable.
    let prototype = vm.realm.atoms.prototype;
    let names = ["ArrayBuffer", "DataView", "TextEncoder", "TextDecoder", "TypedArray"];
    for name in names.into_iter().chain(ElemKind::ALL.iter().map(|k| k.name())) {
        let atom = vm.heap.atoms.intern(name);
        if let Some(Value::Obj(c)) = vm.heap.obj(global).props.get(atom).map(|s| s.value())
            && let Some(i) = vm.heap.obj(c).props.find(prototype)
            && let Some(slot) = vm.heap.obj_mut(c).props.slot_mut(i)
        {
            slot.flags |= READONLY | FIXED;
        }
    }
    let ta_atom = vm.heap.atoms.intern("TypedArray");
    let Some(Value::Obj(ctor)) = vm.heap.obj(global).props.get(ta_atom).map(|s| s.value()) else {
        return Ok(());
    };
    vm.heap.obj_mut(global).props.remove(ta_atom);
    vm.realm.binary.typed_array_ctor = ctor;
    for kind in ElemKind::ALL {
        let atom = vm.heap.atoms.intern(kind.name());
        let Some(Value::Obj(c)) = vm.heap.obj(global).props.get(atom).map(|s| s.value()) else { continue };
        vm.heap.obj_mut(c).proto = Some(ctor);
        let bpe = vm.heap.atoms.intern("BYTES_PER_ELEMENT");
        let size = Value::Number(kind.size() as f64);
        let flags = HIDDEN | READONLY | FIXED;
        vm.heap.obj_mut(c).props.set(bpe, size, flags);
        let proto = vm.realm.binary.kinds[kind.index()];
        vm.heap.obj_mut(proto).props.set(bpe, size, flags);
    }
    Ok(())
}
