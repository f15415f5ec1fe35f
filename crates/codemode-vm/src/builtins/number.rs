//! `Number` statics and constants, `Number.prototype` and `Boolean.prototype`.
//!
//! `toFixed` and `toPrecision` round the *exact* decimal expansion of the double (a double is
//! `m · 2^e`, whose expansion is the digits of `m · 5^-e`), half away from zero, as ECMA-262
//! specifies: `(1.005).toFixed(2)` is `"1.00"` because 1.005 is really 1.00499999999999989...
//! `toString(radix)` follows V8's `DoubleToRadixCString` (shortest digits that round-trip).

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::numconv::number_to_string;
use crate::object::ObjKind;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("Number", "isInteger", 1, is_integer),
    NativeDef::new("Number", "isSafeInteger", 1, is_safe_integer),
    NativeDef::new("Number", "isFinite", 1, is_finite),
    NativeDef::new("Number", "isNaN", 1, is_nan),
    NativeDef::new("Number.prototype", "toFixed", 1, to_fixed),
    NativeDef::new("Number.prototype", "toPrecision", 1, to_precision),
    NativeDef::new("Number.prototype", "toExponential", 1, to_exponential),
    NativeDef::new("Number.prototype", "toString", 1, to_string),
    NativeDef::new("Number.prototype", "toLocaleString", 0, to_locale_string),
    NativeDef::new("Number.prototype", "valueOf", 0, value_of),
    NativeDef::new("Boolean.prototype", "toString", 0, boolean_to_string),
    NativeDef::new("Boolean.prototype", "valueOf", 0, boolean_value_of),
];

/// `Number.MAX_SAFE_INTEGER` and the other constants.
pub(super) fn install_values(vm: &mut Vm) -> Result<(), Throw> {
    let number = vm.owner_object("Number")?;
    for (name, v) in [
        ("MAX_SAFE_INTEGER", 9_007_199_254_740_991.0),
        ("MIN_SAFE_INTEGER", -9_007_199_254_740_991.0),
        ("EPSILON", f64::EPSILON),
        ("MAX_VALUE", f64::MAX),
        ("MIN_VALUE", 5e-324),
        ("POSITIVE_INFINITY", f64::INFINITY),
        ("NEGATIVE_INFINITY", f64::NEG_INFINITY),
        ("NaN", f64::NAN),
    ] {
        vm.define_hidden(number, name, Value::Number(v));
    }
    // `Number.parseInt === parseInt` (the same function objects).
    let global = vm.realm.global;
    for name in ["parseInt", "parseFloat"] {
        let f = vm.get_named(Value::Obj(global), name)?;
        vm.define_hidden(number, name, f);
    }
    Ok(())
}

fn is_integer(_vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = matches!(arg(args, 0), Value::Number(n) if n.is_finite() && n.trunc() == n);
    Ok(Step::Return(Value::Bool(r)))
}

fn is_safe_integer(_vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = matches!(arg(args, 0), Value::Number(n) if n.is_finite() && n.trunc() == n && n.abs() <= 9_007_199_254_740_991.0);
    Ok(Step::Return(Value::Bool(r)))
}

fn is_finite(_vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Bool(matches!(arg(args, 0), Value::Number(n) if n.is_finite()))))
}

fn is_nan(_vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Bool(matches!(arg(args, 0), Value::Number(n) if n.is_nan()))))
}

/// thisNumberValue.
fn this_number(vm: &mut Vm, this: Value, method: &str) -> Result<f64, Throw> {
    match this {
        Value::Number(n) => Ok(n),
        Value::Obj(id) => match vm.heap.obj(id).kind {
            ObjKind::Boxed(Value::Number(n)) => Ok(n),
            _ => Err(not_a(vm, "Number", method)),
        },
        _ => Err(not_a(vm, "Number", method)),
    }
}

fn not_a(vm: &mut Vm, ty: &str, method: &str) -> Throw {
    let msg = format!("{ty}.prototype.{method} requires that 'this' be a {ty}");
    vm.make_error(ErrorKind::TypeError, &msg)
}

fn ret(vm: &mut Vm, s: String) -> Result<Step, Throw> {
    Ok(Step::Return(vm.new_string_owned(s)?))
}

fn digits_arg(vm: &mut Vm, v: Value, lo: f64, hi: f64, what: &str) -> Result<usize, Throw> {
    let n = vm.to_number(v)?;
    let n = if n.is_nan() { 0.0 } else { n.trunc() };
    if n < lo || n > hi {
        let msg = format!("{what} argument must be between {lo} and {hi}");
        return Err(vm.make_error(ErrorKind::RangeError, &msg));
    }
    Ok(n as usize)
}

