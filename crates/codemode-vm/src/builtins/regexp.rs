//! `RegExp` objects, on the `regress` engine (JavaScript syntax and semantics).
//!
//! **State.** A RegExp is `ObjKind::RegExp { source, flags, .. }`. Its `source`, `flags`,
//! `global`, `ignoreCase`, `multiline`, `sticky`, `unicode`, `dotAll`, `hasIndices` and
//! `unicodeSets` are accessors on `RegExp.prototype` (`regexp_accessors.rs`), and `lastIndex` is
//! its one own property, hidden and writable: it is the single source of truth for `exec`/`test` with `g`/`y` (the kind's
//! `last_index` field is kept equal to it when the built-ins write it). Compiled programs are
//! cached outside the VM state (a small per-thread cache keyed by `(source, flags)`), so the
//! state stays plain data and a restored snapshot simply recompiles on first use.
//!
//! **Indices.** `regress` reports UTF-8 byte offsets; everything visible to the program
//! (`index`, `lastIndex`, `search`) is converted to UTF-16 code units.
//!
//! **Catastrophic patterns.** Every search goes through [`find`], which runs the (vendored,
//! step-budgeted) `regress` backtracker with a fixed budget of steps per search and charges the
//! steps it took as fuel; a search over budget throws a `RangeError` (see [`find`]).

use crate::meter::Work;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use codemode_bytecode::ErrorKind;

use super::utf16::{Text, UnitCursor};
use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::{ObjId, StrId, Value};

pub const DEFS: &[NativeDef] = &[
    NativeDef::ctor("RegExp", 2, regexp_call, regexp_construct),
    NativeDef::new("RegExp.prototype", "exec", 1, exec_method),
    NativeDef::new("RegExp.prototype", "test", 1, test_method),
    NativeDef::new("RegExp.prototype", "toString", 0, to_string),
];

/// One match: UTF-8 byte ranges into the subject.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RegexMatch {
    pub start: usize,
    pub end: usize,
    /// Capture groups 1..n.
    pub groups: Vec<Option<(usize, usize)>>,
    /// Named groups in pattern order.
    pub names: Vec<(String, Option<(usize, usize)>)>,
}

const CACHE_CAPACITY: usize = 128;

type Cache = HashMap<(Box<str>, Box<str>), Rc<regress::Regex>>;

thread_local! {
    /// Compiled regexes by `(source, flags)`. Not VM state: a cache that can be dropped anytime.
    static CACHE: RefCell<Cache> = RefCell::new(HashMap::new());
}

/// Bytes regress may hold while compiling a pattern, per byte of pattern: the most measured
/// over pattern shapes (literal text 133 with the `i` flag, `\w` 127, classes 95), rounded up.
const REGEX_COMPILE_BYTES_PER_BYTE: usize = 160;

/// Patterns longer than this are compiled for each use instead of cached, so the cache (which
/// outlives runs) holds at most `CACHE_CAPACITY` small programs.
const MAX_CACHED_SOURCE: usize = 4096;

/// Compiles (or fetches) the regex for `source`/`flags`, or a SyntaxError.
///
/// Compilation is charged whether or not the cache has the pattern, so the fuel a program uses
/// does not depend on what the thread ran before.
fn compile(vm: &mut Vm, source: &str, flags: &str) -> Result<Rc<regress::Regex>, Throw> {
    // Compiling is roughly linear in the pattern (character classes with Unicode tables more).
    vm.charge(Work::Units(source.len() as u64));
    let key: (Box<str>, Box<str>) = (source.into(), flags.into());
    if let Some(re) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(re);
    }
    // regress builds its parse tree and program in Rust before anything is charged: a pattern
    // whose compile could take more than the memory left is refused first (a 16 MiB pattern
    // took 1.6 GiB and 9 s to compile).
    vm.ensure_fits(source.len().saturating_mul(REGEX_COMPILE_BYTES_PER_BYTE))?;
    let compiled = codemode_ir::regex::compile(source, flags);
    match compiled {
        Ok(re) => {
            let re = Rc::new(re);
            if source.len() <= MAX_CACHED_SOURCE {
                CACHE.with(|c| {
                    let mut c = c.borrow_mut();
                    if c.len() >= CACHE_CAPACITY {
                        c.clear();
                    }
                    c.insert(key, re.clone());
                });
            }
            Ok(re)
        }
        Err(reason) => {
            let msg = codemode_ir::regex::error_message(source, flags, &reason);
            Err(vm.make_error(ErrorKind::SyntaxError, &msg))
        }
    }
}

