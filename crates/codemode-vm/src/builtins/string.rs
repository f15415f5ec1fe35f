//! `String` statics and `String.prototype`.
//!
//! **UTF-16 semantics over UTF-8 storage.** Strings are stored as UTF-8 ([`crate::heap::JsString`])
//! but every index, length and `charCodeAt` counts UTF-16 code units, as JavaScript does. ASCII
//! strings (the common case) take a fast path where byte and code-unit indices agree; other
//! strings are converted to code units for slicing and index arithmetic. A lone surrogate (half
//! of a pair cut by `slice`, or `String.fromCharCode(0xD800)`) cannot be stored in UTF-8 and
//! becomes U+FFFD (documented limitation).
//!
//! Methods taking a pattern (`split`, `replace`, `replaceAll`, `match`, `matchAll`, `search`)
//! accept a string or a RegExp; the regex side lives in [`super::regexp`]. A replacement
//! *function* is resumable ([`ReplaceState`]): every match is found first, then the callback is
//! called once per match through [`Step::Call`].

use crate::meter::Work;
use codemode_bytecode::ErrorKind;
use serde::{Deserialize, Serialize};

use super::collation::collate_options;
use super::regexp::{self, RegexMatch};
use super::regexp_protocol::{Matcher, delegate, require_global};
use super::utf16::*;
use super::{Cont, NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::heap::MAX_STRING_BYTES;
use crate::numconv::is_js_whitespace;
use crate::object::{IterState, ObjKind};
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("String", "fromCharCode", 1, from_char_code),
    NativeDef::new("String", "fromCodePoint", 1, from_code_point),
    NativeDef::new("String", "raw", 1, raw),
    NativeDef::new("String.prototype", "charAt", 1, char_at),
    NativeDef::new("String.prototype", "charCodeAt", 1, char_code_at),
    NativeDef::new("String.prototype", "codePointAt", 1, code_point_at),
    NativeDef::new("String.prototype", "at", 1, at),
    NativeDef::new("String.prototype", "indexOf", 1, index_of),
    NativeDef::new("String.prototype", "lastIndexOf", 1, last_index_of),
    NativeDef::new("String.prototype", "includes", 1, includes),
    NativeDef::new("String.prototype", "startsWith", 1, starts_with),
    NativeDef::new("String.prototype", "endsWith", 1, ends_with),
    NativeDef::new("String.prototype", "slice", 2, slice),
    NativeDef::new("String.prototype", "substring", 2, substring),
    NativeDef::new("String.prototype", "substr", 2, substr),
    NativeDef::new("String.prototype", "toUpperCase", 0, to_upper_case),
    NativeDef::new("String.prototype", "toLowerCase", 0, to_lower_case),
    NativeDef::new("String.prototype", "toLocaleUpperCase", 0, to_upper_case),
    NativeDef::new("String.prototype", "toLocaleLowerCase", 0, to_lower_case),
    NativeDef::new("String.prototype", "trim", 0, trim),
    NativeDef::new("String.prototype", "trimStart", 0, trim_start),
    NativeDef::new("String.prototype", "trimEnd", 0, trim_end),
    NativeDef::new("String.prototype", "padStart", 2, pad_start),
    NativeDef::new("String.prototype", "padEnd", 2, pad_end),
    NativeDef::new("String.prototype", "repeat", 1, repeat),
    NativeDef::new("String.prototype", "split", 2, super::string_split::split),
    NativeDef::new("String.prototype", "concat", 1, concat),
    NativeDef::new("String.prototype", "replace", 2, replace),
    NativeDef::new("String.prototype", "replaceAll", 2, replace_all),
    NativeDef::new("String.prototype", "match", 1, match_),
    NativeDef::new("String.prototype", "matchAll", 1, match_all),
    NativeDef::new("String.prototype", "search", 1, search),
    NativeDef::new("String.prototype", "localeCompare", 1, locale_compare),
    NativeDef::new("String.prototype", "normalize", 0, normalize),
    NativeDef::new("String.prototype", "isWellFormed", 0, is_well_formed),
    NativeDef::new("String.prototype", "toWellFormed", 0, to_well_formed),
    NativeDef::new("String.prototype", "toString", 0, to_string),
    NativeDef::new("String.prototype", "valueOf", 0, to_string),
];

// ---- receiver and argument helpers ----

