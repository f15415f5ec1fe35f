//! Number ↔ string conversions with JavaScript's exact rules (`Number::toString`, `StringToNumber`).
//! Pure functions: no heap, no VM.

/// `Number.prototype.toString()` for radix 10: one definition, in `codemode-ir`.
pub use codemode_ir::number_to_string;

/// `StringToNumber`: whitespace-trimmed decimal, `Infinity`, hex/octal/binary literals; `""` is 0;
/// anything else is NaN.
pub fn string_to_number(s: &str) -> f64 {
    // The common case first: an integer of up to 15 digits (exact in an f64), optionally
    // negative, without spaces (ids, counts and fields split out of text).
    let (negative, digits) = match s.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        bytes => (false, bytes),
    };
    if !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) {
        let n = digits.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')) as f64;
        return if negative { -n } else { n };
    }
    let t = s.trim_matches(is_js_whitespace);
    if t.is_empty() {
        return 0.0;
    }
    // The prefix is ASCII, so a match means byte 2 is a character boundary (`"0é"` must not be
    // sliced at byte 2).
    let radix_digits =
        |p: &str| t.get(..2).filter(|head| head.eq_ignore_ascii_case(p)).and_then(|_| t.get(2..));
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = radix_digits(prefix) {
            return parse_radix_int(digits, radix);
        }
    }
    match t {
        "Infinity" | "+Infinity" => return f64::INFINITY,
        "-Infinity" => return f64::NEG_INFINITY,
        _ => {}
    }
    // Rust accepts "inf", "nan", "infinity"; JavaScript does not.
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    if !body.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')) {
        return f64::NAN;
    }
    if body.starts_with(['e', 'E']) || body == "." {
        return f64::NAN;
    }
    t.parse::<f64>().unwrap_or(f64::NAN)
}

fn parse_radix_int(digits: &str, radix: u32) -> f64 {
    if digits.is_empty() {
        return f64::NAN;
    }
    let mut n = 0.0f64;
    for c in digits.chars() {
        match c.to_digit(radix) {
            Some(d) => n = n * radix as f64 + d as f64,
            None => return f64::NAN,
        }
    }
    n
}

/// JavaScript's WhiteSpace and LineTerminator characters (what `trim` removes).
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// `x % y` with JavaScript's semantics. Integers take an integer path: `f64 % f64` is a call to
/// libm's `fmod`, several times slower, and loops are full of `i % n`.
#[inline(always)]
pub fn js_rem(x: f64, y: f64) -> f64 {
    const LIMIT: u64 = 1 << 53;
    // Integral when the round trip through `i64` gives the number back (NaN and values past
    // `i64` do not); cheaper than `fract`, which is a call to libm's `trunc` on baseline x86-64.
    let (xi, yi) = (x as i64, y as i64);
    if xi as f64 == x && yi as f64 == y && xi.unsigned_abs() < LIMIT && yi.unsigned_abs() < LIMIT && yi != 0 {
        let r = xi % yi;
        // The result takes the dividend's sign, including -0.
        return if r == 0 && x.is_sign_negative() { -0.0 } else { r as f64 };
    }
    if y.is_infinite() && x.is_finite() { x } else { x % y }
}

/// ToInt32.
pub fn to_int32(n: f64) -> i32 {
    // An integer within `i64` (the common case) is taken modulo 2^32 by the cast to `i32`.
    // (`i64::MAX` is where 2^63 and above saturate, and 2^63 rounds back to itself.)
    let i = n as i64;
    if i as f64 == n && i != i64::MAX {
        return i as i32;
    }
    to_int32_slow(n)
}

/// ToInt32 by the specification's steps (truncate, then modulo 2^32).
fn to_int32_slow(n: f64) -> i32 {
    if !n.is_finite() {
        return 0;
    }
    let m = n.trunc().rem_euclid(4_294_967_296.0);
    (m as u32) as i32
}

/// ToUint32.
pub fn to_uint32(n: f64) -> u32 {
    to_int32(n) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_javascript() {
        let cases: &[(f64, &str)] = &[
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (123e-20, "1.23e-18"),
            (0.000001, "0.000001"),
            (1.5e300, "1.5e+300"),
            (2f64.powi(53), "9007199254740992"),
            (1e20, "100000000000000000000"),
            (f64::NAN, "NaN"),
            (-0.0, "0"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (n, s) in cases {
            assert_eq!(number_to_string(*n), *s, "{n}");
        }
    }

    /// The integer fast paths of `%` and ToInt32 agree with the general formulas, at the edges of
    /// `i32`, `u32`, 2^53 and `i64` (where casts saturate) and for non-integers.
    #[test]
    fn integer_fast_paths_match_the_general_formulas() {
        let p = |e: i32| 2f64.powi(e);
        let mut values = vec![0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 3.0, -7.0, 1e300, -1e300, f64::NAN];
        values.extend([f64::INFINITY, f64::NEG_INFINITY, 4294967295.5, 1e21, -1e21]);
        for e in [31, 32, 52, 53, 54, 62, 63, 64] {
            values.extend([p(e), -p(e), p(e) - 1.0, -p(e) + 1.0, p(e) + 2.0, p(e) * 1.5]);
        }
        for &x in &values {
            assert_eq!(to_int32(x), to_int32_slow(x), "ToInt32({x})");
            for &y in &values {
                let general = if y.is_infinite() && x.is_finite() { x } else { x % y };
                let fast = js_rem(x, y);
                assert!(
                    fast.to_bits() == general.to_bits() || (fast.is_nan() && general.is_nan()),
                    "{x} % {y}: {fast} against {general}"
                );
            }
        }
    }

    #[test]
    fn parses_like_javascript() {
        assert_eq!(string_to_number(" 42 "), 42.0);
        assert_eq!(string_to_number(""), 0.0);
        assert_eq!(string_to_number("0x1f"), 31.0);
        assert!(string_to_number("0é").is_nan());
        assert!(string_to_number("0x").is_nan());
        assert!(string_to_number("inf").is_nan());
        assert!(string_to_number("1a").is_nan());
        assert_eq!(string_to_number("-Infinity"), f64::NEG_INFINITY);
        assert_eq!(string_to_number(".5"), 0.5);
        assert_eq!(string_to_number("5."), 5.0);
        assert_eq!(to_int32(4294967297.0), 1);
        assert_eq!(to_int32(-1.0), -1);
        assert_eq!(js_rem(7.0, 3.0), 1.0);
        assert_eq!(js_rem(-7.0, 3.0), -1.0);
        assert!(js_rem(-6.0, 3.0).is_sign_negative());
        assert_eq!(js_rem(7.5, 2.0), 1.5);
        assert!(js_rem(1.0, 0.0).is_nan());
        assert_eq!(js_rem(5.0, f64::INFINITY), 5.0);
    }
}
