//! Whole-JSON-Schema checking (drafts 4 to 2020-12: `pattern`, `format`, `$ref`, `$defs`,
//! combinators, `unevaluatedProperties`, …) through the maintained `jsonschema` crate, with
//! its errors mapped to this crate's path-precise [`ValidationError`]s.
//!
//! The hand-written checker of `mod.rs` runs first (its messages carry "did you mean"
//! suggestions, and it rejects an undeclared property one typo away from a declared one); what
//! it lets through is checked by the `jsonschema` validator, whose errors are mapped here (`at input.email: expected a string in format "email", got "x"`).
//! A schema that the crate cannot compile (a remote `$ref`: resolving over the network or the
//! file system is disabled; a regex it does not support) or that nests deeper than
//! [`MAX_SCHEMA_DEPTH`] is checked by the hand-written subset alone.

use std::sync::{Arc, OnceLock};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::LocationSegment;
use serde_json::Value;

use super::{ValidationError, push_key, short};
use crate::schema::MAX_SCHEMA_DEPTH;

/// A schema with its compiled validator, compiled on first use and shared by every call.
pub struct CompiledSchema {
    schema: Arc<Value>,
    validator: OnceLock<Option<jsonschema::Validator>>,
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledSchema").field("schema", &self.schema).finish_non_exhaustive()
    }
}

impl CompiledSchema {
    /// Wraps a schema; nothing is compiled until the first check.
    pub fn new(schema: Arc<Value>) -> Self {
        Self { schema, validator: OnceLock::new() }
    }

    /// The schema.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// Checks `value`, with paths starting at `root` (`input`, `output`).
    pub fn check_at(&self, value: &Value, root: &str) -> Result<(), ValidationError> {
        match self.validator.get_or_init(|| compile(&self.schema)) {
            Some(validator) => check_compiled(validator, &self.schema, value, root),
            None => super::check_subset(&self.schema, value, root),
        }
    }
}

/// Compiles a schema, or `None` when it is too deep or the crate rejects it.
pub(super) fn compile(schema: &Value) -> Option<jsonschema::Validator> {
    if depth(schema) > MAX_SCHEMA_DEPTH {
        return None;
    }
    let mut budget = EXPANSION_BUDGET;
    if !expansion_fits(schema, schema, 0, &mut budget, &mut Vec::new()) {
        return None;
    }
    let rewritten;
    let schema = if has_nullable(schema) {
        rewritten = rewrite_nullable(schema.clone());
        &rewritten
    } else {
        schema
    };
    jsonschema::options().should_validate_formats(true).build(schema).ok()
}

/// Schema nodes a schema may expand to with its local `$ref`s followed (each recursive one
/// once). `allOf`s of `$ref`s to `allOf`s of `$ref`s grow exponentially, and the crate
/// compiles and checks such a DAG in exponential time; the subset checker has a step budget.
const EXPANSION_BUDGET: usize = 50_000;

/// Whether `schema`, with local `$ref`s expanded, stays within `budget` nodes.
fn expansion_fits<'a>(
    root: &'a Value,
    schema: &'a Value,
    depth: usize,
    budget: &mut usize,
    active: &mut Vec<&'a Value>,
) -> bool {
    if *budget == 0 || depth > 4 * MAX_SCHEMA_DEPTH {
        return false;
    }
    *budget -= 1;
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref")
                && let Some(target) = crate::schema::resolve_ref(root, reference)
                && !active.iter().any(|seen| std::ptr::eq(*seen, target))
            {
                active.push(target);
                let fits = expansion_fits(root, target, depth + 1, budget, active);
                active.pop();
                if !fits {
                    return false;
                }
            }
            map.iter()
                .filter(|(key, _)| !DATA_KEYWORDS.contains(&key.as_str()))
                .all(|(_, value)| expansion_fits(root, value, depth + 1, budget, active))
        }
        Value::Array(items) => items.iter().all(|item| expansion_fits(root, item, depth + 1, budget, active)),
        _ => true,
    }
}

/// Keywords whose values are data, not schemas.
const DATA_KEYWORDS: [&str; 5] = ["const", "enum", "default", "examples", "example"];

fn has_nullable(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| {
            (key == "nullable" && value == &Value::Bool(true))
                || (!DATA_KEYWORDS.contains(&key.as_str()) && has_nullable(value))
        }),
        Value::Array(items) => items.iter().any(has_nullable),
        _ => false,
    }
}

