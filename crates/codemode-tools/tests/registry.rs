//! Namespaces, build errors, catalog order and the namespace list.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codemode_tools::{BuildError, Namespace, Tool, ToolSet};
use serde_json::json;

fn tool(description: &str) -> Tool {
    Tool::from_json(description, None, None, |_, _| async { Ok(json!(null)) })
}

#[test]
fn build_errors_name_the_path() {
    let err = |ns: Namespace| ToolSet::new(ns).unwrap_err();
    assert_eq!(err(Namespace::new().tool("", tool("x"))), BuildError::EmptyName { path: String::new() });
    assert_eq!(
        err(Namespace::new().namespace("a", Namespace::new().tool("b..c", tool("x")))),
        BuildError::EmptyName { path: "a.b..c".into() }
    );
    assert_eq!(
        err(Namespace::new().tool("a", tool("x")).tool("a", tool("y"))),
        BuildError::Duplicate { path: "a".into() }
    );
    assert_eq!(
        err(Namespace::new().tool("a.b", tool("x")).namespace("a", Namespace::new().tool("b", tool("y")))),
        BuildError::Duplicate { path: "a.b".into() }
    );
    assert_eq!(
        err(Namespace::new().tool("a", tool("x")).tool("a.b", tool("y"))),
        BuildError::ToolAndNamespace { path: "a".into() }
    );
    assert_eq!(
        err(Namespace::new()
            .namespace("a", Namespace::with_description("one").tool("x", tool("x")))
            .namespace("b", Namespace::new())
            .tool("a.y", tool("y"))
            .namespace("a.z", Namespace::new().tool("q", tool("q")))
            .namespace("c", Namespace::with_description("c1").tool("x", tool("x")))
            .namespace("c.d", Namespace::new())
            .namespace("d", Namespace::new().namespace("e", Namespace::with_description("two")))
            .namespace("d.e", Namespace::with_description("three"))),
        BuildError::ConflictingDescription { path: "d.e".into() }
    );
    assert_eq!(
        err(Namespace::new().tool("__proto__", tool("x"))),
        BuildError::ReservedName { path: "__proto__".into() }
    );
    let deep = (0..40).map(|i| format!("n{i}")).collect::<Vec<_>>().join(".");
    assert!(matches!(err(Namespace::new().tool(deep, tool("x"))), BuildError::TooDeep { .. }));
    assert_eq!(BuildError::Duplicate { path: "a.b".into() }.to_string(), "duplicate tool or namespace 'a.b'");
}

fn sample() -> ToolSet {
    Namespace::new()
        .tool("zeta", tool("last"))
        .namespace(
            "orders",
            Namespace::with_description("Purchases, fulfillment, and shipment tracking")
                .tool("lookup", tool("Look up an order"))
                .tool("refunds.create", tool("Refund an order")),
        )
        .tool("alpha.beta", tool("first"))
        .namespace("empty", Namespace::with_description("nothing here"))
        .tool("context7.resolve-library-id", tool("Resolve a library"))
        .build()
        .unwrap()
}

#[test]
fn catalog_is_sorted_and_deterministic() {
    let tools = sample();
    let paths: Vec<&str> = tools.catalog().iter().map(|t| t.path.as_str()).collect();
    assert_eq!(
        paths,
        ["alpha.beta", "context7.resolve-library-id", "orders.lookup", "orders.refunds.create", "zeta"]
    );
    insta::assert_json_snapshot!(tools.catalog());
    // Same input in another order: same catalog.
    let again = Namespace::new()
        .tool("context7.resolve-library-id", tool("Resolve a library"))
        .tool("alpha.beta", tool("first"))
        .namespace(
            "orders",
            Namespace::with_description("Purchases, fulfillment, and shipment tracking")
                .tool("refunds.create", tool("Refund an order"))
                .tool("lookup", tool("Look up an order")),
        )
        .tool("zeta", tool("last"))
        .build()
        .unwrap();
    assert_eq!(again.catalog(), tools.catalog());
}

#[test]
fn namespaces_list_only_those_with_tools() {
    let tools = sample();
    insta::assert_json_snapshot!(tools.namespaces(), @r#"
    [
      {
        "path": "alpha"
      },
      {
        "path": "context7"
      },
      {
        "path": "orders",
        "description": "Purchases, fulfillment, and shipment tracking"
      },
      {
        "path": "orders.refunds"
      }
    ]
    "#);
    assert!(!tools.is_namespace("empty"));
    assert!(tools.is_namespace("orders.refunds"));
    assert!(tools.get("orders").is_none());
}

#[test]
fn signatures_follow_the_reference_forms() {
    let ping = Tool::from_json(
        "Ping",
        Some(json!({ "type": "object" })),
        Some(json!({ "type": "string" })),
        |_, _| async { Ok(json!("pong")) },
    );
    let fire = Tool::from_json(
        "Fire",
        Some(json!({ "type": "object", "properties": { "at": { "type": "string" } } })),
        None,
        |_, _| async { Ok(json!(null)) },
    );
    let tools =
        Namespace::new().tool("ping", ping).tool("context7.resolve-library-id", fire).build().unwrap();
    let sigs: Vec<&str> = tools.catalog().iter().map(|t| t.signature.as_str()).collect();
    assert_eq!(
        sigs,
        [
            "tools.context7[\"resolve-library-id\"]({ at?: string }): Promise<void>",
            "tools.ping(): Promise<string>"
        ]
    );
}

#[test]
fn suggestions_for_unknown_paths() {
    let tools = sample();
    assert_eq!(tools.suggest("orders.lokup"), Some("orders.lookup"));
    assert_eq!(tools.suggest("order.lookup"), Some("orders.lookup"));
    assert_eq!(tools.suggest("refunds.create"), Some("orders.refunds.create"));
    assert_eq!(tools.suggest("orders.refund.create"), Some("orders.refunds.create"));
    assert_eq!(tools.suggest("context7.resolve_library_id"), Some("context7.resolve-library-id"));
    assert_eq!(tools.suggest("completely.different"), None);
}
