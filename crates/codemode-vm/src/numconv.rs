//! Number ↔ string conversions with JavaScript's exact rules (`Number::toString`, `StringToNumber`).
//! Pure functions: no heap, no VM.

/// `Number.prototype.toString()` for radix 10: one definition, in `codemode-ir`.
pub use codemode_ir::number_to_string;

/// `StringToNumber`: whitespace-trimmed decimal, `Infinity`, hex/octal/binary literals; `""` is 0;
/// anything else is NaN.
pub fn string_to_number(s: &str) -> f64 {
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
    const LIMIT: f64 = 9_007_199_254_740_992.0;
    if x.fract() == 0.0 && y.fract() == 0.0 && x.abs() < LIMIT && y.abs() < LIMIT && y != 0.0 {
        let r = (x as i64) % (y as i64);
        // The result takes the dividend's sign, including -0.
        return if r == 0 && x.is_sign_negative() { -0.0 } else { r as f64 };
    }
    if y.is_infinite() && x.is_finite() { x } else { x % y }
}

/// ToInt32.
pub fn to_int32(n: f64) -> i32 {
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
