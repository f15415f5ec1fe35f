//! The `search` built-in: exact path, scoping, browsing, pagination, result shape, input errors,
//! ranking basics and regex search.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use codemode_tools::search::{EmbedError, Embedder, SemanticRanker};
use codemode_tools::{Namespace, SearchRequest, Tool, ToolErrorKind, ToolSet};
use serde_json::json;

fn tool(description: &str, input: serde_json::Value) -> Tool {
    Tool::from_json(description, Some(input), None, |_, _| async { Ok(json!(null)) })
}

fn sample() -> ToolSet {
    let id = json!({ "type": "object", "properties": { "id": { "type": "string", "description": "Order identifier" } }, "required": ["id"] });
    Namespace::new()
        .namespace(
            "orders",
            Namespace::with_description("Purchases, fulfillment, and shipment tracking")
                .tool("lookup", tool("Look up an order by ID", id.clone()))
                .tool("list", tool("List recent orders", json!({ "type": "object" })))
                .tool("cancel", tool("Cancel an order", id.clone())),
        )
        .namespace(
            "customers",
            Namespace::new()
                .tool(
                    "lookup",
                    tool(
                        "Find a customer by email",
                        json!({ "type": "object", "properties": { "email": { "type": "string" } } }),
                    ),
                )
                .tool("list", tool("List customers", json!({}))),
        )
        .tool("ping", tool("Health check", json!({})))
        .build()
        .unwrap()
}

#[test]
fn exact_path_returns_that_tool_alone() {
    let tools = sample();
    for query in ["orders.lookup", "tools.orders.lookup", " orders.lookup "] {
        let page = tools.search(&SearchRequest::query(query));
        assert_eq!(page.items.len(), 1, "{query}");
        assert_eq!(page.items[0].path, "tools.orders.lookup");
        assert_eq!(page.remaining, 0);
        assert!(page.next.is_none());
    }
}

#[test]
fn empty_query_browses_the_scope_alphabetically() {
    let tools = sample();
    let page = tools.search(&SearchRequest::default());
    let paths: Vec<&str> = page.items.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "tools.customers.list",
            "tools.customers.lookup",
            "tools.orders.cancel",
            "tools.orders.list",
            "tools.orders.lookup",
            "tools.ping"
        ]
    );
    let scoped = tools.search(&SearchRequest::default().in_namespace("orders"));
    assert_eq!(scoped.items.len(), 3);
    let scoped_expr = tools.search(&SearchRequest::default().in_namespace("tools.orders"));
    assert_eq!(scoped_expr, scoped);
    // A namespace is a path prefix by whole segments: `order` is not `orders`.
    assert!(tools.search(&SearchRequest::default().in_namespace("order")).items.is_empty());
}

#[test]
fn namespace_scoping_restricts_ranked_results() {
    let tools = sample();
    let page = tools.search(&SearchRequest::query("lookup").in_namespace("customers"));
    let paths: Vec<&str> = page.items.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, ["tools.customers.lookup"]);
}

#[test]
fn pagination_reports_remaining_and_next() {
    let tools = sample();
    let first = tools.search(&SearchRequest::default().limit(2));
    assert_eq!(first.items.len(), 2);
    assert_eq!(first.remaining, 4);
    assert_eq!(first.next.map(|n| n.offset), Some(2));
    let second = tools.search(&SearchRequest::default().limit(2).offset(2));
    assert_eq!(second.items[0].path, "tools.orders.cancel");
    let last = tools.search(&SearchRequest::default().limit(4).offset(4));
    assert_eq!(last.items.len(), 2);
    assert_eq!(last.remaining, 0);
    assert!(last.next.is_none());
    let past = tools.search(&SearchRequest::default().offset(100));
    assert!(past.items.is_empty());
    assert_eq!(past.remaining, 0);
}