fn to_fixed(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let x = this_number(vm, this, "toFixed")?;
    let f = digits_arg(vm, arg(args, 0), 0.0, 100.0, "toFixed() digits")?;
    ret(vm, fixed(x, f))
}

fn to_precision(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let x = this_number(vm, this, "toPrecision")?;
    if arg(args, 0) == Value::Undefined {
        return ret(vm, number_to_string(x));
    }
    let p = vm.to_number(arg(args, 0))?;
    if !x.is_finite() {
        return ret(vm, number_to_string(x));
    }
    let p = if p.is_nan() { 0.0 } else { p.trunc() };
    if !(1.0..=100.0).contains(&p) {
        return Err(vm.make_error(ErrorKind::RangeError, "toPrecision() argument must be between 1 and 100"));
    }
    ret(vm, precision(x, p as usize))
}

fn to_exponential(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let x = this_number(vm, this, "toExponential")?;
    let f = vm.to_number(arg(args, 0))?;
    if !x.is_finite() {
        return ret(vm, number_to_string(x));
    }
    if arg(args, 0) == Value::Undefined {
        return ret(vm, exponential(x, None));
    }
    let f = if f.is_nan() { 0.0 } else { f.trunc() };
    if !(0.0..=100.0).contains(&f) {
        return Err(
            vm.make_error(ErrorKind::RangeError, "toExponential() argument must be between 0 and 100")
        );
    }
    ret(vm, exponential(x, Some(f as usize)))
}

fn to_string(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let x = this_number(vm, this, "toString")?;
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
    if radix == 10.0 {
        return ret(vm, number_to_string(x));
    }
    ret(vm, radix_string(x, radix as u32))
}

fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let x = this_number(vm, this, "toLocaleString")?;
    let opts = resolve_locale_options(vm, arg(args, 0), arg(args, 1))?;
    ret(vm, format_locale(x, &opts))
}

/// Reads `toLocaleString`/`Intl.NumberFormat` arguments.
pub(super) fn resolve_locale_options(
    vm: &mut Vm,
    locales: Value,
    options: Value,
) -> Result<LocaleOptions, Throw> {
    let locale = match locales {
        Value::Str(_) => vm.to_rust_string(locales)?,
        Value::Obj(_) => {
            // An array of locales: the first one.
            let first = vm.get_value(locales, crate::props::Key::Index(0))?;
            if first == Value::Undefined { String::new() } else { vm.to_rust_string(first)? }
        }
        _ => String::new(),
    };
    let mut opts = LocaleOptions::for_locale(&locale);
    if let Value::Obj(_) = options {
        let style = vm.get_named(options, "style")?;
        if style != Value::Undefined {
            opts.style = vm.to_rust_string(style)?;
        }
        let currency = vm.get_named(options, "currency")?;
        if currency != Value::Undefined {
            opts.currency = vm.to_rust_string(currency)?.to_ascii_uppercase();
        }
        if opts.style == "currency" && opts.currency.is_empty() {
            return Err(vm.make_error(ErrorKind::TypeError, "Currency code is required with currency style."));
        }
        let (dmin, dmax) = match opts.style.as_str() {
            "currency" => {
                let d = if matches!(opts.currency.as_str(), "JPY" | "KRW" | "VND" | "CLP" | "ISK") {
                    0
                } else {
                    2
                };
                (d, d)
            }
            "percent" => (0, 0),
            _ => (0, 3),
        };
        let read = |vm: &mut Vm, name: &str, lo: f64, hi: f64| -> Result<Option<usize>, Throw> {
            let v = vm.get_named(options, name)?;
            if v == Value::Undefined {
                return Ok(None);
            }
            let n = vm.to_number(v)?;
            if !(lo..=hi).contains(&n) {
                let msg = format!("{name} value is out of range.");
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            }
            Ok(Some(n.floor() as usize))
        };
        let min = read(vm, "minimumFractionDigits", 0.0, 100.0)?;
        let max = read(vm, "maximumFractionDigits", 0.0, 100.0)?;
        opts.min_int = read(vm, "minimumIntegerDigits", 1.0, 21.0)?.unwrap_or(1);
        (opts.min_frac, opts.max_frac) = match (min, max) {
            (None, None) => (dmin, dmax),
            (Some(mn), None) => (mn, mn.max(dmax)),
            (None, Some(mx)) => (dmin.min(mx), mx),
            (Some(mn), Some(mx)) if mn > mx => {
                return Err(
                    vm.make_error(ErrorKind::RangeError, "maximumFractionDigits value is out of range.")
                );
            }
            (Some(mn), Some(mx)) => (mn, mx),
        };
        opts.explicit_frac = min.is_some() || max.is_some();
        let grouping = vm.get_named(options, "useGrouping")?;
        if grouping != Value::Undefined {
            opts.grouping = vm.to_boolean(grouping);
        }
        let min_sig = read(vm, "minimumSignificantDigits", 1.0, 21.0)?;
        let max_sig = read(vm, "maximumSignificantDigits", 1.0, 21.0)?;
        if min_sig.is_some() || max_sig.is_some() {
            let lo = min_sig.unwrap_or(1);
            let hi = max_sig.unwrap_or(21);
            if lo > hi {
                return Err(
                    vm.make_error(ErrorKind::RangeError, "maximumSignificantDigits value is out of range.")
                );
            }
            (opts.min_sig, opts.max_sig) = (Some(lo), Some(hi));
        }
        let notation = vm.get_named(options, "notation")?;
        if notation != Value::Undefined {
            opts.notation = vm.to_rust_string(notation)?;
            if !matches!(opts.notation.as_str(), "standard" | "compact" | "scientific" | "engineering") {
                let msg = format!(
                    "Value {} out of range for Intl.NumberFormat options property notation",
                    opts.notation
                );
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            }
        }
        let display = vm.get_named(options, "compactDisplay")?;
        if display != Value::Undefined {
            opts.compact_long = vm.to_rust_string(display)? == "long";
        }
    }
    Ok(opts)
}

