//! Nothing a program does can crash the host: every program in the repository, and mangled
//! variants of each (prefixes, deleted characters, swapped tokens), runs to a Result under tight
//! limits without a panic.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode::Limits;

fn programs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in
        ["tests/conformance", "crates/codemode-syntax/tests/ir", "crates/codemode-compiler/tests/cases"]
    {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            files.extend(
                entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "js")),
            );
        }
    }
    files.sort();
    files
}

/// Deterministic variants of a source text.
fn variants(source: &str) -> Vec<String> {
    let chars: Vec<char> = source.chars().collect();
    let n = chars.len();
    let mut out = vec![source.to_string()];
    for cut in [n / 3, n / 2, 2 * n / 3] {
        out.push(chars[..cut].iter().collect());
    }
    for step in [7, 13] {
        out.push(chars.iter().enumerate().filter(|(i, _)| i % step != 3).map(|(_, c)| *c).collect());
    }
    out.push(source.replace("const ", "let ").replace("return", "throw"));
    out.push(source.replace('(', "[").replace(')', "]"));
    out.push(source.replace("await ", "").replace("=>", ">="));
    out
}

#[test]
fn mangled_programs_never_panic() {
    let runtime = codemode::demo::builder()
        .limits(Limits::default().timeout(Duration::from_millis(250)).max_tool_calls(20))
        .build()
        .expect("build");
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio");
    let files = programs();
    assert!(files.len() > 100, "found only {} programs", files.len());
    let mut runs = 0;
    for path in files {
        let source = std::fs::read_to_string(&path).expect("readable");
        for variant in variants(&source) {
            let result = tokio.block_on(runtime.execute(&variant));
            assert!(
                result.ok || result.error.is_some(),
                "{}: a failed result without an error",
                path.display()
            );
            runs += 1;
        }
    }
    assert!(runs > 900, "{runs}");
}
