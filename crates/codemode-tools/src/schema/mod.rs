//! JSON Schema handling shared by rendering, validation and search: local `$ref` resolution
//! and the small accessors every pass needs.

pub mod render;

use serde_json::Value;

/// The deepest schema nesting any pass walks. Beyond it a pass renders `unknown` (rendering),
/// gives up checking (validation) or stops collecting (search). It keeps recursion far from
/// the stack limit whatever the schema.
pub const MAX_SCHEMA_DEPTH: usize = 64;

/// Resolves a local reference (`#`, `#/$defs/X`, `#/definitions/X`, any `#/json/pointer`)
/// against `root`. Remote references resolve to `None`: they render as `unknown`.
pub fn resolve_ref<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    if pointer.is_empty() {
        return Some(root);
    }
    if !pointer.starts_with('/') {
        return None;
    }
    let decoded = percent_decode(pointer);
    root.pointer(&decoded)
}

/// Decodes `%XX` escapes (URI fragments may carry them); malformed escapes stay as written.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// A string keyword of a schema object.
pub fn str_keyword<'a>(schema: &'a Value, key: &str) -> Option<&'a str> {
    schema.get(key).and_then(Value::as_str)
}

/// The `type` keyword as a list of type names (`"string"` or `["string", "null"]`).
pub fn types(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// One input property of a tool, as search and validation see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Property {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}

/// The top-level properties of an object schema, following a root `$ref` and `allOf` parts
/// (schemars and MCP servers both produce those shapes).
pub fn properties(root: &Value) -> Vec<Property> {
    let mut out = Vec::new();
    let mut steps = 1_000;
    collect_properties(root, root, 0, &mut steps, &mut out);
    out
}

/// `steps` bounds the walk: `allOf`s of `$ref`s can revisit one definition exponentially often.
fn collect_properties(
    root: &Value,
    schema: &Value,
    depth: usize,
    steps: &mut usize,
    out: &mut Vec<Property>,
) {
    if depth > 8 || *steps == 0 {
        return;
    }
    *steps -= 1;
    if let Some(reference) = str_keyword(schema, "$ref")
        && let Some(target) = resolve_ref(root, reference)
    {
        collect_properties(root, target, depth + 1, steps, out);
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, value) in props {
            if out.iter().any(|p| &p.name == name) {
                continue;
            }
            out.push(Property {
                name: name.clone(),
                description: str_keyword(value, "description").map(str::to_owned),
                required: required.contains(&name.as_str()),
            });
        }
    }
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        for part in parts {
            collect_properties(root, part, depth + 1, steps, out);
        }
    }
}
