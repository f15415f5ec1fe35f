//! Criterion benchmarks of tool search over the search-evaluation catalog (869 tools of 29
//! public MCP servers, `crates/codemode-tools/tests/search_corpus/`, loaded by the same code as
//! `tests/search_eval.rs`): building the search index, building the whole tool set (catalog,
//! signatures and search index), and ranking the development queries.
//!
//! Ids are `search_*/codemode`; `cargo xtask bench` lists them in their own table.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../crates/codemode-tools/tests/common/eval_corpus.rs"]
mod eval_corpus;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(eval_corpus::CORPUS_DIR)
}

fn search(c: &mut Criterion) {
    let dir = corpus_dir();
    let tools = eval_corpus::catalog_namespace(&dir).build().unwrap();
    let dev: Vec<String> = eval_corpus::queries(&dir, "dev").into_iter().map(|q| q.q).collect();

    let mut group = c.benchmark_group("search_index_build");
    group.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    group.bench_function("codemode", |b| b.iter(|| black_box(tools.build_search_index())));
    group.finish();

    let mut group = c.benchmark_group("search_tool_set_build");
    group.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    group.bench_function("codemode", |b| {
        b.iter_batched(
            || eval_corpus::catalog_namespace(&dir),
            |namespace| {
                let tools = namespace.build().unwrap();
                // The index is built by the first search; this benchmark includes it.
                tools.prepare_search();
                black_box(tools)
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();

    // One iteration is one query: the time of ranking every dev query once, divided by their
    // number (the mean over the mix of keyword, paraphrase, task, typo and property queries).
    let mut group = c.benchmark_group("search_rank_dev_query");
    group.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    group.bench_function("codemode", |b| {
        b.iter_custom(|iterations| {
            let rounds = iterations.div_ceil(dev.len() as u64).max(1);
            let started = Instant::now();
            for _ in 0..rounds {
                for q in &dev {
                    black_box(tools.rank(black_box(q), None));
                }
            }
            started.elapsed().mul_f64(iterations as f64 / (rounds * dev.len() as u64) as f64)
        })
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
