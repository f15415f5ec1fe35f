//! A deterministic stand-in for the `schema_render` fuzz target that runs in `cargo test`:
//! thousands of random schema-like values built from JSON Schema's own vocabulary (so they hit
//! the interesting paths far more often than random bytes would), each put through everything
//! that takes a schema, OpenAPI import included. Nothing may panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use codemode_tools::schema::render::{Direction, RenderOptions, render};
use codemode_tools::{
    CallContext, DeclarationOptions, Namespace, SearchRequest, Tool, is_empty_input, validate,
};
use serde_json::{Map, Value, json};

/// xorshift64*: a tiny deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "anyOf",
    "oneOf",
    "allOf",
    "enum",
    "const",
    "$ref",
    "$defs",
    "definitions",
    "nullable",
    "description",
    "title",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "readOnly",
    "writeOnly",
    "deprecated",
    "examples",
];
const TYPES: &[&str] = &["string", "number", "integer", "boolean", "null", "object", "array", "weird"];
const REFS: &[&str] = &[
    "#",
    "#/$defs/A",
    "#/$defs/B",
    "#/definitions/A",
    "#/properties/a",
    "#/$defs/a~1b",
    "#/x%20y",
    "http://x",
    "#/items/0",
    "",
];
const NAMES: &[&str] = &["a", "b", "A", "B", "a-b", "__proto__", "*/", "", "2x", "name"];

fn scalar(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 0),
        2 => json!(rng.below(200) as i64 - 100),
        3 => json!(rng.below(1000) as f64 / 7.0),
        4 => json!(*rng.pick(NAMES)),
        _ => json!("text */ with \"quotes\"\nand lines"),
    }
}

fn schema(rng: &mut Rng, depth: usize) -> Value {
    if depth == 0 || rng.below(5) == 0 {
        return match rng.below(4) {
            0 => json!(rng.below(2) == 0),
            1 => json!({ "type": *rng.pick(TYPES) }),
            2 => json!({ "$ref": *rng.pick(REFS) }),
            _ => scalar(rng),
        };
    }
    let mut map = Map::new();
    for _ in 0..1 + rng.below(4) {
        let key = *rng.pick(KEYWORDS);
        let value = match key {
            "type" if rng.below(3) == 0 => json!([*rng.pick(TYPES), *rng.pick(TYPES)]),
            "type" => json!(*rng.pick(TYPES)),
            "properties" | "patternProperties" | "$defs" | "definitions" => {
                let mut props = Map::new();
                for _ in 0..rng.below(4) {
                    props.insert((*rng.pick(NAMES)).to_owned(), schema(rng, depth - 1));
                }
                Value::Object(props)
            }
            "required" => json!([*rng.pick(NAMES), *rng.pick(NAMES)]),
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                Value::Array((0..rng.below(4)).map(|_| schema(rng, depth - 1)).collect())
            }
            "items" | "additionalProperties" | "additionalItems" if rng.below(4) == 0 => {
                Value::Array((0..rng.below(3)).map(|_| schema(rng, depth - 1)).collect())
            }
            "items" | "additionalProperties" | "additionalItems" => schema(rng, depth - 1),
            "enum" | "examples" => Value::Array((0..rng.below(4)).map(|_| scalar(rng)).collect()),
            "$ref" => json!(*rng.pick(REFS)),
            _ => scalar(rng),
        };
        map.insert(key.to_owned(), value);
    }
    Value::Object(map)
}

fn exercise(schema: &Value, rng: &mut Rng) {
    for options in [
        RenderOptions::compact(),
        RenderOptions::pretty(),
        RenderOptions::compact().direction(Direction::Input),
        RenderOptions::pretty().direction(Direction::Output).indent(2),
    ] {
        let text = render(schema, options);
        assert!(!text.is_empty());
    }
    for _ in 0..3 {
        let value = self::schema(rng, 4);
        let _ = validate::check(schema, &value);
    }
    let _ = validate::check(schema, schema);
    let _ = is_empty_input(Some(schema));
    let tool = Tool::from_json("t", Some(schema.clone()), Some(schema.clone()), |v, _| async move { Ok(v) })
        .validate_input(true)
        .validate_output(true);
    let _ = common::block_on(tool.invoke(schema.clone(), CallContext::new("r:1", "a.b")));
    let tools = Namespace::new().tool("a.b", tool.clone()).tool("c-d", tool).build().unwrap();
    let _ = tools.declarations(&DeclarationOptions::default().with_search(true));
    let _ = tools.search(&SearchRequest::query(schema.to_string()).limit(2));
    let _ = tools.search_json(schema);
    // The same value as an OpenAPI document, and inside one in every schema position.
    let _ = codemode_tools::openapi::from_spec(schema, |_, _| async { Ok(Value::Null) });
    let spec = json!({
        "components": { "schemas": { "A": schema, "B": schema } },
        "paths": { "/x/{a}": { "post": {
            "parameters": [{ "name": "a", "in": "path", "schema": schema }, { "name": "q", "in": "query", "schema": schema }],
            "requestBody": { "content": { "application/json": { "schema": schema } } },
            "responses": { "200": { "content": { "application/json": { "schema": schema } } } }
        } } }
    });
    if let Ok(imported) = codemode_tools::openapi::from_spec(&spec, |_, _| async { Ok(Value::Null) })
        && let Ok(tools) = Namespace::new().namespace("api", imported.namespace).build()
    {
        for (path, tool) in tools.iter() {
            let _ = common::block_on(tool.invoke(schema.clone(), CallContext::new("r:1", path)));
        }
    }
}

#[test]
fn random_schemas_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3_000 {
        let schema = schema(&mut rng, 6);
        exercise(&schema, &mut rng);
    }
}
