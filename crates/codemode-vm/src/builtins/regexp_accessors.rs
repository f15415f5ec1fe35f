//! The accessors on `RegExp.prototype` (`source`, `flags` and one per flag) and the `size`
//! getters of `Map.prototype` and `Set.prototype`, as the specification defines them: getters on
//! the prototype, not own data properties of each instance (a RegExp's one own property is
//! `lastIndex`). Reads inside the VM use the object's kind directly (`regexp::flags_of`,
//! `map_size`); these are what a program sees through `re.global` or a property descriptor.

use codemode_bytecode::ErrorKind;

use super::{NativeDef, Step};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::Value;

/// Each flag's accessor name and letter, in the order `flags` lists them.
const FLAGS: [(&str, char); 8] = [
    ("hasIndices", 'd'),
    ("global", 'g'),
    ("ignoreCase", 'i'),
    ("multiline", 'm'),
    ("dotAll", 's'),
    ("unicode", 'u'),
    ("unicodeSets", 'v'),
    ("sticky", 'y'),
];

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("RegExp.prototype", "get source", 0, source),
    NativeDef::new("RegExp.prototype", "get flags", 0, flags),
    NativeDef::new("RegExp.prototype", "get hasIndices", 0, |vm, t, _a, _d| flag(vm, t, 'd', "hasIndices")),
    NativeDef::new("RegExp.prototype", "get global", 0, |vm, t, _a, _d| flag(vm, t, 'g', "global")),
    NativeDef::new("RegExp.prototype", "get ignoreCase", 0, |vm, t, _a, _d| flag(vm, t, 'i', "ignoreCase")),
    NativeDef::new("RegExp.prototype", "get multiline", 0, |vm, t, _a, _d| flag(vm, t, 'm', "multiline")),
    NativeDef::new("RegExp.prototype", "get dotAll", 0, |vm, t, _a, _d| flag(vm, t, 's', "dotAll")),
    NativeDef::new("RegExp.prototype", "get unicode", 0, |vm, t, _a, _d| flag(vm, t, 'u', "unicode")),
    NativeDef::new("RegExp.prototype", "get unicodeSets", 0, |vm, t, _a, _d| flag(vm, t, 'v', "unicodeSets")),
    NativeDef::new("RegExp.prototype", "get sticky", 0, |vm, t, _a, _d| flag(vm, t, 'y', "sticky")),
    NativeDef::new("Map.prototype", "get size", 0, |vm, t, _a, _d| size(vm, t, false)),
    NativeDef::new("Set.prototype", "get size", 0, |vm, t, _a, _d| size(vm, t, true)),
];

fn incompatible(vm: &mut Vm, what: &str) -> Throw {
    let msg = format!("{what} getter called on an incompatible receiver");
    vm.make_error(ErrorKind::TypeError, &msg)
}

/// `RegExp.prototype.<flag>`: the flag of a RegExp; `undefined` on `RegExp.prototype` itself.
fn flag(vm: &mut Vm, this: Value, letter: char, name: &str) -> Result<Step, Throw> {
    match this {
        Value::Obj(id) => match &vm.heap.obj(id).kind {
            ObjKind::RegExp { flags, .. } => Ok(Step::Return(Value::Bool(flags.contains(letter)))),
            _ if id == vm.realm.regexp_proto => Ok(Step::Return(Value::Undefined)),
            _ => Err(incompatible(vm, &format!("RegExp.prototype.{name}"))),
        },
        _ => Err(incompatible(vm, &format!("RegExp.prototype.{name}"))),
    }
}

/// `RegExp.prototype.source`: the pattern with `/` and line terminators escaped
/// (EscapeRegExpPattern), `"(?:)"` on `RegExp.prototype` itself.
fn source(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let Value::Obj(id) = this else { return Err(incompatible(vm, "RegExp.prototype.source")) };
    let text = match &vm.heap.obj(id).kind {
        ObjKind::RegExp { source, .. } => escape_pattern(source),
        _ if id == vm.realm.regexp_proto => "(?:)".to_string(),
        _ => return Err(incompatible(vm, "RegExp.prototype.source")),
    };
    vm.charge(crate::meter::Work::Bytes(text.len()));
    Ok(Step::Return(vm.new_string(&text)?))
}

/// EscapeRegExpPattern: a `/` not already escaped (outside a class too) and line terminators
/// become escapes, so that `/${source}/${flags}` reads back as the same expression.
pub(crate) fn escape_pattern(source: &str) -> String {
    /// The escape letter(s) of a line terminator.
    fn terminator(c: char) -> Option<&'static str> {
        match c {
            '\n' => Some("n"),
            '\r' => Some("r"),
            '\u{2028}' => Some("u2028"),
            '\u{2029}' => Some("u2029"),
            _ => None,
        }
    }
    let mut out = String::with_capacity(source.len());
    let (mut escaped, mut in_class) = (false, false);
    for c in source.chars() {
        if escaped {
            // Already escaped: only a line terminator needs rewriting (`\<LF>` -> `\n`).
            escaped = false;
            out.push_str(terminator(c).unwrap_or(c.encode_utf8(&mut [0; 4])));
            continue;
        }
        match c {
            '\\' => escaped = true,
            '[' => in_class = true,
            ']' => in_class = false,
            '/' if !in_class => out.push('\\'),
            _ => {}
        }
        match terminator(c) {
            Some(letters) => {
                out.push('\\');
                out.push_str(letters);
            }
            None => out.push(c),
        }
    }
    out
}

/// `RegExp.prototype.flags`: generic over any object, reading each flag accessor in order.
fn flags(vm: &mut Vm, this: Value, _args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if !matches!(this, Value::Obj(_)) {
        return Err(incompatible(vm, "RegExp.prototype.flags"));
    }
    let mut out = String::new();
    for (name, letter) in FLAGS {
        let atom = vm.intern(name)?;
        let v = vm.get_value(this, Key::Atom(atom))?;
        if vm.to_boolean(v) {
            out.push(letter);
        }
    }
    Ok(Step::Return(vm.new_string(&out)?))
}

/// `Map.prototype.size` / `Set.prototype.size`.
fn size(vm: &mut Vm, this: Value, set: bool) -> Result<Step, Throw> {
    match this {
        Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Map { set: s, .. } if s == set) => {
            Ok(Step::Return(Value::Number(super::map_size(vm, id) as f64)))
        }
        _ => Err(incompatible(vm, if set { "Set.prototype.size" } else { "Map.prototype.size" })),
    }
}