/// OpenAPI 3.0's `nullable: true` (which the subset checker honours, and MCP servers generated
/// from OpenAPI carry) as JSON Schema: `null` joins the types, or the schema becomes
/// `anyOf [schema, null]`. Depth is bounded by [`compile`]'s check.
fn rewrite_nullable(schema: Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut map: serde_json::Map<String, Value> = map
                .into_iter()
                .map(|(key, value)| {
                    if DATA_KEYWORDS.contains(&key.as_str()) {
                        (key, value)
                    } else {
                        let value = rewrite_nullable(value);
                        (key, value)
                    }
                })
                .collect();
            if map.get("nullable") != Some(&Value::Bool(true)) {
                return Value::Object(map);
            }
            map.remove("nullable");
            let null = Value::String("null".to_owned());
            let simple_type = !["enum", "const", "$ref", "allOf", "anyOf", "oneOf", "not"]
                .iter()
                .any(|k| map.contains_key(*k));
            match map.get_mut("type") {
                Some(Value::String(t)) if simple_type => {
                    let t = std::mem::take(t);
                    map.insert("type".to_owned(), Value::Array(vec![Value::String(t), null]));
                    Value::Object(map)
                }
                Some(Value::Array(types)) if simple_type => {
                    if !types.contains(&null) {
                        types.push(null);
                    }
                    Value::Object(map)
                }
                _ => {
                    let mut wrapper = serde_json::Map::new();
                    // Definitions and the dialect stay at the root, where `$ref`s find them.
                    for key in ["$schema", "$id", "$defs", "definitions"] {
                        if let Some(value) = map.remove(key) {
                            wrapper.insert(key.to_owned(), value);
                        }
                    }
                    let null_schema = serde_json::json!({ "type": "null" });
                    wrapper.insert("anyOf".to_owned(), Value::Array(vec![Value::Object(map), null_schema]));
                    Value::Object(wrapper)
                }
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(rewrite_nullable).collect()),
        other => other,
    }
}

/// Checks with the subset checker first (its messages are the better ones, and it deliberately
/// rejects an unknown property one typo away from a declared one, which JSON Schema allows),
/// then with the compiled validator for everything else.
pub(super) fn check_compiled(
    validator: &jsonschema::Validator,
    schema: &Value,
    value: &Value,
    root: &str,
) -> Result<(), ValidationError> {
    super::check_subset(schema, value, root)?;
    if validator.is_valid(value) {
        return Ok(());
    }
    let Some(error) = validator.iter_errors(value).next() else {
        return Ok(());
    };
    Err(map_error(&error, root))
}

/// Nesting depth of a JSON value, without recursion.
fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 1usize)];
    while let Some((v, d)) = stack.pop() {
        deepest = deepest.max(d);
        if d > MAX_SCHEMA_DEPTH {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter().map(|i| (i, d + 1))),
            Value::Object(map) => stack.extend(map.values().map(|i| (i, d + 1))),
            _ => {}
        }
    }
    deepest
}

/// `input`, `input.items[0]["a-b"]` from a JSON pointer location.
fn path_of(root: &str, location: &jsonschema::paths::Location) -> String {
    let mut path = root.to_owned();
    for segment in location.segments() {
        match segment {
            LocationSegment::Property(key) => push_key(&mut path, &key),
            LocationSegment::Index(i) => {
                path.push('[');
                path.push_str(&i.to_string());
                path.push(']');
            }
        }
    }
    path
}

fn json_type(value: &Value) -> &'static str {
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

fn count(n: usize, one: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") }
}