/// Backtracking steps one search may take (a dispatched instruction, a backtrack or a character
/// scanned by a single-character loop each cost one). Tens of milliseconds of matching.
pub(crate) const MAX_STEPS_PER_SEARCH: u64 = 20_000_000;

/// Steps per byte of input a call may take beyond [`MAX_STEPS_PER_SEARCH`]: simple patterns take
/// one to three per byte, so a global operation over a long text is not cut short, while a call
/// whose every search nearly exhausts the budget is.
const STEPS_PER_INPUT_BYTE: u64 = 16;

/// The step budget of one built-in call over `len` bytes (shared by all the searches it makes).
fn call_budget(len: usize) -> u64 {
    MAX_STEPS_PER_SEARCH.saturating_add(STEPS_PER_INPUT_BYTE.saturating_mul(len as u64))
}

/// A search gave up: the pattern needs more than [`MAX_STEPS_PER_SEARCH`] steps on this input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooComplex;

/// The one place a search runs: the first match at or after byte `start` (a char boundary).
///
/// **The guarantee.** `regress` is a backtracking engine without a step limit upstream; the
/// workspace uses a vendored copy (`vendor/regress`, see its `README.codemode.md`) with a
/// per-thread step budget. Every search runs with the fixed budget [`MAX_STEPS_PER_SEARCH`]
/// (fixed, so the outcome never depends on where fuel slices end) and then pays for the steps it
/// took as fuel ([`crate::meter::REGEX_STEPS_PER_FUEL`] steps per unit). So one search ends within
/// [`MAX_STEPS_PER_SEARCH`] steps whatever the pattern (`/(a+)+$/` on a long non-matching input
/// gives up after 20M steps, tens of milliseconds, not after 2^n), a search that gives up becomes
/// a `RangeError` the program sees, and searches in a loop use up fuel like any other work, so
/// the driver's time limit (`TimeoutExceeded`) applies between slices.
fn find(
    fuel: &mut i64,
    steps_left: &mut u64,
    re: &regress::Regex,
    text: &str,
    start: usize,
) -> Result<Option<RegexMatch>, TooComplex> {
    if start > text.len() || !text.is_char_boundary(start) {
        return Ok(None);
    }
    // The prefix scan (memchr) is not counted in steps: a small charge per byte.
    *fuel = fuel.saturating_sub(Work::Bytes(text.len() - start).fuel() + 1);
    // A fixed budget (not one derived from the fuel left), so outcomes do not depend on where
    // slices end: a run and its replay or resume agree.
    let budget = *steps_left;
    regress::budget::set(budget);
    let m = re.find_from(text, start).next();
    let exceeded = regress::budget::exceeded();
    let used = budget - regress::budget::remaining().min(budget);
    regress::budget::set(u64::MAX);
    *steps_left = budget - used;
    *fuel = fuel.saturating_sub(Work::RegexSteps(used).fuel());
    if exceeded {
        return Err(TooComplex);
    }
    let Some(m) = m else { return Ok(None) };
    let groups = m.captures.iter().map(|g| g.as_ref().map(|r| (r.start, r.end))).collect();
    let names = m.named_groups().map(|(n, r)| (n.to_string(), r.map(|r| (r.start, r.end)))).collect();
    Ok(Some(RegexMatch { start: m.start(), end: m.end(), groups, names }))
}

/// [`find`] for the built-ins: a search that gives up throws.
fn find_vm(
    vm: &mut Vm,
    steps_left: &mut u64,
    re: &regress::Regex,
    source: &str,
    text: &str,
    start: usize,
) -> Result<Option<RegexMatch>, Throw> {
    match find(&mut vm.fuel, steps_left, re, text, start) {
        Ok(m) => Ok(m),
        Err(TooComplex) => Err(too_complex(vm, source, text.len())),
    }
}

fn too_complex(vm: &mut Vm, source: &str, len: usize) -> Throw {
    let shown: String = source.chars().take(80).collect();
    let msg = format!(
        "Regular expression /{shown}/ is too complex for an input of {len} bytes: it needed more than \
         {MAX_STEPS_PER_SEARCH} backtracking steps (catastrophic backtracking: avoid nested quantifiers like (a+)+)"
    );
    vm.make_error(ErrorKind::RangeError, &msg)
}

