//! `Date`, on the host-supplied clock.
//!
//! The VM never reads a clock: `Date.now()` and `new Date()` return `VmConfig::now_ms`, which the
//! host supplies (and a snapshot records). The VM has no time zone: local time *is* UTC, so
//! `getHours` equals `getUTCHours`, `getTimezoneOffset()` is 0 and strings print `GMT+0000`.
//! A Date is `ObjKind::Date(time value)`, NaN for an invalid date.

use codemode_compiler::bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Date", 7, date_call, date_construct),
    NativeDef::new("Date", "now", 0, now),
    NativeDef::new("Date", "parse", 1, parse),
    NativeDef::new("Date", "UTC", 7, utc),
    NativeDef::new("Date.prototype", "getTime", 0, get_time),
    NativeDef::new("Date.prototype", "valueOf", 0, get_time),
    NativeDef::new("Date.prototype", "getFullYear", 0, get_full_year),
    NativeDef::new("Date.prototype", "getUTCFullYear", 0, get_full_year),
    NativeDef::new("Date.prototype", "getMonth", 0, get_month),
    NativeDef::new("Date.prototype", "getUTCMonth", 0, get_month),
    NativeDef::new("Date.prototype", "getDate", 0, get_date),
    NativeDef::new("Date.prototype", "getUTCDate", 0, get_date),
    NativeDef::new("Date.prototype", "getDay", 0, get_day),
    NativeDef::new("Date.prototype", "getUTCDay", 0, get_day),
    NativeDef::new("Date.prototype", "getHours", 0, get_hours),
    NativeDef::new("Date.prototype", "getUTCHours", 0, get_hours),
    NativeDef::new("Date.prototype", "getMinutes", 0, get_minutes),
    NativeDef::new("Date.prototype", "getUTCMinutes", 0, get_minutes),
    NativeDef::new("Date.prototype", "getSeconds", 0, get_seconds),
    NativeDef::new("Date.prototype", "getUTCSeconds", 0, get_seconds),
    NativeDef::new("Date.prototype", "getMilliseconds", 0, get_milliseconds),
    NativeDef::new("Date.prototype", "getUTCMilliseconds", 0, get_milliseconds),
    NativeDef::new("Date.prototype", "getTimezoneOffset", 0, get_timezone_offset),
    NativeDef::new("Date.prototype", "setTime", 1, set_time),
    NativeDef::new("Date.prototype", "setFullYear", 3, set_full_year),
    NativeDef::new("Date.prototype", "setUTCFullYear", 3, set_full_year),
    NativeDef::new("Date.prototype", "setMonth", 2, set_month),
    NativeDef::new("Date.prototype", "setUTCMonth", 2, set_month),
    NativeDef::new("Date.prototype", "setDate", 1, set_date),
    NativeDef::new("Date.prototype", "setUTCDate", 1, set_date),
    NativeDef::new("Date.prototype", "setHours", 4, set_hours),
    NativeDef::new("Date.prototype", "setUTCHours", 4, set_hours),
    NativeDef::new("Date.prototype", "setMinutes", 3, set_minutes),
    NativeDef::new("Date.prototype", "setUTCMinutes", 3, set_minutes),
    NativeDef::new("Date.prototype", "setSeconds", 2, set_seconds),
    NativeDef::new("Date.prototype", "setUTCSeconds", 2, set_seconds),
    NativeDef::new("Date.prototype", "setMilliseconds", 1, set_milliseconds),
    NativeDef::new("Date.prototype", "setUTCMilliseconds", 1, set_milliseconds),
    NativeDef::new("Date.prototype", "toISOString", 0, to_iso_string),
    NativeDef::new("Date.prototype", "toJSON", 1, to_json),
    NativeDef::new("Date.prototype", "toString", 0, to_string),
    NativeDef::new("Date.prototype", "toUTCString", 0, to_utc_string),
    NativeDef::new("Date.prototype", "toGMTString", 0, to_utc_string),
    NativeDef::new("Date.prototype", "toDateString", 0, to_date_string),
    NativeDef::new("Date.prototype", "toTimeString", 0, to_time_string),
    NativeDef::new("Date.prototype", "toLocaleString", 0, to_locale_string),
    NativeDef::new("Date.prototype", "toLocaleDateString", 0, to_locale_date_string),
    NativeDef::new("Date.prototype", "toLocaleTimeString", 0, to_locale_time_string),
];

const MS_PER_DAY: f64 = 86_400_000.0;
const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

// ---- date math (pure, ECMA-262 21.4.1) ----

