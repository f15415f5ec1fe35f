//! JavaScript's `Number::toString` (radix 10), shared by the lowering (numeric property keys)
//! and the VM (every number-to-string conversion). A pure function.

/// JavaScript's `Number.prototype.toString()`: `1.5`, `1e+21`, `1e-7`, `0.000001`, `-0` → `0`
/// (also the key of `{ 1.50: x }`, which is `"1.5"`).
pub fn number_to_string(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    if value == 0.0 {
        return "0".into();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    // Integers below 2^53 in magnitude (the common case: counters, ids) print all their digits,
    // written here rather than through `format!` (a hot path of string building).
    if value.fract() == 0.0 && value.abs() < 9_007_199_254_740_992.0 {
        return integer_to_string(value);
    }
    if value < 0.0 {
        return format!("-{}", number_to_string(-value));
    }
    // Rust's `{:e}` prints the shortest digits that round-trip, as JavaScript requires.
    let formatted = format!("{value:e}");
    let (mantissa, exponent) = formatted.split_once('e').unwrap_or((&formatted, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let n = exponent + 1;
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at_checked(n as usize).unwrap_or((&digits, ""));
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n > 0 { "+" } else { "-" };
        let (first, rest) = digits.split_at_checked(1).unwrap_or((&digits, ""));
        let fraction = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        format!("{first}{fraction}e{sign}{}", (n - 1).abs())
    }
}

/// The decimal digits of an integral `value` with `|value| < 2^53`, with a `-` when negative.
fn integer_to_string(value: f64) -> String {
    let mut n = value.abs() as u64;
    // 2^53 has 16 digits; one more byte for the sign.
    let mut buf = [0u8; 17];
    let mut start = buf.len();
    loop {
        start -= 1;
        buf[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if value < 0.0 {
        start -= 1;
        buf[start] = b'-';
    }
    // ASCII digits: borrowed as `str`, then copied once at the exact length (a `String` grown
    // digit by digit would reallocate, and again when the heap shrinks it to a `Box<str>`).
    String::from_utf8_lossy(&buf[start..]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::number_to_string;

    #[test]
    fn numbers_format_like_javascript() {
        let cases = [
            (1.0, "1"),
            (1.5, "1.5"),
            (-2.25, "-2.25"),
            (100.0, "100"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (123456789.125, "123456789.125"),
            (0.1, "0.1"),
            (f64::NAN, "NaN"),
            (-5.0, "-5"),
            (7.0, "7"),
            (1234567890.0, "1234567890"),
            (9_007_199_254_740_991.0, "9007199254740991"),
            (-9_007_199_254_740_991.0, "-9007199254740991"),
            (9_007_199_254_740_992.0, "9007199254740992"),
            (-1e21, "-1e+21"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (value, expected) in cases {
            assert_eq!(number_to_string(value), expected);
        }
    }
}
