//! `JSON.stringify` and `JSON.parse`.
//!
//! `stringify` walks the value with `tojson` (which calls `toJSON` methods) and prints with
//! JavaScript's spacing rules. A replacer array filters keys; a replacer function is called for
//! every property (with the holder as `this`), and a reviver for every parsed value, bottom up,
//! both as resumable steps. `parse` goes through serde_json (which
//! limits nesting), building values as it reads (`json_parse`).

use crate::meter::Work;
use codemode_bytecode::ErrorKind;
use serde_json::Value as Json;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::Value;

pub const DEFS: &[NativeDef] =
    &[NativeDef::new("JSON", "stringify", 3, stringify), NativeDef::new("JSON", "parse", 2, parse)];

fn stringify(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let allowed = match arg(args, 1) {
        replacer @ Value::Obj(id) if matches!(vm.heap.obj(id).kind, ObjKind::Array(_)) => {
            Some(property_list(vm, replacer)?)
        }
        _ => None,
    };
    // A Number or String wrapper counts as its primitive (ToNumber/ToString, a program's
    // valueOf/toString included).
    let space = match arg(args, 2) {
        v @ Value::Obj(id) => match vm.heap.obj(id).kind {
            ObjKind::Boxed(Value::Number(_)) => Value::Number(vm.to_number(v)?),
            ObjKind::Boxed(Value::Str(_)) => vm.to_string_value(v)?,
            _ => v,
        },
        v => v,
    };
    let indent = match space {
        Value::Number(n) => " ".repeat(n.trunc().clamp(0.0, 10.0) as usize),
        Value::Str(s) => vm.heap.str(s).chars().take(10).collect(),
        _ => String::new(),
    };
    let replacer = Some(arg(args, 1)).filter(|r| allowed.is_none() && vm.is_callable(*r));
    super::tojson::start_with_replacer(
        vm,
        arg(args, 0),
        super::tojson::Purpose::Stringify,
        allowed,
        indent,
        replacer,
    )
}

/// The PropertyList of a replacer array: its strings, numbers and Number/String wrappers as
/// strings, in order, each once; other entries are skipped.
///
/// An array may hold one huge string many times: a primitive already seen (the same heap string
/// or number) is skipped before it is copied, so the copies made are bounded by the memory the
/// distinct values hold, and the list is charged as it grows.
fn property_list(vm: &mut Vm, replacer: Value) -> Result<Vec<String>, Throw> {
    type Hasher = std::hash::BuildHasherDefault<ahash::AHasher>;
    let entries = vm.collect_iterable(replacer)?;
    vm.charge(crate::meter::Work::Elements(entries.len()));
    let mut seen_values: std::collections::HashSet<(u8, u64), Hasher> = Default::default();
    let mut seen_text: std::collections::HashSet<String, Hasher> = Default::default();
    let mut list: Vec<String> = Vec::new();
    let mut held = 0usize;
    for v in entries {
        let identity = match v {
            Value::Str(s) => (0, u64::from(s.0)),
            Value::Number(n) => (1, n.to_bits()),
            // A wrapper's ToString runs each time (a program may have given it one).
            Value::Obj(id)
                if matches!(vm.heap.obj(id).kind, ObjKind::Boxed(Value::Str(_) | Value::Number(_))) =>
            {
                (2, u64::from(id.0))
            }
            _ => continue,
        };
        if identity.0 < 2 && !seen_values.insert(identity) {
            continue;
        }
        let item = vm.to_rust_string(v)?;
        vm.charge(crate::meter::Work::Bytes(item.len()));
        if seen_text.contains(&item) {
            continue;
        }
        // The text twice (list and index) and both entries.
        held = held.saturating_add(2 * (item.len() + std::mem::size_of::<String>()));
        vm.ensure_fits(held)?;
        seen_text.insert(item.clone());
        list.push(item);
    }
    Ok(list)
}

/// Keeps only the `allowed` keys of every object in `json`, in `allowed`'s order (the order
/// JSON.stringify writes them in).
pub(super) fn filter_keys(json: &mut Json, allowed: &[String], depth: usize) {
    if depth > crate::host::MAX_BOUNDARY_DEPTH + 1 {
        return;
    }
    match json {
        Json::Object(map) if super::json_raw::as_raw(map).is_some() => {}
        Json::Object(map) => {
            let mut kept = serde_json::Map::new();
            for key in allowed {
                if let Some(mut v) = map.remove(key) {
                    filter_keys(&mut v, allowed, depth + 1);
                    kept.insert(key.clone(), v);
                }
            }
            *map = kept;
        }
        Json::Array(items) => {
            for v in items {
                filter_keys(v, allowed, depth + 1);
            }
        }
        _ => {}
    }
}

/// Prints JSON the way `JSON.stringify(v, null, indent)` does. Depth is bounded by the boundary
/// conversion that produced `json`.
pub(crate) fn write_json(json: &Json, indent: &str, level: usize, out: &mut String) {
    let newline = |out: &mut String, level: usize| {
        if !indent.is_empty() {
            out.push('\n');
            for _ in 0..level {
                out.push_str(indent);
            }
        }
    };
    match json {
        Json::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                write_json(item, indent, level + 1, out);
            }
            newline(out, level);
            out.push(']');
        }
        Json::Object(map) if let Some(text) = super::json_raw::as_raw(map) => out.push_str(text),
        Json::Object(map) if !map.is_empty() => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                out.push_str(&Json::String(k.clone()).to_string());
                out.push(':');
                if !indent.is_empty() {
                    out.push(' ');
                }
                write_json(v, indent, level + 1, out);
            }
            newline(out, level);
            out.push('}');
        }
        Json::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => out.push_str(&crate::numconv::number_to_string(f)),
            _ => out.push_str(&n.to_string()),
        },
        other => out.push_str(&other.to_string()),
    }
}

fn parse(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let text = vm.to_rust_string(arg(args, 0))?;
    vm.charge(Work::Scan(text.len()));
    match super::json_parse::parse_text(vm, &text) {
        Ok(v) if vm.is_callable(arg(args, 1)) => super::json_revive::start(vm, v, arg(args, 1)),
        Ok(v) => Ok(Step::Return(v)),
        Err(Ok(message)) => Err(vm.make_error(ErrorKind::SyntaxError, &message)),
        Err(Err(throw)) => Err(throw),
    }
}