/// What `toLocaleString(locale, options)` honours: `style` (`decimal`, `percent`, `currency`
/// with `currency`), `minimumFractionDigits`, `maximumFractionDigits`, `minimumIntegerDigits`
/// and `useGrouping`. Locales: English separators, or `de`/`es`/`it`/`nl`/`pt`/`id` ones
/// (`1.234,5`) and `fr` (`1 234,5`); everything else formats as `en-US`.
#[derive(Clone, Debug)]
pub(crate) struct LocaleOptions {
    pub style: String,
    pub currency: String,
    pub min_frac: usize,
    pub max_frac: usize,
    pub min_int: usize,
    pub grouping: bool,
    pub group_sep: &'static str,
    pub decimal_sep: &'static str,
    /// `minimumFractionDigits`/`maximumFractionDigits` were given (compact notation otherwise
    /// rounds to two significant digits).
    pub explicit_frac: bool,
    pub min_sig: Option<usize>,
    pub max_sig: Option<usize>,
    /// `standard`, `compact`, `scientific` or `engineering`.
    pub notation: String,
    pub compact_long: bool,
}

impl LocaleOptions {
    pub fn for_locale(locale: &str) -> Self {
        let lang = locale.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        let (group_sep, decimal_sep) = match lang.as_str() {
            "de" | "es" | "it" | "nl" | "pt" | "id" | "da" | "tr" => (".", ","),
            "fr" => ("\u{202f}", ","),
            _ => (",", "."),
        };
        LocaleOptions {
            style: "decimal".into(),
            currency: String::new(),
            min_frac: 0,
            max_frac: 3,
            min_int: 1,
            grouping: true,
            group_sep,
            decimal_sep,
            explicit_frac: false,
            min_sig: None,
            max_sig: None,
            notation: "standard".into(),
            compact_long: false,
        }
    }
}

pub(super) fn currency_symbol(code: &str) -> String {
    match code {
        "USD" => "$".into(),
        "EUR" => "€".into(),
        "GBP" => "£".into(),
        "JPY" => "¥".into(),
        "INR" => "₹".into(),
        "CNY" => "CN¥".into(),
        "CAD" => "CA$".into(),
        "AUD" => "A$".into(),
        "KRW" => "₩".into(),
        "BRL" => "R$".into(),
        "MXN" => "MX$".into(),
        other => format!("{other}\u{a0}"),
    }
}

