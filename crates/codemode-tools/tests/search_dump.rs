//! A regression dump of the ranking: for every query of the evaluation corpus and some odd
//! ones, the full ranked list, the top ten's scores and match reasons, with and without a
//! namespace, the plain baseline, the thesaurus-fused ranking and the `search` responses.
//! `SEARCH_DUMP=path cargo test --release --test search_dump -- --ignored` writes it; two
//! dumps are compared with `cmp` to check that a speed change leaves every ranking as it was.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

use codemode_tools::ToolSet;
use codemode_tools::search::{ScoredHit, SearchRequest, SemanticRanker, ThesaurusEmbedder};

#[path = "common/eval_corpus.rs"]
mod eval_corpus;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/search_corpus")
}

fn write_hits(out: &mut String, label: &str, q: &str, hits: &[ScoredHit<'_>]) {
    writeln!(out, "## {label} {q:?} ({} hits)", hits.len()).unwrap();
    for (i, hit) in hits.iter().enumerate() {
        if i < 10 {
            writeln!(out, "{} {:.9} {:?}", hit.tool.path, hit.score, hit.matches).unwrap();
        } else {
            writeln!(out, "{} {:?}", hit.tool.path, hit.matches).unwrap();
        }
    }
}

#[test]
#[ignore]
fn search_dump() {
    let dir = dir();
    let tools: ToolSet = eval_corpus::catalog_namespace(&dir).build().unwrap();
    let mut queries: Vec<String> = Vec::new();
    for split in ["dev", "dev_extra", "dev_extra2", "heldout"] {
        queries.extend(eval_corpus::queries(&dir, split).into_iter().map(|q| q.q));
    }
    let odd = [
        "",
        " ",
        "a",
        "x",
        "z",
        "list",
        "the",
        "list all",
        "how many",
        "throw away the file",
        "get rid of issues",
        "logged in user",
        "README.md",
        "*.toml",
        "src/main.rs",
        "créer un problème",
        "ünïcödé façade",
        "日本語 検索",
        "emoji 🎉 reaction",
        "kubernetse pdos lsit",
        "repostiory isuse creat",
        "serach isues",
        "pul reqest mrege",
        "repo_path",
        "labelSelector",
        "jql",
        "latitude longitude",
        "owner repo pull_number",
        "github.create_issue",
        "tools.github.create_issue",
        "tools[\"github\"][\"create_issue\"]",
        "github",
        "linear",
        "copy a linear ticket",
        "cat README",
        "ls dir",
        "mkdir foo",
        "rm -rf /",
        "whoami",
        "prs",
        "dm the team",
        "HTTPServer listPullRequests get_file-contents",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "search for all the open issues in the repository that were created by me last week and assign them to the team lead please",
        "1234",
        "v2 api",
        "create_issue",
        "createIssue",
        "CREATE ISSUE",
        "send slack message to channel",
        "navigate",
        "screenshot page",
        "query database",
        "sql",
        "time zone convert",
    ];
    queries.extend(odd.iter().map(|s| (*s).to_owned()));
    let long: String = (0..200).map(|i| format!("word{i} list ")).collect();
    queries.push(long);
    let mut out = String::new();
    for q in &queries {
        write_hits(&mut out, "rank", q, &tools.rank(q, None));
        write_hits(&mut out, "plain", q, &tools.rank_plain_bm25(q));
        for ns in ["github", "tools.linear", "slack"] {
            write_hits(&mut out, &format!("rank@{ns}"), q, &tools.rank(q, Some(ns)));
        }
        let response = tools.search(&SearchRequest::query(q.clone()).limit(5).offset(3));
        writeln!(out, "{}", serde_json::to_string(&response).unwrap()).unwrap();
    }
    let ranker = SemanticRanker::new(ThesaurusEmbedder::default()).with_weights(1.0, 0.25);
    let fused = tools.clone().with_semantic_ranker(Arc::new(ranker));
    for q in &queries {
        write_hits(&mut out, "fused", q, &fused.rank(q, None));
        write_hits(&mut out, "fused@github", q, &fused.rank(q, Some("github")));
    }
    let path = std::env::var("SEARCH_DUMP").unwrap_or_else(|_| "/tmp/search_dump.txt".to_owned());
    std::fs::write(path, out).unwrap();
}

/// Ranks every dev query once and builds the index once: a target for
/// `valgrind --tool=callgrind --toggle-collect=...` (instruction counts per query and build).
#[test]
#[ignore]
fn search_dump_workload() {
    let dir = dir();
    let tools: ToolSet = eval_corpus::catalog_namespace(&dir).build().unwrap();
    let dev: Vec<String> = eval_corpus::queries(&dir, "dev").into_iter().map(|q| q.q).collect();
    let mut total = 0;
    for q in &dev {
        total += std::hint::black_box(tools.rank(std::hint::black_box(q), None)).len();
    }
    std::hint::black_box(tools.build_search_index());
    println!("{} dev queries, {total} hits", dev.len());
}
