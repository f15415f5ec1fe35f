//! The output budget (`Limits::max_output_bytes`): the retained value and logs fit it, warnings
//! have a budget of their own of the same size. Truncation never fails a run.
//!
//! - A value whose JSON is longer than the budget becomes a string: the UTF-8 prefix of its JSON
//!   followed by ` [result truncated: N bytes exceeds the M-byte output limit; return a smaller
//!   value]`, the whole string within the budget when the budget is longer than the marker.
//! - Logs get what the value left (the VM already kept at most the whole budget while the program
//!   ran, dropping and counting later lines) and end with `[logs truncated: showing K of N lines]`.
//! - Warnings that do not fit are omitted and a `Truncated` warning says how many.

use codemode_vm::LogTally;

use crate::result::{Diagnostic, DiagnosticKind, ExecResult};

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
    fit_logs(result, tally, budget.map(|b| b.saturating_sub(used)));
    if let Some(budget) = budget {
        fit_warnings(&mut result.warnings, budget);
    }
}

fn fit_logs(result: &mut ExecResult, tally: LogTally, left: Option<usize>) {
    let printed = result.logs.len() as u64 + tally.dropped_lines;
    if let Some(left) = left {
        let mut bytes = 0usize;
        let keep = result
            .logs
            .iter()
            .take_while(|line| {
                bytes = bytes.saturating_add(line.len());
                bytes <= left
            })
            .count();
        result.logs.truncate(keep);
    }
    let kept = result.logs.len() as u64;
    if kept < printed {
        result.logs.push(format!("[logs truncated: showing {kept} of {printed} lines]"));
        result.truncated = true;
    }
}

fn fit_warnings(warnings: &mut Vec<Diagnostic>, budget: usize) {
    let mut bytes = 0usize;
    let keep = warnings
        .iter()
        .take_while(|w| {
            bytes = bytes.saturating_add(w.message.len());
            bytes <= budget
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