/// Maps one error of the crate to a model-readable message.
fn map_error(error: &jsonschema::ValidationError<'_>, root: &str) -> ValidationError {
    let instance = error.instance();
    let found = short(instance);
    let mut path = path_of(root, error.instance_path());
    let (expected, found) = match error.kind() {
        // The branch that got furthest says most about what was meant.
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            let best = context
                .iter()
                .filter_map(|branch| branch.first())
                .max_by_key(|e| e.instance_path().segments().count());
            match best {
                Some(inner) if inner.instance_path().segments().count() > 0 => {
                    return map_error(inner, root);
                }
                _ => ("a value matching one of the allowed shapes".to_owned(), found),
            }
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => (
            "a value matching exactly one of the allowed shapes".to_owned(),
            "one matching several".to_owned(),
        ),
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let names: Vec<String> = unexpected.iter().take(5).map(|n| format!("'{n}'")).collect();
            ("no other properties".to_owned(), format!("unknown property {}", names.join(", ")))
        }
        ValidationErrorKind::AdditionalItems { limit } => {
            (format!("at most {}", count(*limit, "item")), "more".to_owned())
        }
        ValidationErrorKind::UnevaluatedItems { .. } => ("no further items".to_owned(), "more".to_owned()),
        ValidationErrorKind::Constant { expected_value } => (short(expected_value), found),
        ValidationErrorKind::Contains => {
            ("an array containing a matching item".to_owned(), "none".to_owned())
        }
        ValidationErrorKind::ContentEncoding { content_encoding } => {
            (format!("a string in {content_encoding} encoding"), found)
        }
        ValidationErrorKind::ContentMediaType { content_media_type } => {
            (format!("a string of media type {content_media_type}"), found)
        }
        ValidationErrorKind::FromUtf8 { .. } => ("base64 of UTF-8 text".to_owned(), found),
        ValidationErrorKind::Custom { message, .. } => (message.clone(), found),
        ValidationErrorKind::Enum { options } => {
            let listed: Vec<String> = match options.as_ref() {
                Value::Array(items) => items.iter().take(8).map(short).collect(),
                other => vec![short(other)],
            };
            (format!("one of {}", listed.join(", ")), found)
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => (format!("a number < {limit}"), found),
        ValidationErrorKind::ExclusiveMinimum { limit } => (format!("a number > {limit}"), found),
        ValidationErrorKind::Maximum { limit } => (format!("a number <= {limit}"), found),
        ValidationErrorKind::Minimum { limit } => (format!("a number >= {limit}"), found),
        ValidationErrorKind::MultipleOf { multiple_of } => (format!("a multiple of {multiple_of}"), found),
        ValidationErrorKind::FalseSchema => {
            ("nothing (this value is not allowed)".to_owned(), json_type(instance).to_owned())
        }
        ValidationErrorKind::Format { format } => (format!("a string in format \"{format}\""), found),
        ValidationErrorKind::MaxItems { limit } => {
            (format!("at most {limit} items"), count(array_len(instance), "item"))
        }
        ValidationErrorKind::MinItems { limit } => {
            (format!("at least {limit} items"), count(array_len(instance), "item"))
        }
        ValidationErrorKind::MaxLength { limit } => {
            (format!("a string of at most {limit} characters"), count(chars(instance), "character"))
        }
        ValidationErrorKind::MinLength { limit } => {
            (format!("a string of at least {limit} characters"), count(chars(instance), "character"))
        }
        ValidationErrorKind::MaxProperties { limit } => {
            (format!("at most {limit} properties"), count(object_len(instance), "property"))
        }
        ValidationErrorKind::MinProperties { limit } => {
            (format!("at least {limit} properties"), count(object_len(instance), "property"))
        }
        ValidationErrorKind::Not { schema } => (format!("a value not matching {}", short(schema)), found),
        ValidationErrorKind::BacktrackLimitExceeded { .. }
        | ValidationErrorKind::RegexEngineFailure { .. } => {
            ("a string the schema's pattern can check (the pattern failed to run)".to_owned(), found)
        }
        ValidationErrorKind::Pattern { pattern } => (format!("a string matching /{pattern}/"), found),
        ValidationErrorKind::PropertyNames { error: inner } => {
            let mapped = map_error(inner, "name");
            (format!("property names that are {}", mapped.expected), mapped.found)
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().map_or_else(|| property.to_string(), str::to_owned);
            push_key(&mut path, &name);
            ("a value (required)".to_owned(), "undefined".to_owned())
        }
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => t.to_string(),
                TypeKind::Multiple(set) => set.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" | "),
            };
            (expected, json_type(instance).to_owned())
        }
        ValidationErrorKind::UniqueItems => ("unique items".to_owned(), "duplicates".to_owned()),
        ValidationErrorKind::Referencing(e) => (format!("a schema whose $ref resolves ({e})"), found),
    };
    ValidationError { path, expected, found, suggestion: None }
}

fn array_len(value: &Value) -> usize {
    value.as_array().map_or(0, Vec::len)
}

fn object_len(value: &Value) -> usize {
    value.as_object().map_or(0, serde_json::Map::len)
}

fn chars(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}
