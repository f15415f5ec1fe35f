//! `Date`, on the host-supplied clock.
//!
//! The VM never reads a clock: `Date.now()` and `new Date()` return `VmConfig::now_ms`, which the
//! host supplies (and a snapshot records). Local time is the run's zone (`VmConfig::time_zone`,
//! UTC unless the host names another; a snapshot records it too), so a run never depends on the
//! machine it runs on. A Date is `ObjKind::Date(time value)`, NaN for an invalid date.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::Value;

use super::date_locale::{to_locale_date_string, to_locale_string, to_locale_time_string};
use super::date_math::*;
use super::time_zone::LocalZone;

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("Date", 7, date_call, date_construct),
    NativeDef::new("Date", "now", 0, now),
    NativeDef::new("Date", "parse", 1, parse),
    NativeDef::new("Date", "UTC", 7, utc),
    NativeDef::new("Date.prototype", "getTime", 0, get_time),
    NativeDef::new("Date.prototype", "valueOf", 0, get_time),
    NativeDef::new("Date.prototype", "getFullYear", 0, get_full_year),
    NativeDef::new("Date.prototype", "getUTCFullYear", 0, get_utc_full_year),
    NativeDef::new("Date.prototype", "getMonth", 0, get_month),
    NativeDef::new("Date.prototype", "getUTCMonth", 0, get_utc_month),
    NativeDef::new("Date.prototype", "getDate", 0, get_date),
    NativeDef::new("Date.prototype", "getUTCDate", 0, get_utc_date),
    NativeDef::new("Date.prototype", "getDay", 0, get_day),
    NativeDef::new("Date.prototype", "getUTCDay", 0, get_utc_day),
    NativeDef::new("Date.prototype", "getHours", 0, get_hours),
    NativeDef::new("Date.prototype", "getUTCHours", 0, get_utc_hours),
    NativeDef::new("Date.prototype", "getMinutes", 0, get_minutes),
    NativeDef::new("Date.prototype", "getUTCMinutes", 0, get_utc_minutes),
    NativeDef::new("Date.prototype", "getSeconds", 0, get_seconds),
    NativeDef::new("Date.prototype", "getUTCSeconds", 0, get_utc_seconds),
    NativeDef::new("Date.prototype", "getMilliseconds", 0, get_milliseconds),
    NativeDef::new("Date.prototype", "getUTCMilliseconds", 0, get_utc_milliseconds),
    NativeDef::new("Date.prototype", "getTimezoneOffset", 0, get_timezone_offset),
    NativeDef::new("Date.prototype", "setTime", 1, set_time),
    NativeDef::new("Date.prototype", "setFullYear", 3, set_full_year),
    NativeDef::new("Date.prototype", "setUTCFullYear", 3, set_utc_full_year),
    NativeDef::new("Date.prototype", "setMonth", 2, set_month),
    NativeDef::new("Date.prototype", "setUTCMonth", 2, set_utc_month),
    NativeDef::new("Date.prototype", "setDate", 1, set_date),
    NativeDef::new("Date.prototype", "setUTCDate", 1, set_utc_date),
    NativeDef::new("Date.prototype", "setHours", 4, set_hours),
    NativeDef::new("Date.prototype", "setUTCHours", 4, set_utc_hours),
    NativeDef::new("Date.prototype", "setMinutes", 3, set_minutes),
    NativeDef::new("Date.prototype", "setUTCMinutes", 3, set_utc_minutes),
    NativeDef::new("Date.prototype", "setSeconds", 2, set_seconds),
    NativeDef::new("Date.prototype", "setUTCSeconds", 2, set_utc_seconds),
    NativeDef::new("Date.prototype", "setMilliseconds", 1, set_milliseconds),
    NativeDef::new("Date.prototype", "setUTCMilliseconds", 1, set_utc_milliseconds),
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
    NativeDef::new("Date.prototype", "@@toPrimitive", 1, date_to_primitive),
];

// ---- built-ins ----

pub(super) fn this_time(vm: &mut Vm, this: Value) -> Result<f64, Throw> {
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
    let s = date_to_string(vm.config.now_ms, &vm.config.time_zone);
    Ok(Step::Return(vm.new_string_owned(s)?))
}

/// Date(y, m, d, h, mi, s, ms) fields → the time value they make, read as UTC (`Date.UTC`; the
/// constructor then reads them as local time).
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
                Value::Str(s) => parse_date(vm.heap.str(s), &vm.config.time_zone),
                p => vm.to_number(p)?,
            },
        },
        _ => {
            let local = time_from_fields(vm, args)?;
            vm.config.time_zone.0.utc_of_local(local)
        }
    };
    Ok(Step::Return(new_date(vm, t)?))
}

