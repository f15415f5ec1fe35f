//! BigInt values: the operators, comparisons and conversions on `Value::BigInt` (ECMA-262
//! §6.1.6.2), with `num-bigint` doing the arithmetic. The built-in `BigInt` function and its
//! prototype are in `builtins/bigint.rs`.
//!
//! A BigInt lives in the heap's BigInt arena (immutable, charged by its limbs, collected like a
//! string). **Sizes are capped before anything is computed**: every operator estimates the bits of
//! its result first ([`MAX_BIGINT_BITS`], a `RangeError` past it, as engines do at their own
//! limit), so `2n ** 100000000n` or a squaring loop ends at once instead of allocating gigabytes;
//! and the work is charged in proportion to the limbs touched (multiplication, division and
//! decimal conversion by the product of the operands' limb counts).
//!
//! Mixing BigInt and Number in arithmetic is a `TypeError`; comparisons between them are exact.

use std::cmp::Ordering;

use codemode_bytecode::{BinOp, ErrorKind, UnOp};
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::{BigId, Value};

/// The largest BigInt a program can make, in bits (about 315,000 decimal digits). Kept small
/// enough that the quadratic algorithms (decimal conversion, long division) on the largest
/// values stay in the low milliseconds.
pub(crate) const MAX_BIGINT_BITS: u64 = 1 << 20;

/// 64-bit limbs of a value of `bits` bits (at least one: every operation touches something).
fn limbs(bits: u64) -> usize {
    (bits.div_ceil(64) as usize).max(1)
}

impl Vm {
    #[inline]
    pub(crate) fn big(&self, id: BigId) -> &BigInt {
        self.heap.bigint(id)
    }

    /// Stores `b` as a value, refusing one past [`MAX_BIGINT_BITS`].
    pub(crate) fn new_bigint(&mut self, b: BigInt) -> Result<Value, Throw> {
        if b.bits() > MAX_BIGINT_BITS {
            return Err(self.bigint_too_big());
        }
        match self.heap.alloc_bigint(b) {
            Ok(id) => Ok(Value::BigInt(id)),
            Err(crate::heap::OutOfMemory) => Err(self.out_of_memory()),
        }
    }

    pub(crate) fn bigint_too_big(&mut self) -> Throw {
        self.make_error(ErrorKind::RangeError, "Maximum BigInt size exceeded")
    }

    /// Refuses a result estimated at `bits` bits before it is computed.
    fn check_bits(&mut self, bits: u64) -> Result<(), Throw> {
        if bits > MAX_BIGINT_BITS { Err(self.bigint_too_big()) } else { Ok(()) }
    }

    /// The `TypeError` of mixing a BigInt with another type in arithmetic.
    pub(crate) fn bigint_mix_error(&mut self) -> Throw {
        self.make_error(ErrorKind::TypeError, "Cannot mix BigInt and other types, use explicit conversions")
    }

    /// The `TypeError` of converting a BigInt to a number implicitly (`+1n`, `Math.abs(1n)`).
    pub(crate) fn bigint_to_number_error(&mut self) -> Throw {
        self.make_error(ErrorKind::TypeError, "Cannot convert a BigInt value to a number")
    }