/// The RegExp object behind `v`, if it is one.
pub(crate) fn as_regexp(vm: &Vm, v: Value) -> Option<ObjId> {
    match v {
        Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::RegExp { .. }) => Some(id),
        _ => None,
    }
}

fn parts(vm: &Vm, id: ObjId) -> (String, String) {
    match &vm.heap.obj(id).kind {
        ObjKind::RegExp { source, flags, .. } => (source.to_string(), flags.to_string()),
        _ => (String::new(), String::new()),
    }
}

pub(crate) fn flags_of(vm: &Vm, id: ObjId) -> String {
    parts(vm, id).1
}

/// `new RegExp(source, flags)` (regex literals too). The pattern is compiled (and validated) now.
pub(crate) fn new_regexp(vm: &mut Vm, source: &str, flags: &str) -> Result<Value, Throw> {
    if let Err(msg) = codemode_ir::regex::check_flags(flags) {
        return Err(vm.make_error(ErrorKind::SyntaxError, &msg));
    }
    let source = if source.is_empty() { "(?:)" } else { source };
    compile(vm, source, flags)?;
    // Canonical flag order, as `flags` reports it.
    let canonical: String = codemode_ir::regex::FLAGS.chars().filter(|c| flags.contains(*c)).collect();
    let proto = Some(vm.realm.regexp_proto);
    let kind = ObjKind::RegExp { source: source.into(), flags: canonical.as_str().into(), last_index: 0 };
    let id = vm.alloc(kind, proto)?;
    // `source`, `flags` and the flags are accessors on `RegExp.prototype` (`regexp_accessors.rs`).
    vm.define_hidden(id, "lastIndex", Value::Number(0.0));
    Ok(Value::Obj(id))
}

fn regexp_call(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    // `RegExp(re)` without flags returns `re` itself.
    if let (Some(_), Value::Undefined) = (as_regexp(vm, arg(args, 0)), arg(args, 1)) {
        return Ok(Step::Return(arg(args, 0)));
    }
    regexp_construct(vm, args)
}

fn regexp_construct(vm: &mut Vm, args: &[Value]) -> Result<Step, Throw> {
    let pattern = arg(args, 0);
    let (source, mut flags) = match as_regexp(vm, pattern) {
        Some(id) => parts(vm, id),
        None => match pattern {
            Value::Undefined => (String::new(), String::new()),
            v => (vm.to_rust_string(v)?, String::new()),
        },
    };
    if arg(args, 1) != Value::Undefined {
        flags = vm.to_rust_string(arg(args, 1))?;
    }
    Ok(Step::Return(new_regexp(vm, &source, &flags)?))
}

fn this_regexp(vm: &mut Vm, this: Value, method: &str) -> Result<ObjId, Throw> {
    match as_regexp(vm, this) {
        Some(id) => Ok(id),
        None => {
            let msg = format!("RegExp.prototype.{method} called on an incompatible receiver");
            Err(vm.make_error(ErrorKind::TypeError, &msg))
        }
    }
}

fn last_index(vm: &mut Vm, id: ObjId) -> Result<f64, Throw> {
    let v = vm.get_named(Value::Obj(id), "lastIndex")?;
    let n = vm.to_number(v)?;
    Ok(if n.is_nan() || n < 0.0 { 0.0 } else { n.trunc() })
}

fn set_last_index(vm: &mut Vm, id: ObjId, n: usize) -> Result<(), Throw> {
    vm.define_hidden(id, "lastIndex", Value::Number(n as f64));
    if let ObjKind::RegExp { last_index, .. } = &mut vm.heap.obj_mut(id).kind {
        *last_index = n.min(u32::MAX as usize) as u32;
    }
    Ok(())
}

/// The string a search runs on: read in place from the heap (no copy, known ASCII flag) or
/// borrowed from the caller.
#[derive(Clone, Copy)]
enum Subject<'a> {
    Heap(StrId),
    Borrowed(Text<'a>),
}

fn text_of<'a>(heap: &'a crate::heap::Heap, subject: Subject<'a>) -> Text<'a> {
    match subject {
        Subject::Heap(id) => Text::of(heap.string(id)),
        Subject::Borrowed(t) => t,
    }
}

