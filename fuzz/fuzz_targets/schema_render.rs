//! Fuzz target `schema_render`: arbitrary bytes, parsed as a JSON value, used as a JSON Schema
//! everywhere codemode-tools takes one: rendering (compact and pretty, both directions),
//! validation (of the schema against itself and of a few fixed values), input-emptiness,
//! a tool set built around it (catalog, declarations, search), MCP import and OpenAPI import
//! (the value as a document). None of it may
//! panic, overflow the stack or run away.

#![no_main]

use codemode_tools::mcp::{McpImportOptions, McpTool, import_tools};
use codemode_tools::schema::render::{Direction, RenderOptions, render};
use codemode_tools::{DeclarationOptions, Namespace, SearchRequest, Tool, is_empty_input, validate};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else { return };
    for options in [
        RenderOptions::compact(),
        RenderOptions::pretty(),
        RenderOptions::compact().direction(Direction::Input),
        RenderOptions::pretty().direction(Direction::Output).indent(3),
    ] {
        let _ = render(&schema, options);
    }
    for value in [schema.clone(), json!({}), json!([1, "a", null]), json!("x"), json!(1.5)] {
        let _ = validate::check(&schema, &value);
    }
    let _ = is_empty_input(Some(&schema));
    let tool =
        Tool::from_json("fuzzed", Some(schema.clone()), Some(schema.clone()), |v, _| async move { Ok(v) })
            .validate_input(true)
            .validate_output(true);
    if let Ok(tools) = Namespace::new().tool("a.b", tool.clone()).tool("c-d", tool).build() {
        let _ = tools.declarations(&DeclarationOptions::default().with_search(true));
        let text = String::from_utf8_lossy(data);
        let _ = tools.search(&SearchRequest::query(text.as_ref()).limit(3));
        let _ = tools.search_json(&schema);
        let _ = tools.search_regex(&text, None);
        let _ = tools.unknown_tool_message(&text);
    }
    let _ = codemode_tools::openapi::from_spec(&schema, |_, _| async { Ok(Value::Null) });
    let name = schema.get("name").and_then(Value::as_str).unwrap_or("fuzzed").to_owned();
    let mcp = McpTool {
        name,
        title: None,
        description: None,
        input_schema: Some(schema.clone()),
        output_schema: Some(schema),
        annotations: None,
    };
    if let Ok(imported) = import_tools(vec![mcp], McpImportOptions::default(), |_, v, _| async move { Ok(v) })
    {
        let _ = imported.namespace.build();
    }
});
