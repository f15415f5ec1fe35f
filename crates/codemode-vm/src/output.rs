//! The run's console output, bounded by bytes while the program runs.
//!
//! A line is kept when it fits in the log budget ([`crate::VmConfig::max_log_bytes`], and at most
//! [`MAX_LOG_LINES`] lines); once one line does not fit, it and every later line are dropped and
//! only counted, so the kept logs are always a prefix of what the program printed. Kept lines are
//! charged to the memory limit (they stay until the run ends); dropped ones cost fuel only.

use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;

/// Lines kept per run whatever the byte budget; later lines are counted and dropped.
pub const MAX_LOG_LINES: usize = 10_000;

/// What the run printed beyond the kept logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogTally {
    /// Bytes of the kept lines.
    pub kept_bytes: usize,
    /// Lines dropped (not kept) so far.
    pub dropped_lines: u64,
    /// Bytes of the dropped lines.
    pub dropped_bytes: u64,
}

/// The console's own state: `group` depth, `count` counters, `time` starts (run clock, ms).
/// Labels are charged to the memory limit when first used.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ConsoleState {
    pub group_depth: u32,
    pub counts: std::collections::BTreeMap<String, u64>,
    pub timers: std::collections::BTreeMap<String, f64>,
}

impl Vm {
    /// Records one console line: kept if it fits the budget, else dropped and counted.
    pub(crate) fn push_log_line(&mut self, line: String) -> Result<(), Throw> {
        self.charge(Work::Bytes(line.len()));
        let budget = self.config.max_log_bytes.unwrap_or(usize::MAX);
        let fits = self.log_tally.dropped_lines == 0
            && self.logs.len() < MAX_LOG_LINES
            && self.log_tally.kept_bytes.saturating_add(line.len()) <= budget;
        if !fits {
            self.log_tally.dropped_lines += 1;
            self.log_tally.dropped_bytes = self.log_tally.dropped_bytes.saturating_add(line.len() as u64);
            return Ok(());
        }
        // Kept until the run ends: charged to the memory limit like the heap.
        self.charge_retained(line.len() + std::mem::size_of::<String>())?;
        self.log_tally.kept_bytes += line.len();
        self.logs.push(line);
        Ok(())
    }

    /// How much console output was dropped (see [`LogTally`]).
    pub fn log_tally(&self) -> LogTally {
        self.log_tally
    }
}
