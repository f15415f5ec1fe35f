//! The read-only data half of `cargo xtask link-order`: which `.rodata` input sections codemode
//! runs read, written as `crates/codemode-cli/rodata-order.ld` (a linker script that gathers
//! them in one output section in front of `.rodata`; `crates/codemode-cli/link_order.rs` says
//! when it is used).
//!
//! How: a run under `valgrind --tool=lackey --trace-mem=yes` prints every data address it
//! reads or writes; those inside the binary's read-only data are looked up in the binary's link
//! map (written because `link-order` builds with `CODEMODE_LINK_MAP_DIR` set), which names the
//! input section at each address. Jump tables (`.rodata.<function>`) and constants
//! (`.rodata..Lanon.<unit>.<n>`) have no symbols, so the function order cannot place them.
//! Sections LLD merges across inputs (`.rodata.str1.1`, `.rodata.cst16`) cannot be placed by
//! name and are left where they are. Lackey is slow (a minute for `fib`), so each run is traced
//! for its first [`TRACE_SECONDS`] only: a loop reads in its first iterations what it reads.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};

/// The file the build scripts pass to the linker, relative to the repository root.
pub(crate) const SCRIPT_FILE: &str = "crates/codemode-cli/rodata-order.ld";

/// Where valgrind loads a position-independent executable (checked against the instructions
/// a trace shows, see [`trace`]).
const VALGRIND_PIE_BASE: u64 = 0x108000;

/// The orderable `.rodata` input sections of one linked binary, by address.
pub(crate) struct Sections {
    by_start: BTreeMap<u64, (u64, String)>,
    /// `.text`'s address range, to check the load address.
    text: (u64, u64),
}

impl Sections {
    /// Reads an LLD link map (`-Map`): output section lines have four fields before the name,
    /// input section lines name `file:(section)`.
    pub(crate) fn from_map(map: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(map).map_err(|e| format!("{}: {e}", map.display()))?;
        let mut by_start = BTreeMap::new();
        let mut text_range = (0, 0);
        for line in text.lines() {
            let mut fields = line.split_whitespace();
            let (Some(vma), Some(_lma), Some(size), Some(_align), Some(rest)) =
                (fields.next(), fields.next(), fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let (Ok(vma), Ok(size)) = (u64::from_str_radix(vma, 16), u64::from_str_radix(size, 16)) else {
                continue;
            };
            if rest == ".text" {
                text_range = (vma, vma + size);
                continue;
            }
            let Some(open) = rest.rfind(":(") else { continue };
            let Some(section) = rest[open + 2..].strip_suffix(')') else { continue };
            if orderable(section) && size > 0 {
                by_start.insert(vma, (size, section.to_string()));
            }
        }
        if text_range.1 == 0 {
            return Err(format!("{}: no .text output section: not an LLD link map?", map.display()));
        }
        Ok(Self { by_start, text: text_range })
    }

    fn section_at(&self, address: u64) -> Option<(u64, &str)> {
        let (&start, (size, name)) = self.by_start.range(..=address).next_back()?;
        (address < start + size).then_some((start, name.as_str()))
    }
}

/// A section the script can name: `.rodata.` something, not one LLD merges across inputs.
fn orderable(section: &str) -> bool {
    section.starts_with(".rodata.")
        && !section.starts_with(".rodata.str")
        && !section.starts_with(".rodata.cst")
        && !section.contains(['"', '\n', ' '])
}

/// How long a run is traced: lackey runs code ~100 times slower than the machine, and a
/// workload's loop reads in its first iterations what its later ones read.
const TRACE_SECONDS: u64 = 20;

/// Runs `binary args` under lackey (for at most [`TRACE_SECONDS`]) and returns the start
/// addresses (link-time) of the orderable sections it touched.
pub(crate) fn trace(binary: &Path, args: &[String], sections: &Sections) -> Result<HashSet<u64>, String> {
    eprintln!("link-order: tracing data of {} {}", binary.display(), args.join(" "));
    let mut child = Command::new("valgrind")
        .args(["--tool=lackey", "--trace-mem=yes", "--log-fd=1", "--quiet"])
        .arg(binary)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    let stdout = child.stdout.take().ok_or("valgrind: no stdout")?;
    let mut touched = HashSet::new();
    let (mut in_text, mut in_image) = (0u64, 0u64);
    let image_end = sections.text.1;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(TRACE_SECONDS);
    let mut cut_short = false;
    for (n, line) in std::io::BufReader::with_capacity(1 << 20, stdout).split(b'\n').enumerate() {
        let line = line.map_err(|e| format!("reading valgrind's output: {e}"))?;
        if n % (1 << 20) == 0 && std::time::Instant::now() > deadline {
            let _ = child.kill();
            cut_short = true;
            break;
        }
        // `I  addr,size` for instructions, ` L addr,size` / ` S` / ` M` for data.
        let Some((&kind, rest)) = line.get(1..).and_then(|l| l.split_first()) else { continue };
        let hex = rest.trim_ascii_start().split(|&b| b == b',').next().unwrap_or_default();
        let Some(address) = std::str::from_utf8(hex).ok().and_then(|h| u64::from_str_radix(h, 16).ok())
        else {
            continue;
        };
        let Some(offset) = address.checked_sub(VALGRIND_PIE_BASE).filter(|&o| o < image_end) else {
            continue;
        };
        match (line.first(), kind) {
            (Some(b'I'), _) => {
                in_image += 1;
                if (sections.text.0..sections.text.1).contains(&offset) {
                    in_text += 1;
                }
            }
            (Some(b' '), b'L' | b'S' | b'M') => {
                if let Some((start, _)) = sections.section_at(offset) {
                    touched.insert(start);
                }
            }
            _ => {}
        }
    }
    let status = child.wait().map_err(|e| format!("valgrind: {e}"))?;
    if !status.success() && !cut_short {
        return Err(format!("valgrind {} {} failed: {status}", binary.display(), args.join(" ")));
    }
    // Instructions at addresses inside the binary's image land in its `.text` only if the
    // binary is where this module assumes.
    if in_image == 0 || in_text * 100 < in_image * 99 {
        return Err(format!(
            "{}: of {in_image} instructions in the image only {in_text} are in .text: valgrind did \
             not load it at {VALGRIND_PIE_BASE:#x}",
            binary.display()
        ));
    }
    Ok(touched)
}

/// Counts, per section name, how many traces touched it (and the first address seen).
#[derive(Default)]
pub(crate) struct Tally {
    used: HashMap<String, (usize, (usize, u64))>,
}

impl Tally {
    pub(crate) fn add(&mut self, build: usize, sections: &Sections, touched: &HashSet<u64>) {
        for &start in touched {
            if let Some((_, name)) = sections.section_at(start) {
                let entry = self.used.entry(name.to_string()).or_insert((0, (build, start)));
                entry.0 += 1;
            }
        }
    }

    /// Writes the linker script: the sections more traces touched first, then by address.
    pub(crate) fn write(&self, path: &Path) -> Result<usize, String> {
        let mut order: Vec<_> = self.used.iter().collect();
        order.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)).then(a.0.cmp(b.0)));
        let mut text = String::from(
            "/* Written by `cargo xtask link-order` (xtask/src/rodata_order.rs): the read-only data\n   \
             codemode runs read, gathered in front of .rodata. Regenerate with the function list. */\n\
             SECTIONS\n{\n  .rodata.codemode_hot :\n  {\n",
        );
        for (name, _) in &order {
            text.push_str(&format!("    *(\"{name}\")\n"));
        }
        text.push_str("  }\n}\nINSERT BEFORE .rodata;\n");
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(order.len())
    }
}
