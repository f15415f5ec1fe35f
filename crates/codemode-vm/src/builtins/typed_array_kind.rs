//! The element types of typed arrays (and `DataView`): their sizes, names, and the conversions
//! between numbers and bytes (ToInt8, ToUint8Clamp, …, half precision, 64-bit integers for
//! `BigInt64Array`/`BigUint64Array`), in either byte order.

use serde::{Deserialize, Serialize};

/// The element type of a typed array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ElemKind {
    Int8,
    Uint8,
    Uint8Clamped,
    Int16,
    Uint16,
    Int32,
    Uint32,
    Float32,
    Float64,
    /// IEEE half precision: `DataView`'s `getFloat16`/`setFloat16` only (no `Float16Array`).
    Float16,
    /// `BigInt64Array` (elements are BigInts: see [`Elem`]).
    BigInt64,
    BigUint64,
}

/// One element's value: a Number, or a 64-bit integer of a BigInt kind (as `i128`, which holds
/// both signed and unsigned 64-bit values). `Copy`, so element lists stay cheap to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Elem {
    Num(f64),
    Big(i128),
}

impl ElemKind {
    pub const ALL: [ElemKind; 11] = [
        ElemKind::Int8,
        ElemKind::Uint8,
        ElemKind::Uint8Clamped,
        ElemKind::Int16,
        ElemKind::Uint16,
        ElemKind::Int32,
        ElemKind::Uint32,
        ElemKind::Float32,
        ElemKind::Float64,
        ElemKind::BigInt64,
        ElemKind::BigUint64,
    ];

    /// Whether the elements are BigInts (their content type differs from the others').
    pub fn is_bigint(self) -> bool {
        matches!(self, ElemKind::BigInt64 | ElemKind::BigUint64)
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            ElemKind::Int8 | ElemKind::Uint8 | ElemKind::Uint8Clamped => 1,
            ElemKind::Int16 | ElemKind::Uint16 | ElemKind::Float16 => 2,
            ElemKind::Int32 | ElemKind::Uint32 | ElemKind::Float32 => 4,
            ElemKind::Float64 | ElemKind::BigInt64 | ElemKind::BigUint64 => 8,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ElemKind::Int8 => "Int8Array",
            ElemKind::Uint8 => "Uint8Array",
            ElemKind::Uint8Clamped => "Uint8ClampedArray",
            ElemKind::Int16 => "Int16Array",
            ElemKind::Uint16 => "Uint16Array",
            ElemKind::Int32 => "Int32Array",
            ElemKind::Uint32 => "Uint32Array",
            ElemKind::Float32 => "Float32Array",
            ElemKind::Float64 => "Float64Array",
            ElemKind::Float16 => "Float16Array",
            ElemKind::BigInt64 => "BigInt64Array",
            ElemKind::BigUint64 => "BigUint64Array",
        }
    }

    pub(crate) fn index(self) -> usize {
        ElemKind::ALL.iter().position(|k| *k == self).unwrap_or(0)
    }

    /// Reads one element from its bytes (`bytes.len() == self.size()`).
    pub fn decode(self, b: &[u8], little: bool) -> Elem {
        let mut buf = [0u8; 8];
        let n = self.size().min(b.len());
        buf[..n].copy_from_slice(&b[..n]);
        if !little {
            buf[..n].reverse();
        }
        Elem::Num(match self {
            ElemKind::BigInt64 => return Elem::Big(i128::from(i64::from_le_bytes(buf))),
            ElemKind::BigUint64 => return Elem::Big(i128::from(u64::from_le_bytes(buf))),
            ElemKind::Int8 => f64::from(buf[0] as i8),
            ElemKind::Uint8 | ElemKind::Uint8Clamped => f64::from(buf[0]),
            ElemKind::Int16 => f64::from(i16::from_le_bytes([buf[0], buf[1]])),
            ElemKind::Uint16 => f64::from(u16::from_le_bytes([buf[0], buf[1]])),
            ElemKind::Int32 => f64::from(i32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
            ElemKind::Uint32 => f64::from(u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
            ElemKind::Float32 => f64::from(f32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]])),
            ElemKind::Float64 => f64::from_le_bytes(buf),
            ElemKind::Float16 => f16_to_f64(u16::from_le_bytes([buf[0], buf[1]])),
        })
    }

    /// Writes `e` converted to this type (ToInt8, ToUint8Clamp, …; a BigInt modulo 2^64) into
    /// `out`. The callers convert values by the kind's content type ([`ElemKind::is_bigint`]),
    /// so a Number never meets a BigInt kind here (it would store 0) nor the reverse.
    pub fn encode(self, e: Elem, out: &mut [u8], little: bool) {
        let n = match e {
            Elem::Num(n) => n,
            Elem::Big(i) if self.is_bigint() => {
                return write(&(i as u64).to_le_bytes(), 8, out, little);
            }
            Elem::Big(i) => i as f64,
        };
        let bytes: [u8; 8] = match self {
            ElemKind::BigInt64 | ElemKind::BigUint64 => [0; 8],
            ElemKind::Int8 | ElemKind::Uint8 => pad(&[modular(n, 8) as u8]),
            ElemKind::Uint8Clamped => {
                let c = if n.is_nan() { 0.0 } else { n.clamp(0.0, 255.0).round_ties_even() };
                pad(&[c as u8])
            }
            ElemKind::Int16 | ElemKind::Uint16 => pad(&(modular(n, 16) as u16).to_le_bytes()),
            ElemKind::Int32 | ElemKind::Uint32 => pad(&(modular(n, 32) as u32).to_le_bytes()),
            ElemKind::Float32 => pad(&(n as f32).to_le_bytes()),
            ElemKind::Float64 => n.to_le_bytes(),
            ElemKind::Float16 => pad(&f64_to_f16(n).to_le_bytes()),
        };
        write(&bytes, self.size(), out, little);
    }
}

