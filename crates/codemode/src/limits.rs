//! Execution limits: how long, how many tool calls, how much output, how much memory, how deep.

use std::time::Duration;

use crate::BuildError;

/// The default memory limit: 256 MiB.
pub const DEFAULT_MEMORY_LIMIT: usize = 256 << 20;
/// The default call depth: 10,000 frames.
pub const DEFAULT_MAX_CALL_DEPTH: usize = 10_000;
/// The default largest program: 4 MiB of source text. Compiling holds about six times the
/// source while it works, so this keeps the front end inside the memory allowance.
pub const DEFAULT_MAX_SOURCE_BYTES: usize = 4 << 20;

/// Hard limits for one execution. Time and tool calls default to unlimited, as in the reference
/// runtime; memory defaults to [`DEFAULT_MEMORY_LIMIT`] and call depth to
/// [`DEFAULT_MAX_CALL_DEPTH`].
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Total execution time, compilation included.
    pub timeout: Option<Duration>,
    /// Admitted tool calls (including `search`).
    pub max_tool_calls: Option<u32>,
    /// Bytes the program's heap may hold (values, strings, frames, logs, boundary JSON, the
    /// inputs of calls in flight). Going past it is a catchable `RangeError`; the process's peak
    /// memory stays below this plus a fixed overhead. A program whose compilation could take
    /// more is refused with a `ParseError` before it is parsed.
    pub memory_limit: usize,
    /// Nested calls (JavaScript and built-in frames alike) before a catchable
    /// `RangeError: Maximum call stack size exceeded`.
    pub max_call_depth: usize,
    /// Bytes of retained output: one budget for everything the model receives, the result
    /// value's JSON (or the error message), the logs, the warnings and the tool-call record, in
    /// that order. Unlimited by default. Truncation never fails a run: an oversized value becomes
    /// a string with an in-band marker, logs end with a marker saying how many lines were kept,
    /// omitted warnings are counted in a `Truncated` warning, a call record that does not fit
    /// keeps its first and last calls and gets a [`crate::ToolCallSummary`], and the result says
    /// `truncated: true`. Console lines past the budget are dropped (and counted) while the
    /// program runs.
    pub max_output_bytes: Option<usize>,
    /// Bytes of program source a run accepts ([`DEFAULT_MAX_SOURCE_BYTES`]); a longer program is
    /// refused with a `ParseError` before it is parsed.
    pub max_source_bytes: usize,
}

impl Limits {
    /// Each limit the smaller of the two (`None`, unlimited, is the larger): what a resumed run
    /// keeps, so a saved state cannot raise the host's limits.
    pub fn tightest(&self, other: &Limits) -> Limits {
        fn min<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        Limits {
            timeout: min(self.timeout, other.timeout),
            max_tool_calls: min(self.max_tool_calls, other.max_tool_calls),
            memory_limit: self.memory_limit.min(other.memory_limit),
            max_call_depth: self.max_call_depth.min(other.max_call_depth),
            max_output_bytes: min(self.max_output_bytes, other.max_output_bytes),
            max_source_bytes: self.max_source_bytes.min(other.max_source_bytes),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: None,
            max_tool_calls: None,
            memory_limit: DEFAULT_MEMORY_LIMIT,
            max_call_depth: DEFAULT_MAX_CALL_DEPTH,
            max_output_bytes: None,
            max_source_bytes: DEFAULT_MAX_SOURCE_BYTES,
        }
    }
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

    pub fn memory_limit(mut self, bytes: usize) -> Self {
        self.memory_limit = bytes;
        self
    }

    pub fn max_output_bytes(mut self, bytes: usize) -> Self {
        self.max_output_bytes = Some(bytes);
        self
    }

    pub fn max_call_depth(mut self, depth: usize) -> Self {
        self.max_call_depth = depth;
        self
    }

    pub fn max_source_bytes(mut self, bytes: usize) -> Self {
        self.max_source_bytes = bytes;
        self
    }
}

/// The smallest memory limit a runtime accepts: the global environment must fit.
pub const MIN_MEMORY_LIMIT: usize = 4 << 20;

/// Names a limit in a [`BuildError::InvalidLimit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LimitName {
    /// [`Limits::timeout`] (values in milliseconds).
    Timeout,
    /// [`Limits::max_tool_calls`].
    MaxToolCalls,
    /// [`Limits::max_output_bytes`].
    MaxOutputBytes,
    /// [`Limits::memory_limit`].
    MemoryLimit,
    /// [`Limits::max_call_depth`].
    MaxCallDepth,
    /// [`Limits::max_source_bytes`].
    MaxSourceBytes,
}

impl LimitName {
    /// The field's name, e.g. `max_tool_calls`.
    pub fn as_str(self) -> &'static str {
        match self {
            LimitName::Timeout => "timeout",
            LimitName::MaxToolCalls => "max_tool_calls",
            LimitName::MaxOutputBytes => "max_output_bytes",
            LimitName::MemoryLimit => "memory_limit",
            LimitName::MaxCallDepth => "max_call_depth",
            LimitName::MaxSourceBytes => "max_source_bytes",
        }
    }
}

impl Limits {
    /// Checks every limit: each must be at least the smallest value a run can work with (one
    /// millisecond, one call, one byte of output, [`MIN_MEMORY_LIMIT`], one frame).
    /// [`crate::Builder::build`] calls this.
    pub fn check(&self) -> Result<(), BuildError> {
        let below = |limit, value: u64, minimum: u64| {
            if value < minimum { Err(BuildError::InvalidLimit { limit, value, minimum }) } else { Ok(()) }
        };
        if let Some(t) = self.timeout {
            below(LimitName::Timeout, u64::try_from(t.as_millis()).unwrap_or(u64::MAX), 1)?;
        }
        if let Some(n) = self.max_tool_calls {
            below(LimitName::MaxToolCalls, u64::from(n), 1)?;
        }
        if let Some(n) = self.max_output_bytes {
            below(LimitName::MaxOutputBytes, n as u64, 1)?;
        }
        below(LimitName::MemoryLimit, self.memory_limit as u64, MIN_MEMORY_LIMIT as u64)?;
        below(LimitName::MaxCallDepth, self.max_call_depth as u64, 1)?;
        below(LimitName::MaxSourceBytes, self.max_source_bytes as u64, 1)
    }
}
