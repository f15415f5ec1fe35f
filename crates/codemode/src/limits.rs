//! Execution limits: how long, how many tool calls, how much output.

use std::time::Duration;

/// Hard limits for one execution. Every limit defaults to unlimited, as in the reference runtime.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Total active execution time.
    pub timeout: Option<Duration>,
    /// Admitted tool calls (including `search`).
    pub max_tool_calls: Option<u32>,
}

impl Limits {
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    pub fn max_tool_calls(mut self, max: u32) -> Self {
        self.max_tool_calls = Some(max);
        self
    }
}