impl Elem {
    /// The Number of a Number element (a BigInt element's nearest Number otherwise).
    pub fn num(self) -> f64 {
        match self {
            Elem::Num(n) => n,
            Elem::Big(i) => i as f64,
        }
    }
}

/// Copies the first `size` bytes of `bytes` (little-endian) into `out` in the byte order asked.
fn write(bytes: &[u8; 8], size: usize, out: &mut [u8], little: bool) {
    let k = size.min(out.len());
    out[..k].copy_from_slice(&bytes[..k]);
    if !little {
        out[..k].reverse();
    }
}

/// A half-precision number's value.
fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// `n` rounded to half precision (nearest, ties to even), as its bits.
fn f64_to_f16(n: f64) -> u16 {
    let sign: u16 = if n.is_sign_negative() { 0x8000 } else { 0 };
    if n.is_nan() {
        return 0x7e00;
    }
    let a = n.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        // Subnormal (rounding up to 1024 gives the smallest normal's bits, as it should).
        return sign | (a / 2f64.powi(-24)).round_ties_even() as u16;
    }
    let mut e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let mut r = ((a / 2f64.powi(e) - 1.0) * 1024.0).round_ties_even() as u16;
    if r == 1024 {
        e += 1;
        r = 0;
    }
    if e > 15 {
        return sign | 0x7c00;
    }
    sign | (((e + 15) as u16) << 10) | r
}

fn pad(b: &[u8]) -> [u8; 8] {
    let mut out = [0u8; 8];
    out[..b.len()].copy_from_slice(b);
    out
}

/// `n` truncated, modulo `2^bits` (the integer conversions' common step).
fn modular(n: f64, bits: i32) -> u64 {
    if !n.is_finite() {
        return 0;
    }
    n.trunc().rem_euclid(2f64.powi(bits)) as u64
}

#[cfg(test)]
mod tests {
    use super::{Elem, ElemKind, f16_to_f64, f64_to_f16};

    #[test]
    fn half_precision_rounds_to_nearest_even() {
        for (n, bits) in [
            (1.0, 0x3c00),
            (65504.0, 0x7bff),
            (65519.99, 0x7bff),
            (65520.0, 0x7c00),
            (0.1, 0x2e66),
            (2f64.powi(-25), 0),
            (2f64.powi(-24), 1),
            (1.000_488_281_25, 0x3c00),
            (1.001_464_843_75, 0x3c02),
            (-0.0, 0x8000),
        ] {
            assert_eq!(f64_to_f16(n), bits, "{n}");
        }
        assert!(f16_to_f64(f64_to_f16(f64::NAN)).is_nan());
        assert_eq!(f16_to_f64(0x3c01), 1.000_976_562_5);
        assert_eq!(f16_to_f64(0xfc00), f64::NEG_INFINITY);
    }

    #[test]
    fn integer_kinds_wrap_and_clamp() {
        let mut b = [0u8; 8];
        ElemKind::Int8.encode(Elem::Num(200.0), &mut b, true);
        assert_eq!(ElemKind::Int8.decode(&b[..1], true), Elem::Num(-56.0));
        ElemKind::Uint8Clamped.encode(Elem::Num(2.5), &mut b, true);
        assert_eq!(b[0], 2);
        ElemKind::Uint32.encode(Elem::Num(-1.0), &mut b, false);
        assert_eq!(&b[..4], &[255, 255, 255, 255]);
        ElemKind::Int16.encode(Elem::Num(-2.0), &mut b, false);
        assert_eq!((b[0], b[1]), (0xff, 0xfe));
        assert_eq!(ElemKind::Int16.decode(&b[..2], false), Elem::Num(-2.0));
        ElemKind::BigUint64.encode(Elem::Big(-1), &mut b, true);
        assert_eq!(ElemKind::BigUint64.decode(&b, true), Elem::Big(i128::from(u64::MAX)));
        assert_eq!(ElemKind::BigInt64.decode(&b, true), Elem::Big(-1));
        ElemKind::BigInt64.encode(Elem::Big(258), &mut b, false);
        assert_eq!(ElemKind::BigInt64.decode(&b, false), Elem::Big(258));
    }
}
