//! `cargo xtask link-order`: writes `crates/codemode-cli/link-order.txt`, the functions that
//! codemode runs execute, for the linker to place together (`crates/codemode-cli/link_order.rs`
//! says why and when it is used).
//!
//! How: builds the release `repeat` (codemode-bench) and `codemode` (codemode-cli) binaries, and
//! the benchmarks as `cargo xtask bench --compare` does; runs each benchmark workload once under
//! `valgrind --tool=callgrind --dump-instr=yes` (`repeat`, and the CLI on the examples; in the
//! benchmark build, `rss codemode`), maps every executed instruction of the binary to its
//! function with `nm`, and
//! writes their (mangled) names: those that more runs execute first (start-up, parse, compile and
//! the interpreter core come before one workload's built-ins), then in their present address
//! order. Needs valgrind and binutils; the list is checked in, so builds do not.
//! `cargo xtask link-order --check BINARY` says how many of the listed functions a binary defines
//! (`cargo xtask bench --compare` reports it for the `rss` binary).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;

use crate::bench::target_dir;
use crate::rodata_order;
use crate::{cargo, root, status};

/// The file the build scripts read, relative to the repository root.
const ORDER_FILE: &str = "crates/codemode-cli/link-order.txt";

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    match args {
        [] => {}
        [check, binary] if check == "--check" => {
            let (found, listed) = coverage(Path::new(binary))?;
            println!("{found} of the {listed} functions in {ORDER_FILE} are defined in {binary}");
            return Ok(());
        }
        _ => return Err("usage: cargo xtask link-order [--check BINARY]".to_string()),
    }
    // A function's symbol carries its crate's hash, which depends on the features of the whole
    // build: the binaries users build (the CLI) and those `cargo xtask bench --compare` measures
    // (built with QuickJS, Boa and criterion) name the same function differently. Each build is
    // traced and the list has both names; a binary's linker finds its own.
    let builds: [&[&str]; 2] = [
        &[
            "build",
            "--release",
            "-p",
            "codemode-bench",
            "-p",
            "codemode-cli",
            "--bin",
            "repeat",
            "--bin",
            "codemode",
        ],
        &["bench", "--no-run", "-p", "codemode-bench", "--features", "compare"],
    ];
    let release = target_dir().join("release");
    let repeat = release.join("repeat");
    let cli = release.join("codemode");
    let rss = release.join("rss");
    let scratch = std::env::temp_dir().join(format!("codemode-link-order-{}", std::process::id()));
    let state = scratch.with_extension("state");
    // Function name -> (how many runs executed it, where it is now: build, address).
    let mut used: HashMap<String, (usize, (usize, u64))> = HashMap::new();
    let mut traced = 0;
    let maps = scratch.with_extension("maps");
    std::fs::create_dir_all(&maps).map_err(|e| format!("{}: {e}", maps.display()))?;
    let mut rodata = rodata_order::Tally::default();
    for (build_index, build_args) in builds.iter().enumerate() {
        let mut build = cargo();
        build.args(*build_args).env("CODEMODE_LINK_MAP_DIR", &maps);
        status(build)?;
        // The benchmark build traces the `rss` binary, whose resident memory the compare table
        // reports: each binary inlines differently, so its own names are the ones that place
        // its code (tracing `repeat` there left a tenth of an rss run's code unlisted).
        let mut runs: Vec<(&Path, Vec<String>)> = workloads()?
            .into_iter()
            .chain(["quickstart".to_string()])
            .map(|w| match build_index {
                0 => (repeat.as_path(), vec![w, "1".to_string()]),
                _ => (rss.as_path(), vec!["codemode".to_string(), w, "1".to_string()]),
            })
            .collect();
        if build_index == 0 {
            runs.push((&cli, ["run", "examples/orders.js"].map(String::from).to_vec()));
            // The approval example suspends: a run saved to bytes.
            let suspend = ["run", "examples/approval.js", "--state-out"].map(String::from);
            runs.push((&cli, suspend.into_iter().chain([state.display().to_string()]).collect()));
        }
        let mut symbols: HashMap<&Path, Symbols> = HashMap::new();
        for (binary, args) in runs {
            eprintln!("link-order: tracing {} {}", binary.display(), args.join(" "));
            let out = scratch.with_extension(format!("{traced}.callgrind"));
            traced += 1;
            let mut cmd = Command::new("valgrind");
            cmd.args(["--tool=callgrind", "--dump-instr=yes", "--quiet"])
                .arg(format!("--callgrind-out-file={}", out.display()))
                .arg(binary)
                .args(&args)
                .stdout(std::process::Stdio::null());
            status(cmd)?;
            let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            let _ = std::fs::remove_file(&out);
            let table = match symbols.entry(binary) {
                std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
                std::collections::hash_map::Entry::Vacant(entry) => entry.insert(Symbols::of(binary)?),
            };
            let name = binary.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let mut seen = std::collections::HashSet::new();
            for address in executed_addresses(&text, name) {
                if let Some((start, function)) = table.function_at(address)
                    && seen.insert(start)
                {
                    let entry = used.entry(function.to_string()).or_insert((0, (build_index, start)));
                    entry.0 += 1;
                }
            }
        }
        // The read-only data: every workload's start (lackey is ~50 times slower than callgrind).
        let (binary, name, data_runs): (&Path, &str, Vec<Vec<String>>) = match build_index {
            0 => (&cli, "codemode", vec![["run", "examples/orders.js"].map(String::from).to_vec()]),
            _ => (
                &rss,
                "rss",
                workloads()?
                    .into_iter()
                    .chain(["quickstart".to_string()])
                    .map(|w| vec!["codemode".to_string(), w, "1".to_string()])
                    .collect(),
            ),
        };
        let sections = rodata_order::Sections::from_map(&maps.join(format!("{name}.map")))?;
        for args in data_runs {
            let touched = rodata_order::trace(binary, &args, &sections)?;
            rodata.add(build_index, &sections, &touched);
        }
    }
    let _ = std::fs::remove_file(&state);
    let _ = std::fs::remove_dir_all(&maps);
    let mut order: Vec<_> = used.iter().collect();
    order.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)));
    let mut text = String::new();
    for (name, _) in &order {
        text.push_str(name);
        text.push('\n');
    }
    let path = root().join(ORDER_FILE);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("link-order: {} functions from {traced} runs -> {ORDER_FILE}", order.len());
    let script = root().join(rodata_order::SCRIPT_FILE);
    let placed = rodata.write(&script)?;
    eprintln!("link-order: {placed} read-only data sections -> {}", rodata_order::SCRIPT_FILE);
    Ok(())
}