/// `this` coerced to a Rust string (TypeError on `null`/`undefined`).
pub(super) fn this_string(vm: &mut Vm, this: Value, method: &str) -> Result<String, Throw> {
    if this.is_nullish() {
        let msg = format!("String.prototype.{method} called on null or undefined");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    let s = match this {
        Value::Obj(id) => match vm.heap.obj(id).kind {
            ObjKind::Boxed(inner @ Value::Str(_)) => vm.to_rust_string(inner)?,
            _ => vm.to_rust_string(this)?,
        },
        _ => vm.to_rust_string(this)?,
    };
    vm.charge(Work::Bytes(s.len()));
    Ok(s)
}

/// The receiver of a method that reads it before making anything (`charAt`, `slice`,
/// `indexOf`, `split`, `toUpperCase`, ...): a string `this` is read in place, without copying it.
/// (`split` reads its separator this way too.)
pub(super) enum Recv {
    Heap(crate::value::StrId),
    Owned(String),
}

impl Recv {
    fn text<'a>(&'a self, vm: &'a Vm) -> Text<'a> {
        match self {
            Recv::Heap(id) => Text::of(vm.heap.string(*id)),
            Recv::Owned(s) => Text::new(s),
        }
    }

    pub(super) fn as_str<'a>(&'a self, vm: &'a Vm) -> &'a str {
        match self {
            Recv::Heap(id) => vm.heap.str(*id),
            Recv::Owned(s) => s,
        }
    }
}

pub(super) fn recv(vm: &mut Vm, this: Value, method: &str) -> Result<Recv, Throw> {
    match this {
        Value::Str(id) => Ok(Recv::Heap(id)),
        _ => Ok(Recv::Owned(this_string(vm, this, method)?)),
    }
}

fn arg_string(vm: &mut Vm, args: &[Value], i: usize) -> Result<String, Throw> {
    vm.to_rust_string(arg(args, i))
}

fn ret_str(vm: &mut Vm, s: String) -> Result<Step, Throw> {
    if s.len() > MAX_STRING_BYTES {
        return Err(invalid_length(vm));
    }
    Ok(Step::Return(vm.new_string_owned(s)?))
}

fn invalid_length(vm: &mut Vm) -> Throw {
    vm.make_error(ErrorKind::RangeError, "Invalid string length")
}

// ---- statics ----

fn from_char_code(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mut units = Vec::with_capacity(args.len());
    for v in args {
        units.push(crate::numconv::to_uint32(vm.to_number(*v)?) as u16);
    }
    vm.charge(Work::Elements(units.len()));
    ret_str(vm, String::from_utf16_lossy(&units))
}

fn from_code_point(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mut out = String::with_capacity(args.len());
    for v in args {
        let n = vm.to_number(*v)?;
        let c = if n.fract() == 0.0 && (0.0..=1_114_111.0).contains(&n) { Some(n as u32) } else { None };
        match c {
            Some(c) => out.push(char::from_u32(c).unwrap_or('\u{FFFD}')),
            None => {
                let s = crate::numconv::number_to_string(n);
                return Err(vm.make_error(ErrorKind::RangeError, &format!("Invalid code point {s}")));
            }
        }
    }
    vm.charge(Work::Elements(args.len()));
    ret_str(vm, out)
}

/// `String.raw` as a function: `String.raw({ raw: ["a", "b"] }, 1)` → `"a1b"`.
fn raw(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let strings = arg(args, 0);
    if strings.is_nullish() {
        return Err(vm.make_error(ErrorKind::TypeError, "Cannot convert undefined or null to object"));
    }
    let raw = vm.get_named(strings, "raw")?;
    let parts = vm.array_items(raw);
    let mut out = String::new();
    for (i, p) in parts.iter().enumerate() {
        out.push_str(&vm.to_rust_string(*p)?);
        if i + 1 < parts.len()
            && let Some(v) = args.get(i + 1)
        {
            out.push_str(&vm.to_rust_string(*v)?);
        }
        if out.len() > MAX_STRING_BYTES {
            return Err(invalid_length(vm));
        }
    }
    ret_str(vm, out)
}

// ---- character access ----

fn char_at(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "charAt")?;
    let i = to_integer(vm.to_number(arg(args, 0))?);
    let t = r.text(vm);
    let piece =
        if i < 0.0 || i >= t.len() as f64 { String::new() } else { t.slice(i as usize, i as usize + 1) };
    ret_str(vm, piece)
}

