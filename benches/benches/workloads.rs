//! Criterion benchmarks: every workload in `benches/workloads/` through one reused codemode runtime
//! (`execute` per iteration on a current-thread tokio runtime), plus end-to-end Quick Start runs.
//! With `--features compare`, QuickJS and Boa run the same programs with the same demo tools, each
//! iteration in a fresh runtime and context with the tools installed as native functions (see
//! `codemode_bench::quickjs` and `codemode_bench::boa`).
//!
//! Ids are `<workload>/<engine>`; `cargo xtask bench` turns criterion's estimates into
//! `docs/benchmarks.md`. A workload that fails on an engine is reported on stderr and not timed there.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Duration;

use codemode_bench::{Codemode, HEAP_1MB, QUICKSTART, QUICKSTART_DURABLE, WORKLOADS};
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};

/// Runs `run` once as a check; benchmarks it only when it succeeds.
fn bench_checked<F>(group: &mut BenchmarkGroup<'_, WallTime>, engine: &str, workload: &str, mut run: F)
where
    F: FnMut() -> Result<String, String>,
{
    match run() {
        Ok(_) => {
            group.bench_function(engine, |b| b.iter(|| black_box(run())));
        }
        Err(e) => eprintln!("skipping {workload}/{engine}: the run failed: {e}"),
    }
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
}

fn workloads(c: &mut Criterion) {
    let codemode = Codemode::new().expect("codemode runtime");

    for (name, source) in WORKLOADS {
        let mut group = c.benchmark_group(*name);
        configure(&mut group);
        bench_checked(&mut group, "codemode", name, || codemode.run(source));
        #[cfg(feature = "compare")]
        {
            bench_checked(&mut group, "quickjs", name, || codemode_bench::quickjs::run(source));
            bench_checked(&mut group, "boa", name, || codemode_bench::boa::run(source));
        }
        group.finish();
    }
}

/// The Quick Start program end to end: on a reused runtime, and with a fresh runtime per run
/// (build + execute, what a one-shot host pays; QuickJS and Boa always run fresh).
fn quickstart(c: &mut Criterion) {
    let codemode = Codemode::new().expect("codemode runtime");
    let mut group = c.benchmark_group("quickstart");
    configure(&mut group);
    bench_checked(&mut group, "codemode", "quickstart", || codemode.run(QUICKSTART));
    #[cfg(feature = "compare")]
    {
        bench_checked(&mut group, "quickjs", "quickstart", || codemode_bench::quickjs::run(QUICKSTART));
        bench_checked(&mut group, "boa", "quickstart", || codemode_bench::boa::run(QUICKSTART));
    }
    group.finish();

    let mut group = c.benchmark_group("quickstart_cold");
    configure(&mut group);
    bench_checked(&mut group, "codemode", "quickstart_cold", || Codemode::cold_run(QUICKSTART));
    #[cfg(feature = "compare")]
    {
        // QuickJS and Boa build a fresh runtime for every run anyway: the same as `quickstart`.
        bench_checked(&mut group, "quickjs", "quickstart_cold", || codemode_bench::quickjs::run(QUICKSTART));
        bench_checked(&mut group, "boa", "quickstart_cold", || codemode_bench::boa::run(QUICKSTART));
    }
    group.finish();
}

/// Saving a waiting run (`Execution::suspend` and `Snapshot::to_bytes`) and restoring it
/// (`Snapshot::from_bytes` and `CodeMode::resume`), for the Quick Start program and a run with
/// about 1 MB of heap. The state sizes go to `target/criterion/snapshot-sizes.json` for the
/// report.
fn snapshots(c: &mut Criterion) {
    let codemode = Codemode::new().expect("codemode runtime");
    let mut sizes = serde_json::Map::new();
    for (name, source) in [("quickstart", QUICKSTART_DURABLE), ("heap_1mb", HEAP_1MB)] {
        let Ok((bytes, keys)) = Codemode::suspend(&mut codemode.waiting(source)) else {
            eprintln!("skipping snapshot benchmarks of {name}: the run did not suspend");
            continue;
        };
        let heap = Codemode::heap_bytes(&bytes).unwrap_or(0);
        sizes.insert(name.into(), serde_json::json!({ "state_bytes": bytes.len(), "heap_bytes": heap }));
        let mut group = c.benchmark_group(format!("snapshot_save_{name}"));
        configure(&mut group);
        group.bench_function("codemode", |b| {
            b.iter_batched(
                || codemode.waiting(source),
                |mut execution| black_box(Codemode::suspend(&mut execution)),
                BatchSize::SmallInput,
            )
        });
        group.finish();
        let mut group = c.benchmark_group(format!("snapshot_restore_{name}"));
        configure(&mut group);
        group.bench_function("codemode", |b| b.iter(|| black_box(codemode.restore(&bytes, &keys))));
        group.finish();
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("snapshot-sizes.json"), serde_json::Value::Object(sizes).to_string());
}

criterion_group!(benches, quickstart, workloads, snapshots);
criterion_main!(benches);