/// RegExpBuiltinExec: the next match honouring `lastIndex`, `g` and `y`; updates `lastIndex`.
fn builtin_exec(vm: &mut Vm, id: ObjId, subject: Subject<'_>) -> Result<Option<RegexMatch>, Throw> {
    let (source, flags) = parts(vm, id);
    let re = compile(vm, &source, &flags)?;
    let global = flags.contains('g');
    let sticky = flags.contains('y');
    let start_units = if global || sticky { last_index(vm, id)? } else { 0.0 };
    if start_units > text_of(&vm.heap, subject).len() as f64 {
        if global || sticky {
            set_last_index(vm, id, 0)?;
        }
        return Ok(None);
    }
    let start = text_of(&vm.heap, subject).byte_of_unit(start_units as usize);
    let text = text_of(&vm.heap, subject).s;
    let result = find(&mut vm.fuel, &mut call_budget(text.len()), &re, text, start);
    let found = match result {
        Ok(m) => m.filter(|m| !sticky || m.start == start),
        Err(TooComplex) => {
            let len = text_of(&vm.heap, subject).s.len();
            return Err(too_complex(vm, &source, len));
        }
    };
    match &found {
        None if global || sticky => set_last_index(vm, id, 0)?,
        Some(m) if global || sticky => {
            let end = text_of(&vm.heap, subject).unit_of_byte(m.end);
            set_last_index(vm, id, end)?;
        }
        _ => {}
    }
    Ok(found)
}

/// `re.exec(subject)`: a match array or `null`.
pub(crate) fn exec(vm: &mut Vm, id: ObjId, subject: Value) -> Result<Value, Throw> {
    let subject = vm.to_string_value(subject)?;
    let Value::Str(sid) = subject else { return Ok(Value::Null) };
    match builtin_exec(vm, id, Subject::Heap(sid))? {
        Some(m) => {
            let p = pieces(Text::of(vm.heap.string(sid)), &m, &mut UnitCursor::default());
            build_match_array(vm, p, subject)
        }
        None => Ok(Value::Null),
    }
}

fn exec_method(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_regexp(vm, this, "exec")?;
    Ok(Step::Return(exec(vm, id, arg(args, 0))?))
}

fn test_method(vm: &mut Vm, this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_regexp(vm, this, "test")?;
    let subject = vm.to_string_value(arg(args, 0))?;
    let Value::Str(sid) = subject else { return Ok(Step::Return(Value::Bool(false))) };
    Ok(Step::Return(Value::Bool(builtin_exec(vm, id, Subject::Heap(sid))?.is_some())))
}

fn to_string(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let id = this_regexp(vm, this, "toString")?;
    let (source, flags) = parts(vm, id);
    Ok(Step::Return(vm.new_string_owned(format!("/{source}/{flags}"))?))
}

/// A match copied out of its subject: what a match array is made of.
pub(crate) struct Pieces {
    whole: String,
    groups: Vec<Option<String>>,
    names: Vec<(String, Option<String>)>,
    /// UTF-16 index of the match.
    index: usize,
}

pub(crate) fn pieces(t: Text<'_>, m: &RegexMatch, cursor: &mut UnitCursor) -> Pieces {
    let piece = |r: &Option<(usize, usize)>| r.and_then(|(a, b)| t.s.get(a..b)).map(str::to_string);
    Pieces {
        whole: t.s.get(m.start..m.end).unwrap_or("").to_string(),
        groups: m.groups.iter().map(piece).collect(),
        names: m.names.iter().map(|(n, r)| (n.clone(), piece(r))).collect(),
        index: cursor.unit_of_byte(t, m.start),
    }
}

/// The array `exec` returns: `[match, ...groups]` with `index`, `input` and `groups`.
pub(crate) fn build_match_array(vm: &mut Vm, p: Pieces, subject: Value) -> Result<Value, Throw> {
    let mut items = Vec::with_capacity(p.groups.len() + 1);
    items.push(vm.new_string_owned(p.whole)?);
    for g in p.groups {
        items.push(match g {
            Some(g) => vm.new_string_owned(g)?,
            None => Value::Undefined,
        });
    }
    let arr = vm.new_array(items)?;
    let groups = if p.names.is_empty() {
        Value::Undefined
    } else {
        let obj = vm.new_object()?;
        for (name, v) in p.names {
            let v = match v {
                Some(v) => vm.new_string_owned(v)?,
                None => Value::Undefined,
            };
            let atom = vm.heap.atoms.intern(&name);
            vm.define(obj, Key::Atom(atom), v)?;
        }
        obj
    };
    for (name, v) in [("index", Value::Number(p.index as f64)), ("input", subject), ("groups", groups)] {
        let atom = vm.heap.atoms.intern(name);
        vm.define(arr, Key::Atom(atom), v)?;
    }
    Ok(arr)
}

