//! The search-evaluation corpus (`tests/search_corpus/`: 869 tool definitions of 29 public MCP
//! servers and the query splits), shared by `tests/search_eval.rs` and the search benchmark
//! (`benches/benches/search.rs`), which include this file with `#[path]` and pass the corpus
//! directory (each knows it relative to its own manifest).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use codemode_tools::{Namespace, Tool};
use serde::Deserialize;
use serde_json::Value;

/// The corpus directory relative to the workspace root.
pub const CORPUS_DIR: &str = "crates/codemode-tools/tests/search_corpus";

#[derive(Deserialize)]
struct Server {
    server: String,
    tools: Vec<ServerTool>,
}

#[derive(Deserialize)]
struct ServerTool {
    name: String,
    description: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(rename = "inputSchema", default)]
    input_schema: Value,
}

/// One evaluation query: its text, its kind and the tools it means.
#[derive(Deserialize)]
pub struct Query {
    pub q: String,
    pub kind: String,
    pub expect: Vec<String>,
}

/// The server files of the corpus, in name order.
fn server_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && !p.file_name().unwrap().to_string_lossy().starts_with("queries")
        })
        .collect();
    files.sort();
    files
}

/// Every server of the corpus as one namespace, before the tool set (and its search index)
/// is built.
pub fn catalog_namespace(dir: &Path) -> Namespace {
    let mut root = Namespace::new();
    for file in server_files(dir) {
        let server: Server = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let mut namespace = Namespace::new();
        for t in server.tools {
            let schema = if t.input_schema.is_object() { Some(t.input_schema) } else { None };
            let mut tool = Tool::from_json(t.description, schema, None, |_, _| async { Ok(Value::Null) });
            if let Some(title) = t.title {
                tool = tool.with_title(title);
            }
            namespace.add_tool(t.name, tool);
        }
        root.add_namespace(server.server, namespace);
    }
    root
}

/// The queries of a split (`dev`, `dev_extra`, `dev_extra2`, `heldout`).
pub fn queries(dir: &Path, split: &str) -> Vec<Query> {
    serde_json::from_str(&std::fs::read_to_string(dir.join(format!("queries_{split}.json"))).unwrap())
        .unwrap()
}