/// Formats `x` per `opts`, rounding half away from zero on the shortest round-trip decimal of
/// `x` (as ICU does: `(1.005).toLocaleString(undefined, { maximumFractionDigits: 2 })` is
/// `"1.01"` although `(1.005).toFixed(2)` is `"1.00"`).
pub(crate) fn format_locale(x: f64, opts: &LocaleOptions) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    let x = if opts.style == "percent" { x * 100.0 } else { x };
    let negative = x < 0.0 || (x == 0.0 && x.is_sign_negative());
    let mut suffix = String::new();
    let body = if x.is_infinite() {
        "∞".to_string()
    } else {
        let (digits, frac) = shortest_decimal(x.abs());
        let (int, frac) = match opts.notation.as_str() {
            "compact" => {
                let (int, frac, s) = compact(digits, frac, opts);
                suffix = s;
                (int, frac)
            }
            "scientific" | "engineering" => {
                let (int, frac, e) = scientific(digits, frac, opts.notation == "engineering");
                suffix = format!("E{e}");
                (int, frac)
            }
            _ => round_with(digits, frac, opts),
        };
        let int = if int.len() < opts.min_int {
            format!("{}{int}", "0".repeat(opts.min_int - int.len()))
        } else {
            int
        };
        let mut grouped = String::with_capacity(int.len() + int.len() / 3 * 3);
        // Compact notation groups only from five digits (`1000T`, `10,000T`).
        let group = opts.grouping && (opts.notation != "compact" || int.len() >= 5);
        for (i, c) in int.chars().enumerate() {
            if group && i > 0 && (int.len() - i) % 3 == 0 {
                grouped.push_str(opts.group_sep);
            }
            grouped.push(c);
        }
        if frac.is_empty() { grouped } else { format!("{grouped}{}{frac}", opts.decimal_sep) }
    };
    let body = format!("{body}{suffix}");
    let sign = if negative { "-" } else { "" };
    match opts.style.as_str() {
        "percent" => format!("{sign}{body}%"),
        "currency" if opts.decimal_sep == "," => {
            format!("{sign}{body}\u{a0}{}", currency_symbol(&opts.currency).trim_end())
        }
        "currency" => format!("{sign}{}{body}", currency_symbol(&opts.currency)),
        _ => format!("{sign}{body}"),
    }
}

/// Splits `"int.frac"`.
fn split_point(s: &str) -> (String, String) {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    (int.to_string(), frac.to_string())
}

/// Rounds `digits · 10^-frac` per the fraction or significant-digit options: (int, frac).
fn round_with(digits: String, frac: usize, opts: &LocaleOptions) -> (String, String) {
    if let (Some(min_sig), Some(max_sig)) = (opts.min_sig, opts.max_sig) {
        return round_significant(digits, frac, min_sig, max_sig);
    }
    let (int, mut frac) = split_point(&round_decimal(digits, frac, opts.max_frac));
    while frac.len() > opts.min_frac && frac.ends_with('0') {
        frac.pop();
    }
    (int, frac)
}

/// Rounds to at most `max_sig` significant digits (half up), showing at least `min_sig`.
fn round_significant(digits: String, frac: usize, min_sig: usize, max_sig: usize) -> (String, String) {
    let trimmed_len = digits.trim_start_matches('0').len();
    if trimmed_len == 0 {
        return ("0".into(), "0".repeat(min_sig.saturating_sub(1)));
    }
    // Digits before the point (zero or negative for values below 1).
    let int_digits = trimmed_len as i64 - frac as i64;
    let (int, mut f) = if trimmed_len > max_sig {
        let keep = max_sig as i64 - int_digits;
        if keep >= 0 {
            split_point(&round_decimal(digits, frac, keep as usize))
        } else {
            // Rounding inside the integer part: divide by 10^cut, round, scale back.
            let cut = (-keep) as usize;
            let r = round_decimal(digits, frac + cut, 0);
            (format!("{r}{}", "0".repeat(cut)), String::new())
        }
    } else {
        split_point(&round_decimal(digits, frac, frac))
    };
    // Drop trailing zeros beyond min_sig, then pad up to it (counted on the rounded value, whose
    // magnitude may have grown: 9.99 → 10).
    let int_digits = if int.trim_start_matches('0').is_empty() {
        -(f.len() as i64 - f.trim_start_matches('0').len() as i64)
    } else {
        int.trim_start_matches('0').len() as i64
    };
    let min_frac = (min_sig as i64 - int_digits).max(0) as usize;
    while f.len() > min_frac && f.ends_with('0') {
        f.pop();
    }
    while f.len() < min_frac {
        f.push('0');
    }
    (int, f)
}

