//! `cargo xtask bench`: runs the criterion benches of `codemode-bench` and writes `docs/benchmarks.md`
//! from criterion's `target/criterion/**/new/{benchmark,estimates}.json`.
//!
//! Benchmark ids are `<workload>/<engine>` (criterion group = workload, function = engine), so the
//! table has one row per workload and one column per engine. With `--compare`, each (workload,
//! engine) also runs once more in a fresh process (`codemode-bench`'s `rss` binary) for its peak RSS,
//! kept in `target/criterion/rss.json` and shown as more columns.
//!
//! Only the text between `<!-- bench:begin -->` and `<!-- bench:end -->` in `docs/benchmarks.md` is
//! generated; everything around it is hand-written and kept byte for byte ([`splice`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use serde_json::Value;

use crate::{cargo, root, status};

/// Column order; engines not listed here follow alphabetically.
const ENGINE_ORDER: &[&str] = &["codemode", "quickjs", "boa"];

/// The markers around the generated part of `docs/benchmarks.md`.
const BEGIN: &str = "<!-- bench:begin -->";
const END: &str = "<!-- bench:end -->";

/// Benchmark groups of tool search (`benches/benches/search.rs`), reported apart from programs.
const SEARCH_PREFIX: &str = "search_";

/// How many times the `rss` binary runs a program in its process.
const RSS_RUNS: u32 = 3;

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
    let rss = if compare {
        if !report_only {
            measure_rss(&results, &criterion)?;
        }
        read_rss(&criterion, started)
    } else {
        Rss::default()
    };
    // Tool search (`benches/benches/search.rs`) is not a program run: its own table.
    let (search, programs): (Vec<Sample>, Vec<Sample>) =
        results.into_iter().partition(|s| s.workload.starts_with(SEARCH_PREFIX));
    let mut table = if programs.is_empty() { String::new() } else { render(&programs, &rss, compare) };
    table.push_str(&snapshot_sizes(&criterion));
    table.push_str(&render_search(&search));
    print!("{table}");
    let docs = root().join("docs");
    std::fs::create_dir_all(&docs).map_err(|e| format!("cannot create {}: {e}", docs.display()))?;
    let out = docs.join("benchmarks.md");
    let existing = match std::fs::read_to_string(&out) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read {}: {e}", out.display())),
    };
    let text = splice(existing.as_deref(), &table).map_err(|e| format!("{}: {e}", out.display()))?;
    std::fs::write(&out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("\nwrote the generated part of {}", out.display());
    Ok(())
}

/// `existing` (the current `docs/benchmarks.md`) with the text between [`BEGIN`] and [`END`]
/// replaced by `generated`, everything before and after the markers unchanged; a new file (`None`)
/// is a title and the markers around `generated`.
fn splice(existing: Option<&str>, generated: &str) -> Result<String, String> {
    let inner = format!("\n\n{}\n\n", generated.trim());
    let Some(existing) = existing else {
        return Ok(format!("# Benchmarks\n\n{BEGIN}{inner}{END}\n"));
    };
    let begin = existing
        .find(BEGIN)
        .ok_or_else(|| format!("no `{BEGIN}` marker (add it before the generated table)"))?
        + BEGIN.len();
    let end = existing[begin..]
        .find(END)
        .map(|i| begin + i)
        .ok_or_else(|| format!("no `{END}` marker after `{BEGIN}`"))?;
    Ok(format!("{}{inner}{}", &existing[..begin], &existing[end..]))
}

/// Peak RSS per (workload, engine) in MiB, and the floor (a process that runs nothing).
#[derive(Debug, Default)]
struct Rss {
    floor: Option<f64>,
    peaks: BTreeMap<(String, String), f64>,
    /// Of the functions `crates/codemode-cli/link-order.txt` lists, how many the `rss` binary
    /// defines (so were placed together), and how many it lists (both builds' names).
    link_order: Option<(u64, u64)>,
}

