//! Checking a JSON value against a JSON Schema, with errors a model can act on: the JSON path,
//! what was expected, what was found, and the nearest valid property name for a typo.
//!
//! The whole of JSON Schema is checked by the `jsonschema` crate (see `full.rs`, and
//! [`CompiledSchema`] for a schema compiled once and checked often). The hand-written checker
//! here is a pragmatic subset (types, objects, arrays, tuples, enums, consts,
//! combinators, local `$ref`, numeric/string/array bounds) that runs first and words most
//! messages (with a "did you mean"); it alone checks schemas the crate cannot compile. `oneOf` is checked as "at least
//! one branch" — lenient on purpose, since the goal is catching model mistakes, not policing
//! schema authors. Keywords it does not know are ignored. Recursion is depth-guarded; a schema
//! deeper than [`MAX_SCHEMA_DEPTH`] is accepted from there on rather than failing.

use std::fmt;

use serde_json::Value;

use crate::schema::{MAX_SCHEMA_DEPTH, resolve_ref, str_keyword, types};
use crate::suggest::nearest;

/// Why a value does not match a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// JSON path of the offending value, `input` for the root (`input.items[0].id`).
    pub path: String,
    /// What the schema expected there.
    pub expected: String,
    /// What was found (a JSON type name, or a short description).
    pub found: String,
    /// The nearest valid property name, when the problem is an unknown or missing property.
    pub suggestion: Option<String>,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}: expected {}, got {}", self.path, self.expected, self.found)?;
        if let Some(s) = &self.suggestion {
            write!(f, " (did you mean '{s}'?)")?;
        }
        Ok(())
    }
}

mod full;

pub use full::CompiledSchema;

/// Checks `value` against `schema` (whose own root resolves `$ref`s). Paths start at `input`.
/// The schema is compiled on every call: keep a [`CompiledSchema`] to check often.
pub fn check(schema: &Value, value: &Value) -> Result<(), ValidationError> {
    check_at(schema, value, "input")
}

/// Like [`check`], with paths starting at `root` (`output` for results).
pub fn check_at(schema: &Value, value: &Value, root: &str) -> Result<(), ValidationError> {
    match full::compile(schema) {
        Some(validator) => full::check_compiled(&validator, schema, value, root),
        None => check_subset(schema, value, root),
    }
}

/// The hand-written subset alone.
fn check_subset(schema: &Value, value: &Value, root: &str) -> Result<(), ValidationError> {
    let mut path = String::from(root);
    Checker { root: schema, steps: std::cell::Cell::new(STEP_BUDGET) }.check(schema, value, &mut path, 0)
}

struct Checker<'a> {
    root: &'a Value,
    /// Checks left before the rest is accepted unchecked. `$ref`s and `allOf` can make a small
    /// schema check one value exponentially often (`A = allOf [B, B]`, `B = allOf [C, C]`, …);
    /// depth alone does not bound that.
    steps: std::cell::Cell<usize>,
}

/// Schema checks one validation may make: far above what a megabyte of JSON against a sane
/// schema needs, far below a hang.
const STEP_BUDGET: usize = 1_000_000;

/// The JSON type name of a value, as error messages show it.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn matches_type(name: &str, value: &Value) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "number" => value.is_number(),
        "integer" => match value {
            Value::Number(n) => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
            _ => false,
        },
        _ => true,
    }
}

pub(crate) fn push_key(path: &mut String, key: &str) {
    if crate::names::is_identifier(key) {
        path.push('.');
        path.push_str(key);
    } else {
        path.push('[');
        path.push_str(&Value::String(key.to_owned()).to_string());
        path.push(']');
    }
}

pub(crate) fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 40 {
        let mut end = 37;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &text[..end])
    } else {
        text
    }
}

