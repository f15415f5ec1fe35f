//! The JSON Schema → TypeScript renderer: every construct, both modes, and its guards.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use codemode_tools::schema::render::{Direction, RenderOptions, render};
use serde_json::{Value, json};

fn compact(schema: Value) -> String {
    render(&schema, RenderOptions::compact())
}

fn pretty(schema: Value) -> String {
    render(&schema, RenderOptions::pretty())
}

/// Every construct in compact mode, one per line, so a single snapshot reviews them all.
#[test]
fn constructs_compact() {
    let cases: Vec<(&str, Value)> = vec![
        ("true schema", json!(true)),
        ("false schema", json!(false)),
        ("empty schema", json!({})),
        ("string", json!({ "type": "string" })),
        ("integer", json!({ "type": "integer" })),
        ("number", json!({ "type": "number" })),
        ("boolean", json!({ "type": "boolean" })),
        ("null", json!({ "type": "null" })),
        ("unknown type word", json!({ "type": "date" })),
        ("type array", json!({ "type": ["string", "number"] })),
        ("type array with null", json!({ "type": ["string", "null"] })),
        ("nullable (OpenAPI)", json!({ "type": "string", "nullable": true })),
        (
            "object required/optional",
            json!({ "type": "object", "properties": { "id": { "type": "string" }, "limit": { "type": "integer" } }, "required": ["id"] }),
        ),
        ("object without type", json!({ "properties": { "a": { "type": "boolean" } } })),
        (
            "non-identifier keys",
            json!({ "type": "object", "properties": { "repo-name": { "type": "string" }, "$ok": { "type": "string" }, "2fa": { "type": "boolean" } }, "required": ["repo-name"] }),
        ),
        ("bare object", json!({ "type": "object" })),
        ("closed empty object", json!({ "type": "object", "additionalProperties": false })),
        ("record", json!({ "type": "object", "additionalProperties": { "type": "number" } })),
        (
            "props + additionalProperties schema",
            json!({ "type": "object", "properties": { "a": { "type": "string" } }, "additionalProperties": { "type": "number" } }),
        ),
        (
            "props + additionalProperties true",
            json!({ "type": "object", "properties": { "a": { "type": "string" } }, "additionalProperties": true }),
        ),
        (
            "patternProperties",
            json!({ "type": "object", "patternProperties": { "^x-": { "type": "string" } } }),
        ),
        ("array of strings", json!({ "type": "array", "items": { "type": "string" } })),
        ("array without items", json!({ "type": "array" })),
        ("array of union", json!({ "type": "array", "items": { "type": ["string", "number"] } })),
        (
            "array of objects",
            json!({ "type": "array", "items": { "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"] } }),
        ),
        (
            "nested arrays",
            json!({ "type": "array", "items": { "type": "array", "items": { "type": "integer" } } }),
        ),
        (
            "prefixItems tuple",
            json!({ "type": "array", "prefixItems": [{ "type": "string" }, { "type": "number" }], "items": false }),
        ),
        (
            "prefixItems with rest",
            json!({ "type": "array", "prefixItems": [{ "type": "string" }], "items": { "type": "boolean" } }),
        ),
        (
            "prefixItems optional tail",
            json!({ "type": "array", "prefixItems": [{ "type": "string" }, { "type": "number" }], "minItems": 1 }),
        ),
        ("draft-4 tuple", json!({ "type": "array", "items": [{ "type": "string" }, { "type": "null" }] })),
        ("enum strings", json!({ "enum": ["open", "closed", "all"] })),
        ("enum mixed", json!({ "enum": ["a", 1, true, null] })),
        ("enum quotes", json!({ "enum": ["say \"hi\"", "a\\b"] })),
        ("const string", json!({ "const": "v1" })),
        ("const object", json!({ "const": { "kind": "x", "n": [1, 2] } })),
        (
            "oneOf",
            json!({ "oneOf": [{ "type": "string" }, { "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"] }] }),
        ),
        ("anyOf with null", json!({ "anyOf": [{ "type": "integer" }, { "type": "null" }] })),
        ("anyOf duplicates collapse", json!({ "anyOf": [{ "type": "integer" }, { "type": "number" }] })),
        ("anyOf with unknown member", json!({ "anyOf": [{ "type": "integer" }, {}] })),
        (
            "allOf intersection",
            json!({ "allOf": [{ "type": "object", "properties": { "a": { "type": "string" } }, "required": ["a"] }, { "type": "object", "properties": { "b": { "type": "number" } } }] }),
        ),
        (
            "allOf of unions",
            json!({ "allOf": [{ "anyOf": [{ "type": "string" }, { "type": "number" }] }, { "anyOf": [{ "type": "number" }, { "type": "boolean" }] }] }),
        ),
        (
            "properties + anyOf required-only",
            json!({ "type": "object", "properties": { "id": { "type": "string" }, "name": { "type": "string" } }, "anyOf": [{ "required": ["id"] }, { "required": ["name"] }] }),
        ),
        (
            "union inside array",
            json!({ "type": "array", "items": { "oneOf": [{ "const": "a" }, { "const": "b" }] } }),
        ),
        (
            "$defs ref",
            json!({ "$defs": { "Id": { "type": "string" } }, "type": "object", "properties": { "id": { "$ref": "#/$defs/Id" } }, "required": ["id"] }),
        ),
        (
            "definitions ref",
            json!({ "definitions": { "N": { "type": "number" } }, "type": "array", "items": { "$ref": "#/definitions/N" } }),
        ),
        (
            "pointer ref into properties",
            json!({ "type": "object", "properties": { "a": { "type": "boolean" }, "b": { "$ref": "#/properties/a" } } }),
        ),
        (
            "escaped pointer ref",
            json!({ "$defs": { "a/b": { "type": "string" }, "c~d": { "type": "number" } }, "anyOf": [{ "$ref": "#/$defs/a~1b" }, { "$ref": "#/$defs/c~0d" }] }),
        ),
        ("percent-encoded ref", json!({ "$defs": { "a b": { "type": "string" } }, "$ref": "#/$defs/a%20b" })),
        (
            "root self ref (cycle)",
            json!({ "type": "object", "properties": { "name": { "type": "string" }, "children": { "type": "array", "items": { "$ref": "#" } } } }),
        ),
        (
            "mutual cycle",
            json!({ "$defs": { "A": { "type": "object", "properties": { "b": { "$ref": "#/$defs/B" } } }, "B": { "type": "object", "properties": { "a": { "$ref": "#/$defs/A" } } } }, "$ref": "#/$defs/A" }),
        ),
        ("missing ref", json!({ "$ref": "#/$defs/Nope" })),
        ("remote ref", json!({ "$ref": "https://example.com/schema.json" })),
        ("malformed keywords", json!({ "type": 7, "properties": [1], "required": "x", "items": "y" })),
        (
            "readOnly kept in neutral",
            json!({ "type": "object", "properties": { "id": { "type": "string", "readOnly": true } } }),
        ),
    ];
    let mut out = String::new();
    for (name, schema) in cases {
        out.push_str(&format!("{name}: {}\n", compact(schema)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn directions_omit_read_only_and_write_only() {
    let schema = json!({ "type": "object", "properties": {
        "id": { "type": "string", "readOnly": true },
        "password": { "type": "string", "writeOnly": true },
        "name": { "type": "string" }
    } });
    let input = render(&schema, RenderOptions::compact().direction(Direction::Input));
    let output = render(&schema, RenderOptions::compact().direction(Direction::Output));
    assert_eq!(input, "{ password?: string, name?: string }");
    assert_eq!(output, "{ id?: string, name?: string }");
}

#[test]
fn pretty_with_jsdoc() {
    let schema = json!({
        "type": "object",
        "properties": {
            "query": { "type": "string", "description": "Search text. Supports `repo:` qualifiers.", "minLength": 1, "pattern": "^\\S" },
            "limit": { "type": "integer", "description": "Page size", "default": 30, "minimum": 1, "maximum": 100 },
            "tags": { "type": "array", "items": { "type": "string" }, "maxItems": 5, "uniqueItems": true },
            "sort": { "enum": ["asc", "desc"], "deprecated": true },
            "filter": {
                "type": "object",
                "description": "Nested filter\nwith two lines",
                "properties": {
                    "state": { "type": "string", "description": "Issue state", "examples": ["open"] },
                    "since": { "type": "string", "format": "date-time" }
                }
            },
            "plain": { "type": "object", "properties": { "a": { "type": "string" } } }
        },
        "required": ["query"]
    });
    insta::assert_snapshot!(pretty(schema));
}

#[test]
fn pretty_without_docs_stays_on_one_line() {
    let schema =
        json!({ "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"] });
    assert_eq!(pretty(schema.clone()), compact(schema));
}

#[test]
fn comment_terminators_are_neutralized() {
    let schema = json!({ "type": "object", "properties": {
        "x": { "type": "string", "description": "evil */ declare const y: 1; /*", "pattern": "a*/b", "default": "*/" }
    } });
    let text = pretty(schema);
    // The only `*/` left are the closing ones of each comment.
    for line in text.lines() {
        let count = line.matches("*/").count();
        assert!(count == 0 || (count == 1 && line.trim_end().ends_with("*/")), "unneutralized: {line}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn schemars_output_renders() {
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        /// Street and number
        street: String,
        zip: Option<String>,
    }
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    enum Kind {
        Home,
        Work,
    }
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    #[serde(tag = "type")]
    enum Shape {
        Circle { radius: f64 },
        Square { side: f64 },
    }
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Person {
        /// Full name
        name: String,
        age: Option<u8>,
        kind: Kind,
        addresses: Vec<Address>,
        tags: std::collections::BTreeMap<String, i64>,
        pair: (String, u32),
        shape: Shape,
        manager: Option<Box<Person>>,
    }
    let schema = schemars::schema_for!(Person).to_value();
    insta::assert_snapshot!("schemars_compact", compact(schema.clone()));
    insta::assert_snapshot!("schemars_pretty", pretty(schema));
}

/// Builds `{"type":"array","items":{…}}` nested `depth` times without recursion.
fn deep_array(depth: usize) -> Value {
    // `json!` would serialize the interpolated value (recursively), so build maps by hand.
    let mut schema = json!({ "type": "string" });
    for _ in 0..depth {
        let mut map = serde_json::Map::new();
        map.insert("type".into(), Value::from("array"));
        map.insert("items".into(), schema);
        schema = Value::Object(map);
    }
    schema
}

#[test]
fn deep_nesting_renders_without_overflow() {
    // serde_json clones and drops values recursively, so this test only borrows the deep value
    // and takes it apart iteratively at the end.
    let mut schema = deep_array(10_000);
    let text = render(&schema, RenderOptions::compact());
    assert!(text.starts_with("unknown[][]") && text.ends_with("[]"), "{text}");
    assert!(text.len() < 1_000);
    let _ = render(&schema, RenderOptions::pretty());
    assert!(codemode_tools::validate::check(&schema, &json!([[[[]]]])).is_ok());
    let err = codemode_tools::validate::check(&schema, &json!([["x"]])).unwrap_err();
    assert_eq!(err.path, "input[0][0]");
    while let Some(inner) = schema.get_mut("items").map(Value::take) {
        schema = inner;
    }
}

#[test]
fn exponential_ref_dag_is_bounded() {
    // D0 = string; Dn = [D(n-1), D(n-1)]: 2^40 leaves if expanded naively.
    let mut defs = serde_json::Map::new();
    defs.insert("D0".into(), json!({ "type": "string" }));
    for n in 1..=40 {
        let prev = format!("#/$defs/D{}", n - 1);
        defs.insert(
            format!("D{n}"),
            json!({ "type": "object", "properties": { "l": { "$ref": prev }, "r": { "$ref": prev } } }),
        );
    }
    let schema = json!({ "$defs": defs, "$ref": "#/$defs/D40" });
    let started = std::time::Instant::now();
    let text = compact(schema.clone());
    assert!(text.contains("unknown"));
    assert!(text.len() < 2_000_000, "{}", text.len());
    let _ = pretty(schema);
    assert!(started.elapsed().as_secs() < 20);
}

#[test]
fn deep_schemas_in_tools_validate_and_render_without_overflow() {
    use codemode_tools::{CallContext, Namespace, Tool};
    let tool = Tool::from_json(
        "deep",
        Some(deep_array(10_000)),
        Some(deep_array(10_000)),
        |v, _| async move { Ok(v) },
    )
    .validate_input(true)
    .validate_output(true);
    let out = common::block_on(tool.invoke(json!([[[]]]), CallContext::new("r:1", "deep")));
    assert!(out.is_ok());
    let err = common::block_on(tool.invoke(json!(["x"]), CallContext::new("r:2", "deep"))).unwrap_err();
    assert_eq!(err.message(), "at input[0]: expected array, got string");
    let tools = Namespace::new().tool("deep", tool).build().unwrap();
    assert!(tools.catalog()[0].signature.contains("unknown"));
    let _ = tools.declarations(&codemode_tools::DeclarationOptions::default());
    // serde_json drops values recursively: let the 10,000-level schemas go on a big stack.
    std::thread::Builder::new().stack_size(256 << 20).spawn(move || drop(tools)).unwrap().join().unwrap();
}

#[test]
fn exponential_all_of_dags_are_bounded_everywhere() {
    // D0 = { properties: { leaf } }; Dn = allOf [D(n-1), D(n-1)]: 2^40 visits if walked naively.
    let mut defs = serde_json::Map::new();
    defs.insert("D0".into(), json!({ "type": "object", "properties": { "leaf": { "type": "string" } } }));
    for n in 1..=40 {
        let prev = format!("#/$defs/D{}", n - 1);
        defs.insert(format!("D{n}"), json!({ "allOf": [{ "$ref": prev }, { "$ref": prev }], "anyOf": [{ "$ref": prev }, { "$ref": prev }] }));
    }
    let schema = json!({ "$defs": defs, "$ref": "#/$defs/D40" });
    let started = std::time::Instant::now();
    let _ = codemode_tools::validate::check(&schema, &json!({ "leaf": 1 }));
    let _ = codemode_tools::is_empty_input(Some(&schema));
    let tool = codemode_tools::Tool::from_json(
        "dag",
        Some(schema.clone()),
        Some(schema),
        |v, _| async move { Ok(v) },
    );
    let tools = codemode_tools::Namespace::new().tool("dag", tool).build().unwrap();
    let _ = tools.declarations(&codemode_tools::DeclarationOptions::default());
    let _ = tools.search(&codemode_tools::SearchRequest::query("leaf"));
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
}

#[test]
fn big_definitions_reused_many_times_are_bounded() {
    // A 2,000-option enum with a long description, reached 2^20 ways.
    let options: Vec<String> = (0..2_000).map(|i| format!("option-number-{i}")).collect();
    let mut defs = serde_json::Map::new();
    defs.insert("D0".into(), json!({ "enum": options, "description": "x".repeat(10_000) }));
    for n in 1..=20 {
        let prev = format!("#/$defs/D{}", n - 1);
        defs.insert(
            format!("D{n}"),
            json!({ "type": "object", "properties": { "a": { "$ref": prev }, "b": { "$ref": prev } } }),
        );
    }
    let schema = json!({ "$defs": defs, "$ref": "#/$defs/D20" });
    for options in [RenderOptions::compact(), RenderOptions::pretty()] {
        let text = render(&schema, options);
        assert!(text.len() < 8 << 20, "{} bytes", text.len());
        assert!(text.contains("unknown"));
    }
}

#[test]
fn validation_of_big_reused_enums_is_bounded() {
    let options: Vec<String> = (0..2_000).map(|i| format!("o{i}")).collect();
    let mut defs = serde_json::Map::new();
    defs.insert("D0".into(), json!({ "enum": options }));
    for n in 1..=30 {
        let prev = format!("#/$defs/D{}", n - 1);
        defs.insert(format!("D{n}"), json!({ "allOf": [{ "$ref": prev }, { "$ref": prev }] }));
    }
    let schema = json!({ "$defs": defs, "$ref": "#/$defs/D30" });
    let started = std::time::Instant::now();
    let _ = codemode_tools::validate::check(&schema, &json!("o1999"));
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}
