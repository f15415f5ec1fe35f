//! Data-driven snapshot tests.
//!
//! - `tests/ir/*.js`: programs that must lower; the snapshot is [`Program::dump`].
//! - `tests/errors/*.js`: programs that must fail; the snapshot is the diagnostic.
//! - [`generated_deep_nesting`]: inputs too large to check in (10,000 nested brackets, ...),
//!   generated here; the snapshot is the diagnostic.
//!
//! Each snapshot's header carries the source it was made from, for review. Update with
//! `INSTA_UPDATE=always cargo test -p codemode-syntax`, then read every changed `.snap` file.

use std::path::{Path, PathBuf};

use codemode_syntax::Dump;
use codemode_syntax::{SyntaxError, compile_to_ir};

fn case_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(|entry| entry.ok().map(|entry| entry.path())).collect())
        .unwrap_or_default();
    files.retain(|path| path.extension().is_some_and(|ext| ext == "js" || ext == "ts"));
    files.sort();
    files
}

fn render_error(error: &SyntaxError) -> String {
    format!(
        "kind: {:?}\nmessage: {}\nline: {}\ncolumn: {}\n",
        error.kind, error.message, error.span.line, error.span.column
    )
}

fn snapshot(dir: &str, name: &str, source: &str, rendered: &str) {
    let mut settings = insta::Settings::clone_current();
    settings
        .set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("snapshots").join(dir));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    // Keep the description readable and bounded: generated inputs are huge.
    let description: String = if source.len() > 400 {
        format!("{}…", &source[..source.floor_char_boundary(400)])
    } else {
        source.to_owned()
    };
    settings.set_description(description);
    settings.bind(|| insta::assert_snapshot!(name.to_owned(), rendered));
}

fn read(path: &Path) -> (String, String) {
    let name = path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
    let source = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    (name, source)
}

#[test]
fn ir_cases() {
    let files = case_files("ir");
    assert!(files.len() >= 30, "expected at least 30 IR cases, found {}", files.len());
    for path in files {
        let (name, source) = read(&path);
        let rendered = match compile_to_ir(&source) {
            Ok(program) => program.dump(),
            Err(error) => panic!("{name} must lower, but failed:\n{}", render_error(&error)),
        };
        snapshot("ir", &name, &source, &rendered);
    }
}

#[test]
fn error_cases() {
    let files = case_files("errors");
    assert!(!files.is_empty());
    for path in files {
        let (name, source) = read(&path);
        let rendered = match compile_to_ir(&source) {
            Ok(program) => panic!("{name} must fail, but lowered to:\n{}", program.dump()),
            Err(error) => render_error(&error),
        };
        snapshot("errors", &name, &source, &rendered);
    }
}

/// Deeply nested inputs, each of which would overflow the stack of a recursive parser or pass.
fn deep_inputs() -> Vec<(&'static str, String)> {
    const N: usize = 10_000;
    vec![
        ("parens", format!("x = {}1{};", "(".repeat(N), ")".repeat(N))),
        ("arrays", format!("x = {}{};", "[".repeat(N), "]".repeat(N))),
        ("blocks", format!("{}{}", "{".repeat(N), "}".repeat(N))),
        ("objects", format!("x = {}1{};", "{a:".repeat(N), "}".repeat(N))),
        ("templates", format!("x = {}1{};", "`${".repeat(N), "}`".repeat(N))),
        ("calls", format!("x = {}1{};", "f(".repeat(N), ")".repeat(N))),
        ("arrows", format!("x = {}1;", "a => ".repeat(N))),
        ("unary", format!("x = {}1;", "!".repeat(N))),
        ("conditionals", format!("x = {}1;", "a ? b : ".repeat(N))),
        ("assignments", format!("{}1;", "a = ".repeat(N))),
        ("awaits", format!("x = {}1;", "await ".repeat(N))),
        ("ifs", format!("{}x;", "if (a) ".repeat(N))),
        ("else_ifs", format!("if (a) x;{}", " else if (a) x;".repeat(N))),
        ("labels", (0..N).map(|i| format!("l{i}: ")).collect::<String>() + "x;"),
        ("functions", format!("{}{}", "function f() {".repeat(N), "}".repeat(N))),
        ("generics", format!("let x: {}number{} = 1;", "Array<".repeat(N), ">".repeat(N))),
        ("member_chain", format!("x = a{};", ".b".repeat(N))),
        ("call_chain", format!("x = a{};", "()".repeat(N))),
        ("binary_chain", format!("x = 1{};", " + 1".repeat(N))),
        ("exponent_chain", format!("x = 1{};", " ** 1".repeat(N))),
        ("destructuring", format!("const {}a{} = x;", "[".repeat(N), "]".repeat(N))),
        ("keyof_types", format!("let x: {}T = 1;", "keyof ".repeat(N))),
        // Chains swc parses in loops but whose trees are dropped recursively: 100,000 links.
        ("long_member_chain", format!("x = a{};", ".b".repeat(10 * N))),
        ("long_binary_chain", format!("x = 1{};", " + 1".repeat(10 * N))),
        ("long_call_chain", format!("x = f{};", "()".repeat(10 * N))),
        ("long_as_chain", format!("x = 1{};", " as any".repeat(10 * N))),
        ("long_else_if_chain", format!("if (a) x;{}", " else if (a) x;".repeat(10 * N))),
    ]
}

#[test]
fn generated_deep_nesting() {
    // Run on a thread with a 2 MiB stack, the default of spawned threads and tokio workers, so
    // the test proves the limit holds there, whatever stack the test harness uses.
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            deep_inputs()
                .into_iter()
                .map(|(name, source)| {
                    let rendered = match compile_to_ir(&source) {
                        Ok(_) => "lowered\n".to_owned(),
                        Err(error) => render_error(&error),
                    };
                    (name, source, rendered)
                })
                .collect::<Vec<_>>()
        })
        .unwrap_or_else(|error| panic!("spawn: {error}"));
    let results = handle.join().unwrap_or_else(|_| panic!("compiling deep input panicked"));
    for (name, source, rendered) in results {
        snapshot("deep", name, &source, &rendered);
    }
}