impl Checker<'_> {
    fn fail(
        &self,
        path: &str,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Result<(), ValidationError> {
        Err(ValidationError {
            path: path.to_owned(),
            expected: expected.into(),
            found: found.into(),
            suggestion: None,
        })
    }

    fn check(
        &self,
        schema: &Value,
        value: &Value,
        path: &mut String,
        depth: usize,
    ) -> Result<(), ValidationError> {
        if depth > MAX_SCHEMA_DEPTH || self.steps.get() == 0 {
            return Ok(());
        }
        self.steps.set(self.steps.get() - 1);
        let object = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => {
                return self.fail(path, "nothing (this value is not allowed)", type_name(value));
            }
            Value::Object(object) => object,
            _ => return Ok(()),
        };
        if let Some(target) = str_keyword(schema, "$ref").and_then(|r| resolve_ref(self.root, r)) {
            self.check(target, value, path, depth + 1)?;
        }
        if value.is_null() && object.get("nullable").and_then(Value::as_bool) == Some(true) {
            return Ok(());
        }
        let type_list = types(schema);
        if !type_list.is_empty() && !type_list.iter().any(|t| matches_type(t, value)) {
            return self.fail(path, type_list.join(" | "), type_name(value));
        }
        if let Some(expected) = object.get("const")
            && expected != value
        {
            return self.fail(path, short(expected), short(value));
        }
        // A long enum costs in proportion, so the step budget also bounds enum scans.
        if let Some(Value::Array(options)) = object.get("enum") {
            self.steps.set(self.steps.get().saturating_sub(options.len()));
        }
        if let Some(Value::Array(options)) = object.get("enum")
            && !options.contains(value)
        {
            let expected: Vec<String> = options.iter().take(8).map(short).collect();
            let mut err = ValidationError {
                path: path.clone(),
                expected: format!("one of {}", expected.join(", ")),
                found: short(value),
                suggestion: None,
            };
            if let Value::String(s) = value {
                err.suggestion = nearest(s, options.iter().filter_map(Value::as_str)).map(str::to_owned);
            }
            return Err(err);
        }
        for key in ["allOf"] {
            if let Some(Value::Array(parts)) = object.get(key) {
                for part in parts {
                    self.check(part, value, path, depth + 1)?;
                }
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = object.get(key) {
                self.check_any(branches, value, path, depth)?;
            }
        }
        match value {
            Value::Object(map) => self.check_object(object, map, path, depth),
            Value::Array(items) => self.check_array(object, items, path, depth),
            Value::String(s) => self.check_string(object, s, path),
            Value::Number(n) => self.check_number(object, n.as_f64().unwrap_or(0.0), path),
            _ => Ok(()),
        }
    }

    fn check_any(
        &self,
        branches: &[Value],
        value: &Value,
        path: &mut String,
        depth: usize,
    ) -> Result<(), ValidationError> {
        if branches.is_empty() {
            return Ok(());
        }
        let mut deepest: Option<ValidationError> = None;
        for branch in branches {
            match self.check(branch, value, path, depth + 1) {
                Ok(()) => return Ok(()),
                Err(err) => {
                    if err.path.len() > path.len()
                        && deepest.as_ref().is_none_or(|d| err.path.len() > d.path.len())
                    {
                        deepest = Some(err);
                    }
                }
            }
        }
        // A branch that failed below this value is the one the caller was aiming for.
        if let Some(err) = deepest {
            return Err(err);
        }
        let described: Vec<String> = branches.iter().take(6).map(|b| describe(b, self.root)).collect();
        self.fail(path, described.join(" | "), type_name(value))
    }

    fn check_object(
        &self,
        schema: &serde_json::Map<String, Value>,
        map: &serde_json::Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) -> Result<(), ValidationError> {
        let props = schema.get("properties").and_then(Value::as_object);
        let known = || props.into_iter().flat_map(|p| p.keys().map(String::as_str));
        if let Some(Value::Array(required)) = schema.get("required") {
            for name in required.iter().filter_map(Value::as_str) {
                if !map.contains_key(name) {
                    let unknown: Vec<&str> = map
                        .keys()
                        .map(String::as_str)
                        .filter(|k| props.is_none_or(|p| !p.contains_key(*k)))
                        .collect();
                    let len = path.len();
                    push_key(path, name);
                    let expected = props.and_then(|p| p.get(name)).map(|s| describe(s, self.root));
                    let err = ValidationError {
                        path: path.clone(),
                        expected: format!("{} (required)", expected.unwrap_or_else(|| "a value".to_owned())),
                        found: match nearest(name, unknown.iter().copied()) {
                            Some(typo) => format!("undefined, and an unknown property '{typo}'"),
                            None => "undefined".to_owned(),
                        },
                        suggestion: nearest(name, unknown).map(|_| name.to_owned()),
                    };
                    path.truncate(len);
                    return Err(err);
                }
            }
        }
        let additional = schema.get("additionalProperties");
        for (key, item) in map {
            let len = path.len();
            push_key(path, key);
            let result = if let Some(sub) = props.and_then(|p| p.get(key)) {
                self.check(sub, item, path, depth + 1)
            } else {
                match additional {
                    // Keys may be allowed by `patternProperties`, which is not matched here
                    // (ECMAScript patterns), so an unlisted key is only an error without it.
                    Some(Value::Bool(false)) if !schema.contains_key("patternProperties") => {
                        path.truncate(len);
                        return Err(ValidationError {
                            path: path.clone(),
                            expected: format!(
                                "only known properties ({})",
                                known().take(12).collect::<Vec<_>>().join(", ")
                            ),
                            found: format!("unknown property '{key}'"),
                            suggestion: nearest(key, known()).map(str::to_owned),
                        });
                    }
                    Some(sub @ Value::Object(_)) => self.check(sub, item, path, depth + 1),
                    Some(Value::Bool(true)) => Ok(()),
                    // Extra keys are allowed, but a near-typo of a property the value lacks
                    // (`limt` without `limit`) is almost always a mistake that would otherwise be
                    // silently ignored.
                    _ => match nearest(key, known().filter(|k| !map.contains_key(*k))) {
                        Some(intended) if !schema.contains_key("patternProperties") => {
                            path.truncate(len);
                            return Err(ValidationError {
                                path: path.clone(),
                                expected: format!("property '{intended}'"),
                                found: format!("unknown property '{key}'"),
                                suggestion: Some(intended.to_owned()),
                            });
                        }
                        _ => Ok(()),
                    },
                }
            };
            path.truncate(len);
            result?;
        }
        if let Some(min) = schema.get("minProperties").and_then(Value::as_u64)
            && (map.len() as u64) < min
        {
            return self.fail(path, format!("at least {min} properties"), map.len().to_string());
        }
        Ok(())
    }

    fn check_array(
        &self,
        schema: &serde_json::Map<String, Value>,
        items: &[Value],
        path: &mut String,
        depth: usize,
    ) -> Result<(), ValidationError> {
        // 2020-12 `prefixItems` + `items`, or draft-4..7 array-form `items` + `additionalItems`.
        let (prefix, rest) = match (schema.get("prefixItems"), schema.get("items")) {
            (Some(Value::Array(prefix)), rest) => (prefix.as_slice(), rest),
            (None, Some(Value::Array(prefix))) => (prefix.as_slice(), schema.get("additionalItems")),
            (_, rest) => (&[][..], rest),
        };
        for (index, item) in items.iter().enumerate() {
            let sub = match prefix.get(index) {
                Some(sub) => Some(sub),
                None => rest,
            };
            if let Some(sub) = sub {
                let len = path.len();
                path.push_str(&format!("[{index}]"));
                let result = self.check(sub, item, path, depth + 1);
                path.truncate(len);
                result?;
            }
        }
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
            && (items.len() as u64) < min
        {
            return self.fail(path, format!("at least {min} items"), format!("{} items", items.len()));
        }
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
            && (items.len() as u64) > max
        {
            return self.fail(path, format!("at most {max} items"), format!("{} items", items.len()));
        }
        Ok(())
    }

    fn check_string(
        &self,
        schema: &serde_json::Map<String, Value>,
        s: &str,
        path: &str,
    ) -> Result<(), ValidationError> {
        let len = s.chars().count() as u64;
        if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
            && len < min
        {
            return self.fail(
                path,
                format!("a string of at least {min} characters"),
                format!("{len} characters"),
            );
        }
        if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
            && len > max
        {
            return self.fail(
                path,
                format!("a string of at most {max} characters"),
                format!("{len} characters"),
            );
        }
        Ok(())
    }

    fn check_number(
        &self,
        schema: &serde_json::Map<String, Value>,
        n: f64,
        path: &str,
    ) -> Result<(), ValidationError> {
        let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
        if let Some(min) = bound("minimum")
            && n < min
        {
            return self.fail(path, format!("a number >= {min}"), n.to_string());
        }
        if let Some(max) = bound("maximum")
            && n > max
        {
            return self.fail(path, format!("a number <= {max}"), n.to_string());
        }
        if let Some(min) = bound("exclusiveMinimum")
            && n <= min
        {
            return self.fail(path, format!("a number > {min}"), n.to_string());
        }
        if let Some(max) = bound("exclusiveMaximum")
            && n >= max
        {
            return self.fail(path, format!("a number < {max}"), n.to_string());
        }
        Ok(())
    }
}

