//! `crypto.randomUUID()` and `crypto.getRandomValues(typedArray)`, the Web Crypto functions
//! programs use for ids and nonces. Their bytes come from the run's seeded generator (the one
//! `Math.random` reads, [`super::math::next_random`]), so a run is deterministic and replays
//! the same. Not cryptographically secure: the seed is the host's (`random_seed`).
//!
//! `crypto` is a built-in namespace object; a host may still define extension functions under
//! it (`crypto.subtle.digest`): `define_host_function` extends this object rather than refusing.

use super::array_buffer::bytes_mut;
use super::error_more::named_error;
use super::math::next_random;
use super::typed_array::data_of;
use super::typed_array_kind::ElemKind;
use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("crypto", "randomUUID", 0, random_uuid),
    NativeDef::new("crypto", "getRandomValues", 1, get_random_values),
];

/// What `getRandomValues` fills at most, as the Web Crypto specification says.
const MAX_BYTES: usize = 65_536;

/// `n` bytes from the run's generator.
fn random_bytes(vm: &mut Vm, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let word = next_random(vm).to_le_bytes();
        let take = (n - out.len()).min(word.len());
        out.extend_from_slice(word.get(..take).unwrap_or(&[]));
    }
    out
}

/// A version 4 (random) UUID: `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`, lower case.
fn random_uuid(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mut b = random_bytes(vm, 16);
    if let Some(v) = b.get_mut(6) {
        *v = (*v & 0x0f) | 0x40;
    }
    if let Some(v) = b.get_mut(8) {
        *v = (*v & 0x3f) | 0x80;
    }
    let mut s = String::with_capacity(36);
    for (i, byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        s.push_str(&format!("{byte:02x}"));
    }
    Ok(Step::Return(vm.new_string_owned(s)?))
}

/// `crypto.getRandomValues(ta)`: fills an integer typed array in place and returns it.
fn get_random_values(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let target = arg(args, 0);
    let data = match target {
        Value::Obj(id) => data_of(vm, id),
        _ => None,
    };
    // Anything but an integer typed array is refused the same way, as Node does.
    let Some(t) =
        data.filter(|t| !matches!(t.kind, ElemKind::Float16 | ElemKind::Float32 | ElemKind::Float64))
    else {
        return Err(named_error(
            vm,
            "TypeMismatchError",
            "The data argument must be an integer-type TypedArray",
        ));
    };
    let len = t.len(&vm.heap).unwrap_or(0);
    let bytes = len.saturating_mul(t.kind.size());
    if bytes > MAX_BYTES {
        let msg = format!(
            "The ArrayBuffer/ArrayBufferView's byte length ({bytes}) exceeds the number of bytes of entropy \
             available via this API ({MAX_BYTES})"
        );
        return Err(named_error(vm, "QuotaExceededError", &msg));
    }
    vm.charge(Work::Scan(bytes));
    let fresh = random_bytes(vm, bytes);
    if let Some(buffer) = bytes_mut(&mut vm.heap, t.buffer)
        && let Some(window) = buffer.get_mut(t.offset..t.offset.saturating_add(bytes))
    {
        window.copy_from_slice(&fresh);
    }
    Ok(Step::Return(target))
}