#[test]
fn json_shape_matches_the_reference() {
    // The reference's `{ items: [{ path, description, signature }], remaining, next }`, plus
    // `matches` (why an item matched, as the Go runtime's results say), omitted when empty.
    let tools = sample();
    let value = tools.search_json(&json!({ "query": "cancel order", "limit": 1 })).unwrap();
    insta::assert_json_snapshot!(value, @r#"
    {
      "items": [
        {
          "path": "tools.orders.cancel",
          "description": "Cancel an order",
          "signature": "tools.orders.cancel({\n  /** Order identifier */\n  id: string;\n}): Promise<void>",
          "matches": [
            "name",
            "namespace",
            "description",
            "input property description"
          ]
        }
      ],
      "remaining": 2,
      "next": {
        "offset": 1
      }
    }
    "#);
    let none = tools.search_json(&json!({ "query": "zzzz qqqq" })).unwrap();
    assert_eq!(none, json!({ "items": [], "remaining": 0, "next": null }));
    assert!(tools.search_json(&json!(null)).is_ok());
    assert!(tools.search_json(&json!({ "unknown": 1 })).is_ok());
}

#[test]
fn invalid_search_input_is_reported() {
    let tools = sample();
    let cases = [
        (json!("orders"), "at input: expected object, got string"),
        (json!({ "query": 3 }), "at input.query: expected string, got number"),
        (json!({ "limit": 0 }), "at input.limit: expected an integer >= 1, got 0"),
        (json!({ "limit": 1.5 }), "at input.limit: expected an integer >= 1, got 1.5"),
        (json!({ "offset": -1 }), "at input.offset: expected an integer >= 0, got -1"),
        (json!({ "namespace": [] }), "at input.namespace: expected string, got array"),
    ];
    for (input, message) in cases {
        let err = tools.search_json(&input).unwrap_err();
        assert_eq!(err.kind(), ToolErrorKind::InvalidInput);
        assert_eq!(err.message(), message);
    }
}

#[test]
fn ranking_uses_names_descriptions_properties_and_namespace_descriptions() {
    let tools = sample();
    let top = |q: &str| tools.rank(q, None).first().map(|h| h.tool.path.clone());
    assert_eq!(top("cancel").as_deref(), Some("orders.cancel"));
    assert_eq!(top("customer email").as_deref(), Some("customers.lookup"));
    assert_eq!(top("shipment").as_deref().map(|p| p.starts_with("orders.")), Some(true));
    assert_eq!(top("health").as_deref(), Some("ping"));
    assert_eq!(top("cancle").as_deref(), Some("orders.cancel"), "typo");
    assert_eq!(top("listOrders").as_deref(), Some("orders.list"), "camelCase");
    assert_eq!(top("find customers").as_deref(), Some("customers.lookup"), "plural + synonym");
    // Ties break by path; scores never increase down the list.
    let hits = tools.rank("order", None);
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
}

#[test]
fn regex_search_filters_deterministically() {
    let tools = sample();
    let hits: Vec<&str> =
        tools.search_regex("^orders\\.l", None).unwrap().iter().map(|t| t.path.as_str()).collect();
    assert_eq!(hits, ["orders.list", "orders.lookup"]);
    let hits: Vec<&str> =
        tools.search_regex("EMAIL", None).unwrap().iter().map(|t| t.path.as_str()).collect();
    assert_eq!(hits, ["customers.lookup"]);
    assert_eq!(tools.search_regex("list", Some("customers")).unwrap().len(), 1);
    assert!(tools.search_regex("(", None).is_err());
    // Linear-time engine: a classic catastrophic pattern returns at once.
    assert!(tools.search_regex("(a+)+$", None).is_ok());
}

#[test]
fn output_properties_and_titles_are_searchable() {
    // The Go runtime's example: "matched product items" finds a tool from its output shape.
    let products = Tool::from_json(
        "Search the product catalog",
        Some(
            json!({ "type": "object", "properties": { "query": { "type": "string", "description": "Search query" } }, "required": ["query"] }),
        ),
        Some(
            json!({ "type": "object", "properties": { "items": { "type": "array", "description": "Matched items", "items": {
            "type": "object", "properties": { "id": { "type": "string", "description": "Product identifier" }, "title": { "type": "string" } }
        } } } }),
        ),
        |_, _| async { Ok(json!(null)) },
    );
    let weather = Tool::from_json("Current conditions", None, None, |_, _| async { Ok(json!(null)) })
        .with_title("Weather report");
    let tools = Namespace::new()
        .tool("search-products", products)
        .tool("conditions", weather)
        .tool("other", tool("Unrelated things", json!({})))
        .build()
        .unwrap();
    assert_eq!(tools.rank("matched product items", None)[0].tool.path, "search-products");
    assert_eq!(tools.rank("weather", None)[0].tool.path, "conditions");
    assert_eq!(tools.rank("searchProducts", None)[0].tool.path, "search-products");
}

#[test]
fn huge_queries_are_bounded() {
    let tools = sample();
    let query = "cancelx orderz ".repeat(100_000) + &"é".repeat(1000);
    let started = std::time::Instant::now();
    let page = tools.search(&SearchRequest::query(query.clone()));
    let _ = tools.search(&SearchRequest::query("x".repeat(1_000_000)));
    let _ = tools.search_regex(&regex_escape(&query[..10_000]), None);
    assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    assert!(page.items.len() <= 10);
    let _ = tools.unknown_tool_message(&query);
}

fn regex_escape(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_alphanumeric() || c == ' ' { c.to_string() } else { format!("\\{c}") })
        .collect()
}

