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
