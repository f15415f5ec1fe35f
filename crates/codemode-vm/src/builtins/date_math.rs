//! Date math with ECMA-262's exact rules (21.4.1): days, years, months, time of day, `MakeDay`,
//! `MakeTime`, `TimeClip`, and parsing of the date-time string format. Pure functions on
//! milliseconds since the epoch; local time is a [`LocalZone`]'s (`time_zone.rs`).

use super::time_zone::{LocalZone, Zone};

pub(crate) const MS_PER_DAY: f64 = 86_400_000.0;
pub(crate) const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
pub(crate) const MONTHS: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

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

pub(crate) fn year_string(y: i64) -> String {
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

pub(crate) fn display_year(y: i64) -> String {
    if y < 0 { format!("-{:04}", -y) } else { format!("{y:04}") }
}

pub(crate) fn date_part(f: &Fields) -> String {
    let day = DAYS.get(f.weekday as usize).unwrap_or(&"Sun");
    let month = MONTHS.get(f.month as usize).unwrap_or(&"Jan");
    format!("{day} {month} {:02} {}", f.day, display_year(f.year))
}

/// `10:00:00 GMT-0500 (America/New_York)`: local time fields, the offset (`offset_ms`) and the
/// zone. The name in parentheses is implementation-defined; without CLDR's names it is the IANA
/// name (Node writes "Eastern Standard Time"), and UTC's is Node's.
pub(crate) fn time_part(f: &Fields, offset_ms: f64, zone: &LocalZone) -> String {
    let minutes = (offset_ms / 60_000.0).trunc() as i64;
    let sign = if minutes < 0 { '-' } else { '+' };
    let (h, m) = (minutes.abs() / 60, minutes.abs() % 60);
    let name = if zone.is_utc() { "Coordinated Universal Time" } else { zone.name() };
    format!("{:02}:{:02}:{:02} GMT{sign}{h:02}{m:02} ({name})", f.hour, f.minute, f.second)
}

/// The calendar fields of time value `t` in `zone`, and the zone's offset then.
pub(crate) fn local_fields(t: f64, zone: &Zone) -> Option<(Fields, f64)> {
    if !t.is_finite() {
        return None;
    }
    let offset = zone.offset_ms(t);
    fields(t + offset).map(|f| (f, offset))
}

/// `Date.prototype.toString` in the run's zone.
pub(crate) fn date_to_string(t: f64, zone: &LocalZone) -> String {
    match local_fields(t, &zone.0) {
        Some((f, offset)) if t.abs() <= 8.64e15 => {
            format!("{} {}", date_part(&f), time_part(&f, offset, zone))
        }
        _ => "Invalid Date".into(),
    }
}

/// `Date.parse`: ISO 8601 (the ECMAScript date-time string format) first, then the common
/// `toString`/`toUTCString`/`"Jan 15, 2024"`/`"2024/01/15 10:00"` shapes. NaN otherwise.
/// A date-time without an offset (`"2024-01-15T10:00"`, `"Jan 15, 2024 10:00"`) is local time in
/// `zone`; a date-only ISO form is UTC, as the specification says.
pub(crate) fn parse_date(s: &str, zone: &LocalZone) -> f64 {
    let s = s.trim();
    match parse_iso(s).or_else(|| parse_loose(s)) {
        Some((t, true)) => time_clip(zone.0.utc_of_local(t)),
        Some((t, false)) => time_clip(t),
        None => f64::NAN,
    }
}

pub(crate) fn digits(b: &[u8], at: usize, n: usize) -> Option<i64> {
    let part = b.get(at..at + n)?;
    if !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(part).ok()?.parse().ok()
}

/// The time value, and whether it was written as local time (no offset, no `Z`).
pub(crate) fn parse_iso(s: &str) -> Option<(f64, bool)> {
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
    let mut local = false;
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
            None => local = true,
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
    Some((make_date(day_num, time) - offset_min as f64 * 60_000.0, local))
}

/// Lenient formats: tokens of month names, numbers, `hh:mm[:ss]`, `AM`/`PM`, `GMT`/`UTC`/`Z`,
/// and `±hhmm` offsets, in the orders `toString`, `toUTCString` and US dates use.
pub(crate) fn parse_loose(s: &str) -> Option<(f64, bool)> {
    let mut month: Option<i64> = None;
    let mut nums: Vec<i64> = Vec::new();
    let mut time: Option<(i64, i64, i64)> = None;
    let mut offset_min = 0i64;
    let mut local = true;
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
            local = false;
        } else if let Some(rest) = lower.strip_prefix("gmt").or_else(|| lower.strip_prefix("utc")) {
            offset_min = parse_offset(rest)?;
            local = false;
        } else if (tok.starts_with('+') || tok.starts_with('-')) && tok.len() == 5 && time.is_some() {
            offset_min = parse_offset(tok)?;
            local = false;
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
    Some((make_date(d, t) - offset_min as f64 * 60_000.0, local))
}

pub(crate) fn parse_offset(s: &str) -> Option<i64> {
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