fn now(vm: &mut Vm, _this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Number(time_clip(vm.config.now_ms))))
}

fn parse(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = vm.to_rust_string(arg(args, 0))?;
    Ok(Step::Return(Value::Number(parse_date(&s, &vm.config.time_zone))))
}

fn utc(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let t = time_from_fields(vm, args)?;
    Ok(Step::Return(Value::Number(time_clip(t))))
}

fn get_time(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    Ok(Step::Return(Value::Number(this_time(vm, this)?)))
}

/// The calendar fields of `t` in the run's zone (`local`) or in UTC.
fn fields_in(vm: &Vm, t: f64, local: bool) -> Option<Fields> {
    if local { local_fields(t, &vm.config.time_zone.0).map(|(f, _)| f) } else { fields(t) }
}

/// A getter: a field of the date's local time (`local`) or of its UTC time.
fn field(vm: &mut Vm, this: Value, local: bool, pick: fn(&Fields) -> f64) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    Ok(Step::Return(Value::Number(fields_in(vm, t, local).map_or(f64::NAN, |f| pick(&f)))))
}

/// The local-time getter and its UTC twin for each field.
macro_rules! getters {
    ($($local:ident, $utc:ident: $pick:expr;)*) => {$(
        fn $local(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
            field(vm, this, true, $pick)
        }
        fn $utc(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
            field(vm, this, false, $pick)
        }
    )*};
}

getters! {
    get_full_year, get_utc_full_year: |f| f.year as f64;
    get_month, get_utc_month: |f| f.month as f64;
    get_date, get_utc_date: |f| f.day as f64;
    get_day, get_utc_day: |f| f.weekday as f64;
    get_hours, get_utc_hours: |f| f.hour as f64;
    get_minutes, get_utc_minutes: |f| f.minute as f64;
    get_seconds, get_utc_seconds: |f| f.second as f64;
    get_milliseconds, get_utc_milliseconds: |f| f.ms as f64;
}

fn get_timezone_offset(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    let offset = if t.is_finite() { -vm.config.time_zone.0.offset_ms(t) / 60_000.0 + 0.0 } else { f64::NAN };
    Ok(Step::Return(Value::Number(offset)))
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

/// A setter: `first` is the index of the first field it sets in
/// `[year, month, day, hour, minute, second, ms]`, `count` how many it may set. As the
/// specification orders it: the date's value is read, every argument given is converted (even
/// when the date is invalid), and only then does an invalid date stay invalid.
fn set_fields(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
    first: usize,
    count: usize,
    local: bool,
) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    let mut given = Vec::with_capacity(count.min(args.len()));
    for v in args.iter().take(count) {
        given.push(vm.to_number(*v)?);
    }
    let f = if t.is_nan() {
        // An invalid date only becomes valid through setFullYear, from +0 taken as local time.
        if first != 0 {
            return store(vm, this, f64::NAN);
        }
        fields(0.0)
    } else {
        fields_in(vm, t, local)
    };
    let Some(f) = f else { return store(vm, this, f64::NAN) };
    if given.is_empty() {
        return store(vm, this, f64::NAN);
    }
    let mut all = [
        f.year as f64,
        f.month as f64,
        f.day as f64,
        f.hour as f64,
        f.minute as f64,
        f.second as f64,
        f.ms as f64,
    ];
    for (i, v) in given.into_iter().enumerate() {
        if let Some(slot) = all.get_mut(first + i) {
            *slot = v;
        }
    }
    let t = make_date(make_day(all[0], all[1], all[2]), make_time(all[3], all[4], all[5], all[6]));
    let t = if local { vm.config.time_zone.0.utc_of_local(t) } else { t };
    store(vm, this, t)
}

/// The local-time setter and its UTC twin for each run of fields: the index of the first field
/// it sets in `[year, month, day, hour, minute, second, ms]`, and how many it may set.
macro_rules! setters {
    ($($local:ident, $utc:ident: $first:expr, $count:expr;)*) => {$(
        fn $local(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
            set_fields(vm, this, args, $first, $count, true)
        }
        fn $utc(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
            set_fields(vm, this, args, $first, $count, false)
        }
    )*};
}

