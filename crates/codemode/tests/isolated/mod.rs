//! One program in a process of its own, for the suites that bound a run's peak memory
//! (`resources.rs`, `sweep.rs`): the parent test runs its own test binary once per case (the
//! child test selected by name, the case passed in an environment variable), and the child runs
//! the program on a 256 KiB thread and prints its elapsed time, CPU time, peak RSS (`VmHWM`) and
//! result.
//!
//! **Time bounds are checked on CPU time**, which other work on the machine does not stretch (a
//! CI run beside a build failed a 3 s wall-clock bound at 5.5 s); the wall clock keeps a looser
//! bound of its own ([`WALL_CLOCK_FACTOR`]), for waits that burn no CPU.

use std::time::{Duration, Instant};

use codemode::Limits;

/// The stack every case runs on: the smallest we promise to work on.
pub const CASE_STACK: usize = 256 << 10;
/// Memory the process may use beyond the program's limit.
pub const RSS_ALLOWANCE: usize = 64 << 20;

/// How much longer than its CPU-time bound a case may take by the wall clock.
pub const WALL_CLOCK_FACTOR: u32 = 5;

/// What a child printed about its case.
pub struct Ended {
    pub elapsed: Duration,
    /// The child's CPU time (user and system), all its threads.
    pub cpu: Duration,
    pub peak_rss: usize,
    pub result: serde_json::Value,
}

/// The child side: runs `source` under `limits` with the demo tools and prints what
/// [`run_in_child`] reads.
pub fn run_here(source: String, limits: Limits) {
    let started = Instant::now();
    let (result, peak) = std::thread::Builder::new()
        .stack_size(CASE_STACK)
        .spawn(move || {
            let runtime = codemode::demo::builder().limits(limits).build().expect("build");
            let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio");
            let result = tokio.block_on(runtime.execute(&source));
            // The run's peak, before printing copies the result.
            let peak = peak_rss_bytes();
            (serde_json::to_string(&result).expect("json"), peak)
        })
        .expect("spawn")
        .join()
        .expect("the case's thread panicked");
    println!("ELAPSED_MS {}", started.elapsed().as_millis());
    println!("CPU_MS {}", cpu_time().as_millis());
    println!("PEAK_RSS {peak}");
    println!("RESULT {result}");
}

/// The parent side: runs this test binary's `child_test` with `var` set to `case`, and reads what
/// the child printed (an error when it crashed or printed nothing).
pub fn run_in_child(child_test: &str, var: &str, case: &str) -> Result<Ended, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let output = std::process::Command::new(exe)
        .args([child_test, "--exact", "--nocapture", "--test-threads=1"])
        .env(var, case)
        .output()
        .map_err(|e| format!("cannot run the child: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let field = |key: &str| stdout.lines().find_map(|l| l.split_once(key).map(|(_, v)| v.trim().to_string()));
    let (Some(elapsed), Some(cpu), Some(rss), Some(result)) =
        (field("ELAPSED_MS"), field("CPU_MS"), field("PEAK_RSS"), field("RESULT"))
    else {
        return Err(format!(
            "the child printed no result (status {:?}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).chars().take(2000).collect::<String>()
        ));
    };
    Ok(Ended {
        elapsed: Duration::from_millis(elapsed.parse().map_err(|_| "bad ELAPSED_MS")?),
        cpu: Duration::from_millis(cpu.parse().map_err(|_| "bad CPU_MS")?),
        peak_rss: rss.parse().map_err(|_| "bad PEAK_RSS")?,
        result: serde_json::from_str(&result).map_err(|e| format!("bad RESULT: {e}"))?,
    })
}

pub fn peak_rss_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

impl Ended {
    /// Why the case took too long for `bound`, if it did: CPU time over `bound`, or wall-clock
    /// time over [`WALL_CLOCK_FACTOR`] times it.
    pub fn too_slow(&self, bound: Duration) -> Option<String> {
        if self.cpu > bound {
            return Some(format!(
                "too slow: {:.2}s of CPU (bound {:.1}s)",
                self.cpu.as_secs_f64(),
                bound.as_secs_f64()
            ));
        }
        let wall = bound * WALL_CLOCK_FACTOR;
        (self.elapsed > wall).then(|| {
            format!(
                "too slow: {:.2}s by the clock (bound {:.1}s)",
                self.elapsed.as_secs_f64(),
                wall.as_secs_f64()
            )
        })
    }
}

/// This process's CPU time, user and system, from `/proc/self/stat` (zero where there is no
/// `/proc`: the wall-clock bound still applies). Linux reports it in clock ticks of 1/100 s.
pub fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    // utime and stime are fields 14 and 15 of the line: 12 and 13 after the name.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}
