//! Whole-API declarations: snapshot, root name, and a `tsc --strict --noEmit` check of the
//! generated text (and of the search-quality corpus) when `node` is present.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Command;

use codemode_tools::{DeclarationOptions, Mode, Namespace, Tool, ToolSet};
use serde_json::{Value, json};

mod common;

fn sample() -> ToolSet {
    let lookup = Tool::from_json(
        "Look up an order by ID.\nReturns */ safely.",
        Some(
            json!({ "type": "object", "properties": { "id": { "type": "string", "description": "Order id", "pattern": "^ord_" } }, "required": ["id"] }),
        ),
        Some(
            json!({ "type": "object", "properties": { "id": { "type": "string" }, "status": { "enum": ["open", "closed"] } }, "required": ["id", "status"] }),
        ),
        |_, _| async { Ok(Value::Null) },
    );
    let list = Tool::from_json(
        "List orders",
        Some(json!({ "type": "object", "properties": { "limit": { "type": "integer", "default": 10 } } })),
        Some(
            json!({ "type": "array", "items": { "$ref": "#/$defs/Order" }, "$defs": { "Order": { "type": "object", "properties": { "id": { "type": "string" } }, "additionalProperties": { "type": "number" } } } }),
        ),
        |_, _| async { Ok(Value::Null) },
    );
    let ping = Tool::from_json("Health check", None, Some(json!({ "type": "string" })), |_, _| async {
        Ok(Value::Null)
    });
    let resolve = Tool::from_json(
        "Resolve a library",
        Some(
            json!({ "type": "object", "properties": { "library-name": { "type": "string" } }, "required": ["library-name"] }),
        ),
        None,
        |_, _| async { Ok(Value::Null) },
    );
    Namespace::new()
        .namespace(
            "orders",
            Namespace::with_description("Purchases */ and shipments")
                .tool("lookup", lookup)
                .tool("list", list),
        )
        .tool("ping", ping)
        .tool("context7.resolve-library-id", resolve)
        .build()
        .unwrap()
}

#[test]
fn pretty_declarations() {
    insta::assert_snapshot!(sample().declarations(&DeclarationOptions::default().with_search(true)));
}

#[test]
fn compact_declarations_with_root_name() {
    let text = sample().declarations(&DeclarationOptions::default().root("shop-tools").mode(Mode::Compact));
    insta::assert_snapshot!(text);
    assert!(text.starts_with("declare const shop_tools: {"));
    let shadowing = sample().declarations(&DeclarationOptions::default().root("console"));
    assert!(shadowing.starts_with("declare const console_: {"));
}

/// `tsc` from npm, when node is available: `$CODEMODE_TSC`, a `tsc` on PATH, or
/// `npx --yes -p typescript@5 tsc`. `None` skips the check.
fn tsc() -> Option<Vec<String>> {
    if let Ok(path) = std::env::var("CODEMODE_TSC") {
        return Some(vec![path]);
    }
    let works =
        |cmd: &str, args: &[&str]| Command::new(cmd).args(args).output().is_ok_and(|o| o.status.success());
    if !works("node", &["--version"]) {
        return None;
    }
    if works("tsc", &["--version"]) {
        return Some(vec!["tsc".into()]);
    }
    if works("npx", &["--yes", "-p", "typescript@5", "tsc", "--version"]) {
        return Some(["npx", "--yes", "-p", "typescript@5", "tsc"].map(String::from).to_vec());
    }
    None
}

#[test]
fn declarations_type_check_under_tsc_strict() {
    let Some(tsc) = tsc() else {
        eprintln!("skipping: node or the TypeScript compiler is not available");
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("codemode-tools-tsc");
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    let sources = [
        ("sample_pretty.d.ts", sample().declarations(&DeclarationOptions::default().with_search(true))),
        (
            "sample_compact.d.ts",
            sample().declarations(&DeclarationOptions::default().root("api").mode(Mode::Compact)),
        ),
        ("corpus.d.ts", common::corpus::corpus().declarations(&DeclarationOptions::default().root("corpus"))),
        ("schemas.d.ts", schema_zoo()),
    ];
    for (name, text) in sources {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        files.push(path);
    }
    let output = Command::new(&tsc[0])
        .args(&tsc[1..])
        .args(["--strict", "--noEmit", "--lib", "es2022"])
        .args(&files)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "tsc failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every renderer construct as type aliases, to type-check the renderer's output itself.
fn schema_zoo() -> String {
    use codemode_tools::schema::render::{RenderOptions, render};
    let schemas = [
        json!(true),
        json!(false),
        json!({ "type": ["string", "null"] }),
        json!({ "type": "object", "properties": { "a-b": { "type": "string" }, "c": { "type": "integer" } }, "required": ["a-b"] }),
        json!({ "type": "object", "properties": { "a": { "type": "string" } }, "additionalProperties": { "type": "number" } }),
        json!({ "type": "object", "patternProperties": { "^x": { "type": "boolean" } } }),
        json!({ "type": "array", "prefixItems": [{ "type": "string" }, { "type": "number" }], "items": { "type": "boolean" } }),
        json!({ "type": "array", "prefixItems": [{ "type": "string" }, { "type": "number" }], "minItems": 1 }),
        json!({ "type": "array", "items": { "anyOf": [{ "type": "string" }, { "type": "null" }] } }),
        json!({ "allOf": [{ "anyOf": [{ "type": "string" }, { "type": "number" }] }, { "type": "object", "properties": { "x": { "const": { "k": [1, "two", null] } } } }] }),
        json!({ "enum": ["a\"b", 1, true, null] }),
        json!({ "type": "object", "properties": { "self": { "$ref": "#" }, "d": { "$ref": "#/$defs/D" } }, "$defs": { "D": { "type": "string", "nullable": true } } }),
        json!({ "type": "object", "properties": { "doc": { "type": "string", "description": "ends */ early", "default": "*/" } } }),
    ];
    let mut out = String::new();
    for (i, schema) in schemas.iter().enumerate() {
        out.push_str(&format!("type C{i} = {};\n", render(schema, RenderOptions::compact())));
        out.push_str(&format!("type P{i} = {};\n", render(schema, RenderOptions::pretty())));
    }
    out
}
