//! Builds the search index or ranks the dev queries of the search-evaluation catalog
//! (`crates/codemode-tools/tests/search_corpus/`) `n` times in one process, for profilers that
//! want the per-build or per-query cost without loading the catalog:
//!
//! `search_repeat <build|rank> [n]` (default 100), e.g.
//! `valgrind --tool=callgrind --toggle-collect='*SearchIndex*new*' target/release/search_repeat build 10`.
//! `rank` ranks every dev query `n` times (as `search_rank_dev_query` does).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use codemode::tools::{Namespace, Tool, ToolSet};
use serde_json::Value;

/// The corpus, relative to this crate's manifest.
const CORPUS: &str = "../crates/codemode-tools/tests/search_corpus";

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(CORPUS)
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The catalog as `tests/common/eval_corpus.rs` loads it (every server one namespace).
fn catalog(dir: &Path) -> Result<ToolSet, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("queries"))
        })
        .collect();
    files.sort();
    let mut root = Namespace::new();
    for file in files {
        let server = read_json(&file)?;
        let mut namespace = Namespace::new();
        for t in server["tools"].as_array().map_or(&[][..], Vec::as_slice) {
            let text = |key: &str| t[key].as_str().map(str::to_owned);
            let schema = Some(t["inputSchema"].clone()).filter(Value::is_object);
            let mut tool =
                Tool::from_json(text("description").unwrap_or_default(), schema, None, |_, _| async {
                    Ok(Value::Null)
                });
            if let Some(title) = text("title") {
                tool = tool.with_title(title);
            }
            namespace.add_tool(text("name").unwrap_or_default(), tool);
        }
        root.add_namespace(server["server"].as_str().unwrap_or_default(), namespace);
    }
    root.build().map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str);
    let runs: usize = match args.get(1).map(|n| n.parse()) {
        None => 100,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("search_repeat: run count: {e}");
            return ExitCode::FAILURE;
        }
    };
    let dir = corpus_dir();
    let tools = match catalog(&dir) {
        Ok(tools) => tools,
        Err(e) => {
            eprintln!("search_repeat: {e}");
            return ExitCode::FAILURE;
        }
    };
    match mode {
        Some("build") => {
            for _ in 0..runs {
                std::hint::black_box(tools.build_search_index());
            }
        }
        Some("rank") => {
            let queries = match read_json(&dir.join("queries_dev.json")) {
                Ok(q) => q,
                Err(e) => {
                    eprintln!("search_repeat: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let dev: Vec<&str> = queries
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(|q| q["q"].as_str())
                .collect();
            let mut hits = 0;
            for _ in 0..runs {
                for q in &dev {
                    hits += std::hint::black_box(tools.rank(std::hint::black_box(q), None)).len();
                }
            }
            println!("{} dev queries x {runs}: {hits} hits", dev.len());
        }
        _ => {
            eprintln!("usage: search_repeat <build|rank> [n]");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