    /// An arithmetic or bitwise operator on two BigInts (the operands are primitives already).
    pub(crate) fn bigint_binary(&mut self, op: BinOp, x: BigId, y: BigId) -> Result<Value, Throw> {
        let (bx, by) = (self.big(x).bits(), self.big(y).bits());
        let (lx, ly) = (limbs(bx), limbs(by));
        let result = match op {
            BinOp::Add | BinOp::Sub | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                self.check_bits(bx.max(by) + 1)?;
                self.charge(Work::Elements(lx + ly));
                let (a, b) = (self.big(x), self.big(y));
                match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::BitAnd => a & b,
                    BinOp::BitOr => a | b,
                    _ => a ^ b,
                }
            }
            BinOp::Mul => {
                self.check_bits(bx + by)?;
                self.charge(Work::Elements(lx.saturating_mul(ly)));
                self.big(x) * self.big(y)
            }
            BinOp::Div | BinOp::Rem => {
                if self.big(y).is_zero() {
                    return Err(self.make_error(ErrorKind::RangeError, "Division by zero"));
                }
                self.charge(Work::Elements(lx.saturating_mul(ly)));
                let (a, b) = (self.big(x), self.big(y));
                // Truncating division; the remainder takes the dividend's sign (as in Rust).
                if op == BinOp::Div { a / b } else { a % b }
            }
            BinOp::Exp => return self.bigint_pow(x, y),
            BinOp::Shl | BinOp::Shr => {
                let left = op == BinOp::Shl;
                return self.bigint_shift(x, y, left);
            }
            BinOp::UShr => {
                return Err(self.make_error(
                    ErrorKind::TypeError,
                    "BigInts have no unsigned right shift, use >> instead",
                ));
            }
            _ => return Ok(Value::Undefined),
        };
        self.new_bigint(result)
    }

    fn bigint_pow(&mut self, x: BigId, y: BigId) -> Result<Value, Throw> {
        let exponent = self.big(y);
        if exponent.is_negative() {
            return Err(self.make_error(ErrorKind::RangeError, "Exponent must be non-negative"));
        }
        let base = self.big(x);
        // 0, 1 and -1 stay small whatever the exponent.
        if base.bits() <= 1 || exponent.is_zero() {
            let result = if exponent.is_zero() {
                BigInt::one()
            } else if base.is_zero() || base.is_one() {
                base.clone()
            } else if exponent.is_even() {
                BigInt::one()
            } else {
                base.clone()
            };
            return self.new_bigint(result);
        }
        // |base| ≥ 2, so the result has at least `(bits - 1) * e + 1` bits: refuse it unbuilt.
        let Some(e) = exponent.to_u64().filter(|&e| e <= MAX_BIGINT_BITS) else {
            return Err(self.bigint_too_big());
        };
        let bits = base.bits();
        self.check_bits((bits - 1).saturating_mul(e) + 1)?;
        // Repeated squaring: the last squaring dominates, quadratic in the result's limbs.
        let out = limbs(bits.saturating_mul(e));
        self.charge(Work::Elements(out.saturating_mul(out)));
        let result = num_traits::pow::Pow::pow(self.big(x), e);
        self.new_bigint(result)
    }

    /// `x << y` (`left`) or `x >> y`; a negative count shifts the other way. `>>` rounds toward
    /// negative infinity, like an arithmetic shift.
    fn bigint_shift(&mut self, x: BigId, y: BigId, left: bool) -> Result<Value, Throw> {
        let count = self.big(y);
        let left = left != count.is_negative();
        let magnitude = count.magnitude().to_u64();
        let value = self.big(x);
        if value.is_zero() {
            return self.new_bigint(BigInt::zero());
        }
        let bits = value.bits();
        let result = if left {
            let Some(n) = magnitude.filter(|&n| n <= MAX_BIGINT_BITS) else {
                return Err(self.bigint_too_big());
            };
            self.check_bits(bits + n)?;
            self.charge(Work::Elements(limbs(bits + n)));
            self.big(x) << n
        } else {
            match magnitude.filter(|&n| n < bits) {
                Some(n) => {
                    self.charge(Work::Elements(limbs(bits)));
                    self.big(x) >> n
                }
                // Everything shifted out: 0, or -1 for a negative value.
                None if value.is_negative() => -BigInt::one(),
                None => BigInt::zero(),
            }
        };
        self.new_bigint(result)
    }

    /// `-x` and `~x` of a BigInt (`+x` is a `TypeError`).
    pub(crate) fn bigint_unary(&mut self, op: UnOp, x: BigId) -> Result<Value, Throw> {
        let bits = self.big(x).bits();
        self.check_bits(bits + 1)?;
        self.charge(Work::Elements(limbs(bits)));
        let v = self.big(x);
        let result = match op {
            UnOp::Minus => -v,
            UnOp::BitNot => !v,
            _ => return Err(self.bigint_to_number_error()),
        };
        self.new_bigint(result)
    }

    /// `x + 1n` / `x - 1n` (`++`/`--`).
    pub(crate) fn bigint_step(&mut self, x: BigId, delta: i8) -> Result<Value, Throw> {
        let bits = self.big(x).bits();
        self.check_bits(bits + 1)?;
        self.charge(Work::Elements(limbs(bits)));
        let result = self.big(x) + BigInt::from(delta);
        self.new_bigint(result)
    }

    /// The digits of a BigInt in `radix` (2..=36), charged by the quadratic conversion's work.
    pub(crate) fn bigint_to_string(&mut self, x: BigId, radix: u32) -> String {
        let l = limbs(self.big(x).bits());
        self.charge(Work::Elements(l.saturating_mul(l)));
        self.big(x).to_str_radix(radix)
    }

    /// Orders a BigInt against a BigInt, a Number or a String (mathematically exact); `None`
    /// when they do not compare (NaN, a string that is no BigInt, another type).
    pub(crate) fn bigint_compare(&mut self, a: Value, b: Value) -> Option<Ordering> {
        match (a, b) {
            (Value::BigInt(x), Value::BigInt(y)) => {
                self.charge(Work::Scan(limbs(self.big(x).bits()) * 8));
                Some(self.big(x).cmp(self.big(y)))
            }
            (Value::BigInt(x), Value::Number(n)) => compare_with_number(self.big(x), n),
            (Value::Number(n), Value::BigInt(y)) => {
                compare_with_number(self.big(y), n).map(Ordering::reverse)
            }
            (Value::BigInt(x), Value::Str(s)) => {
                let parsed = self.parse_bigint_text(s)?;
                Some(self.big(x).cmp(&parsed))
            }
            (Value::Str(s), Value::BigInt(y)) => {
                let parsed = self.parse_bigint_text(s)?;
                Some(parsed.cmp(self.big(y)))
            }
            _ => None,
        }
    }

    /// StringToBigInt of a heap string, charged by its length; `None` when it is no BigInt (or
    /// is past the size cap, which for a comparison is as good as not comparing).
    fn parse_bigint_text(&mut self, s: crate::value::StrId) -> Option<BigInt> {
        let n = self.heap.str(s).len();
        self.charge(Work::Elements(n.saturating_mul(limbs(n as u64 * 4)) / 4));
        string_to_bigint(self.heap.str(s)).ok().flatten()
    }

    /// StringToBigInt for `BigInt("...")`: a `SyntaxError` for bad syntax, a `RangeError` past
    /// the size cap.
    pub(crate) fn string_to_bigint_or_throw(&mut self, text: &str) -> Result<BigInt, Throw> {
        let n = text.len();
        self.charge(Work::Elements(n.saturating_mul(limbs(n as u64 * 4)) / 4));
        match string_to_bigint(text) {
            Ok(Some(b)) => Ok(b),
            Ok(None) => {
                let shown: String = text.chars().take(40).collect();
                let msg = format!("Cannot convert {shown} to a BigInt");
                Err(self.make_error(ErrorKind::SyntaxError, &msg))
            }
            Err(TooBig) => Err(self.bigint_too_big()),
        }
    }

    /// `==` with a BigInt on one side and a primitive on the other (objects were converted).
    pub(crate) fn bigint_loose_equals(&mut self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::BigInt(_), Value::Bool(v)) => self.bigint_loose_equals(a, Value::Number(v as u8 as f64)),
            (Value::Bool(v), Value::BigInt(_)) => self.bigint_loose_equals(Value::Number(v as u8 as f64), b),
            _ => self.bigint_compare(a, b) == Some(Ordering::Equal),
        }
    }

    /// ToNumeric: a BigInt (or an object whose primitive is one) stays a BigInt, the rest
    /// become Numbers.
    pub(crate) fn to_numeric(&mut self, v: Value) -> Result<Value, Throw> {
        let p = self.to_primitive(v)?;
        match p {
            Value::BigInt(_) => Ok(p),
            _ => Ok(Value::Number(self.to_number(p)?)),
        }
    }

    /// `++`/`--` of a value that is not a Number: ToNumeric, then ±1 in its own type.
    pub(crate) fn numeric_step(&mut self, v: Value, up: bool) -> Result<Value, Throw> {
        match self.to_numeric(v)? {
            Value::BigInt(b) => self.bigint_step(b, if up { 1 } else { -1 }),
            n => {
                let n = self.to_number(n)?;
                Ok(Value::Number(if up { n + 1.0 } else { n - 1.0 }))
            }
        }
    }

    /// The ToBigInt of a primitive (`BigInt.asIntN`, typed arrays, `DataView`): booleans and
    /// strings convert, numbers are a `TypeError` (use `BigInt(n)`).
    pub(crate) fn to_bigint(&mut self, v: Value) -> Result<BigInt, Throw> {
        match v {
            Value::BigInt(id) => Ok(self.big(id).clone()),
            Value::Bool(b) => Ok(BigInt::from(b as u8)),
            Value::Str(s) => {
                let text = self.heap.str(s).to_string();
                self.string_to_bigint_or_throw(&text)
            }
            Value::Obj(_) => {
                let p = self.to_primitive(v)?;
                if matches!(p, Value::Obj(_)) {
                    return Err(self.make_error(ErrorKind::TypeError, "Cannot convert object to a BigInt"));
                }
                self.to_bigint(p)
            }
            Value::Number(n) => {
                let msg = format!("Cannot convert {} to a BigInt", crate::numconv::number_to_string(n));
                Err(self.make_error(ErrorKind::TypeError, &msg))
            }
            Value::Symbol(_) => {
                Err(self.make_error(ErrorKind::TypeError, "Cannot convert a Symbol value to a BigInt"))
            }
            Value::Undefined | Value::Uninit | Value::Cell(_) | Value::ArrayIter(..) => {
                Err(self.make_error(ErrorKind::TypeError, "Cannot convert undefined to a BigInt"))
            }
            Value::Null => Err(self.make_error(ErrorKind::TypeError, "Cannot convert null to a BigInt")),
        }
    }
}