/// How many of the functions the order file lists `binary` defines, and how many it lists: a
/// list gone stale (renamed functions, new dependency versions) shows as a low first number.
pub(crate) fn coverage(binary: &Path) -> Result<(u64, u64), String> {
    let path = root().join(ORDER_FILE);
    let list = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let defined: std::collections::HashSet<String> =
        Symbols::of(binary)?.by_start.into_values().map(|(_, name)| name).collect();
    let listed: Vec<&str> = list.lines().filter(|l| !l.is_empty()).collect();
    let found = listed.iter().filter(|name| defined.contains(**name)).count();
    Ok((found as u64, listed.len() as u64))
}

/// The benchmark workloads' names (`benches/workloads/*.js`), sorted.
fn workloads() -> Result<Vec<String>, String> {
    let dir = root().join("benches/workloads");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".js")).map(str::to_string))
        .collect();
    names.sort();
    Ok(names)
}

/// A binary's functions by start address (`nm -S --defined-only`, text symbols).
struct Symbols {
    by_start: BTreeMap<u64, (u64, String)>,
}

impl Symbols {
    fn of(binary: &Path) -> Result<Self, String> {
        let output = Command::new("nm")
            .args(["-S", "--defined-only"])
            .arg(binary)
            .output()
            .map_err(|e| format!("cannot run nm: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "nm {} failed: {}",
                binary.display(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let mut by_start = BTreeMap::new();
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let mut fields = line.split_whitespace();
            let (Some(start), Some(size), Some(kind), Some(name)) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            if !matches!(kind, "t" | "T" | "w" | "W") {
                continue;
            }
            if let (Ok(start), Ok(size)) = (u64::from_str_radix(start, 16), u64::from_str_radix(size, 16)) {
                by_start.insert(start, (size, name.to_string()));
            }
        }
        Ok(Self { by_start })
    }

    /// The function whose code contains `address`: its start and name.
    fn function_at(&self, address: u64) -> Option<(u64, &str)> {
        let (&start, (size, name)) = self.by_start.range(..=address).next_back()?;
        (address < start + size).then_some((start, name.as_str()))
    }
}

/// The instruction addresses (object-relative) that a callgrind profile written with
/// `--dump-instr=yes` shows executed in the object whose file name is `object`. Cost lines
/// start with the instruction address, absolute (`0x..`) or relative to the previous one
/// (`+n`, `-n`, `*`); `ob=` lines switch objects (`(id) name` the first time, `(id)` after).
fn executed_addresses(profile: &str, object: &str) -> Vec<u64> {
    let mut names: HashMap<&str, &str> = HashMap::new();
    let mut in_object = false;
    let mut address: u64 = 0;
    let mut found = Vec::new();
    for line in profile.lines() {
        // An object's name is given where its id first appears, which may be a call's `cob=`.
        let (switch, rest) = match (line.strip_prefix("ob="), line.strip_prefix("cob=")) {
            (Some(rest), _) => (true, rest),
            (None, Some(rest)) => (false, rest),
            (None, None) => (false, ""),
        };
        if !rest.is_empty() {
            let (id, name) = rest.split_once(' ').unwrap_or((rest, ""));
            if !name.is_empty() {
                names.insert(id, name);
            }
            if switch {
                in_object =
                    names.get(id).is_some_and(|n| Path::new(n).file_name().is_some_and(|f| f == object));
            }
            continue;
        }
        let Some(position) = line.split_whitespace().next() else { continue };
        let parsed = if let Some(hex) = position.strip_prefix("0x") {
            u64::from_str_radix(hex, 16).ok()
        } else if let Some(delta) = position.strip_prefix('+') {
            delta.parse::<u64>().ok().map(|d| address.wrapping_add(d))
        } else if let Some(delta) = position.strip_prefix('-') {
            delta.parse::<u64>().ok().map(|d| address.wrapping_sub(d))
        } else if position == "*" {
            Some(address)
        } else {
            None
        };
        if let Some(next) = parsed {
            address = next;
            if in_object {
                found.push(address);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::executed_addresses;

    #[test]
    fn callgrind_positions_are_followed_per_object() {
        let profile = "\
positions: instr line
ob=(1) /usr/lib/libc.so.6
fn=(1) memcpy
0x100 0 5
cob=(2) /work/target/release/repeat
cfn=(3) start
calls=1 0x50
0x104 0 7
ob=(2)
fn=(2) main
0x4050 0 1
+4 0 1
* 0 2
calls=1 0x200
-2 0 9
ob=(1)
0x300 0 1
ob=(2)
0x5000 0 1
";
        assert_eq!(executed_addresses(profile, "repeat"), vec![0x4050, 0x4054, 0x4054, 0x4052, 0x5000]);
    }
}