/// TimeClip.
pub(crate) fn time_clip(t: f64) -> f64 {
    if !t.is_finite() || t.abs() > 8.64e15 { f64::NAN } else { t.trunc() + 0.0 }
}

/// Days since 1970-01-01 → (year, month 1-12, day 1-31), proleptic Gregorian (Howard Hinnant).
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// (year, month 1-12, day 1-31) → days since 1970-01-01.
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 } as i64;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// MakeDay(year, month 0-based, date).
pub(crate) fn make_day(year: f64, month: f64, date: f64) -> f64 {
    if !year.is_finite() || !month.is_finite() || !date.is_finite() {
        return f64::NAN;
    }
    let (year, month, date) = (year.trunc(), month.trunc(), date.trunc());
    let ym = year + (month / 12.0).floor();
    if ym.abs() > 400_000.0 {
        return f64::NAN;
    }
    let mn = month.rem_euclid(12.0) as u32;
    days_from_civil(ym as i64, mn + 1, 1) as f64 + date - 1.0
}

/// MakeTime(hour, min, sec, ms).
pub(crate) fn make_time(h: f64, m: f64, s: f64, ms: f64) -> f64 {
    if !h.is_finite() || !m.is_finite() || !s.is_finite() || !ms.is_finite() {
        return f64::NAN;
    }
    h.trunc() * 3_600_000.0 + m.trunc() * 60_000.0 + s.trunc() * 1000.0 + ms.trunc()
}

/// MakeDate(day, time).
pub(crate) fn make_date(day: f64, time: f64) -> f64 {
    let t = day * MS_PER_DAY + time;
    if t.is_finite() { t } else { f64::NAN }
}

/// The calendar fields of a valid time value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Fields {
    pub year: i64,
    /// 0-based.
    pub month: u32,
    pub day: u32,
    pub weekday: u32,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
    pub ms: i64,
}

pub(crate) fn fields(t: f64) -> Option<Fields> {
    if !t.is_finite() {
        return None;
    }
    let ms = t as i64;
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    let (year, m, d) = civil_from_days(days);
    Some(Fields {
        year,
        month: m - 1,
        day: d,
        weekday: (days + 4).rem_euclid(7) as u32,
        hour: rem / 3_600_000,
        minute: rem / 60_000 % 60,
        second: rem / 1000 % 60,
        ms: rem % 1000,
    })
}

fn year_string(y: i64) -> String {
    if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else if y < 0 {
        format!("-{:06}", -y)
    } else {
        format!("+{y:06}")
    }
}

/// `Date.prototype.toISOString`, or `None` for an invalid date.
pub(crate) fn date_to_iso(t: f64) -> Option<String> {
    if t.abs() > 8.64e15 {
        return None;
    }
    let f = fields(t)?;
    Some(format!(
        "{}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        year_string(f.year),
        f.month + 1,
        f.day,
        f.hour,
        f.minute,
        f.second,
        f.ms
    ))
}

fn display_year(y: i64) -> String {
    if y < 0 { format!("-{:06}", -y) } else { format!("{y:04}") }
}

fn date_part(f: &Fields) -> String {
    let day = DAYS.get(f.weekday as usize).unwrap_or(&"Sun");
    let month = MONTHS.get(f.month as usize).unwrap_or(&"Jan");
    format!("{day} {month} {:02} {}", f.day, display_year(f.year))
}

fn time_part(f: &Fields) -> String {
    format!("{:02}:{:02}:{:02} GMT+0000 (Coordinated Universal Time)", f.hour, f.minute, f.second)
}

/// `Date.prototype.toString` (the VM's local time zone is UTC).
pub(crate) fn date_to_string(t: f64) -> String {
    match fields(t) {
        Some(f) if t.abs() <= 8.64e15 => format!("{} {}", date_part(&f), time_part(&f)),
        _ => "Invalid Date".into(),
    }
}

/// `Date.parse`: ISO 8601 (the ECMAScript date-time string format) first, then the common
/// `toString`/`toUTCString`/`"Jan 15, 2024"`/`"2024/01/15 10:00"` shapes. NaN otherwise.
pub(crate) fn parse_date(s: &str) -> f64 {
    let s = s.trim();
    parse_iso(s).or_else(|| parse_loose(s)).map_or(f64::NAN, time_clip)
}

fn digits(b: &[u8], at: usize, n: usize) -> Option<i64> {
    let part = b.get(at..at + n)?;
    if !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(part).ok()?.parse().ok()
}