fn char_code_at(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "charCodeAt")?;
    let i = to_integer(vm.to_number(arg(args, 0))?);
    if i < 0.0 {
        return Ok(Step::Return(Value::Number(f64::NAN)));
    }
    let v = r.text(vm).at(i as usize).map_or(f64::NAN, |u| u as f64);
    Ok(Step::Return(Value::Number(v)))
}

fn code_point_at(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "codePointAt")?;
    let i = to_integer(vm.to_number(arg(args, 0))?);
    let t = r.text(vm);
    if i < 0.0 || i >= t.len() as f64 {
        return Ok(Step::Return(Value::Undefined));
    }
    let i = i as usize;
    let Some(first) = t.at(i) else { return Ok(Step::Return(Value::Undefined)) };
    let cp = if (0xD800..0xDC00).contains(&first) {
        match t.at(i + 1) {
            Some(second) if (0xDC00..0xE000).contains(&second) => {
                0x10000 + ((first as u32 - 0xD800) << 10) + (second as u32 - 0xDC00)
            }
            _ => first as u32,
        }
    } else {
        first as u32
    };
    Ok(Step::Return(Value::Number(cp as f64)))
}

fn at(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "at")?;
    let n = to_integer(vm.to_number(arg(args, 0))?);
    let t = r.text(vm);
    let len = t.len() as f64;
    let i = if n < 0.0 { len + n } else { n };
    if i < 0.0 || i >= len {
        return Ok(Step::Return(Value::Undefined));
    }
    let piece = t.slice(i as usize, i as usize + 1);
    ret_str(vm, piece)
}

// ---- searching ----

fn index_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "indexOf")?;
    let needle = arg_string(vm, args, 0)?;
    let from = to_integer(vm.to_number(arg(args, 1))?);
    let t = r.text(vm);
    let from = clamp_index(from, t.len());
    let found = t.find_from(&needle, from);
    vm.charge(Work::Scan(found.unwrap_or(t.len()).saturating_sub(from)));
    Ok(Step::Return(Value::Number(found.map_or(-1.0, |i| i as f64))))
}

fn last_index_of(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "lastIndexOf")?;
    let needle = arg_string(vm, args, 0)?;
    let len = unit_len(&s);
    let n = vm.to_number(arg(args, 1))?;
    let from = if n.is_nan() { len } else { clamp_index(n.trunc(), len) };
    vm.charge(Work::Scan(s.len()));
    // The last start position <= from.
    let limit_byte = byte_of_unit(&s, from);
    let end = (limit_byte + needle.len()).min(s.len());
    let hay = s.get(..end).unwrap_or("");
    let mut cut = end;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    let hay = hay.get(..cut).unwrap_or(hay);
    let found = hay.rfind(&needle).map(|b| unit_of_byte(&s, b));
    Ok(Step::Return(Value::Number(found.map_or(-1.0, |i| i as f64))))
}

fn reject_regexp(vm: &mut Vm, v: Value, method: &str) -> Result<(), Throw> {
    if regexp::as_regexp(vm, v).is_some() {
        let msg = format!("First argument to String.prototype.{method} must not be a regular expression");
        return Err(vm.make_error(ErrorKind::TypeError, &msg));
    }
    Ok(())
}

fn includes(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "includes")?;
    reject_regexp(vm, arg(args, 0), "includes")?;
    let needle = arg_string(vm, args, 0)?;
    let from = to_integer(vm.to_number(arg(args, 1))?);
    let t = r.text(vm);
    let from = clamp_index(from, t.len());
    let found = t.find_from(&needle, from);
    vm.charge(Work::Scan(found.unwrap_or(t.len()).saturating_sub(from)));
    Ok(Step::Return(Value::Bool(found.is_some())))
}

fn starts_with(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "startsWith")?;
    reject_regexp(vm, arg(args, 0), "startsWith")?;
    let needle = arg_string(vm, args, 0)?;
    let from = to_integer(vm.to_number(arg(args, 1))?);
    let t = r.text(vm);
    let b = t.byte_of_unit(clamp_index(from, t.len()));
    Ok(Step::Return(Value::Bool(t.s.get(b..).is_some_and(|rest| rest.starts_with(&needle)))))
}

fn ends_with(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "endsWith")?;
    reject_regexp(vm, arg(args, 0), "endsWith")?;
    let needle = arg_string(vm, args, 0)?;
    let end = match arg(args, 1) {
        Value::Undefined => None,
        v => Some(to_integer(vm.to_number(v)?)),
    };
    let t = r.text(vm);
    let end = end.map_or(t.len(), |e| clamp_index(e, t.len()));
    let b = t.byte_of_unit(end);
    Ok(Step::Return(Value::Bool(t.s.get(..b).is_some_and(|head| head.ends_with(&needle)))))
}

