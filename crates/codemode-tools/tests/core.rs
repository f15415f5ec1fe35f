//! The facade-facing core: tools, invocation, errors, registry lookup.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use codemode_tools::{
    CallContext, Lookup, Namespace, Tool, ToolError, ToolErrorKind, ToolSet, search_signature,
    tool_expression,
};
use common::block_on;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Deserialize, JsonSchema)]
struct LookupInput {
    id: String,
}

#[derive(Serialize, JsonSchema)]
struct Order {
    id: String,
    status: String,
}

fn lookup() -> Tool {
    Tool::typed("Look up an order by ID", |input: LookupInput, _ctx| async move {
        Ok(Order { id: input.id, status: "open".into() })
    })
}

fn ctx(path: &str) -> CallContext {
    CallContext::new("run:1", path)
}

#[test]
fn typed_tool_decodes_and_encodes() {
    let tool = lookup();
    let out = block_on(tool.invoke(json!({ "id": "order_42" }), ctx("orders.lookup"))).unwrap();
    assert_eq!(out, json!({ "id": "order_42", "status": "open" }));
    let err = block_on(tool.invoke(json!({ "id": 42 }), ctx("orders.lookup"))).unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::InvalidInput);
    assert_eq!(err.message(), "at input.id: expected string, got integer");
    let err = block_on(tool.invoke(json!({ "ib": "x" }), ctx("orders.lookup"))).unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::InvalidInput);
    assert!(err.message().contains("did you mean 'id'?"), "{}", err.message());
}

#[test]
fn typed_tool_sees_context() {
    let tool = Tool::typed("Echo the key", |_: serde_json::Value, ctx: CallContext| async move {
        Ok::<_, ToolError>(format!("{} {}", ctx.key, ctx.path))
    });
    let out = block_on(tool.invoke(json!({}), CallContext::new("r:7", "echo"))).unwrap();
    assert_eq!(out, json!("r:7 echo"));
}

#[test]
fn json_tool_validation_is_opt_in() {
    let schema = json!({ "type": "object", "properties": { "n": { "type": "integer" } }, "required": ["n"] });
    let tool =
        Tool::from_json("double", Some(schema), Some(json!({ "type": "integer" })), |v, _| async move {
            Ok(json!(v["n"].as_i64().unwrap_or(0) * 2))
        });
    assert_eq!(block_on(tool.invoke(json!({ "n": "x" }), ctx("d"))).unwrap(), json!(0));
    let checked = tool.clone().validate_input(true);
    let err = block_on(checked.invoke(json!({ "n": "x" }), ctx("d"))).unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::InvalidInput);
    assert_eq!(err.message(), "at input.n: expected integer, got string");
    let wrong =
        Tool::from_json("bad", None, Some(json!({ "type": "string" })), |_, _| async { Ok(json!(1)) })
            .validate_output(true);
    let err = block_on(wrong.invoke(json!({}), ctx("bad"))).unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::InvalidOutput);
}

#[test]
fn host_errors_are_sanitized_by_default() {
    let tool = Tool::from_json("io", None, None, |_, _| async {
        let failed: Result<(), std::io::Error> = Err(std::io::Error::other("disk /secret/path full"));
        failed?;
        Ok(json!(null))
    });
    let err = block_on(tool.invoke(json!({}), ctx("io"))).unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::Internal);
    assert!(!err.message().contains("secret"));
    assert!(err.cause().unwrap().to_string().contains("secret"));
    let visible = ToolError::failure("order not found").with_cause("row 17 missing");
    assert_eq!(visible.to_string(), "order not found");
    assert_eq!(visible.cause().unwrap().to_string(), "row 17 missing");
}

#[test]
fn registry_lookup_and_messages() {
    let tools = Namespace::new()
        .namespace("orders", Namespace::with_description("Purchases and shipments").tool("lookup", lookup()))
        .tool("context7.resolve-library-id", lookup())
        .build()
        .unwrap();
    assert!(tools.get("orders.lookup").is_some());
    assert!(tools.is_namespace("orders"));
    assert!(tools.is_namespace("context7"));
    assert!(matches!(tools.lookup("orders"), Lookup::Namespace));
    assert_eq!(
        tools.unknown_tool_message("orders.lookpu"),
        "Unknown tool 'orders.lookpu'. Did you mean tools.orders.lookup?"
    );
    assert_eq!(
        tools.unknown_tool_message("lookup"),
        "Unknown tool 'lookup'. Did you mean tools.orders.lookup?"
    );
    assert_eq!(
        tools.unknown_tool_message("zzz.qqq"),
        "Unknown tool 'zzz.qqq'. tools has: context7, orders. Call search({ query }) to find tools by what they do."
    );
    assert_eq!(
        tools.unknown_tool_message("orders.nope"),
        "Unknown tool 'orders.nope'. Did you mean tools.orders.lookup? tools.orders has: lookup."
    );
    assert_eq!(
        tools.unknown_tool_message("search"),
        "Unknown tool 'search'. tools has: context7, orders. search is a global function, not a tool: \
         call search({ query })."
    );
    assert_eq!(ToolSet::not_callable_message("orders"), "Tool 'orders' is not callable.");
    assert_eq!(
        tools.namespace_call_message("orders"),
        "Tool 'orders' is not callable. tools.orders has: lookup."
    );
    assert_eq!(tools.children("").unwrap(), ["context7", "orders"]);
    assert_eq!(tool_expression("context7.resolve-library-id"), "tools.context7[\"resolve-library-id\"]");
    let catalog = tools.catalog();
    assert_eq!(
        catalog[1].signature,
        "tools.orders.lookup({ id: string }): Promise<{ id: string, status: string }>"
    );
    assert_eq!(
        search_signature(),
        "search({ query?: string, namespace?: string, limit?: number, offset?: number }): { items: { path: string, description: string, signature: string, matches?: string[] }[], remaining: number, next: { offset: number } | null }"
    );
}