/// The `groups` object of a match with named groups.
pub(crate) fn groups_object(
    vm: &mut Vm,
    text: &str,
    names: &[(String, Option<(usize, usize)>)],
) -> Result<Value, Throw> {
    let obj = vm.new_object()?;
    for (name, range) in names {
        let v = match range {
            Some((a, b)) => vm.new_string(text.get(*a..*b).unwrap_or(""))?,
            None => Value::Undefined,
        };
        let atom = vm.heap.atoms.intern(name);
        vm.define(obj, Key::Atom(atom), v)?;
    }
    Ok(obj)
}

/// The byte just after the character at `b` (for stepping over an empty match).
fn next_boundary(text: &str, b: usize) -> usize {
    text.get(b..).and_then(|r| r.chars().next()).map_or(b + 1, |c| b + c.len_utf8())
}

/// All matches a global `replace`/`match`/`matchAll` sees (one for a non-global regex, which
/// honours `lastIndex` only when sticky). Resets `lastIndex` to 0 for global regexes.
pub(crate) fn matches_for_replace(vm: &mut Vm, id: ObjId, text: &str) -> Result<Vec<RegexMatch>, Throw> {
    let (source, flags) = parts(vm, id);
    if !flags.contains('g') {
        return Ok(builtin_exec(vm, id, Subject::Borrowed(Text::new(text)))?.into_iter().collect());
    }
    let re = compile(vm, &source, &flags)?;
    let sticky = flags.contains('y');
    let mut out: Vec<RegexMatch> = Vec::new();
    let mut pos = 0;
    // One budget for all the searches of this call: a call cannot run longer than one search
    // may, however many matches each nearly exhaust it.
    let mut steps_left = call_budget(text.len());
    while pos <= text.len() {
        let Some(m) = find_vm(vm, &mut steps_left, &re, &source, text, pos)? else { break };
        if sticky && m.start != pos {
            break;
        }
        pos = if m.end == m.start { next_boundary(text, m.end) } else { m.end };
        out.push(m);
        if out.len() > crate::heap::MAX_ARRAY_LENGTH {
            return Err(vm.make_error(ErrorKind::RangeError, "Invalid array length"));
        }
        vm.charge_memory(64)?;
    }
    set_last_index(vm, id, 0)?;
    Ok(out)
}

/// The first match from the start of `text`, ignoring and preserving `lastIndex` (`search`).
pub(crate) fn search_first(vm: &mut Vm, id: ObjId, text: &str) -> Result<Option<RegexMatch>, Throw> {
    let (source, flags) = parts(vm, id);
    let re = compile(vm, &source, &flags)?;
    let m = find_vm(vm, &mut call_budget(text.len()), &re, &source, text, 0)?;
    Ok(if flags.contains('y') { m.filter(|m| m.start == 0) } else { m })
}

/// `text.split(re, limit)`: the pieces between matches, with capture groups spliced in
/// (`None` for a group that did not participate: `undefined` in the result).
pub(crate) fn split(vm: &mut Vm, id: ObjId, text: &str, limit: usize) -> Result<Vec<Option<String>>, Throw> {
    let (source, flags) = parts(vm, id);
    let re = compile(vm, &source, &flags)?;
    // At most as many pieces as the memory left can hold (checked before they are built).
    let max_pieces = vm.split_pieces_that_fit(0);
    let parts = split_with(&mut vm.fuel, &mut call_budget(text.len()), &re, text, limit.min(max_pieces + 1))
        .map_err(|TooComplex| too_complex(vm, &source, text.len()))?;
    if parts.len() > max_pieces {
        return Err(vm.out_of_memory());
    }
    Ok(parts)
}

