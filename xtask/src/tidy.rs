//! `cargo xtask tidy`: dependency boundaries.
//!
//! `codemode-vm` is a sans-I/O state machine (DESIGN.md, pillar 1): what building it alone pulls in
//! (`cargo tree -p codemode-vm -e normal,build`, so features are resolved for the VM alone, not unified
//! with the rest of the workspace as `cargo metadata`'s graph is) must contain no tokio, no swc crate and
//! no clock crate. `crates/codemode/tests/tidy.rs` checks the same in `cargo test`.

use crate::{cargo, root};

/// Crates `codemode-vm` must never depend on, by exact name or (ending in `*`) prefix.
const VM_FORBIDDEN: &[&str] =
    &["tokio*", "swc*", "mio", "async-std", "chrono", "time", "instant", "quanta", "futures-timer"];

fn forbidden(name: &str) -> bool {
    VM_FORBIDDEN.iter().any(|f| match f.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == *f,
    })
}

pub(crate) fn run() -> Result<(), String> {
    let output = cargo()
        .args(["tree", "-p", "codemode-vm", "-e", "normal,build", "--prefix", "none", "--format", "{p}"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("cannot run cargo tree: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo tree failed:\n{}", String::from_utf8_lossy(&output.stderr)));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut names: Vec<&str> = stdout.lines().filter_map(|l| l.split_whitespace().next()).collect();
    names.sort_unstable();
    names.dedup();
    let bad: Vec<&str> = names.iter().copied().filter(|n| forbidden(n)).collect();
    if bad.is_empty() {
        println!("tidy: codemode-vm's {} crates contain no tokio, swc or clock crate", names.len());
        Ok(())
    } else {
        let why = bad
            .first()
            .and_then(|name| {
                cargo()
                    .args(["tree", "-p", "codemode-vm", "-e", "normal,build", "-i", name])
                    .current_dir(root())
                    .output()
                    .ok()
            })
            .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
            .unwrap_or_default();
        Err(format!("codemode-vm must not depend on {bad:?} (DESIGN.md: the VM is sans-I/O). Path:\n{why}"))
    }
}
