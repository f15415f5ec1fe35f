//! The resource suite: hostile programs of every class we know, each run in a fresh process on a
//! 256 KiB thread, must end with the expected result (a value, a catchable `RangeError`, a
//! `TimeoutExceeded`, ...) well within twice its timeout and without the process's peak memory
//! passing the memory limit plus 64 MiB.
//!
//! Cases are files in `tests/resources/`: a program with header comments
//!
//! ```text
//! // expect: value <JSON>            (the run succeeds with this value)
//! // expect: error <Kind> <text>     (the run fails with this diagnostic kind; the message
//! //                                  contains <text>; `any` as the kind accepts any failure)
//! // timeout-ms: 1000                (default 5000)
//! // memory-limit: 64MiB             (default 256MiB)
//! // max-call-depth: 1000000000       (default: the runtime's)
//! // repeat: 20000                   (the lines after the headers, repeated: a large program)
//! ```
//!
//! The parent test runs this same test binary once per case (`child_runs_one_case`, selected by
//! the `CODEMODE_RESOURCE_CASE` variable), so each case's peak RSS (`VmHWM`) is its own.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode::Limits;

const CASE_VAR: &str = "CODEMODE_RESOURCE_CASE";
mod isolated;
use isolated::RSS_ALLOWANCE;

struct Case {
    source: String,
    expect: String,
    timeout: Duration,
    memory_limit: usize,
    max_call_depth: Option<usize>,
}

fn parse_size(text: &str) -> usize {
    let t = text.trim();
    let (n, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: usize = n.parse().expect("size");
    n * match unit {
        "" => 1,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        other => panic!("unknown unit {other}"),
    }
}

fn load(path: &Path) -> Case {
    let source = std::fs::read_to_string(path).expect("read case");
    let header = |key: &str| {
        source.lines().find_map(|l| l.strip_prefix(&format!("// {key}:")).map(|v| v.trim().to_string()))
    };
    // `repeat: N`: the program is the lines after the header comments, N times over.
    let source = match header("repeat") {
        Some(n) => {
            let n: usize = n.parse().expect("repeat");
            let body_start: usize =
                source.lines().take_while(|l| l.starts_with("//")).map(|l| l.len() + 1).sum();
            let (headers, body) = source.split_at(body_start.min(source.len()));
            format!("{headers}{}", body.repeat(n))
        }
        None => source,
    };
    let header = |key: &str| {
        source.lines().find_map(|l| l.strip_prefix(&format!("// {key}:")).map(|v| v.trim().to_string()))
    };
    Case {
        expect: header("expect").unwrap_or_else(|| panic!("{}: no `// expect:` line", path.display())),
        timeout: Duration::from_millis(header("timeout-ms").map_or(5000, |v| v.parse().expect("timeout"))),
        memory_limit: header("memory-limit").map_or(256 << 20, |v| parse_size(&v)),
        max_call_depth: header("max-call-depth").map(|v| v.parse().expect("max-call-depth")),
        source,
    }
}

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/resources");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/resources")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .collect();
    paths.sort();
    paths
}

/// The child side: runs the case named by `CODEMODE_RESOURCE_CASE` on a 256 KiB thread and prints
/// its result, elapsed time and peak RSS. Without the variable (a plain `cargo test`), it only
/// checks that the parent below has cases to run.
#[test]
fn child_runs_one_case() {
    let Ok(path) = std::env::var(CASE_VAR) else {
        assert!(!cases().is_empty(), "tests/resources has no cases");
        return;
    };
    let case = load(Path::new(&path));
    let mut limits = Limits::default().timeout(case.timeout).memory_limit(case.memory_limit);
    if let Some(depth) = case.max_call_depth {
        limits = limits.max_call_depth(depth);
    }
    isolated::run_here(case.source.clone(), limits);
}

fn check(case: &Case, result: &serde_json::Value) -> Result<(), String> {
    let (what, rest) = case.expect.split_once(' ').unwrap_or((&case.expect, ""));
    match what {
        "value" => {
            let want: serde_json::Value =
                serde_json::from_str(rest).map_err(|e| format!("bad expect: {e}"))?;
            if result["ok"] == true && result["value"] == want {
                Ok(())
            } else {
                Err(format!("expected value {want}"))
            }
        }
        "any" => Ok(()),
        "error" => {
            let (kind, text) = rest.split_once(' ').unwrap_or((rest, ""));
            let error = &result["error"];
            let kind_ok = kind == "any" || error["kind"] == kind;
            let text_ok = error["message"].as_str().is_some_and(|m| m.contains(text));
            if result["ok"] == false && kind_ok && text_ok {
                Ok(())
            } else {
                Err(format!("expected error {kind} containing {text:?}"))
            }
        }
        other => Err(format!("unknown expectation {other}")),
    }
}

/// Every case in `tests/resources` ends as expected, in time, within its memory bound.
#[test]
fn hostile_programs_end_in_time_within_memory() {
    if std::env::var(CASE_VAR).is_ok() {
        return;
    }
    let mut failures = Vec::new();
    for path in cases() {
        let case = load(&path);
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let ended = match isolated::run_in_child("child_runs_one_case", CASE_VAR, &path.to_string_lossy()) {
            Ok(ended) => ended,
            Err(why) => {
                failures.push(format!("{name}: {why}"));
                continue;
            }
        };
        // Twice the timeout, plus a second for unoptimized test builds.
        let time_bound = case.timeout * 2 + Duration::from_secs(1);
        let too_slow = ended.too_slow(time_bound);
        let (elapsed, cpu, rss, result) = (ended.elapsed, ended.cpu, ended.peak_rss, ended.result);
        let rss_bound = case.memory_limit + RSS_ALLOWANCE;
        let summary = format!(
            "{name}: {:.2}s, {:.2}s of CPU (bound {:.1}s), peak RSS {} MiB (bound {} MiB), result {}",
            elapsed.as_secs_f64(),
            cpu.as_secs_f64(),
            time_bound.as_secs_f64(),
            rss >> 20,
            rss_bound >> 20,
            result.to_string().chars().take(300).collect::<String>()
        );
        eprintln!("{summary}");
        if let Err(why) = check(&case, &result) {
            failures.push(format!("{summary}: {why}"));
        } else if let Some(why) = too_slow {
            failures.push(format!("{summary}: {why}"));
        } else if rss > rss_bound {
            failures.push(format!("{summary}: too much memory"));
        }
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}