#[test]
fn odd_text_never_panics() {
    let tools = Namespace::new()
        .tool(
            "café.münü",
            tool(
                "Ünïcödé names İstanbul ß ﬁ",
                json!({ "type": "object", "properties": { "größe": { "type": "string" } } }),
            ),
        )
        .tool("emoji", tool("🚀 launches", json!({})))
        .build()
        .unwrap();
    assert_eq!(
        tools.catalog()[0].signature,
        "tools[\"café\"][\"münü\"]({ \"größe\"?: string }): Promise<void>"
    );
    for query in [
        "İ",
        "ß",
        "ﬁ",
        "🚀",
        "es",
        "s",
        "ies",
        "*.",
        ".x",
        "a.b.c.",
        "tools.",
        "tools[\"",
        "\u{0}",
        "💥💥💥es",
        "İes",
        "größes",
    ] {
        let _ = tools.search(&SearchRequest::query(query));
        let _ = tools.search(&SearchRequest::query(query).in_namespace(query));
        let _ = tools.unknown_tool_message(query);
        let _ = tools.search_regex(query, Some(query));
    }
    assert_eq!(tools.search(&SearchRequest::query("münü")).items[0].path, "tools[\"café\"][\"münü\"]");
    assert_eq!(tools.search(&SearchRequest::query("tools[\"café\"][\"münü\"]")).items.len(), 1);
}

/// A toy model: one dimension per idea, so the test says exactly what is "close".
struct ToyEmbedder {
    calls: Arc<AtomicUsize>,
}

impl Embedder for ToyEmbedder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Ok(texts
            .iter()
            .map(|t| {
                let t = t.to_lowercase();
                let idea = |words: &[&str]| if words.iter().any(|w| t.contains(w)) { 1.0 } else { 0.0 };
                vec![
                    idea(&["cancel", "call off", "abort"]),
                    idea(&["email", "mail"]),
                    idea(&["health", "alive"]),
                    0.1,
                ]
            })
            .collect())
    }
}

struct FailingEmbedder;

impl Embedder for FailingEmbedder {
    fn embed(&self, _: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Err(EmbedError("model unavailable".to_owned()))
    }
}