fn parse_iso(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let (year, mut i) = match b.first()? {
        b'+' | b'-' => {
            let y = digits(b, 1, 6)?;
            if b[0] == b'-' && y == 0 {
                return None;
            }
            (if b[0] == b'-' { -y } else { y }, 7)
        }
        _ => (digits(b, 0, 4)?, 4),
    };
    let (mut month, mut day) = (1, 1);
    if b.get(i) == Some(&b'-') {
        month = digits(b, i + 1, 2)?;
        i += 3;
        if b.get(i) == Some(&b'-') {
            day = digits(b, i + 1, 2)?;
            i += 3;
        }
    }
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let (mut h, mut mi, mut sec, mut ms) = (0, 0, 0, 0.0);
    let mut offset_min = 0;
    if i < b.len() {
        if !matches!(b[i], b'T' | b't' | b' ') {
            return None;
        }
        h = digits(b, i + 1, 2)?;
        if b.get(i + 3) != Some(&b':') {
            return None;
        }
        mi = digits(b, i + 4, 2)?;
        i += 6;
        if b.get(i) == Some(&b':') {
            sec = digits(b, i + 1, 2)?;
            i += 3;
            if matches!(b.get(i), Some(b'.' | b',')) {
                let start = i + 1;
                let mut end = start;
                while b.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
                if end == start {
                    return None;
                }
                let frac = std::str::from_utf8(b.get(start..end)?).ok()?;
                ms = format!("0.{frac}").parse::<f64>().ok()? * 1000.0;
                ms = ms.trunc();
                i = end;
            }
        }
        match b.get(i) {
            None => {}
            Some(b'Z' | b'z') if i + 1 == b.len() => {}
            Some(c @ (b'+' | b'-')) => {
                let oh = digits(b, i + 1, 2)?;
                let om =
                    if b.get(i + 3) == Some(&b':') { digits(b, i + 4, 2)? } else { digits(b, i + 3, 2)? };
                let len = if b.get(i + 3) == Some(&b':') { 6 } else { 5 };
                if i + len != b.len() || oh > 23 || om > 59 {
                    return None;
                }
                offset_min = (oh * 60 + om) * if *c == b'+' { 1 } else { -1 };
            }
            _ => return None,
        }
        if h > 24 || mi > 59 || sec > 59 || (h == 24 && (mi > 0 || sec > 0 || ms > 0.0)) {
            return None;
        }
    }
    let day_num = make_day(year as f64, (month - 1) as f64, day as f64);
    let time = make_time(h as f64, mi as f64, sec as f64, ms);
    Some(make_date(day_num, time) - offset_min as f64 * 60_000.0)
}

/// Lenient formats: tokens of month names, numbers, `hh:mm[:ss]`, `AM`/`PM`, `GMT`/`UTC`/`Z`,
/// and `±hhmm` offsets, in the orders `toString`, `toUTCString` and US dates use.
fn parse_loose(s: &str) -> Option<f64> {
    let mut month: Option<i64> = None;
    let mut nums: Vec<i64> = Vec::new();
    let mut time: Option<(i64, i64, i64)> = None;
    let mut offset_min = 0i64;
    let mut pm: Option<bool> = None;
    let cleaned: String =
        s.chars().map(|c| if matches!(c, ',' | '/' | '(' | ')') { ' ' } else { c }).collect();
    let mut seen_paren_text = false;
    for tok in cleaned.split_whitespace() {
        if seen_paren_text {
            continue;
        }
        let lower = tok.to_ascii_lowercase();
        if tok.contains(':') {
            let parts: Vec<&str> = tok.split(':').collect();
            let p = |i: usize| parts.get(i).and_then(|x| x.parse::<i64>().ok());
            time = Some((p(0)?, p(1)?, if parts.len() > 2 { p(2)? } else { 0 }));
        } else if let Some(m) = MONTHS.iter().position(|m| lower.starts_with(&m.to_ascii_lowercase())) {
            if lower.len() >= 3 {
                month = Some(m as i64);
            }
        } else if DAYS.iter().any(|d| lower.starts_with(&d.to_ascii_lowercase())) {
        } else if lower == "am" || lower == "pm" {
            pm = Some(lower == "pm");
        } else if lower == "gmt" || lower == "utc" || lower == "z" {
        } else if let Some(rest) = lower.strip_prefix("gmt").or_else(|| lower.strip_prefix("utc")) {
            offset_min = parse_offset(rest)?;
        } else if (tok.starts_with('+') || tok.starts_with('-')) && tok.len() == 5 && time.is_some() {
            offset_min = parse_offset(tok)?;
        } else if let Ok(n) = tok.parse::<i64>() {
            nums.push(n);
        } else if tok.chars().all(|c| c.is_alphabetic()) && time.is_some() {
            // A time zone name after the time ("Coordinated Universal Time").
            seen_paren_text = true;
        } else {
            return None;
        }
    }
    let (year, mon, day) = match (month, nums.as_slice()) {
        (Some(m), [d, y]) => {
            if *d > 31 {
                (*d, m, *y)
            } else {
                (*y, m, *d)
            }
        }
        (None, [a, b, c]) if *a > 31 => (*a, *b - 1, *c),
        (None, [m, d, y]) => (*y, *m - 1, *d),
        _ => return None,
    };
    if !(0..12).contains(&mon) || !(1..=31).contains(&day) {
        return None;
    }
    let year = if (0..50).contains(&year) && nums.iter().all(|n| *n < 100) {
        2000 + year
    } else if (50..100).contains(&year) {
        1900 + year
    } else {
        year
    };
    let (mut h, mi, sec) = time.unwrap_or((0, 0, 0));
    match pm {
        Some(true) if h < 12 => h += 12,
        Some(false) if h == 12 => h = 0,
        _ => {}
    }
    let d = make_day(year as f64, mon as f64, day as f64);
    let t = make_time(h as f64, mi as f64, sec as f64, 0.0);
    Some(make_date(d, t) - offset_min as f64 * 60_000.0)
}