/// A numeric string longer than the BigInt size cap.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TooBig;

/// StringToBigInt (ECMA-262 §7.1.14): whitespace-trimmed; empty is 0n; `0x`/`0o`/`0b` digits
/// without a sign, or decimal digits with an optional sign; no separators, points or exponents.
/// `Ok(None)` for text that is no BigInt.
pub(crate) fn string_to_bigint(text: &str) -> Result<Option<BigInt>, TooBig> {
    let t = text.trim_matches(crate::numconv::is_js_whitespace);
    if t.is_empty() {
        return Ok(Some(BigInt::zero()));
    }
    let prefixed = t.get(..2).and_then(|head| match head.to_ascii_lowercase().as_str() {
        "0x" => Some(16),
        "0o" => Some(8),
        "0b" => Some(2),
        _ => None,
    });
    let (sign, digits, radix) = match prefixed {
        Some(radix) => (Sign::Plus, &t[2..], radix),
        None => match t.as_bytes()[0] {
            b'-' => (Sign::Minus, &t[1..], 10),
            b'+' => (Sign::Plus, &t[1..], 10),
            _ => (Sign::Plus, t, 10),
        },
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Ok(None);
    }
    // Leading zeros add nothing; the rest bounds the value's size before it is parsed.
    let significant = digits.trim_start_matches('0');
    let bits_per_digit = match radix {
        16 => 4.0,
        8 => 3.0,
        2 => 1.0,
        _ => std::f64::consts::LOG2_10,
    };
    if (significant.len() as f64 - 1.0) * bits_per_digit > MAX_BIGINT_BITS as f64 {
        return Err(TooBig);
    }
    let magnitude = num_bigint::BigUint::parse_bytes(digits.as_bytes(), radix).unwrap_or_default();
    Ok(Some(BigInt::from_biguint(sign, magnitude)))
}

