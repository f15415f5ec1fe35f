//! TypeScript that generates code (enums, classes with parameter properties, abstract members),
//! run as the runtime runs it: each `tests/typescript/*.ts` starts with `// expect: <json>`, the
//! value TypeScript's own compiled output gives (Node cannot run TypeScript, so these
//! expectations are written from `tsc --target es2022` output by hand).

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::PathBuf;

#[test]
fn typescript_programs_give_the_values_tsc_output_gives() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/typescript");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/typescript")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ts"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let rt = codemode::demo::builder().build().expect("build");
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let mut failures = Vec::new();
    for path in files {
        let source = std::fs::read_to_string(&path).expect("read");
        let expected = source
            .lines()
            .next()
            .and_then(|line| line.strip_prefix("// expect: "))
            .unwrap_or_else(|| panic!("{} must start with `// expect: <json>`", path.display()));
        let expected: serde_json::Value = serde_json::from_str(expected).expect("expectation is JSON");
        let result = tokio.block_on(rt.execute(&source));
        if result.value.as_ref() != Some(&expected) {
            failures.push(format!("{}: expected {expected}, got {result:?}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