fn parse_offset(s: &str) -> Option<i64> {
    let (sign, rest) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    let rest = rest.replace(':', "");
    if rest.len() != 4 {
        return None;
    }
    let n: i64 = rest.parse().ok()?;
    Some(sign * ((n / 100) * 60 + n % 100))
}

// ---- built-ins ----

fn this_time(vm: &mut Vm, this: Value) -> Result<f64, Throw> {
    match this {
        Value::Obj(id) => match vm.heap.obj(id).kind {
            ObjKind::Date(t) => Ok(t),
            _ => Err(vm.make_error(ErrorKind::TypeError, "this is not a Date object.")),
        },
        _ => Err(vm.make_error(ErrorKind::TypeError, "this is not a Date object.")),
    }
}

fn new_date(vm: &mut Vm, t: f64) -> Result<Value, Throw> {
    let proto = Some(vm.realm.date_proto);
    Ok(Value::Obj(vm.alloc(ObjKind::Date(time_clip(t)), proto)?))
}

fn date_call(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = date_to_string(vm.config.now_ms);
    Ok(Step::Return(vm.new_string_owned(s)?))
}

/// Date(y, m, d, h, mi, s, ms) fields → time value (UTC, the VM's only zone).
fn time_from_fields(vm: &mut Vm, args: &[Value]) -> Result<f64, Throw> {
    let mut n = [f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
    for (i, slot) in n.iter_mut().enumerate() {
        if let Some(v) = args.get(i) {
            *slot = vm.to_number(*v)?;
        }
    }
    let mut year = n[0];
    if year.is_finite() {
        let y = year.trunc();
        if (0.0..=99.0).contains(&y) {
            year = 1900.0 + y;
        }
    }
    Ok(make_date(make_day(year, n[1], n[2]), make_time(n[3], n[4], n[5], n[6])))
}

fn date_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let t = match args {
        [] => vm.config.now_ms,
        [v] => match *v {
            Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Date(_)) => {
                match vm.heap.obj(id).kind {
                    ObjKind::Date(t) => t,
                    _ => f64::NAN,
                }
            }
            v => match vm.to_primitive(v)? {
                Value::Str(s) => parse_date(vm.heap.str(s)),
                p => vm.to_number(p)?,
            },
        },
        _ => time_from_fields(vm, args)?,
    };
    Ok(Step::Return(new_date(vm, t)?))
}

fn now(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Number(time_clip(vm.config.now_ms))))
}

fn parse(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = vm.to_rust_string(arg(args, 0))?;
    Ok(Step::Return(Value::Number(parse_date(&s))))
}

fn utc(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let t = time_from_fields(vm, args)?;
    Ok(Step::Return(Value::Number(time_clip(t))))
}

fn get_time(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Number(this_time(vm, this)?)))
}

fn field(vm: &mut Vm, this: Value, pick: fn(&Fields) -> f64) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    Ok(Step::Return(Value::Number(fields(t).map_or(f64::NAN, |f| pick(&f)))))
}

fn get_full_year(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |f| f.year as f64)
}
fn get_month(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |f| f.month as f64)
}
fn get_date(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |f| f.day as f64)
}
fn get_day(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |f| f.weekday as f64)
}
fn get_hours(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |f| f.hour as f64)
}
fn get_minutes(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |f| f.minute as f64)
}
fn get_seconds(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |f| f.second as f64)
}
fn get_milliseconds(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |f| f.ms as f64)
}
fn get_timezone_offset(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    field(vm, this, |_| 0.0)
}

