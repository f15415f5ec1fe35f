//! MCP import: parsing `tools/list`, sanitized names, routing back to original names,
//! schemas/title/annotations, collisions, and `CallToolResult` conversion.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::{Arc, Mutex};

use codemode_tools::mcp::{McpImportOptions, call_result_value, import_tools, parse_tools_list};
use codemode_tools::{CallContext, Namespace, ToolErrorKind};
use common::block_on;
use serde_json::{Value, json};

fn list() -> Value {
    json!({ "tools": [
        {
            "name": "resolve-library-id",
            "title": "Resolve library",
            "description": "Resolves a package name to a library ID",
            "inputSchema": { "type": "object", "properties": { "libraryName": { "type": "string" } }, "required": ["libraryName"] },
            "annotations": { "readOnlyHint": true }
        },
        {
            "name": "get-library-docs",
            "description": "Fetches documentation",
            "inputSchema": { "type": "object", "properties": { "id": { "type": "string" } } },
            "outputSchema": { "type": "object", "properties": { "text": { "type": "string" } }, "required": ["text"] }
        },
        { "name": "console", "inputSchema": { "type": "object" } },
        { "name": "get_library_docs", "inputSchema": { "type": "object" } },
        { "name": "github.create_issue", "inputSchema": { "type": "object" } }
    ] })
}

type Calls = Arc<Mutex<Vec<(String, Value, String)>>>;

fn import(options: McpImportOptions) -> (codemode_tools::mcp::McpImport, Calls) {
    let calls: Calls = Arc::default();
    let seen = Arc::clone(&calls);
    let tools = parse_tools_list(&list()).unwrap();
    let imported = import_tools(tools, options, move |name, args, ctx: CallContext| {
        seen.lock().unwrap().push((name.clone(), args.clone(), ctx.key.clone()));
        async move { Ok(json!({ "called": name })) }
    })
    .unwrap();
    (imported, calls)
}

#[test]
fn names_are_sanitized_and_routed_back() {
    let (imported, calls) = import(McpImportOptions::default());
    insta::assert_json_snapshot!(imported.names, @r#"
    {
      "console_": "console",
      "get_library_docs": "get-library-docs",
      "get_library_docs_2": "get_library_docs",
      "github_create_issue": "github.create_issue",
      "resolve_library_id": "resolve-library-id"
    }
    "#);
    assert_eq!(imported.original_name("resolve_library_id"), Some("resolve-library-id"));
    let tools = Namespace::new().namespace("context7", imported.namespace).build().unwrap();
    let tool = tools.get("context7.resolve_library_id").unwrap();
    assert_eq!(tool.title(), Some("Resolve library"));
    assert_eq!(tool.annotations(), Some(&json!({ "readOnlyHint": true })));
    let out =
        block_on(tool.invoke(
            json!({ "libraryName": "react" }),
            CallContext::new("r:1", "context7.resolve_library_id"),
        ));
    assert_eq!(out.unwrap(), json!({ "called": "resolve-library-id" }));
    assert_eq!(
        calls.lock().unwrap()[0],
        ("resolve-library-id".into(), json!({ "libraryName": "react" }), "r:1".into())
    );
    let sigs: Vec<&str> = tools.catalog().iter().map(|t| t.signature.as_str()).collect();
    insta::assert_debug_snapshot!(sigs, @r#"
    [
        "tools.context7.console_(): Promise<unknown>",
        "tools.context7.get_library_docs({ id?: string }): Promise<{ text: string }>",
        "tools.context7.get_library_docs_2(): Promise<unknown>",
        "tools.context7.github_create_issue(): Promise<unknown>",
        "tools.context7.resolve_library_id({ libraryName: string }): Promise<unknown>",
    ]
    "#);
}

#[test]
fn keep_names_and_split_dots() {
    let options = McpImportOptions { split_dots: true, keep_names: true, validate_input: false };
    let (imported, _) = import(options);
    let paths: Vec<&String> = imported.names.keys().collect();
    assert_eq!(
        paths,
        ["console", "get-library-docs", "get_library_docs", "github.create_issue", "resolve-library-id"]
    );
    let tools = imported.namespace.build().unwrap();
    assert_eq!(
        tools.catalog()[1].signature,
        "tools[\"get-library-docs\"]({ id?: string }): Promise<{ text: string }>"
    );
    assert!(tools.is_namespace("github"));
}

#[test]
fn validation_can_be_enabled() {
    let options = McpImportOptions { validate_input: true, ..McpImportOptions::default() };
    let (imported, calls) = import(options);
    let tools = imported.namespace.build().unwrap();
    let err = block_on(
        tools
            .get("resolve_library_id")
            .unwrap()
            .invoke(json!({ "libraryname": "x" }), CallContext::new("r:1", "x")),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::InvalidInput);
    assert!(err.message().contains("did you mean 'libraryName'?"), "{}", err.message());
    assert!(calls.lock().unwrap().is_empty(), "the server is not called with invalid input");
}

#[test]
fn bad_lists_are_errors() {
    assert!(parse_tools_list(&json!({ "tools": 3 })).is_err());
    let err = parse_tools_list(&json!([{ "description": "no name" }])).unwrap_err();
    assert_eq!(err.index, 0);
    let tools = parse_tools_list(&json!([{ "name": "" }])).unwrap();
    assert!(import_tools(tools, McpImportOptions::default(), |_, _, _| async { Ok(Value::Null) }).is_err());
    let clash = parse_tools_list(&json!([{ "name": "a" }, { "name": "a.b" }])).unwrap();
    let options = McpImportOptions { split_dots: true, ..McpImportOptions::default() };
    let err = import_tools(clash, options, |_, _, _| async { Ok(Value::Null) }).unwrap_err();
    assert_eq!(err.index, 1);
}

#[test]
fn call_results_become_values() {
    assert_eq!(
        call_result_value(json!({ "content": [{ "type": "text", "text": "{\"a\":1}" }] })).unwrap(),
        json!({ "a": 1 })
    );
    assert_eq!(
        call_result_value(json!({ "content": [{ "type": "text", "text": "plain" }] })).unwrap(),
        json!("plain")
    );
    assert_eq!(
        call_result_value(json!({ "content": [], "structuredContent": { "ok": true } })).unwrap(),
        json!({ "ok": true })
    );
    assert_eq!(
        call_result_value(json!({ "content": [{ "type": "text", "text": "a" }, { "type": "image", "data": "..", "mimeType": "image/png" }] })).unwrap(),
        json!(["a", { "type": "image", "data": "..", "mimeType": "image/png" }])
    );
    let err = call_result_value(
        json!({ "isError": true, "content": [{ "type": "text", "text": "rate limited" }] }),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::Failure);
    assert_eq!(err.message(), "rate limited");
}
