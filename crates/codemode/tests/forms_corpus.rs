//! The program-forms corpus: programs in the shapes models hand in (markdown fences with prose,
//! whole-program arrows, `export default`, `main();` last, final expressions, un-awaited promises,
//! TypeScript), each `tests/forms/NAME.js` or `NAME.ts` run through `codemode::demo::builder()` and
//! compared with `NAME.json`, which Node wrote (`node xtask/forms/run.mjs`, which applies the rules
//! of docs/language.md for these shapes in Node).
//!
//! `tests/forms/KNOWN_FAILURES` lists the programs that do not match yet, one `NAME.ext  reason` a
//! line. The test fails when a program not on the list differs from Node, and when a program on the
//! list matches (remove it from the list: the list only shrinks).
//!
//! Compared: `ok`; for successes the `value` (exact JSON equality, key order included, numbers as
//! IEEE doubles) and the `logs`; for failures the error name (the facade's message starts with
//! `<Name>: ...`, or `Uncaught: ...` for a thrown non-Error) or, when the expectation has a `kind`,
//! the diagnostic kind; and the logs.
//!
//! Environment knobs: `FORMS_FILTER=substr` runs only the programs whose file name contains it;
//! `FORMS_OUT=dir` writes each actual `ExecResult` to `dir/NAME.json`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

mod node_oracle;
use node_oracle::{compare, run, short};

/// The corpus is meant to stay at least this large.
const MIN_PROGRAMS: usize = 120;

fn forms_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/forms")
}

/// Program file names (`NAME.js`, `NAME.ts`), sorted.
fn programs() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(forms_dir())
        .expect("tests/forms exists")
        .map(|e| e.expect("readable dir entry").file_name().to_string_lossy().into_owned())
        .filter(|f| (f.ends_with(".js") || f.ends_with(".ts")) && !f.ends_with(".d.ts"))
        .collect();
    out.sort();
    out
}

fn stem(file: &str) -> &str {
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

/// `KNOWN_FAILURES`: file name → reason. Blank lines and `#` comments are skipped.
fn known_failures() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(forms_dir().join("KNOWN_FAILURES")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((name, reason)) => (name.to_string(), reason.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

#[test]
fn every_program_has_an_expectation_and_vice_versa() {
    let files = programs();
    assert!(files.len() >= MIN_PROGRAMS, "expected at least {MIN_PROGRAMS} programs, found {}", files.len());
    let stems: Vec<&str> = files.iter().map(|f| stem(f)).collect();
    let mut problems = Vec::new();
    for file in &files {
        if !forms_dir().join(format!("{}.json", stem(file))).exists() {
            problems.push(format!("{file} has no {}.json (run `node xtask/forms/run.mjs`)", stem(file)));
        }
    }
    for entry in std::fs::read_dir(forms_dir()).expect("tests/forms exists") {
        let name = entry.expect("dir entry").file_name().to_string_lossy().into_owned();
        if let Some(s) = name.strip_suffix(".json")
            && !s.starts_with("package")
            && !stems.contains(&s)
        {
            problems.push(format!("{name} has no program (stale expectation)"));
        }
    }
    for name in known_failures().keys() {
        if !files.contains(name) {
            problems.push(format!("KNOWN_FAILURES names {name}, which is not a program in tests/forms"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn forms_match_node_except_the_known_failures() {
    let dir = forms_dir();
    let filter = std::env::var("FORMS_FILTER").unwrap_or_default();
    let out_dir = std::env::var_os("FORMS_OUT").map(PathBuf::from);
    if let Some(out) = &out_dir {
        std::fs::create_dir_all(out).expect("FORMS_OUT is creatable");
    }
    let known = known_failures();
    let files: Vec<String> = programs().into_iter().filter(|n| n.contains(filter.as_str())).collect();
    let mut unexpected = String::new();
    let mut fixed = String::new();
    let mut all_failing = String::new();
    let (mut passed, mut failed_known) = (0, 0);
    for file in &files {
        let source = std::fs::read_to_string(dir.join(file)).expect("program readable");
        let Ok(expected_text) = std::fs::read_to_string(dir.join(format!("{}.json", stem(file)))) else {
            continue; // reported by `every_program_has_an_expectation_and_vice_versa`
        };
        let expected: Value = serde_json::from_str(&expected_text).expect("expectation is JSON");
        let problems = match run(source) {
            Ok(actual) => {
                if let Some(out) = &out_dir {
                    let text = serde_json::to_string_pretty(&actual).expect("ExecResult serializes");
                    std::fs::write(out.join(format!("{}.json", stem(file))), text)
                        .expect("FORMS_OUT writable");
                }
                compare(&expected, &actual)
            }
            Err(e) => vec![e],
        };
        match (problems.is_empty(), known.contains_key(file)) {
            (true, false) => passed += 1,
            (true, true) => {
                let _ = writeln!(fixed, "  {file} (listed: {})", known[file]);
            }
            (false, true) => failed_known += 1,
            (false, false) => {
                let _ = writeln!(unexpected, "  {file}: {}", problems.join("; "));
            }
        }
        if !problems.is_empty() {
            let _ = writeln!(all_failing, "{file}  {}", short(&problems.join("; "), 160));
        }
    }
    eprintln!(
        "forms corpus: {} programs, {passed} match Node, {failed_known} known failures{}",
        files.len(),
        if filter.is_empty() { String::new() } else { format!(" (filter {filter:?})") }
    );
    let mut report = String::new();
    if !unexpected.is_empty() {
        let _ = writeln!(
            report,
            "programs that differ from Node and are not in tests/forms/KNOWN_FAILURES:\n{unexpected}"
        );
    }
    if !fixed.is_empty() {
        let _ = writeln!(
            report,
            "programs in tests/forms/KNOWN_FAILURES that now match Node (remove them from the list):\n{fixed}"
        );
    }
    if !report.is_empty() {
        let _ = writeln!(
            report,
            "every program that differs today, one line each (NAME  first difference):\n{all_failing}"
        );
    }
    assert!(report.is_empty(), "{report}");
}
