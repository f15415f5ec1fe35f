//! Model-visible signatures of tools (`tools.orders.lookup({ id: string }): Promise<…>`) and of
//! the `search` built-in.

use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::names::tool_expression;
use crate::schema::render::{Direction, Mode, RenderOptions, render};
use crate::schema::{properties, resolve_ref, str_keyword};
use crate::tool::Tool;

/// Whether an input schema takes no arguments: absent, `true`, `{}`, or an object schema with
/// no properties and no schema for extra keys (MCP servers send `{ "type": "object" }` for
/// argument-less tools). Such tools render as `()`.
pub fn is_empty_input(schema: Option<&Value>) -> bool {
    let Some(schema) = schema else { return true };
    let schema = match str_keyword(schema, "$ref").and_then(|r| resolve_ref(schema, r)) {
        Some(target) => target,
        None => schema,
    };
    match schema {
        Value::Bool(true) => true,
        Value::Object(object) => {
            let open_extra = matches!(object.get("additionalProperties"), Some(Value::Object(_)));
            let shaped = ["anyOf", "oneOf", "patternProperties", "items", "prefixItems", "enum", "const"]
                .iter()
                .any(|k| object.contains_key(*k));
            let object_or_untyped = match object.get("type") {
                None => true,
                Some(Value::String(t)) => t == "object",
                Some(_) => false,
            };
            object_or_untyped && !open_extra && !shaped && properties(schema).is_empty()
        }
        _ => false,
    }
}

/// The rendering mode of catalog signatures: pretty, which stays on one line for undocumented
/// schemas and adds JSDoc where schemas carry descriptions or constraints.
fn catalog_options(direction: Direction, mode: Mode) -> RenderOptions {
    RenderOptions { mode, direction, indent: 0 }
}

/// The input type of a tool as TypeScript (`{ id: string }`), or `None` for `()`.
pub fn input_type(tool: &Tool, mode: Mode) -> Option<String> {
    let schema = tool.input_schema();
    if is_empty_input(schema) {
        return None;
    }
    schema.map(|s| render(s, catalog_options(Direction::Input, mode)))
}

/// The output type of a tool as TypeScript; `void` without an output schema.
pub fn output_type(tool: &Tool, mode: Mode) -> String {
    match tool.output_schema() {
        None => "void".to_owned(),
        Some(schema) => render(schema, catalog_options(Direction::Output, mode)),
    }
}

/// The full signature of the tool at `path`:
/// `tools.orders.lookup({ id: string }): Promise<{ id: string, status: string }>`, or
/// `tools.ping(): Promise<string>` without input properties.
pub fn signature(path: &str, tool: &Tool, mode: Mode) -> String {
    let expression = tool_expression(path);
    let output = output_type(tool, mode);
    match input_type(tool, mode) {
        Some(input) => format!("{expression}({input}): Promise<{output}>"),
        None => format!("{expression}(): Promise<{output}>"),
    }
}

/// The input schema of the `search` built-in.
pub fn search_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": { "type": "string" },
            "namespace": { "type": "string" },
            "limit": { "type": "integer", "minimum": 1 },
            "offset": { "type": "integer", "minimum": 0 }
        }
    })
}

/// The output schema of the `search` built-in.
pub fn search_output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "path": { "type": "string" },
                        "description": { "type": "string" },
                        "signature": { "type": "string" },
                        "matches": { "type": "array", "items": { "type": "string" } }
                    },
                    "required": ["path", "description", "signature"]
                }
            },
            "remaining": { "type": "integer", "minimum": 0 },
            "next": { "anyOf": [
                { "type": "object", "properties": { "offset": { "type": "integer" } }, "required": ["offset"] },
                { "type": "null" }
            ] }
        },
        "required": ["items", "remaining", "next"]
    })
}

/// The exact callable signature of the synchronous `search` built-in, for host instructions:
/// `search({ query?: string, namespace?: string, limit?: number, offset?: number }): { … }`.
pub fn search_signature() -> &'static str {
    static SIGNATURE: OnceLock<String> = OnceLock::new();
    SIGNATURE.get_or_init(|| {
        let input = render(&search_input_schema(), RenderOptions::compact());
        let output = render(&search_output_schema(), RenderOptions::compact());
        format!("search({input}): {output}")
    })
}