// ---- substrings ----

fn slice(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "slice")?;
    let len = r.text(vm).len();
    let start = super::relative_index(vm, arg(args, 0), len, 0)?;
    let end = super::relative_index(vm, arg(args, 1), len, len)?;
    let piece = r.text(vm).slice(start, end);
    ret_str(vm, piece)
}

fn substring(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "substring")?;
    let len = r.text(vm).len();
    let a = clamp_index(to_integer(vm.to_number(arg(args, 0))?), len);
    let b = match arg(args, 1) {
        Value::Undefined => len,
        v => clamp_index(to_integer(vm.to_number(v)?), len),
    };
    let piece = r.text(vm).slice(a.min(b), a.max(b));
    ret_str(vm, piece)
}

fn substr(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let r = recv(vm, this, "substr")?;
    let len = r.text(vm).len();
    let start = super::relative_index(vm, arg(args, 0), len, 0)?;
    let count = match arg(args, 1) {
        Value::Undefined => len as f64,
        v => to_integer(vm.to_number(v)?),
    };
    let end = (start as f64 + count.max(0.0)).min(len as f64) as usize;
    let piece = r.text(vm).slice(start, end);
    ret_str(vm, piece)
}

// ---- case and whitespace ----

fn to_upper_case(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mapped_len = |c: char| c.to_uppercase().map(char::len_utf8).sum();
    change_case(vm, this, "toUpperCase", str::make_ascii_uppercase, str::to_uppercase, mapped_len)
}

fn to_lower_case(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mapped_len = |c: char| c.to_lowercase().map(char::len_utf8).sum();
    change_case(vm, this, "toLowerCase", str::make_ascii_lowercase, str::to_lowercase, mapped_len)
}

/// Refuses, before it is built, text of `len` bytes that is too long for a string or does not fit
/// the memory left (output that expands, such as case mapping or normalization, is measured
/// first: the process never holds more than the limit allows).
fn ensure_output_fits(vm: &mut Vm, len: usize) -> Result<(), Throw> {
    if len > MAX_STRING_BYTES {
        return Err(invalid_length(vm));
    }
    vm.ensure_fits(len)
}

/// `toUpperCase`/`toLowerCase`: read in place, the result built where it stays (a short one
/// inline in its heap string, no allocation).
fn change_case(
    vm: &mut Vm,
    this: Value,
    method: &str,
    ascii: fn(&mut str),
    unicode: fn(&str) -> String,
    mapped_len: fn(char) -> usize,
) -> Result<Step, Throw> {
    let s = recv(vm, this, method)?;
    let len = s.as_str(vm).len();
    vm.charge(Work::Scan(len));
    let out = if s.as_str(vm).is_ascii() {
        ensure_output_fits(vm, len)?;
        let mut out = compact_str::CompactString::from(s.as_str(vm));
        ascii(&mut out);
        out
    } else {
        // Case mapping can triple the text (`ΐ` uppercases to three characters).
        vm.charge(Work::Scan(len));
        let out_len = s.as_str(vm).chars().map(mapped_len).sum();
        ensure_output_fits(vm, out_len)?;
        compact_str::CompactString::from(unicode(s.as_str(vm)))
    };
    Ok(Step::Return(vm.new_string_owned(out)?))
}

fn trim(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "trim")?;
    ret_str(vm, s.trim_matches(is_js_whitespace).to_string())
}

fn trim_start(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "trimStart")?;
    ret_str(vm, s.trim_start_matches(is_js_whitespace).to_string())
}

fn trim_end(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "trimEnd")?;
    ret_str(vm, s.trim_end_matches(is_js_whitespace).to_string())
}

// ---- padding and repetition ----

fn pad(vm: &mut Vm, this: Value, args: &[Value], at_start: bool) -> Result<Step, Throw> {
    let s = this_string(vm, this, if at_start { "padStart" } else { "padEnd" })?;
    let target = to_integer(vm.to_number(arg(args, 0))?);
    let len = unit_len(&s);
    if target <= len as f64 {
        return ret_str(vm, s);
    }
    let filler = match arg(args, 1) {
        Value::Undefined => " ".to_string(),
        v => vm.to_rust_string(v)?,
    };
    if filler.is_empty() {
        return ret_str(vm, s);
    }
    let fill_units = target - len as f64;
    if fill_units * 4.0 > MAX_STRING_BYTES as f64 {
        return Err(invalid_length(vm));
    }
    let fill_units = fill_units as usize;
    let filler_len = unit_len(&filler);
    let whole = fill_units / filler_len;
    let mut fill = filler.repeat(whole);
    fill.push_str(&unit_slice(&filler, 0, fill_units - whole * filler_len));
    vm.charge(Work::Elements(fill.len()));
    if fill.len() + s.len() > MAX_STRING_BYTES {
        return Err(invalid_length(vm));
    }
    let out = if at_start { fill + &s } else { s + &fill };
    ret_str(vm, out)
}