fn store(vm: &mut Vm, this: Value, t: f64) -> Result<Step, Throw> {
    let t = time_clip(t);
    if let Value::Obj(id) = this
        && let ObjKind::Date(slot) = &mut vm.heap.obj_mut(id).kind
    {
        *slot = t;
    }
    Ok(Step::Return(Value::Number(t)))
}

fn set_time(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    this_time(vm, this)?;
    let t = vm.to_number(arg(args, 0))?;
    store(vm, this, t)
}

/// The numbers of `args`, or the current field values where an argument is absent.
fn numbers(vm: &mut Vm, args: &[Value], current: &[f64]) -> Result<Vec<f64>, Throw> {
    let mut out = Vec::with_capacity(current.len());
    for (i, c) in current.iter().enumerate() {
        out.push(match args.get(i) {
            Some(v) => vm.to_number(*v)?,
            None => *c,
        });
    }
    Ok(out)
}

/// A setter: `first` is the index of the first field it sets in
/// `[year, month, day, hour, minute, second, ms]`, `count` how many it may set.
fn set_fields(vm: &mut Vm, this: Value, args: &[Value], first: usize, count: usize) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    let f = match fields(t) {
        Some(f) => f,
        // An invalid date only becomes valid through setFullYear (from +0).
        None if first == 0 => match fields(0.0) {
            Some(f) => f,
            None => return store(vm, this, f64::NAN),
        },
        None => return store(vm, this, f64::NAN),
    };
    let mut all = [
        f.year as f64,
        f.month as f64,
        f.day as f64,
        f.hour as f64,
        f.minute as f64,
        f.second as f64,
        f.ms as f64,
    ];
    if args.is_empty() {
        return store(vm, this, f64::NAN);
    }
    let current: Vec<f64> = all.get(first..first + count).unwrap_or(&[]).to_vec();
    let new = numbers(vm, args, &current)?;
    for (i, v) in new.into_iter().enumerate() {
        if let Some(slot) = all.get_mut(first + i) {
            *slot = v;
        }
    }
    let t = make_date(make_day(all[0], all[1], all[2]), make_time(all[3], all[4], all[5], all[6]));
    store(vm, this, t)
}

fn set_full_year(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    set_fields(vm, this, args, 0, 3)
}
fn set_month(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    set_fields(vm, this, args, 1, 2)
}
fn set_date(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    set_fields(vm, this, args, 2, 1)
}
fn set_hours(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    set_fields(vm, this, args, 3, 4)
}
fn set_minutes(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    set_fields(vm, this, args, 4, 3)
}
fn set_seconds(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    set_fields(vm, this, args, 5, 2)
}
fn set_milliseconds(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    set_fields(vm, this, args, 6, 1)
}

fn to_iso_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    match date_to_iso(t) {
        Some(s) => Ok(Step::Return(vm.new_string_owned(s)?)),
        None => Err(vm.make_error(ErrorKind::RangeError, "Invalid time value")),
    }
}

fn to_json(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let t = match this {
        Value::Obj(id) => match vm.heap.obj(id).kind {
            ObjKind::Date(t) => t,
            _ => return Ok(Step::Return(Value::Null)),
        },
        _ => return Ok(Step::Return(Value::Null)),
    };
    match date_to_iso(t) {
        Some(s) => Ok(Step::Return(vm.new_string_owned(s)?)),
        None => Ok(Step::Return(Value::Null)),
    }
}

fn format_with(vm: &mut Vm, this: Value, f: fn(&Fields) -> String) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    let s = match fields(t) {
        Some(fl) => f(&fl),
        None => "Invalid Date".to_string(),
    };
    Ok(Step::Return(vm.new_string_owned(s)?))
}

fn to_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    format_with(vm, this, |f| format!("{} {}", date_part(f), time_part(f)))
}

fn to_utc_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    format_with(vm, this, |f| {
        let day = DAYS.get(f.weekday as usize).unwrap_or(&"Sun");
        let month = MONTHS.get(f.month as usize).unwrap_or(&"Jan");
        format!(
            "{day}, {:02} {month} {} {:02}:{:02}:{:02} GMT",
            f.day,
            display_year(f.year),
            f.hour,
            f.minute,
            f.second
        )
    })
}

fn to_date_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    format_with(vm, this, date_part)
}

fn to_time_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    format_with(vm, this, time_part)
}

