//! The output budget (`Limits::max_output_bytes`): **one** budget for everything a run hands
//! back for the model to read, the value, the logs, the warnings and the tool-call record,
//! taken in that order, each part getting what the parts before it left. Truncation never fails
//! a run.
//!
//! - An error message longer than the budget is cut the same way (` [message truncated: N
//!   bytes]`).
//! - A value whose JSON is longer than the budget becomes a string: the UTF-8 prefix of its JSON
//!   followed by ` [result truncated: N bytes exceeds the M-byte output limit; return a smaller
//!   value]`, the whole string within the budget when the budget is longer than the marker.
//! - Logs get what the value left (the VM already kept at most the whole budget while the program
//!   ran, dropping and counting later lines) and end with `[logs truncated: showing K of N lines]`.
//! - Warnings get what the value and logs left; those that do not fit are omitted and a
//!   `Truncated` warning says how many.
//! - Tool calls get what is left. When the whole record does not fit, the first and the last
//!   calls are kept (as many as fit, at least one of each) and
//!   [`ExecResult::tool_call_summary`] counts all of them by path and status.
//!
//! The markers and the summary are small and bounded (at most [`MAX_SUMMARY_PATHS`] paths), so
//! the whole result stays within the budget plus a fixed overhead, however many calls, lines or
//! warnings a run made.

use std::collections::BTreeMap;

use codemode_vm::LogTally;

use crate::result::{
    CallStatus, Diagnostic, DiagnosticKind, ExecResult, PathCalls, ToolCall, ToolCallSummary,
};

/// At most this many paths are counted one by one in a [`ToolCallSummary`]; the others are
/// counted together in `otherPaths`.
pub const MAX_SUMMARY_PATHS: usize = 20;

/// Applies the budget to a finished run's result. `tally` is what the VM dropped while running.
pub(crate) fn fit(result: &mut ExecResult, tally: LogTally, budget: Option<usize>) {
    let mut used = 0usize;
    if let (Some(budget), Some(value)) = (budget, result.value.as_mut()) {
        let text = serde_json::to_string(value).unwrap_or_default();
        if text.len() > budget {
            let marker = format!(
                " [result truncated: {} bytes exceeds the {budget}-byte output limit; return a smaller value]",
                text.len()
            );
            let prefix = floor_char_boundary(&text, budget.saturating_sub(marker.len()));
            let truncated = format!("{}{marker}", &text[..prefix]);
            used = truncated.len();
            *value = serde_json::Value::String(truncated);
            result.truncated = true;
        } else {
            used = text.len();
        }
    }
    if let (Some(budget), Some(error)) = (budget, result.error.as_mut())
        && error.message.len() > budget
    {
        let marker = format!(" [message truncated: {} bytes]", error.message.len());
        let prefix = floor_char_boundary(&error.message, budget.saturating_sub(marker.len()));
        error.message = format!("{}{marker}", &error.message[..prefix]);
        result.truncated = true;
    }
    if let (Some(_), Some(error)) = (budget, result.error.as_ref()) {
        used = used.saturating_add(error.message.len());
    }
    used = used.saturating_add(fit_logs(result, tally, budget.map(|b| b.saturating_sub(used))));
    if let Some(budget) = budget {
        used = used.saturating_add(fit_warnings(result, budget.saturating_sub(used)));
        fit_calls(result, budget.saturating_sub(used));
    }
}

/// Cuts the logs to `left` bytes; returns the bytes the kept lines take.
fn fit_logs(result: &mut ExecResult, tally: LogTally, left: Option<usize>) -> usize {
    let printed = result.logs.len() as u64 + tally.dropped_lines;
    let mut bytes = 0usize;
    if let Some(left) = left {
        let keep = result
            .logs
            .iter()
            .take_while(|line| {
                let next = bytes.saturating_add(line.len());
                let fits = next <= left;
                if fits {
                    bytes = next;
                }
                fits
            })
            .count();
        result.logs.truncate(keep);
    }
    let kept = result.logs.len() as u64;
    if kept < printed {
        result.logs.push(format!("[logs truncated: showing {kept} of {printed} lines]"));
        result.truncated = true;
    }
    bytes
}

/// Keeps the warnings that fit into `left` bytes; returns the bytes they take.
fn fit_warnings(result: &mut ExecResult, left: usize) -> usize {
    let warnings = &mut result.warnings;
    let mut bytes = 0usize;
    let keep = warnings
        .iter()
        .take_while(|w| {
            let next = bytes.saturating_add(w.message.len());
            let fits = next <= left;
            if fits {
                bytes = next;
            }
            fits
        })
        .count();
    let omitted = warnings.len() - keep;
    if omitted > 0 {
        warnings.truncate(keep);
        warnings.push(Diagnostic {
            kind: DiagnosticKind::Truncated,
            message: format!("{omitted} additional warnings omitted by the output limit."),
            location: None,
        });
        result.truncated = true;
    }
    bytes
}

