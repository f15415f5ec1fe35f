//! `JSON.rawJSON` and `JSON.isRawJSON`: a frozen, prototype-less object holding a JSON text for a
//! primitive, which `JSON.stringify` writes as that text (`JSON.rawJSON("12345678901234567890")`
//! keeps every digit).
//!
//! The [[IsRawJSON]] slot is a private-flagged property (private slots are never listed, read
//! or written by the program). In the serializer's JSON tree a raw text travels as a one-key
//! object under [`RAW_KEY`], a key no JavaScript string property can produce alone through
//! the walk (it starts with a NUL and the walk never makes such a lone key), which
//! `write_json` prints verbatim.

use codemode_bytecode::ErrorKind;
use serde_json::Value as Json;

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::object::integrity::{FROZEN_ELEMENTS, NON_EXTENSIBLE, SEALED_ELEMENTS};
use crate::object::{FIXED, HIDDEN, PRIVATE, READONLY};
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] =
    &[NativeDef::new("JSON", "rawJSON", 1, raw_json), NativeDef::new("JSON", "isRawJSON", 1, is_raw_json)];

/// The serializer tree's key for a raw JSON text (see the module doc).
pub(crate) const RAW_KEY: &str = "\u{0}rawJSON";

/// The name of the private slot that marks a raw JSON object.
const SLOT: &str = "#[[IsRawJSON]]";

fn raw_json(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let text = vm.to_rust_string(arg(args, 0))?;
    vm.charge(crate::meter::Work::Scan(text.len()));
    let edge_ok = |c: Option<char>| c.is_some_and(|c| !matches!(c, '\t' | '\n' | '\r' | ' '));
    if !edge_ok(text.chars().next()) || !edge_ok(text.chars().last()) {
        let msg = "JSON.rawJSON needs a text without leading or trailing whitespace, and not empty";
        return Err(vm.make_error(ErrorKind::SyntaxError, msg));
    }
    // JSON.parse's grammar (`1e1000` is valid: Infinity); an object or array is refused.
    match super::json_parse::parse_text(vm, &text) {
        Ok(Value::Obj(_)) => {
            let msg = "JSON.rawJSON takes the JSON text of a primitive, not of an object or array";
            return Err(vm.make_error(ErrorKind::SyntaxError, msg));
        }
        Ok(_) => {}
        Err(Ok(why)) => {
            let msg = format!("JSON.rawJSON: the text is not valid JSON ({why})");
            return Err(vm.make_error(ErrorKind::SyntaxError, &msg));
        }
        Err(Err(thrown)) => return Err(thrown),
    }
    let raw = vm.new_string(&text)?;
    let id = vm.alloc(crate::object::ObjKind::Plain, None)?;
    let (key, slot) = (vm.intern("rawJSON")?, vm.intern(SLOT)?);
    let props = &mut vm.heap.obj_mut(id).props;
    props.set(key, raw, READONLY | FIXED);
    props.set(slot, Value::Bool(true), PRIVATE | HIDDEN | READONLY | FIXED);
    props.integrity |= NON_EXTENSIBLE | SEALED_ELEMENTS | FROZEN_ELEMENTS;
    Ok(Step::Return(Value::Obj(id)))
}

fn is_raw_json(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let raw = match arg(args, 0) {
        Value::Obj(id) => raw_text(vm, id).is_some(),
        _ => false,
    };
    Ok(Step::Return(Value::Bool(raw)))
}

/// The JSON text of a raw JSON object (cheap for others: they have a prototype).
pub(crate) fn raw_text(vm: &mut Vm, id: ObjId) -> Option<String> {
    if vm.heap.obj(id).proto.is_some() {
        return None;
    }
    let slot = vm.heap.atoms.lookup(SLOT)?;
    let key = vm.heap.atoms.lookup("rawJSON")?;
    let obj = vm.heap.obj(id);
    obj.props.get(slot).filter(|s| s.flags & PRIVATE != 0)?;
    match obj.props.get(key)?.value() {
        Value::Str(s) => Some(vm.heap.str(s).to_string()),
        _ => None,
    }
}

/// The serializer tree's node for a raw JSON text.
pub(crate) fn raw_node(text: String) -> Json {
    let mut map = serde_json::Map::new();
    map.insert(RAW_KEY.to_string(), Json::String(text));
    Json::Object(map)
}

/// The raw text a serializer node stands for, if it is a raw node.
pub(crate) fn as_raw(map: &serde_json::Map<String, Json>) -> Option<&str> {
    match (map.len(), map.get(RAW_KEY)) {
        (1, Some(Json::String(text))) => Some(text),
        _ => None,
    }
}
