//! `cargo xtask bench`: runs the criterion benches of `codemode-bench` and writes `docs/benchmarks.md`
//! from criterion's `target/criterion/**/new/{benchmark,estimates}.json`.
//!
//! Benchmark ids are `<workload>/<engine>` (criterion group = workload, function = engine), so the
//! table has one row per workload and one column per engine.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::Value;

use crate::{cargo, root, status};

/// Column order; engines not listed here follow alphabetically.
const ENGINE_ORDER: &[&str] = &["codemode", "quickjs", "boa"];

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let (ours, criterion_args) = match args.iter().position(|a| a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let compare = ours.iter().any(|a| a == "--compare");
    let report_only = ours.iter().any(|a| a == "--report-only");
    if let Some(other) = ours.iter().find(|a| *a != "--compare" && *a != "--report-only") {
        return Err(format!("unknown bench argument `{other}` (criterion arguments go after `--`)"));
    }
    let started = if report_only {
        SystemTime::UNIX_EPOCH
    } else {
        let started = SystemTime::now();
        let mut cmd = cargo();
        cmd.args(["bench", "-p", "codemode-bench"]);
        if compare {
            cmd.args(["--features", "compare"]);
        }
        cmd.arg("--").args(criterion_args);
        status(cmd)?;
        started
    };

    let criterion = target_dir().join("criterion");
    let mut results = Vec::new();
    collect(&criterion, started, &mut results);
    if results.is_empty() {
        return Err(format!("no fresh criterion results under {}", criterion.display()));
    }
    let mut table = render(&results, compare);
    table.push_str(&snapshot_sizes(&criterion));
    print!("{table}");
    let docs = root().join("docs");
    std::fs::create_dir_all(&docs).map_err(|e| format!("cannot create {}: {e}", docs.display()))?;
    let out = docs.join("benchmarks.md");
    std::fs::write(&out, table).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("\nwrote {}", out.display());
    Ok(())
}

/// The state sizes the snapshot benchmarks wrote, as a paragraph for the report.
fn snapshot_sizes(criterion: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(criterion.join("snapshot-sizes.json")) else {
        return String::new();
    };
    let Ok(Value::Object(sizes)) = serde_json::from_str::<Value>(&text) else { return String::new() };
    let mut out = String::from(
        "\nSnapshots (`snapshot_save_*`: `Execution::suspend` + `Snapshot::to_bytes` of a run waiting on \
         durable work; `snapshot_restore_*`: `Snapshot::from_bytes` + `CodeMode::resume`):",
    );
    for (name, size) in &sizes {
        let _ = write!(
            out,
            " {name}: {} bytes of state for {} bytes of heap;",
            size["state_bytes"], size["heap_bytes"]
        );
    }
    out.push('\n');
    out
}

pub(crate) fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => root().join("target"),
    }
}

/// One benchmark's result: workload, engine, median in nanoseconds.
#[derive(Debug)]
struct Sample {
    workload: String,
    engine: String,
    median_ns: f64,
}

/// Walks `dir` for `new/benchmark.json` + `new/estimates.json` written after `since`.
fn collect(dir: &Path, since: SystemTime, out: &mut Vec<Sample>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            if let Some(sample) = read_sample(&path, since) {
                out.push(sample);
            }
        } else {
            collect(&path, since, out);
        }
    }
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

fn read_sample(new_dir: &Path, since: SystemTime) -> Option<Sample> {
    let estimates_path = new_dir.join("estimates.json");
    let modified = std::fs::metadata(&estimates_path).ok()?.modified().ok()?;
    if modified < since {
        return None;
    }
    let benchmark = read_json(&new_dir.join("benchmark.json"))?;
    let estimates = read_json(&estimates_path)?;
    let (workload, engine) = match benchmark["function_id"].as_str() {
        Some(function) => (benchmark["group_id"].as_str()?.to_string(), function.to_string()),
        None => (benchmark["group_id"].as_str()?.to_string(), "codemode".to_string()),
    };
    Some(Sample { workload, engine, median_ns: estimates["median"]["point_estimate"].as_f64()? })
}

fn format_ns(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn render(samples: &[Sample], compare: bool) -> String {
    // codemode always has a column: a workload it cannot run yet shows as a gap, not as a missing column.
    let mut engines: Vec<&str> =
        std::iter::once("codemode").chain(samples.iter().map(|s| s.engine.as_str())).collect();
    engines.sort_by_key(|e| (ENGINE_ORDER.iter().position(|o| o == e).unwrap_or(usize::MAX), e.to_string()));
    engines.dedup();
    let mut rows: BTreeMap<&str, BTreeMap<&str, &Sample>> = BTreeMap::new();
    for s in samples {
        rows.entry(&s.workload).or_default().insert(&s.engine, s);
    }
    let mut out = String::new();
    let _ = writeln!(out, "# Benchmarks\n");
    let _ = writeln!(
        out,
        "Written by `cargo xtask bench{}` from criterion's estimates: median time per iteration \
         (one whole `execute`: parse, compile, run, result conversion), and for other engines the \
         ratio to codemode's median (above 1.00× means slower than codemode). Workloads: \
         `benches/workloads/`. Machine: the project's 2-core CI kind; numbers from one run, \
         compare within a table only. A dash: the engine could not run the workload (see the \
         bench output).\n",
        if compare { " --compare" } else { "" }
    );
    let _ = write!(out, "| workload |");
    for e in &engines {
        let _ = write!(out, " {e} |");
    }
    let _ = write!(out, "\n| --- |");
    for _ in &engines {
        let _ = write!(out, " ---: |");
    }
    out.push('\n');
    for (workload, by_engine) in &rows {
        let base = by_engine.get("codemode").map(|s| s.median_ns);
        let _ = write!(out, "| {workload} |");
        for e in &engines {
            let cell = match (by_engine.get(e), base) {
                (Some(s), Some(b)) if *e != "codemode" && b > 0.0 => {
                    format!("{} ({:.2}×)", format_ns(s.median_ns), s.median_ns / b)
                }
                (Some(s), _) => format_ns(s.median_ns),
                (None, _) => "–".to_string(),
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out
}