fn pad_start(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    pad(vm, this, args, true)
}

fn pad_end(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    pad(vm, this, args, false)
}

fn repeat(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "repeat")?;
    let n = to_integer(vm.to_number(arg(args, 0))?);
    if n < 0.0 || n.is_infinite() {
        let shown = crate::numconv::number_to_string(n);
        return Err(vm.make_error(ErrorKind::RangeError, &format!("Invalid count value: {shown}")));
    }
    if s.is_empty() || n == 0.0 {
        return ret_str(vm, String::new());
    }
    if s.len() as f64 * n > MAX_STRING_BYTES as f64 {
        return Err(invalid_length(vm));
    }
    let total = s.len() * n as usize;
    // Refuse before building a string the budget cannot hold (allocating it charges it).
    if vm.heap.bytes_used.saturating_add(total) > vm.heap.memory_limit {
        return Err(vm.out_of_memory());
    }
    vm.charge(Work::Elements(total));
    ret_str(vm, s.repeat(n as usize))
}

fn concat(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let mut s = this_string(vm, this, "concat")?;
    for v in args {
        let t = vm.to_rust_string(*v)?;
        if s.len() + t.len() > MAX_STRING_BYTES {
            return Err(invalid_length(vm));
        }
        s.push_str(&t);
    }
    ret_str(vm, s)
}

// ---- replace ----

/// A match to replace: byte ranges into the subject.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Found {
    start: usize,
    end: usize,
    /// Capture groups 1..n.
    groups: Vec<Option<(usize, usize)>>,
    /// Named groups, in order.
    names: Vec<(String, Option<(usize, usize)>)>,
}

impl From<RegexMatch> for Found {
    fn from(m: RegexMatch) -> Found {
        Found { start: m.start, end: m.end, groups: m.groups, names: m.names }
    }
}

/// `replace`/`replaceAll` with a callback, between calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplaceState {
    subject: String,
    /// Whether `subject` is ASCII (UTF-16 offsets are byte offsets).
    ascii: bool,
    /// Byte → UTF-16 offsets of the matches, in order.
    cursor: UnitCursor,
    subject_value: Value,
    callback: Value,
    found: Vec<Found>,
    /// The match whose callback is running.
    next: usize,
    out: String,
}

impl ReplaceState {
    pub fn trace(&self, out: &mut Vec<Value>) {
        out.push(self.subject_value);
        out.push(self.callback);
    }
}

fn replace(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(step) = delegate(vm, this, args, Matcher::Replace)? {
        return Ok(step);
    }
    replace_impl(vm, this, args, false)
}

fn replace_all(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    // The flags are checked before the matcher is looked up and `this` converted (the spec's
    // order, observable when the conversion runs a program's toString).
    require_global(vm, this, arg(args, 0), "replaceAll")?;
    if let Some(step) = delegate(vm, this, args, Matcher::Replace)? {
        return Ok(step);
    }
    replace_impl(vm, this, args, true)
}