/// The BigInt of an integral Number (`BigInt(1e21)`); `None` for NaN, infinities and fractions.
pub(crate) fn number_to_bigint(n: f64) -> Option<BigInt> {
    if !n.is_finite() || n.fract() != 0.0 {
        return None;
    }
    num_bigint::ToBigInt::to_bigint(&n)
}

/// The Number nearest a BigInt (`Number(x)`), infinite past the largest finite one.
pub(crate) fn bigint_to_number(b: &BigInt) -> f64 {
    b.to_f64().unwrap_or(f64::NAN)
}

/// Orders `x` against the Number `n` exactly; `None` for NaN.
fn compare_with_number(x: &BigInt, n: f64) -> Option<Ordering> {
    if n.is_nan() {
        return None;
    }
    if n == f64::INFINITY {
        return Some(Ordering::Less);
    }
    if n == f64::NEG_INFINITY {
        return Some(Ordering::Greater);
    }
    // Against the integer below `n`: if x ≤ floor(n) and n has a fraction, x < n.
    let floor = n.floor();
    let f = num_bigint::ToBigInt::to_bigint(&floor).unwrap_or_default();
    Some(match x.cmp(&f) {
        Ordering::Equal if floor != n => Ordering::Less,
        other => other,
    })
}

/// `BigInt.asIntN(bits, x)` (`signed`) and `asUintN`: `x` modulo 2^bits, as a signed or
/// unsigned value. The caller caps `bits`.
pub(crate) fn wrap_to_bits(x: &BigInt, bits: u64, signed: bool) -> BigInt {
    if bits == 0 {
        return BigInt::zero();
    }
    let modulus = BigInt::one() << bits;
    let mut r = x.mod_floor(&modulus);
    if signed && r.bit(bits - 1) {
        r -= modulus;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_like_javascript() {
        let p = |s: &str| string_to_bigint(s).ok().flatten().map(|b| b.to_string());
        assert_eq!(p(""), Some("0".into()));
        assert_eq!(p("  12  "), Some("12".into()));
        assert_eq!(p("-12"), Some("-12".into()));
        assert_eq!(p("0x1F"), Some("31".into()));
        assert_eq!(p("0B101"), Some("5".into()));
        assert_eq!(p("0o17"), Some("15".into()));
        assert_eq!(p("-0x1"), None);
        assert_eq!(p("1n"), None);
        assert_eq!(p("1.5"), None);
        assert_eq!(p("1e3"), None);
        assert_eq!(p("1_000"), None);
        assert_eq!(p("Infinity"), None);
        assert_eq!(p("0x"), None);
        assert_eq!(p("-"), None);
        assert!(string_to_bigint(&"9".repeat(400_000)).is_err());
    }

    #[test]
    fn compares_exactly_with_numbers() {
        let b = |n: i64| BigInt::from(n);
        assert_eq!(compare_with_number(&b(1), 1.5), Some(Ordering::Less));
        assert_eq!(compare_with_number(&b(2), 1.5), Some(Ordering::Greater));
        assert_eq!(compare_with_number(&b(-2), -1.5), Some(Ordering::Less));
        assert_eq!(compare_with_number(&b(-1), -1.5), Some(Ordering::Greater));
        assert_eq!(compare_with_number(&b(3), 3.0), Some(Ordering::Equal));
        assert_eq!(compare_with_number(&b(3), f64::NAN), None);
        let big = (BigInt::one() << 53u32) + 1;
        assert_eq!(compare_with_number(&big, 9007199254740992.0), Some(Ordering::Greater));
    }

    #[test]
    fn wraps_to_bits() {
        let w = |x: i64, bits, signed| wrap_to_bits(&BigInt::from(x), bits, signed).to_string();
        assert_eq!(w(255, 8, true), "-1");
        assert_eq!(w(-1, 8, false), "255");
        assert_eq!(w(128, 8, true), "-128");
        assert_eq!(w(5, 0, true), "0");
    }
}