#[test]
fn semantic_ranker_fuses_caches_and_falls_back() {
    let calls = Arc::new(AtomicUsize::new(0));
    let ranker = Arc::new(SemanticRanker::new(ToyEmbedder { calls: Arc::clone(&calls) }));
    let tools = sample().with_semantic_ranker(Arc::clone(&ranker));
    // "call off" shares no word with any tool; the model knows it means cancel (and so does
    // the thesaurus, which has `call off` as a multi-word verb).
    let hits = tools.rank("call off my purchase", None);
    assert_eq!(hits[0].tool.path, "orders.cancel");
    assert!(hits[0].matches.contains(&"semantic"), "{:?}", hits[0].matches);
    assert!(hits[0].matches.contains(&"name"), "{:?}", hits[0].matches);
    // Is the server alive? Lexically nothing matches "alive"; semantically ping does.
    assert_eq!(tools.rank("is it alive", None)[0].tool.path, "ping");
    // Catalog vectors were computed once (one batch), then each query is one call.
    let before = calls.load(Ordering::SeqCst);
    assert_eq!(before, 3, "one catalog batch and two queries");
    tools.rank("cancel", None);
    assert_eq!(calls.load(Ordering::SeqCst), before + 1);
    // A clone of the tool set (same catalog) reuses the cached vectors.
    let again = sample().with_semantic_ranker(Arc::clone(&ranker));
    again.rank("cancel", None);
    assert_eq!(calls.load(Ordering::SeqCst), before + 2);
    // Exact paths and empty queries stay as they were.
    assert_eq!(tools.rank("orders.list", None).len(), 1);
    assert_eq!(tools.rank("", Some("orders")).len(), 3);
    // A failing model never fails search: the lexical ranking is used.
    let failing = sample().with_semantic_ranker(Arc::new(SemanticRanker::new(FailingEmbedder)));
    let lexical: Vec<String> =
        sample().rank("cancel order", None).iter().map(|h| h.tool.path.clone()).collect();
    let fallback: Vec<String> =
        failing.rank("cancel order", None).iter().map(|h| h.tool.path.clone()).collect();
    assert_eq!(lexical, fallback);
    assert!(failing.search_json(&json!({ "query": "cancel order" })).is_ok());
}

/// A model with a query instruction: it embeds a query as `query: <text>` (here: a query
/// about money means the refund idea), every tool text as it is.
struct InstructedEmbedder;

impl Embedder for InstructedEmbedder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts
            .iter()
            .map(|t| {
                let refund = if t.starts_with("query: ") && t.contains("money") { 1.0 } else { 0.0 };
                let refund_tool = if t.contains("refund") { 1.0 } else { 0.0 };
                vec![refund + refund_tool, 0.1]
            })
            .collect())
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        let mut vectors = self.embed(&[&format!("query: {query}")])?;
        vectors.pop().ok_or_else(|| EmbedError("no vector".to_owned()))
    }
}

#[test]
fn semantic_ranker_embeds_the_query_with_embed_query() {
    let tools = Namespace::new()
        .tool("issue_refund", tool("Issue a refund for a payment", json!({})))
        .tool("list_payments", tool("List payments", json!({})))
        .build()
        .unwrap()
        .with_semantic_ranker(Arc::new(SemanticRanker::new(InstructedEmbedder)));
    // Lexically "get my money back" matches nothing; only the query form of the text carries
    // the model's idea of a refund, so the ranker must have used `embed_query`.
    let hits = tools.rank("get my money back", None);
    assert_eq!(hits.first().map(|h| h.tool.path.as_str()), Some("issue_refund"), "{hits:?}");
    assert!(hits[0].matches.contains(&"semantic"));
    // The default embeds a query like any text.
    let plain = FailingEmbedder.embed_query("anything");
    assert_eq!(plain, Err(EmbedError("model unavailable".to_owned())));
}

#[test]
fn other_endings_of_a_word_match_at_a_discount() {
    let tools = Namespace::new()
        .tool("add_watcher", tool("Add a watcher to an issue", json!({})))
        .tool("create_deployment", tool("Create a deployment", json!({})))
        .tool("get_issue", tool("Get an issue", json!({})))
        .build()
        .unwrap();
    let top = |q: &str| tools.rank(q, None).first().map(|h| h.tool.path.clone());
    assert_eq!(top("watch an issue").as_deref(), Some("add_watcher"));
    assert_eq!(top("deploy").as_deref(), Some("create_deployment"));
    // The exact word still outranks another ending of it.
    let watched = tools.rank("watcher", None);
    assert!(watched[0].score > tools.rank("watch", None)[0].score);
}

#[test]
fn multi_word_verbs_match_through_their_wordnet_relatives() {
    let tools = Namespace::new()
        .tool("drop_database", tool("Removes a database and its collections", json!({})))
        .tool("list_databases", tool("Lists the databases", json!({})))
        .tool("get_logs", tool("Get the log lines of a job", json!({})))
        .tool("get_me", tool("Details of the authenticated user's account", json!({})))
        .build()
        .unwrap();
    let top = |q: &str| tools.rank(q, None).first().map(|h| h.tool.path.clone());
    // `get rid of` is `remove`, not `get`.
    assert_eq!(top("get rid of a database").as_deref(), Some("drop_database"));
    assert_eq!(top("throw away the old database").as_deref(), Some("drop_database"));
    // A verb's first word counts for less than when it stands alone: `logged in` is not `log`.
    let logged_in = tools.rank("logged in", None);
    let logged = tools.rank("logged", None);
    assert!(logged_in[0].score < logged[0].score, "{logged_in:?}");
}