/// `replace` / `replaceAll` once no matcher of the argument's own was found: a RegExp's
/// matches, or a string's occurrences.
pub(super) fn replace_impl(vm: &mut Vm, this: Value, args: &[Value], all: bool) -> Result<Step, Throw> {
    let method = if all { "replaceAll" } else { "replace" };
    let pattern = arg(args, 0);
    let s = this_string(vm, this, method)?;
    let found: Vec<Found> = if let Some(re) = regexp::as_regexp(vm, pattern) {
        regexp::matches_for_replace(vm, re, &s)?.into_iter().map(Found::from).collect()
    } else {
        let needle = vm.to_rust_string(pattern)?;
        let mut found = Vec::new();
        let mut from = 0;
        vm.charge(Work::Scan(s.len()));
        while from <= s.len() {
            let Some(pos) = s.get(from..).and_then(|rest| rest.find(&needle)) else { break };
            let start = from + pos;
            found.push(Found { start, end: start + needle.len(), groups: Vec::new(), names: Vec::new() });
            if !all {
                break;
            }
            from = start + needle.len().max(1);
            // Stay on a char boundary after an empty match.
            while from < s.len() && !s.is_char_boundary(from) {
                from += 1;
            }
        }
        found
    };
    let replacement = arg(args, 1);
    let is_fn = matches!(replacement, Value::Obj(id) if vm.heap.obj(id).is_callable());
    if is_fn {
        let subject_value = vm.new_string(&s)?;
        let ascii = s.is_ascii();
        let state = ReplaceState {
            subject: s,
            ascii,
            cursor: UnitCursor::default(),
            subject_value,
            callback: replacement,
            found,
            next: 0,
            out: String::new(),
        };
        return replace_next_call(vm, state);
    }
    let template = vm.to_rust_string(replacement)?;
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for f in &found {
        out.push_str(s.get(last..f.start).unwrap_or(""));
        expand_template(&template, &s, f, &mut out);
        last = f.end;
        if out.len() > MAX_STRING_BYTES {
            return Err(invalid_length(vm));
        }
    }
    out.push_str(s.get(last..).unwrap_or(""));
    vm.charge(Work::Scan(out.len()));
    ret_str(vm, out)
}

fn replace_next_call(vm: &mut Vm, mut st: ReplaceState) -> Result<Step, Throw> {
    let Some(f) = st.found.get(st.next).cloned() else {
        let last = st.found.last().map_or(0, |f| f.end);
        let mut out = std::mem::take(&mut st.out);
        out.push_str(st.subject.get(last..).unwrap_or(""));
        return ret_str(vm, out);
    };
    let prev_end = if st.next == 0 { 0 } else { st.found.get(st.next - 1).map_or(0, |p| p.end) };
    st.out.push_str(st.subject.get(prev_end..f.start).unwrap_or(""));
    let mut call_args = Vec::with_capacity(f.groups.len() + 4);
    call_args.push(vm.new_string(st.subject.get(f.start..f.end).unwrap_or(""))?);
    for g in &f.groups {
        call_args.push(match g {
            Some((a, b)) => vm.new_string(st.subject.get(*a..*b).unwrap_or(""))?,
            None => Value::Undefined,
        });
    }
    let offset = st.cursor.unit_of_byte(Text { s: &st.subject, ascii: st.ascii, index: None }, f.start);
    call_args.push(Value::Number(offset as f64));
    call_args.push(st.subject_value);
    if !f.names.is_empty() {
        call_args.push(regexp::groups_object(vm, &st.subject, &f.names)?);
    }
    let callee = st.callback;
    Ok(Step::Call { callee, this: Value::Undefined, args: call_args, cont: Cont::Replace(Box::new(st)) })
}

pub(super) fn resume_replace(vm: &mut Vm, mut st: ReplaceState, result: Value) -> Result<Step, Throw> {
    let piece = vm.to_rust_string(result)?;
    st.out.push_str(&piece);
    if st.out.len() > MAX_STRING_BYTES {
        return Err(invalid_length(vm));
    }
    st.next += 1;
    replace_next_call(vm, st)
}

/// Expands `$&`, `$1`..`$99`, `$<name>`, `` $` ``, `$'` and `$$` (GetSubstitution).
fn expand_template(template: &str, s: &str, f: &Found, out: &mut String) {
    let bytes = template.as_bytes();
    let mut i = 0;
    let mut lit_start = 0;
    while i < bytes.len() {
        if bytes[i] != b'$' || i + 1 >= bytes.len() {
            i += 1;
            continue;
        }
        let next = bytes[i + 1];
        let mut consumed = 0;
        let mut piece: Option<&str> = None;
        match next {
            b'$' => {
                piece = Some("$");
                consumed = 2;
            }
            b'&' => {
                piece = Some(s.get(f.start..f.end).unwrap_or(""));
                consumed = 2;
            }
            b'`' => {
                piece = Some(s.get(..f.start).unwrap_or(""));
                consumed = 2;
            }
            b'\'' => {
                piece = Some(s.get(f.end..).unwrap_or(""));
                consumed = 2;
            }
            b'0'..=b'9' => {
                let m = f.groups.len();
                let d1 = (next - b'0') as usize;
                let two =
                    bytes.get(i + 2).filter(|b| b.is_ascii_digit()).map(|b| d1 * 10 + (b - b'0') as usize);
                let (n, len) = match two {
                    Some(nn) if nn >= 1 && nn <= m => (nn, 3),
                    _ => (d1, 2),
                };
                if n >= 1 && n <= m {
                    piece = Some(match f.groups.get(n - 1) {
                        Some(Some((a, b))) => s.get(*a..*b).unwrap_or(""),
                        _ => "",
                    });
                    consumed = len;
                }
            }
            b'<' if !f.names.is_empty() => {
                if let Some(close) = template.get(i + 2..).and_then(|r| r.find('>')) {
                    let name = template.get(i + 2..i + 2 + close).unwrap_or("");
                    piece = Some(
                        match f.names.iter().find(|(n, _)| n == name) {
                            Some((_, Some((a, b)))) => s.get(*a..*b),
                            _ => None,
                        }
                        .unwrap_or(""),
                    );
                    consumed = close + 3;
                }
            }
            _ => {}
        }
        if let Some(p) = piece {
            out.push_str(template.get(lit_start..i).unwrap_or(""));
            out.push_str(p);
            i += consumed;
            lit_start = i;
        } else {
            i += 1;
        }
    }
    out.push_str(template.get(lit_start..).unwrap_or(""));
}

