//! The `BigInt` function (a conversion, not a constructor), `BigInt.asIntN`/`asUintN` and
//! `BigInt.prototype` (`toString(radix)`, `toLocaleString`, `valueOf`, `@@toStringTag`). The
//! values and operators are in `bigint.rs`.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::bigint::{MAX_BIGINT_BITS, number_to_bigint, wrap_to_bits};
use crate::call::Throw;
use crate::object::{FIXED, HIDDEN, ObjKind, READONLY};
use crate::value::{BigId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("BigInt", 1, bigint_call, bigint_construct),
    NativeDef::new("BigInt", "asIntN", 2, as_int_n),
    NativeDef::new("BigInt", "asUintN", 2, as_uint_n),
    NativeDef::new("BigInt.prototype", "toString", 0, to_string),
    NativeDef::new("BigInt.prototype", "toLocaleString", 0, to_locale_string),
    NativeDef::new("BigInt.prototype", "valueOf", 0, value_of),
];

/// `BigInt(value)`: ToPrimitive (number hint), then an integral Number converts exactly (a
/// fraction, NaN or an infinity is a `RangeError`), the rest through ToBigInt.
fn bigint_call(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(step) = super::prim_args::convert_args(vm, ".BigInt", false, this, args, 0)? {
        return Ok(step);
    }
    let v = vm.to_primitive(arg(args, 0))?;
    if let Value::Number(n) = v {
        return match number_to_bigint(n) {
            Some(b) => Ok(Step::Return(vm.new_bigint(b)?)),
            None => {
                let msg = format!(
                    "The number {} cannot be converted to a BigInt because it is not an integer",
                    crate::numconv::number_to_string(n)
                );
                Err(vm.make_error(ErrorKind::RangeError, &msg))
            }
        };
    }
    if let Value::BigInt(_) = v {
        return Ok(Step::Return(v));
    }
    let b = vm.to_bigint(v)?;
    Ok(Step::Return(vm.new_bigint(b)?))
}

fn bigint_construct(vm: &mut Vm, _args: &[Value]) -> Result<Step, Throw> {
    Err(vm.make_error(ErrorKind::TypeError, "BigInt is not a constructor"))
}

fn as_int_n(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    as_n(vm, this, args, true)
}

fn as_uint_n(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    as_n(vm, this, args, false)
}

/// `BigInt.asIntN(bits, x)` / `asUintN`: `bits` is ToIndex, `x` ToBigInt.
fn as_n(vm: &mut Vm, this: Value, args: &[Value], signed: bool) -> Result<Step, Throw> {
    let name = if signed { "BigInt.asIntN" } else { "BigInt.asUintN" };
    if let Some(step) = super::prim_args::convert_args(vm, name, false, this, args, 0)? {
        return Ok(step);
    }
    let bits = super::array_buffer::to_index(vm, arg(args, 0), "value: not a valid index")? as u64;
    let x = vm.to_bigint(arg(args, 1))?;
    // A value that already fits needs no wrapping whatever `bits` is (so huge `bits` are fine).
    let fits = if signed { x.bits() < bits } else { x.sign() != num_bigint::Sign::Minus && x.bits() <= bits };
    if fits {
        return Ok(Step::Return(vm.new_bigint(x)?));
    }
    // Wrapping a negative value into `bits` unsigned bits makes a `bits`-bit value.
    if bits > MAX_BIGINT_BITS {
        return Err(vm.bigint_too_big());
    }
    vm.charge(crate::meter::Work::Elements((bits as usize).div_ceil(64) + 1));
    let r = wrap_to_bits(&x, bits, signed);
    Ok(Step::Return(vm.new_bigint(r)?))
}

/// The BigInt `this` is or wraps (`thisBigIntValue`).
fn this_bigint(vm: &mut Vm, this: Value, method: &str) -> Result<BigId, Throw> {
    match this {
        Value::BigInt(b) => return Ok(b),
        Value::Obj(id) => {
            if let ObjKind::Boxed(Value::BigInt(b)) = vm.heap.obj(id).kind {
                return Ok(b);
            }
        }
        _ => {}
    }
    let msg = format!("BigInt.prototype.{method} requires that 'this' be a BigInt");
    Err(vm.make_error(ErrorKind::TypeError, &msg))
}

fn to_string(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let x = this_bigint(vm, this, "toString")?;
    if let Some(step) = super::prim_args::convert_args(vm, "BigInt.prototype.toString", false, this, args, 0)?
    {
        return Ok(step);
    }
    let radix = match arg(args, 0) {
        Value::Undefined => 10.0,
        v => {
            let r = vm.to_number(v)?;
            if r.is_nan() { 0.0 } else { r.trunc() }
        }
    };
    if !(2.0..=36.0).contains(&radix) {
        return Err(vm.make_error(ErrorKind::RangeError, "toString() radix must be between 2 and 36"));
    }
    let text = vm.bigint_to_string(x, radix as u32);
    Ok(Step::Return(vm.new_string_owned(text)?))
}

/// `toLocaleString()`: en-US digits grouped by commas, as `Number.prototype.toLocaleString`'s
/// default (locales and options are not read).
fn to_locale_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let x = this_bigint(vm, this, "toLocaleString")?;
    let text = vm.bigint_to_string(x, 10);
    Ok(Step::Return(vm.new_string_owned(group_thousands(&text))?))
}

/// `"-1234567"` → `"-1,234,567"`.
fn group_thousands(digits: &str) -> String {
    let (sign, digits) = match digits.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", digits),
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    out.push_str(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn value_of(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::BigInt(this_bigint(vm, this, "valueOf")?)))
}

/// `BigInt.prototype[@@toStringTag]`; `BigInt.prototype` is neither writable nor configurable.
pub(crate) fn install_values(vm: &mut Vm) -> Result<(), Throw> {
    let tag = vm.new_string("BigInt")?;
    let key = vm.realm.symbols.to_string_tag;
    let proto = vm.realm.bigint_proto;
    vm.heap.obj_mut(proto).props.set(key, tag, READONLY | HIDDEN);
    let global = vm.realm.global;
    let name = vm.heap.atoms.intern("BigInt");
    let prototype = vm.realm.atoms.prototype;
    if let Some(Value::Obj(ctor)) = vm.heap.obj(global).props.get(name).map(|s| s.value()) {
        vm.heap.obj_mut(ctor).props.set(prototype, Value::Obj(proto), READONLY | HIDDEN | FIXED);
    }
    Ok(())
}
