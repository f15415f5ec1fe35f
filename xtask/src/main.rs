//! `cargo xtask`: project automation that is not a library.
//!
//! - `cargo xtask conformance [--bless]`: with `--bless`, runs every `tests/conformance/*.js` in Node
//!   (`xtask/conformance/run.mjs`) and rewrites the expected `.json` files; without, checks that the
//!   checked-in expectations are still what Node says (when Node is installed) and runs the Rust
//!   comparison (`cargo test -p codemode --test conformance`).
//! - `cargo xtask bench [--compare] [--report-only] [-- <criterion args>]`: runs
//!   `cargo bench -p codemode-bench` (with `--compare`, also QuickJS and Boa) and writes the table of
//!   criterion's estimates to `docs/benchmarks.md` (`--report-only`: from the results already there).
//! - `cargo xtask test262 <test262-dir> [PATH...]`: runs a tc39/test262 checkout against the release
//!   CLI and writes per-directory pass rates to `docs/conformance.md` (`test262.rs`).
//! - `cargo xtask link-order`: traces the workloads under valgrind and writes
//!   `crates/codemode-cli/link-order.txt`, the functions the linker places together (`link_order.rs`),
//!   and `rodata-order.ld`, the read-only data they read (`rodata_order.rs`).
//! - `cargo xtask sweep`: the resource sweep over the whole built-in table
//!   (`crates/codemode/tests/sweep.rs`, `sweep_all`; `cargo test` runs a fixed sample of it).
//! - `cargo xtask tidy`: checks dependency boundaries, e.g. that `codemode-vm` pulls in no tokio,
//!   swc or clock crate.

mod bench;
mod link_order;
mod rodata_order;
mod test262;
mod test262_scope;
mod tidy;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  conformance [--bless]           compare codemode with Node on tests/conformance (--bless: rewrite the .json files from Node)
  bench [--compare] [--report-only] [-- ARGS]
                                  run the criterion benches and write docs/benchmarks.md
                                  (--compare: also QuickJS and Boa; --report-only: only rewrite the table)
  test262 <test262-dir> [PATH...] [--jobs N] [--timeout-ms MS] [--pass-list FILE] [--no-build]
                                  run test262 (test/built-ins and test/language, or PATHs under test/)
                                  and write docs/conformance.md
  link-order [--check BINARY]     trace the workloads under valgrind and write crates/codemode-cli/link-order.txt
                                  and rodata-order.ld
                                  (--check: how many of its functions BINARY defines)
  sweep                           every built-in of the table with every amplifier, each case in its own
                                  process under a small memory limit (crates/codemode/tests/sweep.rs)
  tidy                            check dependency boundaries (codemode-vm: no tokio, swc or clock crates)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("conformance") => conformance(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("test262") => test262::run(&args[1..]),
        Some("link-order") => link_order::run(&args[1..]),
        Some("tidy") => tidy::run(),
        Some("sweep") => sweep(&args[1..]),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The repository root (the parent of `xtask/`).
pub(crate) fn root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map_or_else(|| manifest.to_path_buf(), Path::to_path_buf)
}

/// The `cargo` that runs us (so toolchain overrides are kept).
pub(crate) fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs a command to completion in the repository root; an error when it cannot start or fails.
pub(crate) fn status(mut cmd: Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    let status = cmd.current_dir(root()).status().map_err(|e| format!("cannot run {shown}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{shown} failed with {status}")) }
}

fn node_available() -> bool {
    Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// `cargo xtask sweep`: the ignored `sweep_all` test, which prints one line per case, built with
/// the `sweep` profile (optimized, no LTO): its time bounds are about an optimized build.
fn sweep(args: &[String]) -> Result<(), String> {
    if let Some(other) = args.first() {
        return Err(format!("unknown sweep argument `{other}`\n\n{USAGE}"));
    }
    let mut test = cargo();
    test.args([
        "test",
        "--profile",
        "sweep",
        "-p",
        "codemode",
        "--test",
        "sweep",
        "--",
        "--ignored",
        "--exact",
        "sweep_all",
        "--nocapture",
    ]);
    status(test)
}

fn conformance(args: &[String]) -> Result<(), String> {
    let bless = args.iter().any(|a| a == "--bless");
    if let Some(other) = args.iter().find(|a| *a != "--bless") {
        return Err(format!("unknown conformance argument `{other}`\n\n{USAGE}"));
    }
    let runner = root().join("xtask/conformance/run.mjs");
    if bless {
        if !node_available() {
            return Err("`node` (20 or newer) is needed to bless the conformance expectations".into());
        }
        let mut node = Command::new("node");
        node.arg(&runner);
        return status(node);
    }
    if node_available() {
        let mut node = Command::new("node");
        node.arg(&runner).arg("--check");
        status(node).map_err(|e| {
            format!("{e}\nthe .json expectations are out of date: run `cargo xtask conformance --bless`")
        })?;
    } else {
        eprintln!("xtask: node not found; skipping the check that the expectations match Node");
    }
    let mut test = cargo();
    test.args(["test", "-p", "codemode", "--test", "conformance"]);
    status(test)
}