/// Compact notation (`1.2K`, `15M`): (int, frac, suffix).
fn compact(digits: String, frac: usize, opts: &LocaleOptions) -> (String, String, String) {
    const SHORT: [&str; 5] = ["", "K", "M", "B", "T"];
    const LONG: [&str; 5] = ["", " thousand", " million", " billion", " trillion"];
    let trimmed_len = digits.trim_start_matches('0').len();
    let int_digits = trimmed_len as i64 - frac as i64;
    let mut k = if int_digits > 3 { ((int_digits - 1) / 3).min(4) as usize } else { 0 };
    loop {
        let scaled_frac = frac + 3 * k;
        let (int, f) = if opts.explicit_frac || opts.max_sig.is_some() {
            round_with(digits.clone(), scaled_frac, opts)
        } else {
            let scaled_int = int_digits - 3 * k as i64;
            if scaled_int >= 2 {
                split_point(&round_decimal(digits.clone(), scaled_frac, 0))
            } else {
                round_significant(digits.clone(), scaled_frac, 1, 2)
            }
        };
        if int.len() > 3 && k < 4 && int_digits > 0 {
            k += 1;
            continue;
        }
        let suffix = if opts.compact_long { LONG[k] } else { SHORT[k] };
        return (int, f, suffix.to_string());
    }
}

/// Scientific (`1.234E3`) or engineering notation: (int, frac, exponent).
fn scientific(digits: String, frac: usize, engineering: bool) -> (String, String, i64) {
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        return ("0".into(), String::new(), 0);
    }
    let e = trimmed.len() as i64 - frac as i64 - 1;
    let e = if engineering { e.div_euclid(3) * 3 } else { e };
    // Shift the point by e: value / 10^e.
    let shifted_frac = frac as i64 + e;
    let (int, mut f) = if shifted_frac >= 0 {
        split_point(&round_decimal(digits, shifted_frac as usize, 3))
    } else {
        let padded = format!("{digits}{}", "0".repeat((-shifted_frac) as usize));
        split_point(&round_decimal(padded, 0, 3))
    };
    while f.ends_with('0') {
        f.pop();
    }
    (int, f, e)
}

fn value_of(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Number(this_number(vm, this, "valueOf")?)))
}

fn this_boolean(vm: &mut Vm, this: Value, method: &str) -> Result<bool, Throw> {
    match this {
        Value::Bool(b) => Ok(b),
        Value::Obj(id) => match vm.heap.obj(id).kind {
            ObjKind::Boxed(Value::Bool(b)) => Ok(b),
            _ => Err(not_a(vm, "Boolean", method)),
        },
        _ => Err(not_a(vm, "Boolean", method)),
    }
}

fn boolean_to_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let b = this_boolean(vm, this, "toString")?;
    ret(vm, b.to_string())
}

fn boolean_value_of(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Bool(this_boolean(vm, this, "valueOf")?)))
}

// ---- exact decimal arithmetic (pure) ----

/// Decimal digits of a big unsigned integer given as little-endian base-1e9 limbs.
fn big_mul_small(limbs: &mut Vec<u32>, k: u32) {
    let mut carry = 0u64;
    for l in limbs.iter_mut() {
        let v = *l as u64 * k as u64 + carry;
        *l = (v % 1_000_000_000) as u32;
        carry = v / 1_000_000_000;
    }
    while carry > 0 {
        limbs.push((carry % 1_000_000_000) as u32);
        carry /= 1_000_000_000;
    }
}

fn big_to_string(limbs: &[u32]) -> String {
    let mut out = String::new();
    let mut iter = limbs.iter().rev().skip_while(|l| **l == 0);
    match iter.next() {
        Some(top) => out.push_str(&top.to_string()),
        None => return "0".into(),
    }
    for l in iter {
        out.push_str(&format!("{l:09}"));
    }
    out
}

/// The exact decimal expansion of a finite `x >= 0`: `(digits, frac)` with
/// `x = digits · 10^-frac`.
fn exact_decimal(x: f64) -> (String, usize) {
    let bits = x.to_bits();
    let exp_bits = ((bits >> 52) & 0x7ff) as i32;
    let frac_bits = bits & ((1u64 << 52) - 1);
    let (m, e) = if exp_bits == 0 { (frac_bits, -1074) } else { (frac_bits | (1u64 << 52), exp_bits - 1075) };
    let mut limbs = vec![
        (m % 1_000_000_000) as u32,
        ((m / 1_000_000_000) % 1_000_000_000) as u32,
        (m / 1_000_000_000_000_000_000) as u32,
    ];
    if e >= 0 {
        for _ in 0..e {
            big_mul_small(&mut limbs, 2);
        }
        (big_to_string(&limbs), 0)
    } else {
        for _ in 0..(-e) {
            big_mul_small(&mut limbs, 5);
        }
        (big_to_string(&limbs), (-e) as usize)
    }
}

/// Adds one to a decimal digit string; returns whether it grew a digit.
fn increment(digits: &mut Vec<u8>) -> bool {
    for d in digits.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return false;
        }
    }
    digits.insert(0, b'1');
    true
}