fn split_with(
    fuel: &mut i64,
    steps_left: &mut u64,
    re: &regress::Regex,
    text: &str,
    limit: usize,
) -> Result<Vec<Option<String>>, TooComplex> {
    let mut out = Vec::new();
    if limit == 0 {
        return Ok(out);
    }
    if text.is_empty() {
        if find(fuel, steps_left, re, text, 0)?.is_none() {
            out.push(Some(String::new()));
        }
        return Ok(out);
    }
    let mut p = 0;
    let mut q = 0;
    while q < text.len() {
        let Some(m) = find(fuel, steps_left, re, text, q)? else { break };
        if m.start >= text.len() {
            break;
        }
        if m.end == p {
            q = next_boundary(text, m.start.max(q));
            continue;
        }
        out.push(Some(text.get(p..m.start).unwrap_or("").to_string()));
        if out.len() >= limit {
            return Ok(out);
        }
        for g in &m.groups {
            out.push(g.and_then(|(a, b)| text.get(a..b)).map(str::to_string));
            if out.len() >= limit {
                return Ok(out);
            }
        }
        p = m.end;
        q = if m.end == m.start { next_boundary(text, m.end) } else { m.end };
    }
    out.push(Some(text.get(p..).unwrap_or("").to_string()));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn re(source: &str, flags: &str) -> regress::Regex {
        match regress::Regex::with_flags(source, flags) {
            Ok(r) => r,
            Err(e) => panic!("{source}: {e}"),
        }
    }

    fn split_all(source: &str, text: &str) -> Vec<String> {
        let mut fuel = i64::MAX / 2;
        let parts =
            split_with(&mut fuel, &mut call_budget(0), &re(source, ""), text, usize::MAX).unwrap_or_default();
        parts.into_iter().map(|p| p.unwrap_or_else(|| "<undefined>".into())).collect()
    }

    #[test]
    fn split_by_regex() {
        assert_eq!(split_all(r"\s*,\s*", "a , b,c"), ["a", "b", "c"]);
        assert_eq!(split_all("(?:)", "abc"), ["a", "b", "c"]);
        assert!(split_all("(?:)", "").is_empty());
        assert_eq!(split_all("x", ""), [""]);
        assert_eq!(split_all("(-)", "a-b"), ["a", "-", "b"]);
        assert_eq!(split_all("(-)|(\\+)", "a-b"), ["a", "-", "<undefined>", "b"]);
        assert_eq!(split_all(",", ",a,"), ["", "a", ""]);
        assert_eq!(split_all("é", "aébéc"), ["a", "b", "c"]);
    }

    #[test]
    fn find_reports_bytes_and_groups() {
        let mut fuel = 1_000_000;
        let r = re(r"(?<y>\d{4})-(\d\d)", "");
        let Ok(Some(m)) = find(&mut fuel, &mut call_budget(0), &r, "on 2024-05!", 0) else {
            panic!("no match")
        };
        assert_eq!((m.start, m.end), (3, 10));
        assert_eq!(m.groups, vec![Some((3, 7)), Some((8, 10))]);
        assert_eq!(m.names, vec![("y".to_string(), Some((3, 7)))]);
        assert!(fuel < 1_000_000);
    }

    /// `/(a+)+$/` on "aaa...ab" needs ~2^n steps in a plain backtracker; the budget stops it.
    #[test]
    fn catastrophic_pattern_gives_up_quickly() {
        let started = std::time::Instant::now();
        let text = format!("{}b", "a".repeat(40));
        let mut fuel = 20_000;
        let r = re("(a+)+$", "");
        assert_eq!(find(&mut fuel, &mut call_budget(0), &r, &text, 0), Err(TooComplex));
        assert!(fuel < 0, "the steps were paid for: {fuel}");
        // Also through split, and with a nested alternation.
        let r = re("(x|xx)+y", "");
        let text = "x".repeat(60);
        assert_eq!(split_with(&mut fuel, &mut call_budget(0), &r, &text, usize::MAX), Err(TooComplex));
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
        // The budget is per search: an ordinary search right after works.
        let mut fuel = 1_000;
        assert!(matches!(find(&mut fuel, &mut call_budget(0), &re("a+$", ""), "xaaa", 0), Ok(Some(_))));
        assert_eq!(regress::budget::remaining(), u64::MAX);
    }

    /// Linear patterns on long inputs stay within the budget.
    #[test]
    fn long_inputs_with_linear_patterns_succeed() {
        let text = format!("{}needle", "hay ".repeat(100_000));
        let mut fuel = 0;
        let Ok(Some(m)) = find(&mut fuel, &mut call_budget(0), &re(r"\bneedle\b", ""), &text, 0) else {
            panic!("no match")
        };
        assert_eq!(m.start, 400_000);
        let mut fuel = 0;
        assert!(matches!(
            find(&mut fuel, &mut call_budget(0), &re(r"^(\w+\s)*\w+$", ""), &text, 0),
            Ok(Some(_))
        ));
    }
}