// ---- match, matchAll, search ----

fn to_regexp_arg(vm: &mut Vm, v: Value, flags: &str) -> Result<crate::value::ObjId, Throw> {
    if let Some(re) = regexp::as_regexp(vm, v) {
        return Ok(re);
    }
    let source = match v {
        Value::Undefined => "(?:)".to_string(),
        v => vm.to_rust_string(v)?,
    };
    match regexp::new_regexp(vm, &source, flags)? {
        Value::Obj(id) => Ok(id),
        _ => Err(vm.make_error(ErrorKind::TypeError, "not a regular expression")),
    }
}

fn match_(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(step) = delegate(vm, this, args, Matcher::Match)? {
        return Ok(step);
    }
    match_impl(vm, this, args)
}

pub(super) fn match_impl(vm: &mut Vm, this: Value, args: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "match")?;
    let re = to_regexp_arg(vm, arg(args, 0), "")?;
    if regexp::flags_of(vm, re).contains('g') {
        let found = regexp::matches_for_replace(vm, re, &s)?;
        if found.is_empty() {
            return Ok(Step::Return(Value::Null));
        }
        let parts = found.iter().map(|m| s.get(m.start..m.end).unwrap_or("").into()).collect();
        return super::string_split::strings_array(vm, parts);
    }
    let subject = match this {
        Value::Str(_) => this,
        _ => vm.new_string(&s)?,
    };
    Ok(Step::Return(regexp::exec(vm, re, subject)?))
}

fn match_all(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    require_global(vm, this, arg(args, 0), "matchAll")?;
    if let Some(step) = delegate(vm, this, args, Matcher::MatchAll)? {
        return Ok(step);
    }
    match_all_impl(vm, this, args)
}

pub(super) fn match_all_impl(vm: &mut Vm, this: Value, args: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "matchAll")?;
    let pattern = arg(args, 0);
    let re = match regexp::as_regexp(vm, pattern) {
        Some(re) => re,
        None => to_regexp_arg(vm, pattern, "g")?,
    };
    let found = regexp::matches_for_replace(vm, re, &s)?;
    let subject = vm.new_string(&s)?;
    let t = Text::new(&s);
    let mut cursor = UnitCursor::default();
    let mut items = Vec::with_capacity(found.len());
    for m in found {
        let p = regexp::pieces(t, &m, &mut cursor);
        items.push(regexp::build_match_array(vm, p, subject)?);
    }
    Ok(Step::Return(vm.new_iterator(IterState::List { items, next: 0 })?))
}

fn search(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if let Some(step) = delegate(vm, this, args, Matcher::Search)? {
        return Ok(step);
    }
    search_impl(vm, this, args)
}

pub(super) fn search_impl(vm: &mut Vm, this: Value, args: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "search")?;
    let re = to_regexp_arg(vm, arg(args, 0), "")?;
    let found = regexp::search_first(vm, re, &s)?;
    Ok(Step::Return(Value::Number(found.map_or(-1.0, |m| Text::new(&s).unit_of_byte(m.start) as f64))))
}

// ---- misc ----

fn locale_compare(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "localeCompare")?;
    let other = arg_string(vm, args, 0)?;
    let options = collate_options(vm, arg(args, 2))?;
    let order = super::collation::collate_charged(vm, &s, &other, options)?;
    Ok(Step::Return(Value::Number(match order {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    })))
}