/// What `toLocale*String(locale, options)` honours (always `en-US` output, in UTC — the VM has
/// no time-zone data): `weekday`, `year`, `month`, `day`, `hour`, `minute`, `second`, `hour12`,
/// `hourCycle`, `dateStyle`, `timeStyle`, and `timeZone` when it names UTC (any other zone is a
/// `RangeError` rather than a silently wrong time).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct DateFormat {
    pub weekday: Option<String>,
    pub year: Option<String>,
    pub month: Option<String>,
    pub day: Option<String>,
    pub hour: Option<String>,
    pub minute: Option<String>,
    pub second: Option<String>,
    pub hour12: bool,
    /// `hour12: false` formats midnight as 24 (V8's `en-US` quirk); `hourCycle: "h23"` as 00.
    pub h24: bool,
    /// " at " between date and time (long month names), else ", ".
    pub at: bool,
    /// Appended to the time (`timeStyle` long/full).
    pub zone_suffix: &'static str,
}

/// Which components a formatter adds when the options name none.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Defaults {
    Date,
    Time,
    Both,
}

const MONTHS_LONG: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS_LONG: [&str; 7] = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

fn read_date_format(vm: &mut Vm, options: Value, defaults: Defaults) -> Result<DateFormat, Throw> {
    let mut o = DateFormat { hour12: true, ..DateFormat::default() };
    let mut date_style = None;
    let mut time_style = None;
    if let Value::Obj(_) = options {
        let read = |vm: &mut Vm, name: &str| -> Result<Option<String>, Throw> {
            let v = vm.get_named(options, name)?;
            if v == Value::Undefined { Ok(None) } else { Ok(Some(vm.to_rust_string(v)?)) }
        };
        o.weekday = read(vm, "weekday")?;
        o.year = read(vm, "year")?;
        o.month = read(vm, "month")?;
        o.day = read(vm, "day")?;
        o.hour = read(vm, "hour")?;
        o.minute = read(vm, "minute")?;
        o.second = read(vm, "second")?;
        date_style = read(vm, "dateStyle")?;
        time_style = read(vm, "timeStyle")?;
        if let Some(cycle) = read(vm, "hourCycle")? {
            o.hour12 = matches!(cycle.as_str(), "h11" | "h12");
        }
        let h12 = vm.get_named(options, "hour12")?;
        if h12 != Value::Undefined {
            o.hour12 = vm.to_boolean(h12);
            o.h24 = !o.hour12;
        }
        if let Some(zone) = read(vm, "timeZone")?
            && !matches!(zone.to_ascii_uppercase().as_str(), "UTC" | "GMT" | "ETC/UTC" | "ETC/GMT" | "Z")
        {
            let msg = format!(
                "Time zone '{zone}' is not supported: this runtime has no time-zone data and formats dates in UTC (use timeZone: 'UTC' or omit it)"
            );
            return Err(vm.make_error(ErrorKind::RangeError, &msg));
        }
    }
    let misplaced = match defaults {
        Defaults::Time if date_style.is_some() => Some("dateStyle"),
        Defaults::Date if time_style.is_some() => Some("timeStyle"),
        _ => None,
    };
    if let Some(name) = misplaced {
        return Err(vm.make_error(ErrorKind::TypeError, &format!("Invalid option : {name}")));
    }
    let set = |slot: &mut Option<String>, v: &str| *slot = Some(v.to_string());
    match date_style.as_deref() {
        Some("full") => {
            set(&mut o.weekday, "long");
            set(&mut o.month, "long");
            set(&mut o.day, "numeric");
            set(&mut o.year, "numeric");
            o.at = true;
        }
        Some("long") => {
            set(&mut o.month, "long");
            set(&mut o.day, "numeric");
            set(&mut o.year, "numeric");
            o.at = true;
        }
        Some("medium") => {
            set(&mut o.month, "short");
            set(&mut o.day, "numeric");
            set(&mut o.year, "numeric");
        }
        Some("short") => {
            set(&mut o.month, "numeric");
            set(&mut o.day, "numeric");
            set(&mut o.year, "2-digit");
        }
        _ => {}
    }
    match time_style.as_deref() {
        Some(style @ ("full" | "long" | "medium")) => {
            set(&mut o.hour, "numeric");
            set(&mut o.minute, "2-digit");
            set(&mut o.second, "2-digit");
            o.zone_suffix = match style {
                "full" => " Coordinated Universal Time",
                "long" => " UTC",
                _ => "",
            };
        }
        Some("short") => {
            set(&mut o.hour, "numeric");
            set(&mut o.minute, "2-digit");
        }
        _ => {}
    }
    let has_date = o.weekday.is_some() || o.year.is_some() || o.month.is_some() || o.day.is_some();
    let has_time = o.hour.is_some() || o.minute.is_some() || o.second.is_some();
    let add_date = match defaults {
        Defaults::Date => !has_date,
        Defaults::Time => false,
        Defaults::Both => !has_date && !has_time,
    };
    let add_time = match defaults {
        Defaults::Time => !has_time,
        Defaults::Date => false,
        Defaults::Both => !has_date && !has_time,
    };
    if add_date {
        set(&mut o.year, "numeric");
        set(&mut o.month, "numeric");
        set(&mut o.day, "numeric");
    }
    if add_time {
        set(&mut o.hour, "numeric");
        set(&mut o.minute, "2-digit");
        set(&mut o.second, "2-digit");
    }
    if o.month.as_deref() == Some("long") && date_style.is_none() {
        o.at = true;
    }
    Ok(o)
}

