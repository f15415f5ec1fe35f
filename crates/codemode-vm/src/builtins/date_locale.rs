//! `toLocaleString`, `toLocaleDateString`, `toLocaleTimeString` and `Intl.DateTimeFormat`'s
//! `format`/`formatToParts`: the options a program gives, read into a [`DateFormat`], and the
//! date written as `en-US` writes it, in pieces typed as `formatToParts` types them. The time
//! zone is UTC or an IANA zone (`time_zone.rs`).

use codemode_bytecode::ErrorKind;

use super::date::this_time;
use super::date_math::*;
use super::time_zone::{Zone, ZoneStyle};
use super::{Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::Value;

/// What `toLocale*String(locale, options)` honours (always `en-US` output): `weekday`, `year`,
/// `month`, `day`, `hour`, `minute`, `second`, `hour12`, `hourCycle`, `dateStyle`, `timeStyle`,
/// `timeZone` (the run's zone by default) and `timeZoneName`.
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
    /// The zone the date is written in.
    pub zone: Zone,
    /// How the zone is named after the time (`timeZoneName`, or `timeStyle` long/full).
    pub zone_name: Option<ZoneStyle>,
}

/// Which components a formatter adds when the options name none.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Defaults {
    Date,
    Time,
    Both,
    /// `Intl.DateTimeFormat` (ToDateTimeOptions "any", "date"): any fields and styles; the date
    /// only when none is given.
    Any,
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
    // The zone is the run's unless the options name one.
    let mut o = DateFormat { hour12: true, zone: vm.config.time_zone.0.clone(), ..DateFormat::default() };
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
        if let Some(zone) = read(vm, "timeZone")? {
            o.zone = Zone::resolve(&zone).map_err(|msg| vm.make_error(ErrorKind::RangeError, &msg))?;
        }
        if let Some(name) = read(vm, "timeZoneName")? {
            let Some(style) = ZoneStyle::parse(&name) else {
                let msg = format!(
                    "Value {} out of range for Intl.DateTimeFormat options property timeZoneName",
                    crate::convert::clip_for_message(&name)
                );
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            };
            o.zone_name = Some(style);
        }
    }
    if o.zone_name.is_some() && (date_style.is_some() || time_style.is_some()) {
        let style = if date_style.is_some() { "dateStyle" } else { "timeStyle" };
        let msg = format!("Can't set option timeZoneName when {style} is used");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
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
            o.zone_name = match style {
                "full" => Some(ZoneStyle::Long),
                "long" => Some(ZoneStyle::Short),
                _ => None,
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
        Defaults::Both | Defaults::Any => !has_date && !has_time,
    };
    let add_time = match defaults {
        Defaults::Time => !has_time,
        Defaults::Date | Defaults::Any => false,
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

/// Formats calendar fields (in the format's zone, which `zone` names when the format asks for
/// its name) as `en-US` does for the given components.
pub(crate) fn format_date(f: &Fields, o: &DateFormat, zone: Option<&str>) -> String {
    let parts = date_parts(f, o, zone).into_iter();
    parts.map(|(_, text)| if text == DAY_PERIOD_SPACE { " ".to_string() } else { text }).collect()
}

/// The literal before `AM`/`PM` in `formatToParts`: a narrow no-break space, where `format`
/// writes a plain space (Node 20 does so: its formatted strings replace the one ICU gives).
const DAY_PERIOD_SPACE: &str = "\u{202f}";

/// A formatted date in pieces, each with its `formatToParts` type (`"month"`, `"literal"`, ...).
pub(crate) type DateParts = Vec<(&'static str, String)>;

/// [`format_date`] as `Intl.DateTimeFormat.prototype.formatToParts` gives it: the texts, in
/// order, concatenate to the formatted string (but for [`DAY_PERIOD_SPACE`]).
pub(crate) fn date_parts(f: &Fields, o: &DateFormat, zone: Option<&str>) -> DateParts {
    let month_idx = f.month as usize;
    let num = |style: &Option<String>, n: i64| match style.as_deref() {
        Some("2-digit") => two(n),
        _ => n.to_string(),
    };
    let lit = |s: &str| ("literal", s.to_string());
    let year = o
        .year
        .as_ref()
        .map(|y| ("year", if y == "2-digit" { two(f.year.rem_euclid(100)) } else { f.year.to_string() }));
    let day = o.day.as_ref().map(|_| ("day", num(&o.day, f.day as i64)));
    let mut date: DateParts = match o.month.as_deref() {
        Some(style @ ("long" | "short" | "narrow")) => {
            let name = match style {
                "long" => MONTHS_LONG.get(month_idx).copied().unwrap_or("").to_string(),
                "short" => MONTHS.get(month_idx).copied().unwrap_or("").to_string(),
                _ => MONTHS_LONG.get(month_idx).map(|m| m[..1].to_string()).unwrap_or_default(),
            };
            let name = ("month", name);
            match (day, year) {
                (Some(d), Some(y)) => vec![name, lit(" "), d, lit(", "), y],
                (Some(d), None) => vec![name, lit(" "), d],
                (None, Some(y)) => vec![name, lit(" "), y],
                (None, None) => vec![name],
            }
        }
        Some(_) => {
            let m = ("month", num(&o.month, f.month as i64 + 1));
            join([Some(m), day, year].into_iter().flatten(), "/")
        }
        None => join([day, year].into_iter().flatten(), " "),
    };
    if let Some(style) = &o.weekday {
        let w = f.weekday as usize;
        let name = match style.as_str() {
            "long" => DAYS_LONG.get(w).copied().unwrap_or("").to_string(),
            "narrow" => DAYS_LONG.get(w).map(|d| d[..1].to_string()).unwrap_or_default(),
            _ => DAYS.get(w).copied().unwrap_or("").to_string(),
        };
        if !date.is_empty() {
            date.insert(0, lit(", "));
        }
        date.insert(0, ("weekday", name));
    }
    let time: DateParts = if let Some(hstyle) = &o.hour {
        let h = if o.hour12 {
            (f.hour + 11) % 12 + 1
        } else if o.h24 && f.hour == 0 {
            24
        } else {
            f.hour
        };
        let hour = if hstyle == "2-digit" || !o.hour12 { two(h) } else { h.to_string() };
        let mut t = vec![("hour", hour)];
        if o.minute.is_some() {
            t.push(lit(":"));
            t.push(("minute", two(f.minute)));
            if o.second.is_some() {
                t.push(lit(":"));
                t.push(("second", two(f.second)));
            }
        }
        if o.hour12 {
            t.push(lit(DAY_PERIOD_SPACE));
            t.push(("dayPeriod", if f.hour < 12 { "AM" } else { "PM" }.to_string()));
        }
        t
    } else {
        match (&o.minute, &o.second) {
            (Some(_), Some(_)) => vec![("minute", two(f.minute)), lit(":"), ("second", two(f.second))],
            (Some(_), None) => vec![("minute", f.minute.to_string())],
            (None, Some(_)) => vec![("second", f.second.to_string())],
            (None, None) => Vec::new(),
        }
    };
    // The zone's name follows the time, or stands in its place after the date.
    let mut time = time;
    if let Some(zone) = zone {
        if !time.is_empty() {
            time.push(lit(" "));
        }
        time.push(("timeZoneName", zone.to_string()));
    }
    match (date.is_empty(), time.is_empty()) {
        (_, true) => date,
        (true, false) => time,
        (false, false) => {
            let joiner = if o.at {
                " at "
            } else if o.month.is_none() && o.day.is_none() && o.year.is_none() && zone.is_none() {
                " "
            } else {
                ", "
            };
            date.push(lit(joiner));
            date.extend(time);
            date
        }
    }
}

/// `parts` with a literal `sep` between each two.
fn join(parts: impl Iterator<Item = (&'static str, String)>, sep: &str) -> DateParts {
    let mut out = Vec::new();
    for part in parts {
        if !out.is_empty() {
            out.push(("literal", sep.to_string()));
        }
        out.push(part);
    }
    out
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
    Ok(match fields_and_zone_name(vm, t, &o)? {
        Some((f, zone)) => format_date(&f, &o, zone.as_deref()),
        None => "Invalid Date".to_string(),
    })
}

/// The calendar fields of `t` in the format's zone, and the zone's name when the format asks for
/// it (`None` for an invalid time); a name this runtime does not have is a `RangeError`.
fn fields_and_zone_name(
    vm: &mut Vm,
    t: f64,
    o: &DateFormat,
) -> Result<Option<(Fields, Option<String>)>, Throw> {
    let Some((f, offset)) = local_fields(t, &o.zone) else { return Ok(None) };
    let name = match o.zone_name {
        Some(style) => {
            Some(o.zone.name(style, offset).map_err(|msg| vm.make_error(ErrorKind::RangeError, &msg))?)
        }
        None => None,
    };
    Ok(Some((f, name)))
}

/// [`locale_format`] in `formatToParts` pieces; an invalid time is a `RangeError`, as in Node.
pub(super) fn locale_parts(
    vm: &mut Vm,
    t: f64,
    options: Value,
    defaults: Defaults,
) -> Result<DateParts, Throw> {
    let o = read_date_format(vm, options, defaults)?;
    match fields_and_zone_name(vm, t, &o)? {
        Some((f, zone)) => Ok(date_parts(&f, &o, zone.as_deref())),
        None => Err(vm.make_error(ErrorKind::RangeError, "Invalid time value")),
    }
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

pub(super) fn to_locale_string(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    to_locale(vm, this, args, Defaults::Both)
}

pub(super) fn to_locale_date_string(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    to_locale(vm, this, args, Defaults::Date)
}

pub(super) fn to_locale_time_string(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    _data: &[Value],
) -> Result<Step, Throw> {
    to_locale(vm, this, args, Defaults::Time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn en_us_formats() {
        let f = fields(1_705_312_800_000.0).unwrap_or_else(|| panic!("valid"));
        let numeric = |v: &str| Some(v.to_string());
        let date = DateFormat {
            year: numeric("numeric"),
            month: numeric("numeric"),
            day: numeric("numeric"),
            hour12: true,
            ..DateFormat::default()
        };
        assert_eq!(format_date(&f, &date, None), "1/15/2024");
        let time = DateFormat {
            hour: numeric("numeric"),
            minute: numeric("2-digit"),
            second: numeric("2-digit"),
            hour12: true,
            ..DateFormat::default()
        };
        assert_eq!(format_date(&f, &time, None), "10:00:00 AM");
        let long = DateFormat {
            weekday: numeric("long"),
            month: numeric("long"),
            day: numeric("numeric"),
            year: numeric("numeric"),
            hour12: true,
            ..DateFormat::default()
        };
        assert_eq!(format_date(&f, &long, None), "Monday, January 15, 2024");
        assert_eq!(f.weekday, 1);
    }
}