/// `Number.prototype.toFixed(f)` on the number `x`.
pub(crate) fn fixed(x: f64, f: usize) -> String {
    if !x.is_finite() {
        return number_to_string(x);
    }
    if x.abs() >= 1e21 {
        return number_to_string(x);
    }
    let negative = x < 0.0;
    let (digits, frac) = exact_decimal(x.abs());
    let body = round_decimal(digits, frac, f);
    // (-0.0001).toFixed(2) is "-0.00"; (-0).toFixed(2) is "0.00".
    if negative { format!("-{body}") } else { body }
}

/// `digits · 10^-frac` rounded half up to `f` fraction digits, as `"int.frac"` (no sign).
fn round_decimal(digits: String, frac: usize, f: usize) -> String {
    let mut d: Vec<u8> = digits.into_bytes();
    // Make sure there is at least one integer digit.
    if d.len() <= frac {
        let pad = frac + 1 - d.len();
        d.splice(0..0, std::iter::repeat_n(b'0', pad));
    }
    if frac > f {
        let cut = d.len() - (frac - f);
        let round_up = d.get(cut).is_some_and(|c| *c >= b'5');
        d.truncate(cut);
        if round_up {
            increment(&mut d);
        }
    } else {
        d.extend(std::iter::repeat_n(b'0', f - frac));
    }
    let int_len = d.len() - f;
    let mut s = String::with_capacity(d.len() + 1);
    s.push_str(std::str::from_utf8(&d[..int_len]).unwrap_or("0"));
    if f > 0 {
        s.push('.');
        s.push_str(std::str::from_utf8(&d[int_len..]).unwrap_or(""));
    }
    s
}

/// The shortest decimal that round-trips to a finite `x >= 0` (the digits `toString` prints),
/// as `(digits, frac)` with `x ≈ digits · 10^-frac`. Intl formats from these digits.
fn shortest_decimal(x: f64) -> (String, usize) {
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let e: i64 = exp.parse().unwrap_or(0);
    let shift = e + 1 - digits.len() as i64;
    if shift >= 0 {
        (format!("{digits}{}", "0".repeat(shift as usize)), 0)
    } else {
        (digits, (-shift) as usize)
    }
}

/// `Number.prototype.toPrecision(p)` on a finite `x`.
pub(crate) fn precision(x: f64, p: usize) -> String {
    let negative = x < 0.0;
    let sign = if negative { "-" } else { "" };
    if x == 0.0 {
        let mut s = "0".to_string();
        if p > 1 {
            s.push('.');
            s.push_str(&"0".repeat(p - 1));
        }
        return s;
    }
    let (ds, e) = significant_digits(x.abs(), p);
    if e < -6 || e >= p as i64 {
        let mut s = format!("{sign}{}", &ds[..1]);
        if p > 1 {
            s.push('.');
            s.push_str(&ds[1..]);
        }
        s.push('e');
        s.push(if e >= 0 { '+' } else { '-' });
        s.push_str(&e.abs().to_string());
        return s;
    }
    if e == p as i64 - 1 {
        return format!("{sign}{ds}");
    }
    if e >= 0 {
        let k = (e + 1) as usize;
        return format!("{sign}{}.{}", &ds[..k], &ds[k..]);
    }
    format!("{sign}0.{}{ds}", "0".repeat((-(e + 1)) as usize))
}

/// `Number.prototype.toExponential(f)` on a finite `x` (`None`: as many digits as needed).
/// The first `p` significant decimal digits of `x` (> 0), rounded half up on its exact binary
/// value, and the decimal exponent of the first digit (`toPrecision`, `toExponential`).
fn significant_digits(x: f64, p: usize) -> (String, i64) {
    let (all, frac) = exact_decimal(x);
    let trimmed = all.trim_start_matches('0');
    let mut e = trimmed.len() as i64 - frac as i64 - 1;
    let mut d: Vec<u8> = trimmed.as_bytes().to_vec();
    if d.len() > p {
        let round_up = d[p] >= b'5';
        d.truncate(p);
        if round_up && increment(&mut d) {
            d.truncate(p);
            e += 1;
        }
    } else {
        d.resize(p, b'0');
    }
    (String::from_utf8(d).unwrap_or_default(), e)
}

pub(crate) fn exponential(x: f64, f: Option<usize>) -> String {
    let sign = if x < 0.0 { "-" } else { "" };
    let (digits, e) = if x == 0.0 {
        ("0".repeat(f.unwrap_or(0) + 1), 0i64)
    } else {
        match f {
            None => {
                // The shortest round-trip digits (what `toString` prints).
                let sci = format!("{:e}", x.abs());
                let (m, e) = sci.split_once('e').unwrap_or((&sci, "0"));
                (m.replace('.', ""), e.parse().unwrap_or(0))
            }
            Some(f) => significant_digits(x.abs(), f + 1),
        }
    };
    let (first, rest) = digits.split_at(1.min(digits.len()));
    let mantissa = if rest.is_empty() { first.to_string() } else { format!("{first}.{rest}") };
    let esign = if e < 0 { '-' } else { '+' };
    format!("{sign}{mantissa}e{esign}{}", e.abs())
}

