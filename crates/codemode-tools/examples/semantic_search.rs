//! Search fused with a sentence-embedding model (feature `embeddings`). The model directory is
//! found as the CLI finds it: `CODEMODE_MODEL_DIR`, else the cache `codemode models pull`
//! fills; without one, the crate's offline `ThesaurusEmbedder`. Each result shows why it
//! matched.
//!
//! ```text
//! CODEMODE_MODEL_DIR=$PWD/all-MiniLM-L6-v2 cargo run --release -p codemode-tools \
//!   --features embeddings --example semantic_search -- "undo what I staged"
//! ```

use std::sync::Arc;

use codemode_tools::search::model::{LazyEncoder, locate};
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
    let found = locate::locate(None, locate::DEFAULT_MODEL, |k| std::env::var(k).ok())?;
    let ranker = match found {
        // With the fusion weights chosen for sentence-embedding models (docs/tools.md).
        Some(found) => SemanticRanker::for_model(LazyEncoder::new(found.spec.dir)),
        None => SemanticRanker::new(ThesaurusEmbedder::default()),
    };
    println!("{ranker:?}");
    let ranker = Arc::new(ranker);
    let tools = catalog()?.with_semantic_ranker(ranker);
    for hit in tools.rank(&query, None).iter().take(5) {
        println!("{:.3}  {:<22} {:?}", hit.score, hit.tool.path, hit.matches);
    }
    Ok(())
}