#[test]
fn tools_are_send_sync_and_concurrent() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<Tool>();
    assert_send_sync::<ToolSet>();
    let tool = lookup();
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let tool = tool.clone();
            std::thread::spawn(move || {
                block_on(tool.invoke(json!({ "id": format!("o{i}") }), ctx("orders.lookup")))
            })
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.join().unwrap().unwrap()["id"], json!(format!("o{i}")));
    }
}

#[test]
fn typed_output_is_checked_after_encoding() {
    #[derive(Serialize, JsonSchema)]
    struct Reading {
        value: f64,
    }
    let tool =
        Tool::typed(
            "Read a sensor",
            |_: serde_json::Value, _| async move { Ok(Reading { value: f64::NAN }) },
        );
    let err = block_on(tool.invoke(json!({}), ctx("sensor"))).unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::InvalidOutput);
    assert_eq!(err.message(), "at output.value: expected number, got null");
}

#[test]
fn unit_output_renders_void() {
    let tool = Tool::typed("Fire and forget", |_: LookupInput, _| async move { Ok(()) });
    assert!(tool.output_schema().is_none());
    let tools = Namespace::new().tool("fire", tool).build().unwrap();
    assert_eq!(tools.catalog()[0].signature, "tools.fire({ id: string }): Promise<void>");
}

#[test]
fn unit_input_takes_no_arguments() {
    let tool = Tool::typed("Ping", |(): (), _| async move { Ok::<_, ToolError>("pong".to_owned()) });
    assert!(tool.input_schema().is_none());
    assert_eq!(block_on(tool.invoke(json!({}), ctx("ping"))).unwrap(), json!("pong"));
    let tools = Namespace::new().tool("ping", tool).build().unwrap();
    assert_eq!(tools.catalog()[0].signature, "tools.ping(): Promise<string>");
}

#[test]
fn model_messages_use_the_reference_framing() {
    let err = ToolError::invalid_input("at input.id: expected string, got integer");
    assert_eq!(
        err.model_message("orders.lookup"),
        "Invalid input for tool 'orders.lookup': at input.id: expected string, got integer"
    );
    let err = ToolError::invalid_output("at output: expected string, got integer");
    assert_eq!(
        err.model_message("x"),
        "Invalid output from tool 'x': at output: expected string, got integer"
    );
    assert_eq!(ToolError::failure("nope").model_message("x"), "nope");
}

#[test]
fn extensions_attach_host_data_by_type() {
    #[derive(Debug, PartialEq)]
    struct Durable(&'static str);
    #[derive(Debug, PartialEq)]
    struct RateLimit(u32);
    let tool =
        lookup().with_extension(Durable("jobs")).with_extension(RateLimit(5)).with_extension(RateLimit(7));
    assert_eq!(tool.extension::<Durable>(), Some(&Durable("jobs")));
    assert_eq!(tool.extension::<RateLimit>(), Some(&RateLimit(7)));
    assert_eq!(tool.extension::<String>(), None);
    let clone = tool.clone();
    assert_eq!(clone.extension::<Durable>(), Some(&Durable("jobs")));
}

#[test]
fn validate_input_checks_the_whole_json_schema() {
    let tool = Tool::from_json(
        "Subscribe",
        Some(json!({
            "type": "object",
            "properties": {
                "email": { "type": "string", "format": "email" },
                "code": { "type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$" }
            }
        })),
        None,
        |_, _| async { Ok(json!("ok")) },
    )
    .validate_input(true);
    let error = block_on(tool.invoke(json!({ "email": "x" }), ctx("subscribe"))).unwrap_err();
    assert_eq!(error.message(), "at input.email: expected a string in format \"email\", got \"x\"");
    let error = block_on(tool.invoke(json!({ "code": "abc-12" }), ctx("subscribe"))).unwrap_err();
    assert!(
        error.to_string().contains("at input.code: expected a string matching /^[A-Z]{3}-[0-9]{4}$/"),
        "{error}"
    );
    assert_eq!(
        block_on(tool.invoke(json!({ "email": "ada@example.com", "code": "ABC-1234" }), ctx("subscribe")))
            .unwrap(),
        json!("ok")
    );
}