fn two(n: i64) -> String {
    format!("{n:02}")
}

/// Formats calendar fields as `en-US` does for the given components.
pub(crate) fn format_date(f: &Fields, o: &DateFormat) -> String {
    let month_idx = f.month as usize;
    let num = |style: &Option<String>, n: i64| match style.as_deref() {
        Some("2-digit") => two(n),
        _ => n.to_string(),
    };
    let year = o
        .year
        .as_ref()
        .map(|y| if y == "2-digit" { two(f.year.rem_euclid(100)) } else { f.year.to_string() });
    let day = o.day.as_ref().map(|_| num(&o.day, f.day as i64));
    let mut date = match o.month.as_deref() {
        Some(style @ ("long" | "short" | "narrow")) => {
            let name = match style {
                "long" => MONTHS_LONG.get(month_idx).copied().unwrap_or("").to_string(),
                "short" => MONTHS.get(month_idx).copied().unwrap_or("").to_string(),
                _ => MONTHS_LONG.get(month_idx).map(|m| m[..1].to_string()).unwrap_or_default(),
            };
            match (day, year) {
                (Some(d), Some(y)) => format!("{name} {d}, {y}"),
                (Some(d), None) => format!("{name} {d}"),
                (None, Some(y)) => format!("{name} {y}"),
                (None, None) => name,
            }
        }
        Some(_) => {
            let m = num(&o.month, f.month as i64 + 1);
            [Some(m), day, year].into_iter().flatten().collect::<Vec<_>>().join("/")
        }
        None => [day, year].into_iter().flatten().collect::<Vec<_>>().join(" "),
    };
    if let Some(style) = &o.weekday {
        let w = f.weekday as usize;
        let name = match style.as_str() {
            "long" => DAYS_LONG.get(w).copied().unwrap_or("").to_string(),
            "narrow" => DAYS_LONG.get(w).map(|d| d[..1].to_string()).unwrap_or_default(),
            _ => DAYS.get(w).copied().unwrap_or("").to_string(),
        };
        date = if date.is_empty() { name } else { format!("{name}, {date}") };
    }
    let time = if let Some(hstyle) = &o.hour {
        let h = if o.hour12 {
            (f.hour + 11) % 12 + 1
        } else if o.h24 && f.hour == 0 {
            24
        } else {
            f.hour
        };
        let hour = if hstyle == "2-digit" || !o.hour12 { two(h) } else { h.to_string() };
        let mut t = hour;
        if o.minute.is_some() {
            t.push(':');
            t.push_str(&two(f.minute));
            if o.second.is_some() {
                t.push(':');
                t.push_str(&two(f.second));
            }
        }
        if o.hour12 {
            t.push_str(if f.hour < 12 { " AM" } else { " PM" });
        }
        t.push_str(o.zone_suffix);
        t
    } else {
        match (&o.minute, &o.second) {
            (Some(_), Some(_)) => format!("{}:{}", two(f.minute), two(f.second)),
            (Some(_), None) => f.minute.to_string(),
            (None, Some(_)) => f.second.to_string(),
            (None, None) => String::new(),
        }
    };
    match (date.is_empty(), time.is_empty()) {
        (_, true) => date,
        (true, false) => time,
        (false, false) => {
            let joiner = if o.at {
                " at "
            } else if o.month.is_none() && o.day.is_none() && o.year.is_none() {
                " "
            } else {
                ", "
            };
            format!("{date}{joiner}{time}")
        }
    }
}

fn to_locale(vm: &mut Vm, this: Value, args: &[Value], defaults: Defaults) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    let s = locale_format(vm, t, arg(args, 1), defaults)?;
    Ok(Step::Return(vm.new_string_owned(s)?))
}

/// `toLocale*String` / `Intl.DateTimeFormat().format` of the time value `t`.
pub(super) fn locale_format(
    vm: &mut Vm,
    t: f64,
    options: Value,
    defaults: Defaults,
) -> Result<String, Throw> {
    let o = read_date_format(vm, options, defaults)?;
    Ok(match fields(t) {
        Some(f) => format_date(&f, &o),
        None => "Invalid Date".to_string(),
    })
}

