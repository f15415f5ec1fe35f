//! Dependency boundaries (DESIGN.md, pillar 1): `codemode-vm` is a sans-I/O state machine, so what
//! building it alone pulls in must contain no tokio, no swc crate and no clock crate.
//!
//! Uses `cargo tree -p codemode-vm -e normal,build`, which resolves features for the VM alone (a
//! feature-gated parser in a shared crate does not count), unlike `cargo metadata`'s unified graph.
//! `cargo xtask tidy` runs the same check.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

const FORBIDDEN_PREFIXES: &[&str] = &["tokio", "swc"];
const FORBIDDEN_EXACT: &[&str] =
    &["mio", "async-std", "chrono", "time", "instant", "quanta", "futures-timer"];

fn cargo_tree(args: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(cargo).arg("tree").args(args).current_dir(root).output().expect("cargo runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn vm_depends_on_no_tokio_swc_or_clock_crate() {
    let tree =
        cargo_tree(&["-p", "codemode-vm", "-e", "normal,build", "--prefix", "none", "--format", "{p}"]);
    let mut names: Vec<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
    names.sort_unstable();
    names.dedup();
    assert!(names.contains(&"codemode-vm"), "cargo tree did not list codemode-vm itself: {names:?}");
    let bad: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| FORBIDDEN_PREFIXES.iter().any(|p| n.starts_with(p)) || FORBIDDEN_EXACT.contains(n))
        .collect();
    let path = bad
        .first()
        .map(|first| cargo_tree(&["-p", "codemode-vm", "-e", "normal,build", "-i", first]))
        .unwrap_or_default();
    assert!(
        bad.is_empty(),
        "codemode-vm must not depend on {bad:?} (DESIGN.md pillar 1: the VM is sans-I/O). \
         How the first one gets in:\n{path}"
    );
}

/// The `[patch.crates-io]` entries of a manifest as `(name, path)`, read as text (no TOML parser
/// needed for the one-line entries this repository uses).
fn patches(manifest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[patch.crates-io]";
            continue;
        }
        if !inside || line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, rest)) = line.split_once('=') else { continue };
        let path = rest.split('"').nth(1).unwrap_or_default();
        out.push((name.trim().to_string(), path.to_string()));
    }
    out
}

/// `fuzz/` is its own workspace, so it does not inherit the root's `[patch.crates-io]`; without a
/// mirror it would build crates.io versions of patched crates (e.g. the vendored `regress`).
#[test]
fn fuzz_workspace_mirrors_the_root_patches() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |p: &str| std::fs::read_to_string(root.join(p)).expect("manifest readable");
    let fuzz = patches(&read("fuzz/Cargo.toml"));
    let missing: Vec<String> = patches(&read("Cargo.toml"))
        .into_iter()
        .filter(|(name, path)| !fuzz.contains(&(name.clone(), format!("../{path}"))))
        .map(|(name, path)| format!("{name} = {{ path = \"../{path}\" }}"))
        .collect();
    assert!(
        missing.is_empty(),
        "fuzz/Cargo.toml's [patch.crates-io] lacks the root's patches; add:\n{}",
        missing.join("\n")
    );
}

/// What built-ins may not touch directly (issue 36: built-ins reach the heap, frames and fuel
/// through the VM's methods, which charge inside): raw object mutation, the frame list, the
/// register stack and the fuel counter.
const CORE_FIELDS: &[&str] = &["vm.heap.obj_mut(", "vm.frames", "vm.stack", "vm.fuel"];

/// The direct accesses that predate the rule, by file of `codemode-vm/src/builtins/`: a ratchet.
/// A file may not gain one, a file not listed may have none, and a count that fell must be
/// lowered here (so the progress stays).
const CORE_FIELD_DEBT: &[(&str, usize)] = &[
    ("array.rs", 1),
    ("array_buffer.rs", 1),
    ("array_loop.rs", 18),
    ("array_more.rs", 1),
    ("bigint.rs", 2),
    ("clone.rs", 2),
    ("date.rs", 1),
    ("disposable.rs", 1),
    ("error.rs", 2),
    ("error_more.rs", 2),
    ("function.rs", 4),
    ("iterator_helpers.rs", 2),
    ("json_raw.rs", 1),
    ("map_set.rs", 8),
    ("mod.rs", 2),
    ("node_modules.rs", 1),
    ("object_model.rs", 7),
    ("proxy.rs", 1),
    ("regexp.rs", 4),
    ("symbol.rs", 3),
    ("text_codec.rs", 2),
    ("tojson.rs", 1),
    ("typed_array.rs", 7),
    ("typed_array_loop.rs", 2),
    ("typed_array_methods.rs", 2),
    ("url.rs", 5),
    ("url_search_params.rs", 3),
    ("weak.rs", 2),
];

/// Occurrences of `pattern` in `text` not followed by an identifier character (`vm.stack` but
/// not `vm.stack_charged`).
fn occurrences(text: &str, pattern: &str) -> usize {
    text.match_indices(pattern)
        .filter(|(at, _)| {
            pattern.ends_with('(')
                || !text[at + pattern.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        })
        .count()
}

#[test]
fn builtins_reach_core_fields_only_through_methods() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../codemode-vm/src/builtins");
    let mut files = Vec::new();
    let mut pending = vec![dir.clone()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 40, "found only {} files under {}", files.len(), dir.display());
    let mut problems = Vec::new();
    for path in files {
        let name = path.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(&path).unwrap();
        let count: usize = CORE_FIELDS.iter().map(|p| occurrences(&text, p)).sum();
        let allowed = CORE_FIELD_DEBT.iter().find(|(f, _)| *f == name).map_or(0, |(_, n)| *n);
        if count > allowed {
            problems.push(format!(
                "{name}: {count} direct uses of {CORE_FIELDS:?}, {allowed} allowed; use the VM's methods"
            ));
        } else if count < allowed {
            problems.push(format!(
                "{name}: {count} direct uses now; lower its CORE_FIELD_DEBT entry from {allowed}"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