setters! {
    set_full_year, set_utc_full_year: 0, 3;
    set_month, set_utc_month: 1, 2;
    set_date, set_utc_date: 2, 1;
    set_hours, set_utc_hours: 3, 4;
    set_minutes, set_utc_minutes: 4, 3;
    set_seconds, set_utc_seconds: 5, 2;
    set_milliseconds, set_utc_milliseconds: 6, 1;
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

/// `toString`, `toDateString`, `toTimeString`: the date's local time written by `write`.
fn format_local(
    vm: &mut Vm,
    this: Value,
    write: fn(&Fields, f64, &LocalZone) -> String,
) -> Result<Step, Throw> {
    let t = this_time(vm, this)?;
    let s = match local_fields(t, &vm.config.time_zone.0) {
        Some((f, offset)) => write(&f, offset, &vm.config.time_zone),
        None => "Invalid Date".to_string(),
    };
    Ok(Step::Return(vm.new_string_owned(s)?))
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
    format_local(vm, this, |f, offset, zone| format!("{} {}", date_part(f), time_part(f, offset, zone)))
}

/// `Date.prototype[Symbol.toPrimitive](hint)`: OrdinaryToPrimitive of any object, `toString`
/// first for `"string"` and `"default"` (a Date's default is its text), `valueOf` first for
/// `"number"`. The methods run by replay (`replay.rs`).
fn date_to_primitive(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !matches!(this, Value::Obj(_)) {
        let msg = "Date.prototype [ @@toPrimitive ] called on a value that is not an object";
        return Err(vm.make_error(ErrorKind::TypeError, msg));
    }
    let hint = match arg(args, 0) {
        Value::Str(s) => vm.heap.str(s).to_string(),
        _ => String::new(),
    };
    let names = match hint.as_str() {
        "string" | "default" => ["toString", "valueOf"],
        "number" => ["valueOf", "toString"],
        _ => return Err(vm.make_error(ErrorKind::TypeError, "Invalid hint")),
    };
    for name in names {
        let method = vm.get_named(this, name)?;
        if vm.is_callable(method) {
            let call = crate::replay::ReplayedOp::Call { callee: method, this, args: Vec::new() };
            let result = vm.replayed(call)?;
            if !matches!(result, Value::Obj(_)) {
                return Ok(Step::Return(result));
            }
        }
    }
    Err(vm.make_error(ErrorKind::TypeError, "Cannot convert object to primitive value"))
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
    format_local(vm, this, |f, _, _| date_part(f))
}

fn to_time_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    format_local(vm, this, time_part)
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
        let utc = LocalZone::default();
        assert_eq!(parse_date("2024-01-15T10:00", &utc), 1_705_312_800_000.0);
        assert_eq!(parse_date("2024-01-15", &utc), 1_705_276_800_000.0);
        assert_eq!(parse_date("2024-01-15T10:00:00.5+01:00", &utc), 1_705_309_200_500.0);
        assert_eq!(parse_date("2024", &utc), 1_704_067_200_000.0);
        assert_eq!(parse_date("Jan 15, 2024", &utc), 1_705_276_800_000.0);
        assert_eq!(parse_date("2024/01/15", &utc), 1_705_276_800_000.0);
        assert_eq!(parse_date("Tue, 15 Jan 2024 10:00:00 GMT", &utc), 1_705_312_800_000.0);
        assert_eq!(parse_date("Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)", &utc), 0.0);
        assert!(parse_date("2024-13-01", &utc).is_nan());
        assert!(parse_date("nope", &utc).is_nan());
        assert!(parse_date("", &utc).is_nan());
    }

    #[test]
    fn strings() {
        let utc = LocalZone::default();
        assert_eq!(
            date_to_string(0.0, &utc),
            "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"
        );
        assert_eq!(date_to_string(f64::NAN, &utc), "Invalid Date");
        let ny = LocalZone::named("America/New_York").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(date_to_string(0.0, &ny), "Wed Dec 31 1969 19:00:00 GMT-0500 (America/New_York)");
        let kolkata = LocalZone::named("Asia/Kolkata").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(date_to_string(0.0, &kolkata), "Thu Jan 01 1970 05:30:00 GMT+0530 (Asia/Kolkata)");
    }

    #[test]
    fn local_forms_parse_in_the_run_zone_and_explicit_ones_do_not() {
        let ny = LocalZone::named("America/New_York").unwrap_or_else(|e| panic!("{e}"));
        // Local: a date-time without an offset, and the loose forms without GMT.
        assert_eq!(parse_date("2024-01-15T10:00", &ny), 1_705_330_800_000.0);
        assert_eq!(parse_date("Jan 15, 2024 10:00", &ny), 1_705_330_800_000.0);
        // UTC or explicit: a date-only ISO form, Z, an offset, GMT.
        assert_eq!(parse_date("2024-01-15", &ny), 1_705_276_800_000.0);
        assert_eq!(parse_date("2024-01-15T10:00Z", &ny), 1_705_312_800_000.0);
        assert_eq!(parse_date("Tue, 15 Jan 2024 10:00:00 GMT", &ny), 1_705_312_800_000.0);
        // What toString writes reads back.
        assert_eq!(parse_date(&date_to_string(1_705_312_800_000.0, &ny), &ny), 1_705_312_800_000.0);
    }
}