/// Strings are stored as UTF-8, so they never hold a lone surrogate: always well-formed.
fn is_well_formed(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    recv(vm, this, "isWellFormed")?;
    Ok(Step::Return(Value::Bool(true)))
}

fn to_well_formed(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    match this {
        Value::Str(_) => Ok(Step::Return(this)),
        _ => {
            let s = this_string(vm, this, "toWellFormed")?;
            ret_str(vm, s)
        }
    }
}

fn normalize(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let s = this_string(vm, this, "normalize")?;
    let form = match arg(args, 0) {
        Value::Undefined => "NFC".to_string(),
        v => vm.to_rust_string(v)?,
    };
    use unicode_normalization::UnicodeNormalization;
    type Form = for<'a> fn(std::str::Chars<'a>) -> Box<dyn Iterator<Item = char> + 'a>;
    let form: Form = match form.as_str() {
        "NFC" => |c| Box::new(c.nfc()),
        "NFD" => |c| Box::new(c.nfd()),
        "NFKC" => |c| Box::new(c.nfkc()),
        "NFKD" => |c| Box::new(c.nfkd()),
        _ => {
            let msg = "The normalization form should be one of NFC, NFD, NFKC, NFKD.";
            return Err(vm.make_error(ErrorKind::RangeError, msg));
        }
    };
    if s.is_ascii() {
        return ret_str(vm, s);
    }
    // Measured before it is built, beside the copy of the text this holds (NFKD can make a
    // character into eighteen).
    vm.charge(Work::Elements(s.len()));
    let out_len: usize = form(s.chars()).map(char::len_utf8).sum();
    ensure_output_fits(vm, out_len.saturating_add(s.len()))?;
    vm.charge(Work::Elements(s.len()));
    ret_str(vm, form(s.chars()).collect())
}

fn to_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    match this {
        Value::Str(_) => Ok(Step::Return(this)),
        Value::Obj(id) => match vm.heap.obj(id).kind {
            ObjKind::Boxed(inner @ Value::Str(_)) => Ok(Step::Return(inner)),
            _ => Err(vm.make_error(
                ErrorKind::TypeError,
                "String.prototype.toString requires that 'this' be a String",
            )),
        },
        _ => Err(
            vm.make_error(ErrorKind::TypeError, "String.prototype.toString requires that 'this' be a String")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_indices() {
        let s = "héllo😀x";
        assert_eq!(unit_len(s), 8);
        assert_eq!(Text::new(s).at(1), Some(0xE9));
        assert_eq!(Text::new(s).at(5), Some(0xD83D));
        assert_eq!(unit_slice(s, 1, 3), "él");
        assert_eq!(unit_slice(s, 5, 7), "😀");
        assert_eq!(unit_slice(s, 7, 8), "x");
        assert_eq!(byte_of_unit(s, 7), s.len() - 1);
        assert_eq!(unit_of_byte(s, s.len() - 1), 7);
        let mut c = UnitCursor::default();
        let t = Text::new(s);
        assert_eq!([c.unit_of_byte(t, 1), c.unit_of_byte(t, 3), c.unit_of_byte(t, s.len() - 1)], [1, 2, 7]);
        assert_eq!(c.unit_of_byte(t, 0), 0);
        assert_eq!(Text::new(s).find_from("x", 0), Some(7));
        assert_eq!(Text::new(s).find_from("l", 3), Some(3));
        assert_eq!(Text::new("abc").find_from("", 5), None);
        assert_eq!(Text::new("abc").find_from("", 3), Some(3));
        assert_eq!(Text::new("a😀b").slice(1, 3), "😀");
        assert_eq!(Text::new("a😀b").slice(1, 2), "\u{FFFD}");
    }

    #[test]
    fn templates() {
        let s = "John Smith";
        let f = Found { start: 0, end: 10, groups: vec![Some((0, 4)), Some((5, 10))], names: vec![] };
        let mut out = String::new();
        expand_template("$2, $1 ($&) $$ $3 $0", s, &f, &mut out);
        assert_eq!(out, "Smith, John (John Smith) $ $3 $0");
        let f = Found {
            start: 5,
            end: 10,
            groups: vec![Some((5, 10))],
            names: vec![("last".into(), Some((5, 10)))],
        };
        let mut out = String::new();
        expand_template("[$<last>|$`|$'|$<nope>]", s, &f, &mut out);
        assert_eq!(out, "[Smith|John ||]");
    }
}