/// The time value of a Date argument (`Intl.DateTimeFormat().format(d)`): a Date, a number, or
/// `undefined` for now.
pub(super) fn time_of(vm: &mut Vm, v: Value) -> Result<f64, Throw> {
    match v {
        Value::Undefined => Ok(time_clip(vm.config.now_ms)),
        Value::Obj(id) => match vm.heap.obj(id).kind {
            ObjKind::Date(t) => Ok(t),
            _ => Ok(time_clip(vm.to_number(v)?)),
        },
        _ => Ok(time_clip(vm.to_number(v)?)),
    }
}

fn to_locale_string(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    to_locale(vm, this, args, Defaults::Both)
}

fn to_locale_date_string(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    to_locale(vm, this, args, Defaults::Date)
}

fn to_locale_time_string(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    to_locale(vm, this, args, Defaults::Time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates() {
        assert_eq!(date_to_iso(0.0).as_deref(), Some("1970-01-01T00:00:00.000Z"));
        assert_eq!(date_to_iso(1_700_000_000_123.0).as_deref(), Some("2023-11-14T22:13:20.123Z"));
        assert_eq!(date_to_iso(-1.0).as_deref(), Some("1969-12-31T23:59:59.999Z"));
        assert_eq!(date_to_iso(8.64e15).as_deref(), Some("+275760-09-13T00:00:00.000Z"));
        assert_eq!(date_to_iso(-62_198_755_200_000.0).as_deref(), Some("-000001-01-01T00:00:00.000Z"));
        assert_eq!(date_to_iso(f64::NAN), None);
    }

    #[test]
    fn day_math_round_trips() {
        for days in [-800_000i64, -1, 0, 1, 59, 365, 11_016, 19_737, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        // Month overflow and negative months, as Date.UTC does them.
        assert_eq!(make_day(2024.0, 12.0, 1.0), make_day(2025.0, 0.0, 1.0));
        assert_eq!(make_day(2024.0, -1.0, 31.0), make_day(2023.0, 11.0, 31.0));
        assert_eq!(make_day(2024.0, 1.0, 30.0), make_day(2024.0, 2.0, 1.0));
        assert_eq!(
            make_date(make_day(2024.0, 0.0, 15.0), make_time(10.0, 0.0, 0.0, 0.0)),
            1_705_312_800_000.0
        );
    }

    #[test]
    fn parsing() {
        assert_eq!(parse_date("2024-01-15T10:00"), 1_705_312_800_000.0);
        assert_eq!(parse_date("2024-01-15"), 1_705_276_800_000.0);
        assert_eq!(parse_date("2024-01-15T10:00:00.5+01:00"), 1_705_309_200_500.0);
        assert_eq!(parse_date("2024"), 1_704_067_200_000.0);
        assert_eq!(parse_date("Jan 15, 2024"), 1_705_276_800_000.0);
        assert_eq!(parse_date("2024/01/15"), 1_705_276_800_000.0);
        assert_eq!(parse_date("Tue, 15 Jan 2024 10:00:00 GMT"), 1_705_312_800_000.0);
        assert_eq!(parse_date("Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"), 0.0);
        assert!(parse_date("2024-13-01").is_nan());
        assert!(parse_date("nope").is_nan());
        assert!(parse_date("").is_nan());
    }

    #[test]
    fn strings() {
        assert_eq!(date_to_string(0.0), "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)");
        assert_eq!(date_to_string(f64::NAN), "Invalid Date");
        let f = fields(1_705_312_800_000.0).unwrap_or_else(|| panic!("valid"));
        let numeric = |v: &str| Some(v.to_string());
        let date = DateFormat {
            year: numeric("numeric"),
            month: numeric("numeric"),
            day: numeric("numeric"),
            hour12: true,
            ..DateFormat::default()
        };
        assert_eq!(format_date(&f, &date), "1/15/2024");
        let time = DateFormat {
            hour: numeric("numeric"),
            minute: numeric("2-digit"),
            second: numeric("2-digit"),
            hour12: true,
            ..DateFormat::default()
        };
        assert_eq!(format_date(&f, &time), "10:00:00 AM");
        let long = DateFormat {
            weekday: numeric("long"),
            month: numeric("long"),
            day: numeric("numeric"),
            year: numeric("numeric"),
            hour12: true,
            ..DateFormat::default()
        };
        assert_eq!(format_date(&f, &long), "Monday, January 15, 2024");
        assert_eq!(f.weekday, 1);
    }
}
