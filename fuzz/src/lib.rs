//! Shared by the fuzz targets: a metered run of a VM with an oracle for metering.
//!
//! **The oracle.** Every slice of fuel must take time in proportion to the fuel it spent, and the
//! process may not grow much beyond what the heap accounts for. A slice that takes far longer
//! than its fuel allows, or RSS that grows far past the memory limit, means some work or memory
//! is not charged: the input is reported (a panic, which libFuzzer saves), so the next uncharged
//! loop is found by the fuzzer, not by a user.

use std::time::{Duration, Instant};

use codemode_vm::{Status, Vm, VmConfig};

/// Fuel per slice in metered runs.
pub const SLICE: u64 = 20_000;
/// Slices per run before the oracle stops it (a time limit, in effect).
pub const MAX_SLICES: usize = 200;
/// The heap limit of fuzzed runs.
pub const MEMORY_LIMIT: usize = 32 << 20;
/// A slice may take at most this long (a normal slice takes well under a millisecond; a
/// collection of the whole heap or one large built-in call a few tens): far above the norm.
pub const MAX_SLICE_TIME: Duration = Duration::from_millis(1500);
/// The process's peak may grow at most this much past the memory limit during one run (the
/// allowance of the resource suite and the sweep). Under AddressSanitizer, run with a small
/// quarantine (`ASAN_OPTIONS=quarantine_size_mb=16`, as `smoke.sh` and `campaign.sh` do): freed
/// memory it holds back is resident too.
pub const RSS_ALLOWANCE: usize = 64 << 20;

pub fn config() -> VmConfig {
    VmConfig { memory_limit: MEMORY_LIMIT, ..VmConfig::default() }
}

/// Compiles `source` for the VM (`None` when it does not compile).
pub fn compile(source: &str) -> Option<codemode_compiler::VerifiedModule> {
    let ir = codemode_syntax::compile_to_ir(source).ok()?;
    codemode_compiler::compile(&ir).ok()
}

/// A field of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`); 0 where there is none.
fn status_bytes(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Resets the process's peak RSS (`VmHWM`) to its current RSS (Linux: `5` to `clear_refs`), so
/// the peak read after a slice is that run's: a buffer built and freed inside one slice counts.
/// `false` where the kernel does not allow it (the current RSS is then all the oracle sees).
fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Runs `vm` slice by slice, answering host calls by echoing their input, and checks the oracle:
/// the slice's time against its fuel, and the process's peak RSS during the run against the
/// memory limit (all the heap may account for) plus [`RSS_ALLOWANCE`].
pub fn metered_run(vm: &mut Vm) {
    let start_rss = status_bytes("VmRSS:");
    let peak_resets = reset_peak_rss();
    let rss = || if peak_resets { status_bytes("VmHWM:") } else { status_bytes("VmRSS:") };
    for slice in 0..MAX_SLICES {
        let started = Instant::now();
        let status = vm.run(SLICE);
        let took = started.elapsed();
        let spent = SLICE as i64 - vm.fuel_left();
        if took > MAX_SLICE_TIME {
            panic!("metering oracle: slice {slice} spent {spent} fuel in {took:?}: work is not charged");
        }
        let grown = rss().saturating_sub(start_rss);
        if grown > MEMORY_LIMIT + RSS_ALLOWANCE {
            panic!(
                "metering oracle: peak RSS grew by {} MiB with a {} MiB limit (heap accounts for {} MiB): memory is not charged",
                grown >> 20,
                MEMORY_LIMIT >> 20,
                vm.memory_used() >> 20
            );
        }
        for call in vm.take_host_calls() {
            vm.complete(call.id, Ok(call.input));
        }
        match status {
            Status::Done | Status::Threw => return,
            Status::OutOfFuel | Status::Waiting => {}
        }
        if status == Status::Waiting && vm.pending_host_calls().is_empty() {
            return;
        }
    }
}

/// `seed` with bytes overwritten as `data` says (triples: a position, then the byte), so that
/// most fuzz inputs are nearly valid snapshots.
pub fn mutate(seed: &[u8], data: &[u8]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for pair in data.chunks(3) {
        if let [a, b, c] = *pair {
            let at = (u16::from_le_bytes([a, b]) as usize * 7919) % bytes.len().max(1);
            if let Some(slot) = bytes.get_mut(at) {
                *slot = c;
            }
        }
    }
    bytes
}

/// Lets a panic inside swc unwind instead of aborting the fuzzer. libFuzzer's panic hook aborts
/// on every panic, caught or not; but codemode-syntax runs swc under `catch_unwind` (its
/// `guard_panics`) and turns a panic there (input-triggered bugs of swc, such as its debug
/// assertion on `(a, 1 => 1)`) into a `ParseError`, which the targets then check like any
/// other result. Any other panic still aborts. Idempotent; call it at the top of a target.
pub fn tolerate_caught_parser_panics() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let abort_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_swc = info.location().is_some_and(|at| {
                let file = at.file();
                ["swc_ecma_parser", "swc_ecma_lexer", "swc_common"].iter().any(|name| file.contains(name))
            });
            if !in_swc {
                abort_hook(info);
            }
        }));
    });
}