/// `x.toString(radix)` for radix != 10 (V8's `DoubleToRadixCString`).
pub(crate) fn radix_string(x: f64, radix: u32) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if x == 0.0 {
        return "0".into();
    }
    const CHARS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let negative = x < 0.0;
    let value = x.abs();
    let mut integer = value.floor();
    let mut fraction = value - integer;
    let next = f64::from_bits(value.to_bits() + 1);
    let mut delta = (0.5 * (next - value)).max(f64::from_bits(1));
    let radix_f = radix as f64;
    let mut frac_digits: Vec<u8> = Vec::new();
    if fraction >= delta {
        loop {
            fraction *= radix_f;
            delta *= radix_f;
            let digit = fraction as usize;
            frac_digits.push(CHARS[digit.min(35)]);
            fraction -= digit as f64;
            if (fraction > 0.5 || (fraction == 0.5 && digit & 1 == 1)) && fraction + delta > 1.0 {
                {
                    // Round up, propagating carries.
                    loop {
                        match frac_digits.pop() {
                            None => {
                                integer += 1.0;
                                break;
                            }
                            Some(c) => {
                                let d = if c > b'9' { (c - b'a' + 10) as u32 } else { (c - b'0') as u32 };
                                if d + 1 < radix {
                                    frac_digits.push(CHARS[(d + 1) as usize]);
                                    break;
                                }
                            }
                        }
                    }
                    break;
                }
            }
            if fraction < delta || frac_digits.len() > 1100 {
                break;
            }
        }
    }
    let mut int_digits: Vec<u8> = Vec::new();
    while integer / radix_f >= 9_007_199_254_740_992.0 {
        integer /= radix_f;
        int_digits.push(b'0');
    }
    loop {
        let rem = integer % radix_f;
        int_digits.push(CHARS[(rem as usize).min(35)]);
        integer = (integer - rem) / radix_f;
        if integer <= 0.0 {
            break;
        }
    }
    int_digits.reverse();
    let mut s = String::new();
    if negative {
        s.push('-');
    }
    s.push_str(std::str::from_utf8(&int_digits).unwrap_or(""));
    if !frac_digits.is_empty() {
        s.push('.');
        s.push_str(std::str::from_utf8(&frac_digits).unwrap_or(""));
    }
    s
}

