//! The search-quality corpus (`data/search_corpus.json`) as a [`ToolSet`], shared by the
//! search-quality test and the declaration type-check.

use codemode_tools::{Namespace, Tool, ToolSet};
use serde::Deserialize;
use serde_json::{Map, Value, json};

#[derive(Deserialize)]
struct Corpus {
    namespaces: Vec<CorpusNamespace>,
}

#[derive(Deserialize)]
struct CorpusNamespace {
    path: String,
    description: String,
    tools: Vec<CorpusTool>,
}

#[derive(Deserialize)]
struct CorpusTool {
    n: String,
    d: String,
    #[serde(rename = "in")]
    input: Map<String, Value>,
    #[serde(default)]
    req: Vec<String>,
    #[serde(default)]
    out: Option<Map<String, Value>>,
}

/// `{ "name:type": "description" }` → an object JSON Schema.
fn object_schema(props: &Map<String, Value>, required: &[String]) -> Value {
    let mut properties = Map::new();
    for (key, description) in props {
        let (name, ty) = key.split_once(':').unwrap_or((key, "string"));
        let mut schema = json!({ "type": ty, "description": description });
        if ty == "array" {
            schema["items"] = json!({ "type": "string" });
        }
        properties.insert(name.to_owned(), schema);
    }
    json!({ "type": "object", "properties": properties, "required": required })
}

pub fn corpus() -> ToolSet {
    let corpus: Corpus = serde_json::from_str(include_str!("../data/search_corpus.json")).unwrap();
    let mut root = Namespace::new();
    for ns in corpus.namespaces {
        let mut namespace = Namespace::with_description(ns.description);
        for t in ns.tools {
            let input = object_schema(&t.input, &t.req);
            let output = t.out.as_ref().map(|o| object_schema(o, &[]));
            namespace
                .add_tool(t.n, Tool::from_json(t.d, Some(input), output, |_, _| async { Ok(Value::Null) }));
        }
        root.add_namespace(ns.path, namespace);
    }
    root.build().unwrap()
}