/// A short description of what a schema accepts, for union error messages.
fn describe(schema: &Value, root: &Value) -> String {
    let rendered = crate::schema::render::render_compact(schema, root);
    if rendered.len() > 60 { types(schema).join(" | ").to_string() } else { rendered }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reports_path_expected_and_suggestion() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": { "type": "string" },
                "items": { "type": "array", "items": { "type": "object", "properties": { "id": { "type": "integer" } } } }
            },
            "required": ["name"],
            "additionalProperties": false
        });
        let err = check(&schema, &json!({ "nmae": "x" })).unwrap_err();
        assert_eq!(
            err.to_string(),
            "at input.name: expected string (required), got undefined, and an unknown property 'nmae' (did you mean 'name'?)"
        );
        let err = check(&schema, &json!({ "name": "x", "itms": [] })).unwrap_err();
        assert_eq!(err.suggestion.as_deref(), Some("items"));
        let err = check(&schema, &json!({ "name": "x", "items": [{ "id": "7" }] })).unwrap_err();
        assert_eq!(err.to_string(), "at input.items[0].id: expected integer, got string");
        assert!(check(&schema, &json!({ "name": "x", "items": [{ "id": 7 }] })).is_ok());
    }

    #[test]
    fn constructs() {
        let ok = |schema: Value, value: Value| assert!(check(&schema, &value).is_ok(), "{schema} {value}");
        let bad = |schema: Value, value: Value| check(&schema, &value).unwrap_err().to_string();
        ok(json!(true), json!(1));
        assert_eq!(
            bad(json!(false), json!(1)),
            "at input: expected nothing (this value is not allowed), got integer"
        );
        ok(json!({ "type": "integer" }), json!(3.0));
        assert_eq!(bad(json!({ "type": "integer" }), json!(3.5)), "at input: expected integer, got number");
        ok(json!({ "type": ["string", "null"] }), json!(null));
        ok(json!({ "type": "string", "nullable": true }), json!(null));
        assert_eq!(
            bad(json!({ "enum": ["open", "closed"] }), json!("opne")),
            "at input: expected one of \"open\", \"closed\", got \"opne\" (did you mean 'open'?)"
        );
        assert_eq!(bad(json!({ "const": "v1" }), json!("v2")), "at input: expected \"v1\", got \"v2\"");
        let tuple = json!({ "type": "array", "prefixItems": [{ "type": "string" }, { "type": "number" }], "items": false });
        ok(tuple.clone(), json!(["a", 1]));
        assert_eq!(bad(tuple.clone(), json!(["a", "b"])), "at input[1]: expected number, got string");
        assert_eq!(
            bad(tuple, json!(["a", 1, true])),
            "at input[2]: expected nothing (this value is not allowed), got boolean"
        );
        let union = json!({ "anyOf": [{ "type": "string" }, { "type": "object", "properties": { "id": { "type": "integer" } }, "required": ["id"] }] });
        ok(union.clone(), json!("x"));
        ok(union.clone(), json!({ "id": 1 }));
        assert_eq!(bad(union.clone(), json!({ "id": "1" })), "at input.id: expected integer, got string");
        assert_eq!(bad(union, json!(true)), "at input: expected string | { id: number }, got boolean");
        let all = json!({ "allOf": [{ "type": "object", "properties": { "a": { "type": "string" } } }, { "required": ["b"] }] });
        assert_eq!(bad(all, json!({ "a": "x" })), "at input.b: expected a value (required), got undefined");
        let refs = json!({ "$defs": { "Id": { "type": "string", "minLength": 3 } }, "properties": { "id": { "$ref": "#/$defs/Id" } } });
        assert_eq!(
            bad(refs, json!({ "id": "ab" })),
            "at input.id: expected a string of at least 3 characters, got 2 characters"
        );
        let bounds = json!({ "type": "number", "minimum": 1, "exclusiveMaximum": 10 });
        assert_eq!(bad(bounds.clone(), json!(0)), "at input: expected a number >= 1, got 0");
        assert_eq!(bad(bounds, json!(10)), "at input: expected a number < 10, got 10");
        let keys = json!({ "type": "object", "properties": { "a-b": { "type": "string" } }, "additionalProperties": { "type": "integer" } });
        assert_eq!(bad(keys.clone(), json!({ "a-b": 1 })), "at input[\"a-b\"]: expected string, got integer");
        assert_eq!(bad(keys, json!({ "x": "y" })), "at input.x: expected integer, got string");
        ok(json!({ "additionalProperties": false, "patternProperties": { "^x": {} } }), json!({ "xy": 1 }));
        let open = json!({ "type": "object", "properties": { "limit": { "type": "integer" } } });
        assert_eq!(
            bad(open.clone(), json!({ "limt": 3 })),
            "at input: expected property 'limit', got unknown property 'limt' (did you mean 'limit'?)"
        );
        ok(open.clone(), json!({ "limit": 3, "limt": 3 }));
        ok(open, json!({ "unrelated": 3 }));
        // The whole of JSON Schema, through the `jsonschema` crate.
        let email =
            json!({ "type": "object", "properties": { "email": { "type": "string", "format": "email" } } });
        assert_eq!(
            bad(email.clone(), json!({ "email": "x" })),
            "at input.email: expected a string in format \"email\", got \"x\""
        );
        ok(email, json!({ "email": "ada@example.com" }));
        let pattern =
            json!({ "properties": { "tags": { "items": { "type": "string", "pattern": "^[a-z]+$" } } } });
        assert_eq!(
            bad(pattern, json!({ "tags": ["ok", "No!"] })),
            "at input.tags[1]: expected a string matching /^[a-z]+$/, got \"No!\""
        );
        let unevaluated = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "allOf": [{ "properties": { "a": { "type": "string" } } }],
            "properties": { "b": { "type": "string" } },
            "unevaluatedProperties": false
        });
        ok(unevaluated.clone(), json!({ "a": "x", "b": "y" }));
        assert_eq!(
            bad(unevaluated, json!({ "a": "x", "zzz": 1 })),
            "at input: expected no other properties, got unknown property 'zzz'"
        );
        let one_of = json!({ "oneOf": [{ "type": "integer" }, { "type": "number", "minimum": 0 }] });
        assert_eq!(
            bad(one_of, json!(3)),
            "at input: expected a value matching exactly one of the allowed shapes, got one matching several"
        );
        let draft7 = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": { "Port": { "type": "integer", "maximum": 65535 } },
            "properties": { "port": { "$ref": "#/definitions/Port" } },
            "dependencies": { "port": ["host"] }
        });
        assert_eq!(
            bad(draft7.clone(), json!({ "port": 70000, "host": "h" })),
            "at input.port: expected a number <= 65535, got 70000"
        );
        assert_eq!(
            bad(draft7, json!({ "port": 80 })),
            "at input.host: expected a value (required), got undefined"
        );
        let remote = json!({ "$ref": "https://example.com/schema.json", "type": "string" });
        assert_eq!(bad(remote, json!(1)), "at input: expected string, got integer");
        let cyclic = json!({ "$ref": "#" });
        ok(cyclic, json!(1));
        assert_eq!(
            check_at(&json!({ "type": "string" }), &json!(1), "output").unwrap_err().to_string(),
            "at output: expected string, got integer"
        );
    }
}
