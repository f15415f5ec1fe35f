//! Runs one workload on codemode `n` times in one process, the way the `quickstart` and `startup`
//! benchmarks do (one runtime, `execute` per run), for profilers that want the per-run cost
//! without the process's start-up:
//!
//! `repeat <workload|quickstart|file.js> [n]` (default 1000), e.g.
//! `valgrind --tool=callgrind target/release/repeat startup 1000`. With `REPEAT_SMAPS` set it
//! prints `/proc/self/smaps` at the end, to see what the resident set is made of (code, heap);
//! with `REPEAT_PAUSE` set it prints its pid and waits for a line on stdin before exiting.

use std::process::ExitCode;

use codemode_bench::{Codemode, program};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(workload) = args.first() else {
        eprintln!("usage: repeat <workload|quickstart> [n]");
        return ExitCode::FAILURE;
    };
    let runs: u32 = match args.get(1).map(|n| n.parse()) {
        None => 1000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("repeat: run count: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A workload's name, or the path of a `.js` file (for profiling a program of one's own).
    let from_file = workload.ends_with(".js").then(|| std::fs::read_to_string(workload).ok()).flatten();
    let Some(source) = from_file.as_deref().or_else(|| program(workload)) else {
        eprintln!("repeat: no program named `{workload}` (and no readable .js file of that name)");
        return ExitCode::FAILURE;
    };
    let codemode = match Codemode::new() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("repeat: {e}");
            return ExitCode::FAILURE;
        }
    };
    for _ in 0..runs {
        if let Err(e) = codemode.run(source) {
            eprintln!("repeat: {e}");
            return ExitCode::FAILURE;
        }
    }
    if std::env::var_os("REPEAT_SMAPS").is_some() {
        print!("{}", std::fs::read_to_string("/proc/self/smaps").unwrap_or_default());
    }
    codemode_bench::pause_if_asked("REPEAT_PAUSE");
    ExitCode::SUCCESS
}
