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
    // (Copied once at the exact length: a `String` grown digit by digit would reallocate, and
    // again when the heap shrinks it to a `Box<str>`.)
    if let Some(digits) = IntegerDigits::of(value) {
        let mut text = String::with_capacity(digits.len());
        digits.push_to(&mut text);
        return text;
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
/// The decimal text of an integer below 2^53 in magnitude, on the stack: what
/// [`number_to_string`] prints for it, without allocating (string concatenation appends it
/// straight into the result).
pub struct IntegerDigits {
    // 2^53 has 16 digits; one more byte for the sign.
    buf: [u8; 17],
    start: u8,
}

impl IntegerDigits {
    /// `None` unless `value` is an integer below 2^53 in magnitude (`-0` prints `0`).
    #[inline]
    pub fn of(value: f64) -> Option<Self> {
        // A saturating cast and back: equal only for integers in `i64`'s range (NaN casts to 0).
        let int = value as i64;
        (int as f64 == value && int.unsigned_abs() < 1 << 53).then(|| Self::new(int))
    }

    /// The decimal text of `index` (an array index, a call number).
    #[inline]
    pub fn of_u32(index: u32) -> Self {
        Self::new(i64::from(index))
    }

    #[inline]
    fn new(int: i64) -> Self {
        // Two digits per division, from a table of the pairs "00".."99".
        const PAIRS: [u8; 200] = {
            let mut table = [0u8; 200];
            let mut i = 0;
            while i < 100 {
                table[2 * i] = b'0' + (i / 10) as u8;
                table[2 * i + 1] = b'0' + (i % 10) as u8;
                i += 1;
            }
            table
        };
        let mut n = int.unsigned_abs();
        let mut buf = [0u8; 17];
        let mut start = buf.len();
        while n >= 100 && start >= 2 {
            let pair = (n % 100) as usize * 2;
            n /= 100;
            start -= 2;
            buf[start] = PAIRS[pair];
            buf[start + 1] = PAIRS[pair + 1];
        }
        loop {
            start -= 1;
            buf[start] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        if int < 0 {
            start -= 1;
            buf[start] = b'-';
        }
        IntegerDigits { buf, start: start as u8 }
    }

    /// The length of the text in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.buf.len() - self.start as usize
    }

    /// Never: every integer has a digit.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.buf.get(self.start as usize..).unwrap_or_default()).unwrap_or_default()
    }

    /// The text's bytes (ASCII digits and `-`), for appending without a UTF-8 check.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(self.start as usize..).unwrap_or_default()
    }

    /// Appends the text (ASCII digits and `-`, pushed as chars: no UTF-8 check to pass).
    #[inline]
    pub fn push_to(&self, out: &mut String) {
        for &byte in self.buf.get(self.start as usize..).unwrap_or_default() {
            out.push(char::from(byte));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{IntegerDigits, number_to_string};

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

    #[test]
    fn integer_digits_print_like_rust() {
        let max = (1i64 << 53) - 1;
        let mut cases = vec![0, 1, 9, 10, 99, 100, 101, 999, 1000, 12345, 100000, max, -max];
        cases.extend((0..64).map(|k| (1i64 << 53) / (k + 2) - k));
        cases.extend([-1, -10, -99, -100, -123456789]);
        for n in cases {
            assert_eq!(
                IntegerDigits::of(n as f64).map(|d| d.as_str().to_string()),
                Some(n.to_string()),
                "{n}"
            );
        }
        assert_eq!(IntegerDigits::of(-0.0).map(|d| d.as_str().to_string()), Some("0".into()));
        assert!(IntegerDigits::of(0.5).is_none() && IntegerDigits::of(9007199254740992.0).is_none());
    }
}
