//! Peak resident set size of one program on one engine, in a fresh process (criterion runs every
//! engine in one process, so it cannot tell them apart):
//!
//! `rss <codemode|quickjs|boa|none> <workload|quickstart> [runs]`
//!
//! Runs the program `runs` times (default 3) the way the benchmarks do (codemode: one runtime,
//! `execute` per run; QuickJS and Boa: a fresh runtime and context per run), then prints the
//! process's peak RSS (`VmHWM` of `/proc/self/status`) in MiB. `none` runs nothing: the
//! process's own floor. Used by `cargo xtask bench --compare`. With `RSS_PAUSE` set it then
//! prints its pid and waits for a line on stdin, so a tool can read which pages are resident.

use std::process::ExitCode;

use codemode_bench::{Codemode, boa, program, quickjs};

fn main() -> ExitCode {
    match run() {
        Ok(mib) => {
            println!("{mib:.1}");
            codemode_bench::pause_if_asked("RSS_PAUSE");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("rss: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<f64, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [engine, workload, rest @ ..] = args.as_slice() else {
        return Err("usage: rss <codemode|quickjs|boa|none> <workload|quickstart> [runs]".to_string());
    };
    let runs: u32 = match rest.first() {
        Some(n) => n.parse().map_err(|e| format!("runs `{n}`: {e}"))?,
        None => 3,
    };
    let source = program(workload).ok_or_else(|| format!("no program named `{workload}`"))?;
    match engine.as_str() {
        "codemode" => {
            let codemode = Codemode::new()?;
            for _ in 0..runs {
                codemode.run(source)?;
            }
        }
        "quickjs" => {
            for _ in 0..runs {
                quickjs::run(source)?;
            }
        }
        "boa" => {
            for _ in 0..runs {
                boa::run(source)?;
            }
        }
        "none" => {}
        other => return Err(format!("unknown engine `{other}`")),
    }
    peak_rss_mib()
}

/// `VmHWM` (peak resident set size) of this process, in MiB.
fn peak_rss_mib() -> Result<f64, String> {
    let status =
        std::fs::read_to_string("/proc/self/status").map_err(|e| format!("/proc/self/status: {e}"))?;
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .ok_or_else(|| "no VmHWM in /proc/self/status".to_string())?;
    let kib: f64 =
        line.trim().trim_end_matches("kB").trim().parse().map_err(|e| format!("VmHWM `{line}`: {e}"))?;
    Ok(kib / 1024.0)
}