/// Runs the `rss` binary for every (workload, engine) in `samples` that it knows, writing
/// `rss.json` under `criterion`. `cargo bench` builds the binary (bench profile); the same command
/// with `--no-run` makes sure of it without rebuilding anything (a `cargo build` of the binary alone
/// would resolve features without criterion and rebuild the workspace crates).
fn measure_rss(samples: &[Sample], criterion: &Path) -> Result<(), String> {
    let mut cmd = cargo();
    cmd.args(["bench", "-p", "codemode-bench", "--features", "compare", "--no-run"]);
    status(cmd)?;
    let binary = target_dir().join("release").join(format!("rss{}", std::env::consts::EXE_SUFFIX));
    let measure = |engine: &str, workload: &str| -> Option<f64> {
        let output = Command::new(&binary).args([engine, workload, &RSS_RUNS.to_string()]).output().ok()?;
        if !output.status.success() {
            eprintln!(
                "no peak RSS for {workload}/{engine}: {}",
                String::from_utf8_lossy(&output.stderr).trim()
            );
            return None;
        }
        String::from_utf8_lossy(&output.stdout).trim().parse().ok()
    };
    let mut out = serde_json::Map::new();
    match crate::link_order::coverage(&binary) {
        Ok((found, listed)) => {
            println!("link order: {found} of the {listed} listed functions are in {}", binary.display());
            out.insert("link_order".into(), serde_json::json!([found, listed]));
        }
        Err(message) => eprintln!("link order: cannot tell how much of it applies: {message}"),
    }
    if let Some(floor) = measure("none", "startup") {
        out.insert("floor".into(), floor.into());
    }
    let mut peaks = serde_json::Map::new();
    for s in samples {
        // Programs the binary knows: the workloads and `quickstart`.
        if s.workload.starts_with("snapshot_")
            || s.workload.starts_with(SEARCH_PREFIX)
            || s.workload == "quickstart_cold"
        {
            continue;
        }
        if let Some(mib) = measure(&s.engine, &s.workload) {
            println!("peak RSS {}/{}: {mib:.1} MiB", s.workload, s.engine);
            peaks.insert(format!("{}/{}", s.workload, s.engine), mib.into());
        }
    }
    out.insert("peaks".into(), Value::Object(peaks));
    let path = criterion.join("rss.json");
    std::fs::write(&path, Value::Object(out).to_string())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The peaks `measure_rss` wrote, when written after `since`.
fn read_rss(criterion: &Path, since: SystemTime) -> Rss {
    let path = criterion.join("rss.json");
    let fresh = std::fs::metadata(&path).and_then(|m| m.modified()).is_ok_and(|m| m >= since);
    let Some(json) = read_json(&path).filter(|_| fresh) else { return Rss::default() };
    let link_order = json["link_order"][0].as_u64().zip(json["link_order"][1].as_u64());
    let mut rss = Rss { floor: json["floor"].as_f64(), peaks: BTreeMap::new(), link_order };
    if let Some(peaks) = json["peaks"].as_object() {
        for (key, mib) in peaks {
            if let (Some((workload, engine)), Some(mib)) = (key.split_once('/'), mib.as_f64()) {
                rss.peaks.insert((workload.to_string(), engine.to_string()), mib);
            }
        }
    }
    rss
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

/// The tool-search benchmarks as a table of their own (median per iteration; what an
/// iteration is, per row).
fn render_search(samples: &[Sample]) -> String {
    if samples.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\nTool search (`benches/benches/search.rs`, the 869-tool catalog of \
         `crates/codemode-tools/tests/search_corpus/`): median per iteration.\n\n\
         | benchmark | iteration | median |\n| --- | --- | ---: |\n",
    );
    let mut sorted: Vec<&Sample> = samples.iter().collect();
    sorted.sort_by(|a, b| a.workload.cmp(&b.workload));
    for s in sorted {
        let what = match s.workload.as_str() {
            "search_index_build" => "building the search index",
            "search_tool_set_build" => "building the tool set (catalog, signatures, search index)",
            "search_rank_dev_query" => "ranking one dev query (mean over the dev queries)",
            _ => "",
        };
        let _ = writeln!(out, "| {} | {what} | {} |", s.workload, format_ns(s.median_ns));
    }
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

fn render(samples: &[Sample], rss: &Rss, compare: bool) -> String {
    // codemode always has a column: a workload it cannot run yet shows as a gap, not as a missing column.
    let mut engines: Vec<&str> =
        std::iter::once("codemode").chain(samples.iter().map(|s| s.engine.as_str())).collect();
    engines.sort_by_key(|e| (ENGINE_ORDER.iter().position(|o| o == e).unwrap_or(usize::MAX), e.to_string()));
    engines.dedup();
    let mut rows: BTreeMap<&str, BTreeMap<&str, &Sample>> = BTreeMap::new();
    for s in samples {
        rows.entry(&s.workload).or_default().insert(&s.engine, s);
    }
    let with_rss = !rss.peaks.is_empty();
    let mut out = String::new();
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
    if compare {
        let _ = writeln!(
            out,
            "How each engine runs: codemode keeps one runtime (`codemode::demo`) and calls `execute` \
             per iteration (`quickstart_cold`: a new runtime per iteration). QuickJS (rquickjs) and \
             Boa (boa_engine) create everything inside each iteration, as a host running one program \
             would: a fresh runtime and context (`Runtime::new` + `Context::full`; \
             `Context::default`), the demo tools installed as native functions that read their \
             input as a JS value and build their results with the engine's object API (returning \
             a promise; `JsValue::from_json` on Boa), then eval, pending jobs to completion, and \
             the result as JSON text (so their `quickstart` and `quickstart_cold` are the same \
             thing).\n"
        );
    }
    if with_rss {
        let floor =
            rss.floor.map_or_else(String::new, |f| format!(" (a process that runs nothing: {f:.1} MiB)"));
        let order = rss.link_order.map_or_else(String::new, |(found, listed)| {
            format!(
                " Linked like the `codemode` binary: {found} of the {listed} functions listed in \
                 `crates/codemode-cli/link-order.txt` (both builds' names) are in it and placed \
                 together."
            )
        });
        let _ = writeln!(
            out,
            "RSS columns: peak resident set size (`VmHWM`) in MiB of a separate process \
             (`benches/src/bin/rss.rs`, bench profile) that runs the workload {RSS_RUNS} times on \
             that engine only, the same way as above{floor}.{order}\n"
        );
    }
    let _ = write!(out, "| workload |");
    for e in &engines {
        let _ = write!(out, " {e} |");
    }
    if with_rss {
        for e in &engines {
            let _ = write!(out, " {e} RSS |");
        }
    }
    let _ = write!(out, "\n| --- |");
    let columns = if with_rss { engines.len() * 2 } else { engines.len() };
    for _ in 0..columns {
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
        if with_rss {
            for e in &engines {
                let cell = rss
                    .peaks
                    .get(&(workload.to_string(), e.to_string()))
                    .map_or_else(|| "–".to_string(), |mib| format!("{mib:.1}"));
                let _ = write!(out, " {cell} |");
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn splice_replaces_only_the_generated_part() {
        let before = "# Benchmarks\n\nhand-written intro  \n<!-- bench:begin -->\nold table\n| a |\n<!-- bench:end -->\n\n## Later\n\ntext\r\nno newline at the end";
        let after = splice(Some(before), "new table\n| b |\n").unwrap();
        assert_eq!(
            after,
            "# Benchmarks\n\nhand-written intro  \n<!-- bench:begin -->\n\nnew table\n| b |\n\n<!-- bench:end -->\n\n## Later\n\ntext\r\nno newline at the end"
        );
        // Splicing again with the same table changes nothing.
        assert_eq!(splice(Some(&after), "new table\n| b |").unwrap(), after);
    }

    #[test]
    fn splice_needs_both_markers_and_starts_a_new_file() {
        assert!(splice(Some("# Benchmarks\n\nhand-written only\n"), "t").is_err());
        assert!(splice(Some("<!-- bench:begin -->\nt\n"), "t").is_err());
        assert!(splice(Some("<!-- bench:end --> <!-- bench:begin -->"), "t").is_err());
        assert_eq!(
            splice(None, "t\n").unwrap(),
            "# Benchmarks\n\n<!-- bench:begin -->\n\nt\n\n<!-- bench:end -->\n"
        );
    }

    #[test]
    fn search_benchmarks_have_their_own_table() {
        let sample = |workload: &str, median_ns: f64| Sample {
            workload: workload.to_string(),
            engine: "codemode".to_string(),
            median_ns,
        };
        assert_eq!(render_search(&[]), "");
        let table =
            render_search(&[sample("search_index_build", 4.5e6), sample("search_rank_dev_query", 42e3)]);
        assert!(table.contains("| benchmark | iteration | median |\n| --- | --- | ---: |\n"), "{table}");
        assert!(table.contains("| search_index_build | building the search index | 4.50 ms |\n"), "{table}");
        assert!(
            table.contains(
                "| search_rank_dev_query | ranking one dev query (mean over the dev queries) | 42.00 µs |\n"
            ),
            "{table}"
        );
    }

    #[test]
    fn render_adds_rss_columns_when_measured() {
        let sample = |workload: &str, engine: &str, median_ns: f64| Sample {
            workload: workload.to_string(),
            engine: engine.to_string(),
            median_ns,
        };
        let samples =
            [sample("fib", "codemode", 8e6), sample("fib", "quickjs", 4e6), sample("json", "codemode", 2e7)];
        let plain = render(&samples, &Rss::default(), false);
        assert!(plain.contains("| workload | codemode | quickjs |\n| --- | ---: | ---: |\n"), "{plain}");
        assert!(plain.contains("| fib | 8.00 ms | 4.00 ms (0.50×) |\n| json | 20.00 ms | – |\n"), "{plain}");
        let mut rss = Rss { floor: Some(2.0), peaks: BTreeMap::new(), link_order: Some((949, 2253)) };
        rss.peaks.insert(("fib".into(), "codemode".into()), 5.24);
        rss.peaks.insert(("fib".into(), "quickjs".into()), 3.0);
        let table = render(&samples, &rss, true);
        assert!(
            table.contains("| workload | codemode | quickjs | codemode RSS | quickjs RSS |\n"),
            "{table}"
        );
        assert!(table.contains("| fib | 8.00 ms | 4.00 ms (0.50×) | 5.2 | 3.0 |\n"), "{table}");
        assert!(table.contains("| json | 20.00 ms | – | – | – |\n"), "{table}");
        assert!(table.contains("runs nothing: 2.0 MiB"), "{table}");
        assert!(table.contains("949 of the 2253 functions listed"), "{table}");
    }
}