#[test]
fn question_forms_ask_for_the_attribute() {
    let tools = Namespace::new()
        .tool("storage_size", tool("Gets the size of a collection on disk", json!({})))
        .tool("rename_collection", tool("Renames a collection", json!({})))
        .tool("insert_many", tool("Insert many documents into a collection", json!({})))
        .tool("count", tool("Gets the number of documents in a collection", json!({})))
        .build()
        .unwrap();
    let top = |q: &str| tools.rank(q, None).first().map(|h| h.tool.path.clone());
    // `how big` asks for a size, `how many` for a number (WordNet's attributes), not for `many`.
    assert_eq!(top("how big is the collection").as_deref(), Some("storage_size"));
    assert_eq!(top("how many documents are in the collection").as_deref(), Some("count"));
}

#[test]
fn adaptive_weight_leans_on_the_model_when_few_words_match() {
    let calls = Arc::new(AtomicUsize::new(0));
    let fixed = SemanticRanker::new(ToyEmbedder { calls: Arc::clone(&calls) }).with_weights(1.0, 0.2);
    let adaptive =
        SemanticRanker::new(ToyEmbedder { calls }).with_weights(1.0, 0.2).with_adaptive_weight(1.5);
    let fixed = sample().with_semantic_ranker(Arc::new(fixed));
    let adaptive = sample().with_semantic_ranker(Arc::new(adaptive));
    let top = |tools: &ToolSet, q: &str| tools.rank(q, None).first().map(|h| h.tool.path.clone());
    // One word of three matches an orders tool literally; the model knows the query is about
    // health. At a fixed low weight the literal match wins; adapting, the model does.
    let query = "is the order service alive";
    assert_ne!(top(&fixed, query).as_deref(), Some("ping"));
    assert_eq!(top(&adaptive, query).as_deref(), Some("ping"));
    // A query in the catalog's own words stays lexical.
    assert_eq!(top(&adaptive, "cancel order").as_deref(), Some("orders.cancel"));
    assert_eq!(top(&adaptive, "list customers").as_deref(), Some("customers.list"));
}

#[test]
fn a_query_naming_a_namespace_prefers_its_tools() {
    let tools = Namespace::new()
        .namespace(
            "trello",
            Namespace::new()
                .tool("copy_card", tool("Copy a card to another list", json!({})))
                .tool("archive_card", tool("Archive a card", json!({}))),
        )
        .namespace(
            "linear",
            Namespace::new()
                .tool("duplicate_issue", tool("Make a duplicate of an issue", json!({})))
                .tool("create_issue", tool("Create an issue", json!({}))),
        )
        .build()
        .unwrap();
    // `copy` matches the trello tool's name; `linear` names the namespace the user means.
    let ranked: Vec<String> =
        tools.rank("copy a linear issue", None).iter().map(|h| h.tool.path.clone()).collect();
    assert!(ranked.iter().take(2).all(|p| p.starts_with("linear.")), "{ranked:?}");
    // Without the namespace's name, the literal match wins.
    let ranked = tools.rank("copy an issue", None);
    assert_eq!(ranked[0].tool.path, "trello.copy_card");
}

#[test]
fn centred_semantic_ranker_still_finds_the_close_tool() {
    let calls = Arc::new(AtomicUsize::new(0));
    let ranker = Arc::new(SemanticRanker::new(ToyEmbedder { calls }).with_centering(true));
    let tools = sample().with_semantic_ranker(Arc::clone(&ranker));
    assert_eq!(tools.rank("call off my purchase", None)[0].tool.path, "orders.cancel");
    assert_eq!(tools.rank("is it alive", None)[0].tool.path, "ping");
    // Scoped, the catalog's mean still applies; tools no closer than the mean do not join.
    assert!(tools.rank("is it alive", Some("orders")).iter().all(|h| h.tool.path.starts_with("orders.")));
}