/// The bytes one call takes in the result's JSON (with its comma).
fn call_bytes(call: &ToolCall) -> usize {
    serde_json::to_string(call).map_or(64, |s| s.len() + 1)
}

/// Keeps the whole call record when it fits into `left` bytes, else the first and last calls
/// that fit (at least one of each) and a summary of all of them.
fn fit_calls(result: &mut ExecResult, left: usize) {
    let calls = &mut result.tool_calls;
    let total: usize = calls.iter().map(call_bytes).fold(0, usize::saturating_add);
    if total <= left || calls.len() <= 2 {
        return;
    }
    let summary = summarize(calls);
    // Alternate between the head and the tail while the calls fit (the first and the last are
    // kept whatever their size).
    let (mut head, mut tail) = (1usize, 1usize);
    let mut bytes = call_bytes(&calls[0]).saturating_add(call_bytes(&calls[calls.len() - 1]));
    loop {
        if head + tail >= calls.len() {
            break;
        }
        let next = if head <= tail { &calls[head] } else { &calls[calls.len() - 1 - tail] };
        let grown = bytes.saturating_add(call_bytes(next));
        if grown > left {
            break;
        }
        bytes = grown;
        if head <= tail {
            head += 1;
        } else {
            tail += 1;
        }
    }
    let kept_tail = calls.split_off(calls.len() - tail);
    calls.truncate(head);
    calls.extend(kept_tail);
    result.tool_call_summary = Some(ToolCallSummary { shown: calls.len() as u64, ..summary });
    result.truncated = true;
}

/// Counts calls by path and status; the paths with the most calls first.
fn summarize(calls: &[ToolCall]) -> ToolCallSummary {
    let mut by_path: BTreeMap<&str, PathCalls> = BTreeMap::new();
    for call in calls {
        let entry = by_path
            .entry(call.path.as_str())
            .or_insert_with(|| PathCalls { path: call.path.clone(), ..PathCalls::default() });
        count(entry, call.status);
    }
    let mut paths: Vec<PathCalls> = by_path.into_values().collect();
    paths.sort_by(|a, b| b.total().cmp(&a.total()).then_with(|| a.path.cmp(&b.path)));
    let mut other = None;
    if paths.len() > MAX_SUMMARY_PATHS {
        let rest = paths.split_off(MAX_SUMMARY_PATHS);
        let mut together =
            PathCalls { path: format!("({} other paths)", rest.len()), ..PathCalls::default() };
        for p in rest {
            together.ok += p.ok;
            together.error += p.error;
            together.interrupted += p.interrupted;
        }
        other = Some(together);
    }
    paths.extend(other);
    ToolCallSummary { total: calls.len() as u64, shown: 0, by_path: paths }
}

fn count(entry: &mut PathCalls, status: CallStatus) {
    match status {
        CallStatus::Ok => entry.ok += 1,
        CallStatus::Error => entry.error += 1,
        CallStatus::Interrupted => entry.interrupted += 1,
    }
}

/// The largest index `<= at` that is a char boundary of `s`.
fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut i = at.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(id: u32, path: &str, status: CallStatus) -> ToolCall {
        ToolCall { id, path: path.to_owned(), status, failure: None }
    }

    #[test]
    fn a_summary_counts_by_path_most_called_first_and_groups_the_rest() {
        let mut calls = Vec::new();
        let mut id = 0;
        for p in 0..30u32 {
            // Path p is called p + 1 times; every third call fails.
            for n in 0..=p {
                id += 1;
                let status = if n % 3 == 2 { CallStatus::Error } else { CallStatus::Ok };
                calls.push(call(id, &format!("ns.tool{p:02}"), status));
            }
        }
        let summary = summarize(&calls);
        assert_eq!(summary.total, calls.len() as u64);
        assert_eq!(summary.by_path.len(), MAX_SUMMARY_PATHS + 1);
        assert_eq!(summary.by_path[0].path, "ns.tool29");
        assert_eq!((summary.by_path[0].ok, summary.by_path[0].error), (20, 10));
        let other = &summary.by_path[MAX_SUMMARY_PATHS];
        assert_eq!(other.path, "(10 other paths)");
        // Paths 0..=9 were called 1 + 2 + … + 10 = 55 times.
        assert_eq!(other.total(), 55);
        let counted: u64 = summary.by_path.iter().map(PathCalls::total).sum();
        assert_eq!(counted, summary.total);
    }

    #[test]
    fn the_first_and_last_calls_stay_whatever_the_budget() {
        let mut result = crate::driver::failure(
            Diagnostic { kind: DiagnosticKind::ExecutionFailure, message: "x".into(), location: None },
            Vec::new(),
            (1..=100).map(|id| call(id, "a.b", CallStatus::Ok)).collect(),
        );
        fit_calls(&mut result, 0);
        let ids: Vec<u32> = result.tool_calls.iter().map(|c| c.id).collect();
        assert_eq!(ids, [1, 100]);
        assert_eq!(result.tool_call_summary.as_ref().map(|s| (s.total, s.shown)), Some((100, 2)));
        assert!(result.truncated);
    }
}