/// `toLocaleString()` in en-US: grouping commas, at most three fraction digits.
/// `toLocaleString()` with no arguments: `en-US`, grouping commas, at most three fraction digits.
#[cfg(test)]
fn locale_string(x: f64) -> String {
    format_locale(x, &LocaleOptions::for_locale(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_fixed_rounds_the_exact_value() {
        assert_eq!(fixed(4.56789, 2), "4.57");
        assert_eq!(fixed(1.005, 2), "1.00");
        assert_eq!(fixed(2.5, 0), "3");
        assert_eq!(fixed(10.0, 3), "10.000");
        assert_eq!(fixed(-1.55, 1), "-1.6");
        assert_eq!(fixed(0.0, 2), "0.00");
        assert_eq!(fixed(123.456, 0), "123");
        assert_eq!(fixed(1e21, 2), "1e+21");
        assert_eq!(fixed(0.000001, 7), "0.0000010");
        assert_eq!(fixed(1.45, 1), "1.4");
        assert_eq!(fixed(8.345, 2), "8.35");
        assert_eq!(fixed(0.5, 0), "1");
        assert_eq!(fixed(-0.5, 0), "-1");
        assert_eq!(fixed(-0.0001, 2), "-0.00");
        assert_eq!(fixed(-0.0, 2), "0.00");
        assert_eq!(fixed(999.995, 2), "1000.00");
        assert_eq!(fixed(99.995, 2), "100.00");
        assert_eq!(fixed(5e-324, 2), "0.00");
        assert_eq!(fixed(1.7976931348623157e20, 1), "179769313486231568384.0");
        assert_eq!(fixed(f64::NAN, 2), "NaN");
    }

    #[test]
    fn to_precision_cases() {
        assert_eq!(precision(123.456, 4), "123.5");
        assert_eq!(precision(0.000123, 2), "0.00012");
        assert_eq!(precision(123456.0, 2), "1.2e+5");
        assert_eq!(precision(1e-7, 3), "1.00e-7");
        assert_eq!(precision(0.0, 3), "0.00");
        assert_eq!(precision(99.99, 3), "100");
        assert_eq!(precision(-1.5, 1), "-2");
        assert_eq!(precision(1.25, 2), "1.3");
        assert_eq!(precision(1.35, 2), "1.4");
    }

    #[test]
    fn to_exponential_cases() {
        let cases: &[(f64, Option<usize>, &str)] = &[
            (123.456, Some(2), "1.23e+2"),
            (0.0, None, "0e+0"),
            (0.0, Some(2), "0.00e+0"),
            (1e21, None, "1e+21"),
            (123456.0, None, "1.23456e+5"),
            (-1.5e-7, Some(3), "-1.500e-7"),
            (1.25, Some(1), "1.3e+0"),
            (1.35, Some(1), "1.4e+0"),
            (5e-324, None, "5e-324"),
            (9.99, Some(1), "1.0e+1"),
            (1.0, Some(0), "1e+0"),
        ];
        for (x, f, want) in cases {
            assert_eq!(exponential(*x, *f), *want, "{x} {f:?}");
        }
    }

    #[test]
    fn radix_and_locale() {
        assert_eq!(radix_string(255.0, 16), "ff");
        assert_eq!(radix_string(-255.0, 2), "-11111111");
        assert_eq!(radix_string(0.5, 2), "0.1");
        assert_eq!(radix_string(0.1, 3), "0.0022002200220022002200220022002201");
        assert_eq!(radix_string(3.75, 16), "3.c");
        assert_eq!(radix_string(1e21, 36), "5v1j4f4ds7c000");
        assert_eq!(locale_string(1234.5), "1,234.5");
        assert_eq!(locale_string(1234567.891234), "1,234,567.891");
        assert_eq!(locale_string(-0.0005), "-0.001");
        assert_eq!(locale_string(12.0), "12");
        assert_eq!(locale_string(999.9999), "1,000");
        assert_eq!(locale_string(-0.0), "-0");
        assert_eq!(locale_string(8868181.6715), "8,868,181.672");
        assert_eq!(locale_string(-37192869066225.49), "-37,192,869,066,225.49");
        assert_eq!(locale_string(1e21), "1,000,000,000,000,000,000,000");
        let with = |f: &dyn Fn(&mut LocaleOptions), x: f64| {
            let mut o = LocaleOptions::for_locale("en-US");
            f(&mut o);
            format_locale(x, &o)
        };
        assert_eq!(with(&|o| o.min_frac = 2, 1234.5), "1,234.50");
        assert_eq!(
            with(
                &|o| {
                    o.style = "currency".into();
                    o.currency = "USD".into();
                    o.min_frac = 2;
                    o.max_frac = 2;
                },
                -5.0
            ),
            "-$5.00"
        );
        assert_eq!(
            with(
                &|o| {
                    o.style = "percent".into();
                    o.max_frac = 1;
                },
                0.256
            ),
            "25.6%"
        );
        assert_eq!(with(&|o| o.grouping = false, 1234.0), "1234");
        assert_eq!(with(&|o| o.min_int = 3, 12.0), "012");
        assert_eq!(format_locale(1234.5, &LocaleOptions::for_locale("de-DE")), "1.234,5");
        let compact = |x: f64| with(&|o| o.notation = "compact".into(), x);
        let got: Vec<String> = [
            1234.0, 1234567.0, 999999.0, 1500.0, 15300.0, 153000.0, 1e12, -2500000.0, 12.345, 0.5, 1e15,
            999.95, 99999.0,
        ]
        .iter()
        .map(|x| compact(*x))
        .collect();
        assert_eq!(
            got,
            ["1.2K", "1.2M", "1M", "1.5K", "15K", "153K", "1T", "-2.5M", "12", "0.5", "1000T", "1K", "100K"]
        );
        let sig = |x: f64, lo: usize, hi: usize| with(&|o| (o.min_sig, o.max_sig) = (Some(lo), Some(hi)), x);
        assert_eq!(sig(123456.0, 1, 2), "120,000");
        assert_eq!(sig(0.000123456, 1, 3), "0.000123");
        assert_eq!(sig(1.5, 3, 21), "1.50");
        assert_eq!(sig(1234.5678, 1, 6), "1,234.57");
        assert_eq!(with(&|o| o.notation = "scientific".into(), 1234.0), "1.234E3");
        assert_eq!(with(&|o| o.notation = "engineering".into(), 123456.0), "123.456E3");
    }
}
