//! Data-driven early-error tests: `tests/early_errors/cases.txt` lists programs with the
//! diagnostic each must produce (a substring of the message, kind `ParseError`), or `ok` for
//! valid neighbours that must still compile. The expectations were checked against Node with
//! `tests/early_errors/node_check.mjs`.

use codemode_syntax::{SyntaxErrorKind, compile_to_ir};

/// `(expected, program)` pairs, in file order.
fn cases() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/early_errors/cases.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let mut cases: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(expected) = line.strip_prefix("=== ") {
            cases.push((expected.to_owned(), String::new()));
        } else if let Some((_, program)) = cases.last_mut() {
            program.push_str(line);
            program.push('\n');
        }
    }
    cases
}

#[test]
fn early_error_cases() {
    let cases = cases();
    assert!(cases.len() >= 40, "expected at least 40 cases, found {}", cases.len());
    let mut failures = Vec::new();
    for (expected, program) in &cases {
        match (expected.as_str(), compile_to_ir(program)) {
            ("ok", Ok(_)) => {}
            ("ok", Err(error)) => failures.push(format!("must compile:\n{program}got: {error}")),
            (_, Ok(_)) => failures.push(format!("must fail with {expected:?}:\n{program}but compiled")),
            (_, Err(error))
                if error.kind == SyntaxErrorKind::ParseError && error.message.contains(expected) => {}
            (_, Err(error)) => {
                failures.push(format!("must fail with {expected:?}:\n{program}got {:?}: {error}", error.kind))
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
