//! `cargo xtask test262 <test262-dir> [PATH...]`: runs the tc39/test262 suite (a checkout outside
//! this repository) against the release `codemode` CLI and writes per-directory pass rates and the
//! most common first failures to `docs/conformance.md`.
//!
//! Each test is one child process (`codemode run FILE --json --timeout-ms MS`, plus a wall-clock
//! kill), so a crash or a hang loses one test. The program is `"use strict";`, a `print` prelude,
//! `harness/assert.js`, `harness/sta.js` (and `doneprintHandle.js` for async tests), the test's
//! `includes`, then the test source; `raw` tests run as they are. See `docs/conformance.md`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime};

use serde_json::Value;

use crate::bench::target_dir;
use crate::test262_scope::{EXCLUDED_DIRS, EXCLUDED_FEATURES, SOURCE_TEXT_EVAL, exclusion};
use crate::{cargo, root, status};

/// Defines `print` (used by `doneprintHandle.js`) as `console.log`, whose lines come back in the
/// result's `logs`. Printing a `Test262:AsyncTest...` line also settles `__test262Done`, which an
/// async test's program awaits at its end ([`ASYNC_SUFFIX`]).
const PRELUDE: &str = "\
let __test262Finish;
const __test262Done = new Promise((resolve) => { __test262Finish = resolve; });
function print(...args) {
  console.log(...args);
  if (String(args[0]).startsWith('Test262:AsyncTest')) __test262Finish();
}
";
/// A codemode run ends when its program body returns, dropping the jobs still queued; a test262
/// host runs them all. So an async test's program waits for `$DONE` (when nothing is left that
/// could call it, codemode ends the run with a "can never settle" error).
const ASYNC_SUFFIX: &str = "\n;await __test262Done;\n";
const ASYNC_COMPLETE: &str = "Test262:AsyncTestComplete";
const ASYNC_FAILURE: &str = "Test262:AsyncTestFailure:";
const TOP_FAILURES: usize = 20;

const USAGE: &str = "\
usage: cargo xtask test262 <test262-dir> [PATH...] [--jobs N] [--timeout-ms MS] [--pass-list FILE] [--no-build]

  <test262-dir>     a tc39/test262 checkout (outside this repository)
  PATH...           test/-relative directories or files to run (default: built-ins language)
  --jobs N          parallel child processes (default 2)
  --timeout-ms MS   codemode's time limit per test (default 2000; the process is killed after 5x that)
  --pass-list FILE  where to write the passing test paths (default: test262-pass.txt next to the checkout)
  --no-build        use the existing target/release/codemode
  --failures FILE   also write every failing test and its message (tab-separated), on any run
";

#[derive(Debug)]
struct Options {
    dir: PathBuf,
    paths: Vec<String>,
    jobs: usize,
    timeout_ms: u64,
    pass_list: PathBuf,
    failures: Option<PathBuf>,
    build: bool,
    /// No paths were given: the whole suite runs, and the results are written down.
    whole: bool,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut dir = None;
    let mut paths = Vec::new();
    let mut jobs = 2;
    let mut timeout_ms = 2000;
    let mut pass_list = None;
    let mut failures = None;
    let mut build = true;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value =
            |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"));
        match arg.as_str() {
            "--jobs" => {
                jobs = value("--jobs")?.parse().map_err(|e| format!("--jobs: {e}"))?;
                if jobs == 0 {
                    return Err("--jobs must be at least 1".into());
                }
            }
            "--timeout-ms" => {
                timeout_ms = value("--timeout-ms")?.parse().map_err(|e| format!("--timeout-ms: {e}"))?;
            }
            "--pass-list" => pass_list = Some(PathBuf::from(value("--pass-list")?)),
            "--failures" => failures = Some(PathBuf::from(value("--failures")?)),
            "--no-build" => build = false,
            "-h" | "--help" => return Err(USAGE.into()),
            other if other.starts_with("--") => {
                return Err(format!("unknown test262 argument `{other}`\n\n{USAGE}"));
            }
            other if dir.is_none() => dir = Some(PathBuf::from(other)),
            other => paths.push(other.trim_matches('/').to_string()),
        }
    }
    let dir = dir.ok_or_else(|| USAGE.to_string())?;
    if !dir.join("test").is_dir() || !dir.join("harness").is_dir() {
        return Err(format!("{} is not a test262 checkout (no test/ and harness/)", dir.display()));
    }
    let whole = paths.is_empty();
    if whole {
        paths = vec!["built-ins".into(), "language".into()];
    }
    let pass_list = pass_list.unwrap_or_else(|| {
        let parent = dir.canonicalize().ok().and_then(|d| d.parent().map(Path::to_path_buf));
        parent.unwrap_or_else(|| PathBuf::from(".")).join("test262-pass.txt")
    });
    Ok(Options { dir, paths, jobs, timeout_ms, pass_list, failures, build, whole })
}

/// The front matter fields the runner uses.
#[derive(Debug, Default)]
pub(crate) struct Meta {
    includes: Vec<String>,
    flags: Vec<String>,
    pub(crate) features: Vec<String>,
    pub(crate) negative: Option<Negative>,
}

#[derive(Debug, Default)]
pub(crate) struct Negative {
    phase: String,
    kind: String,
}

impl Meta {
    pub(crate) fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }
}

/// Parses the `/*--- ... ---*/` YAML front matter: the keys used here, as flow lists (`[a, b]`)
/// or block lists (`- a`), and the `negative` mapping. Other keys are skipped.
fn parse_meta(source: &str) -> Meta {
    let mut meta = Meta::default();
    let Some(start) = source.find("/*---") else { return meta };
    let body = &source[start + 5..];
    let body = body.find("---*/").map_or(body, |end| &body[..end]);
    let mut key = String::new();
    let mut lines = body.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indented = line.starts_with(' ') || line.starts_with('\t');
        if !indented {
            let Some((k, rest)) = line.split_once(':') else { continue };
            key = k.trim().to_string();
            let mut rest = rest.trim().to_string();
            if rest.starts_with('[') {
                // A flow list may continue on the next lines.
                while !rest.contains(']') {
                    match lines.next() {
                        Some(more) => rest.push_str(more.trim()),
                        None => break,
                    }
                }
                let items = rest.trim_start_matches('[').split(']').next().unwrap_or_default();
                let items = items.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
                if let Some(list) = meta.list(&key) {
                    list.extend(items);
                }
            } else if key == "negative" {
                meta.negative = Some(Negative::default());
            }
            continue;
        }
        if let Some(item) = trimmed.strip_prefix("- ") {
            if let Some(list) = meta.list(&key) {
                list.push(item.trim().to_string());
            }
        } else if key == "negative"
            && let Some(negative) = meta.negative.as_mut()
            && let Some((k, v)) = trimmed.split_once(':')
        {
            match k.trim() {
                "phase" => negative.phase = v.trim().to_string(),
                "type" => negative.kind = v.trim().to_string(),
                _ => {}
            }
        }
    }
    meta
}

impl Meta {
    fn list(&mut self, key: &str) -> Option<&mut Vec<String>> {
        match key {
            "includes" => Some(&mut self.includes),
            "flags" => Some(&mut self.flags),
            "features" => Some(&mut self.features),
            _ => None,
        }
    }
}

/// The stage-3 proposals: the features listed before `## Standard language features`.
fn proposal_features(dir: &Path) -> Vec<String> {
    let Ok(text) = fs::read_to_string(dir.join("features.txt")) else { return Vec::new() };
    text.lines()
        .take_while(|l| !l.starts_with("## Standard"))
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// One test to run.
#[derive(Debug)]
struct Test {
    /// Path relative to `test/`, with `/`.
    rel: String,
    program: String,
    meta: Meta,
}

#[derive(Debug)]
enum Outcome {
    Pass,
    Fail(String),
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if name.ends_with(".js") && !name.contains("_FIXTURE") {
                out.push(path);
            }
        }
    }
    Ok(())
}

struct Harness {
    dir: PathBuf,
    files: Mutex<HashMap<String, Option<String>>>,
}

impl Harness {
    fn get(&self, name: &str) -> Option<String> {
        let mut files = self.files.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        files
            .entry(name.to_string())
            .or_insert_with(|| {
                let text = fs::read_to_string(self.dir.join(name)).ok()?;
                Some(crate::test262_scope::replace_in_harness(name, text))
            })
            .clone()
    }
}

/// Builds the program of a test, or says which include is missing.
fn program(meta: &Meta, source: &str, harness: &Harness) -> Result<String, String> {
    if meta.flag("raw") {
        return Ok(source.to_string());
    }
    let mut program = String::from("\"use strict\";\n");
    program.push_str(PRELUDE);
    let mut names = vec!["assert.js", "sta.js"];
    if meta.flag("async") {
        names.push("doneprintHandle.js");
    }
    names.extend(meta.includes.iter().map(String::as_str));
    for name in names {
        let text = harness.get(name).ok_or_else(|| format!("missing harness file {name}"))?;
        program.push_str(&text);
        program.push('\n');
    }
    if meta.flag("async") {
        // A codemode program is one body whose declarations are not properties of the global
        // object (docs/language.md); `asyncTest` looks for `$DONE` there.
        program.push_str("globalThis.$DONE = $DONE;\n");
    }
    program.push_str(source);
    if meta.flag("async") {
        program.push_str(ASYNC_SUFFIX);
    }
    if meta.negative.is_none() {
        // The last expression statement's value is the run's result; keep it plain (a cyclic or
        // odd value would fail the conversion to JSON, not the test).
        program.push_str("\n;void 0;\n");
    }
    Ok(program)
}

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let options = parse_args(args)?;
    if options.build {
        let mut build = cargo();
        build.args(["build", "--release", "-p", "codemode-cli"]);
        status(build)?;
    }
    let bin = target_dir().join("release").join(format!("codemode{}", std::env::consts::EXE_SUFFIX));
    if !bin.is_file() {
        return Err(format!(
            "{} not found (build it with `cargo build --release -p codemode-cli`)",
            bin.display()
        ));
    }
    let test_root = options.dir.join("test");
    let proposals = proposal_features(&options.dir);
    let harness = Harness { dir: options.dir.join("harness"), files: Mutex::new(HashMap::new()) };

    let mut files = Vec::new();
    for path in &options.paths {
        let full = test_root.join(path);
        if full.is_file() {
            files.push(full);
        } else if full.is_dir() {
            walk(&full, &mut files)?;
        } else {
            return Err(format!("{} does not exist", full.display()));
        }
    }

    let mut tests = Vec::new();
    let mut excluded: BTreeMap<String, usize> = BTreeMap::new();
    let mut excluded_by_dir: BTreeMap<String, usize> = BTreeMap::new();
    let mut setup_failures = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&test_root).unwrap_or(&file).to_string_lossy().replace('\\', "/");
        let bytes = fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let source = String::from_utf8_lossy(&bytes).into_owned();
        let meta = parse_meta(&source);
        let uses_262 = source.contains("$262")
            || meta.includes.iter().any(|i| harness.get(i).is_some_and(|t| t.contains("$262.")));
        if let Some(reason) = exclusion(&rel, &meta, &source, uses_262, &proposals) {
            *excluded.entry(reason).or_default() += 1;
            *excluded_by_dir.entry(group_of(&rel)).or_default() += 1;
            continue;
        }
        match program(&meta, &source, &harness) {
            Ok(program) => tests.push(Test { rel, program, meta }),
            Err(message) => setup_failures.push((rel, message)),
        }
    }

    let total = tests.len() + setup_failures.len();
    eprintln!(
        "test262: {total} tests to run, {} excluded, {} jobs",
        excluded.values().sum::<usize>(),
        options.jobs
    );
    let started = Instant::now();
    let mut results = run_all(&tests, &bin, &options)?;
    results.extend(setup_failures.into_iter().map(|(rel, m)| (rel, Outcome::Fail(m))));
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let elapsed = started.elapsed();

    let report = Report {
        options: &options,
        results: &results,
        excluded: &excluded,
        excluded_by_dir: &excluded_by_dir,
        proposals: &proposals,
        elapsed,
    };
    let (summary, doc) = report.render();
    print!("{summary}");

    let passing: Vec<&str> =
        results.iter().filter(|(_, o)| matches!(o, Outcome::Pass)).map(|(r, _)| r.as_str()).collect();
    compare_with_previous(&options.pass_list, &results, &passing);
    if let Some(path) = &options.failures {
        let list: String = results
            .iter()
            .filter_map(|(rel, o)| match o {
                Outcome::Fail(message) => Some(format!("{rel}\t{}\n", message.replace(['\n', '\t'], " "))),
                _ => None,
            })
            .collect();
        fs::write(path, list).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    // A run over some paths is a check, not a measurement: the pass list and the page describe
    // whole runs only.
    if !options.whole {
        println!("partial run: {} and docs/conformance.md left as they are", options.pass_list.display());
        return Ok(());
    }
    let mut list = passing.join("\n");
    list.push('\n');
    fs::write(&options.pass_list, list)
        .map_err(|e| format!("cannot write {}: {e}", options.pass_list.display()))?;
    println!("wrote {}", options.pass_list.display());

    let out = root().join("docs").join("conformance.md");
    fs::write(&out, doc).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Prints how many tests of this run newly pass or fail compared with the previous pass list.
fn compare_with_previous(path: &Path, results: &[(String, Outcome)], passing: &[&str]) {
    let Ok(previous) = fs::read_to_string(path) else { return };
    let previous: BTreeSet<&str> = previous.lines().collect();
    let now: BTreeSet<&str> = passing.iter().copied().collect();
    let ran: BTreeSet<&str> = results.iter().map(|(r, _)| r.as_str()).collect();
    let gained: Vec<&&str> = now.iter().filter(|r| !previous.contains(**r)).collect();
    let lost: Vec<&&str> = previous.iter().filter(|r| ran.contains(**r) && !now.contains(**r)).collect();
    println!(
        "compared with {}: {} newly passing, {} newly failing",
        path.display(),
        gained.len(),
        lost.len()
    );
    for rel in lost.iter().take(20) {
        println!("  now failing: {rel}");
    }
}

fn run_all(tests: &[Test], bin: &Path, options: &Options) -> Result<Vec<(String, Outcome)>, String> {
    let scratch = std::env::temp_dir().join(format!("codemode-test262-{}", std::process::id()));
    fs::create_dir_all(&scratch).map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(tests.len()));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for worker in 0..options.jobs {
            let (next, done, results, scratch) = (&next, &done, &results, &scratch);
            scope.spawn(move || {
                let program_path = scratch.join(format!("test-{worker}.js"));
                let output_path = scratch.join(format!("out-{worker}.json"));
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(test) = tests.get(i) else { break };
                    let result = run_one(bin, &program_path, &output_path, &test.program, options.timeout_ms);
                    let outcome = judge(&test.meta, result);
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((test.rel.clone(), outcome));
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if n % 2000 == 0 {
                        eprintln!("test262: {n}/{} ({:.0?})", tests.len(), started.elapsed());
                    }
                }
            });
        }
    });
    let _ = fs::remove_dir_all(&scratch);
    Ok(results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// Runs one program in a child process; the parsed result JSON, or why there is none.
fn run_one(
    bin: &Path,
    program_path: &Path,
    output_path: &Path,
    program: &str,
    timeout_ms: u64,
) -> Result<Value, String> {
    fs::write(program_path, program).map_err(|e| format!("cannot write the program: {e}"))?;
    let output = fs::File::create(output_path).map_err(|e| format!("cannot create the output file: {e}"))?;
    let mut child = Command::new(bin)
        .arg("run")
        .arg(program_path)
        .arg("--json")
        .arg("--timeout-ms")
        .arg(timeout_ms.to_string())
        .stdin(Stdio::null())
        .stdout(output)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let deadline = Instant::now() + Duration::from_millis(timeout_ms.saturating_mul(5).max(1000));
    let mut pause = Duration::from_micros(200);
    let exit = loop {
        match child.try_wait() {
            Ok(Some(exit)) => break exit,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("killed: wall-clock timeout".into());
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(5));
            }
            Err(e) => return Err(format!("cannot wait for the child: {e}")),
        }
    };
    let text = fs::read_to_string(output_path).unwrap_or_default();
    serde_json::from_str(text.trim()).map_err(|_| match exit.code() {
        Some(code) => format!("crashed: exit code {code} without a result"),
        None => "crashed: killed by a signal".to_string(),
    })
}

/// The verdict on one run.
fn judge(meta: &Meta, result: Result<Value, String>) -> Outcome {
    let value = match result {
        Ok(value) => value,
        Err(message) => return Outcome::Fail(message),
    };
    let ok = value.get("ok").and_then(Value::as_bool).unwrap_or(false);
    let kind = value.pointer("/error/kind").and_then(Value::as_str).unwrap_or_default();
    let message = value.pointer("/error/message").and_then(Value::as_str).unwrap_or_default();
    let error = || describe_error(kind, message);
    if let Some(negative) = &meta.negative {
        if negative.phase == "parse" || negative.phase == "early" {
            return match kind {
                "ParseError" if negative.kind == "SyntaxError" => Outcome::Pass,
                "UnsupportedSyntax" => Outcome::Fail(error()),
                _ => Outcome::Fail(format!("expected a parse-phase {}; the program parsed", negative.kind)),
            };
        }
        if ok {
            return Outcome::Fail(format!("expected a {} at run time; the run succeeded", negative.kind));
        }
        if kind == "ExecutionFailure" && thrown_name(message) == negative.kind {
            return Outcome::Pass;
        }
        return Outcome::Fail(error());
    }
    if meta.flag("async") {
        let logs: Vec<&str> = value
            .get("logs")
            .and_then(Value::as_array)
            .map(|l| l.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(failure) = logs.iter().find_map(|l| l.strip_prefix(ASYNC_FAILURE)) {
            return Outcome::Fail(failure.to_string());
        }
        if logs.contains(&ASYNC_COMPLETE) && ok {
            return Outcome::Pass;
        }
        if message.contains("can never settle") {
            return Outcome::Fail("async test did not call $DONE".into());
        }
        if !ok {
            return Outcome::Fail(error());
        }
        return Outcome::Fail("async test did not call $DONE".into());
    }
    if ok { Outcome::Pass } else { Outcome::Fail(error()) }
}

/// `Kind: message` without the location; an execution failure is its thrown value's description.
fn describe_error(kind: &str, message: &str) -> String {
    let message = strip_location(message);
    let message = match message.strip_prefix("Uncaught: ") {
        // The harness throws `Test262Error`s, which are not Errors: codemode shows them as JSON.
        Some(json) => match serde_json::from_str::<Value>(json) {
            Ok(Value::Object(map)) if map.get("message").is_some_and(Value::is_string) => {
                format!("Test262Error: {}", map.get("message").and_then(Value::as_str).unwrap_or_default())
            }
            _ => message.to_string(),
        },
        None => message.to_string(),
    };
    if kind == "ExecutionFailure" || kind.is_empty() { message } else { format!("{kind}: {message}") }
}

/// The constructor name of an uncaught exception, from codemode's `Name: message` text; a thrown
/// plain object with a `message` is taken to be the harness's `Test262Error`.
fn thrown_name(message: &str) -> String {
    if message.starts_with("Uncaught: {") && message.contains("\"message\"") {
        return "Test262Error".into();
    }
    let name = message.split(':').next().unwrap_or_default();
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
        name.to_string()
    } else {
        String::new()
    }
}

fn strip_location(message: &str) -> &str {
    match message.rfind(" (line ") {
        Some(i) if message.ends_with(')') => &message[..i],
        _ => message,
    }
}

/// A failure message made groupable: values between `«»` elided, test-specific assertion
/// prefixes dropped, one line, at most 140 characters.
fn normalize(message: &str) -> String {
    let mut message = message.replace(['\n', '\r'], " ");
    if let Some(rest) = message.strip_prefix("Test262Error: ")
        && let Some(i) = rest.find("Expected ")
    {
        message = format!("Test262Error: {}", &rest[i..]);
    }
    let mut out = String::new();
    let mut depth = 0;
    for c in message.chars() {
        match c {
            '«' => {
                if depth == 0 {
                    out.push_str("«…");
                }
                depth += 1;
            }
            '»' => {
                depth = (depth - 1).max(0);
                if depth == 0 {
                    out.push('»');
                }
            }
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    if out.chars().count() > 140 {
        out = out.chars().take(139).collect::<String>() + "…";
    }
    out
}

/// `built-ins/Array/prototype/map/x.js` → `built-ins/Array`.
fn group_of(rel: &str) -> String {
    let parts: Vec<&str> = rel.split('/').collect();
    match parts.as_slice() {
        [a, b, _, ..] => format!("{a}/{b}"),
        [a, ..] => (*a).to_string(),
        [] => String::new(),
    }
}

struct Report<'a> {
    options: &'a Options,
    results: &'a [(String, Outcome)],
    excluded: &'a BTreeMap<String, usize>,
    excluded_by_dir: &'a BTreeMap<String, usize>,
    proposals: &'a [String],
    elapsed: Duration,
}

#[derive(Default)]
struct Row {
    run: usize,
    passed: usize,
    excluded: usize,
}

fn percent(passed: usize, run: usize) -> String {
    if run == 0 {
        return "–".into();
    }
    #[allow(clippy::cast_precision_loss)]
    let rate = passed as f64 * 100.0 / run as f64;
    format!("{rate:.1}%")
}

impl Report<'_> {
    /// The stdout summary and the whole `docs/conformance.md`.
    fn render(&self) -> (String, String) {
        let mut rows: BTreeMap<String, Row> = BTreeMap::new();
        let mut top: BTreeMap<&str, Row> = BTreeMap::new();
        for (rel, outcome) in self.results {
            let pass = matches!(outcome, Outcome::Pass);
            for row in [
                rows.entry(group_of(rel)).or_default(),
                top.entry(rel.split('/').next().unwrap_or_default()).or_default(),
            ] {
                row.run += 1;
                row.passed += usize::from(pass);
            }
        }
        for (dir, n) in self.excluded_by_dir {
            rows.entry(dir.clone()).or_default().excluded += n;
        }
        let run = self.results.len();
        let passed = self.results.iter().filter(|(_, o)| matches!(o, Outcome::Pass)).count();
        let excluded: usize = self.excluded.values().sum();

        let mut failures: HashMap<String, (usize, &str)> = HashMap::new();
        for (rel, outcome) in self.results {
            if let Outcome::Fail(message) = outcome {
                let entry = failures.entry(normalize(message)).or_insert((0, rel));
                entry.0 += 1;
            }
        }
        let mut failures: Vec<(String, usize, &str)> =
            failures.into_iter().map(|(m, (n, r))| (m, n, r)).collect();
        failures.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));

        let commit = test262_commit(&self.options.dir);
        let date = utc_date(SystemTime::now());
        let own_commit =
            git_output(&root(), &["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into());

        let mut summary = String::new();
        let _ = writeln!(
            summary,
            "\ntest262 {commit} ({}), codemode {own_commit}, {date}",
            self.options.paths.join(" ")
        );
        let _ = writeln!(
            summary,
            "total: {passed}/{run} passed ({}), {excluded} excluded, {:.0?}",
            percent(passed, run),
            self.elapsed
        );
        for (name, row) in &top {
            let _ = writeln!(
                summary,
                "  {name:<32} {:>6}/{:<6} {:>6}",
                row.passed,
                row.run,
                percent(row.passed, row.run)
            );
        }
        for (name, row) in rows.iter().filter(|(_, r)| r.run > 0) {
            let _ = writeln!(
                summary,
                "  {name:<32} {:>6}/{:<6} {:>6}",
                row.passed,
                row.run,
                percent(row.passed, row.run)
            );
        }
        let _ = writeln!(summary, "\nmost common first failures:");
        for (message, n, _) in failures.iter().take(TOP_FAILURES) {
            let _ = writeln!(summary, "  {n:>6}  {message}");
        }

        let mut doc = String::new();
        let _ = writeln!(doc, "# test262 conformance\n");
        let _ = writeln!(
            doc,
            "How much of [tc39/test262](https://github.com/tc39/test262) codemode passes, per directory. \
Generated by `cargo xtask test262` (see [Running it](#running-it)); not part of CI, which has no \
network to fetch test262.\n"
        );
        let _ = writeln!(doc, "- test262 commit: `{commit}`");
        let _ = writeln!(doc, "- codemode commit: `{own_commit}`");
        let _ = writeln!(
            doc,
            "- date: {date} (UTC); run time {:.0?} with {} jobs",
            self.elapsed, self.options.jobs
        );
        let _ = writeln!(doc, "- paths: `test/{}`", self.options.paths.join("`, `test/"));
        let _ = writeln!(
            doc,
            "- **{passed} of {run} tests pass ({})**; {excluded} more are excluded as out of scope (below).\n",
            percent(passed, run)
        );

        let _ = writeln!(doc, "## Pass rates by directory\n");
        let _ = writeln!(doc, "| directory | passed | run | rate | excluded |");
        let _ = writeln!(doc, "|---|---:|---:|---:|---:|");
        for (name, row) in &top {
            let dir_excluded: usize = self
                .excluded_by_dir
                .iter()
                .filter(|(d, _)| d.split('/').next() == Some(name))
                .map(|(_, n)| n)
                .sum();
            let _ = writeln!(
                doc,
                "| **{name}** | {} | {} | {} | {dir_excluded} |",
                row.passed,
                row.run,
                percent(row.passed, row.run)
            );
        }
        for (name, row) in &rows {
            let _ = writeln!(
                doc,
                "| {name} | {} | {} | {} | {} |",
                row.passed,
                row.run,
                percent(row.passed, row.run),
                row.excluded
            );
        }

        let _ = writeln!(doc, "\n## Most common first failures\n");
        let _ = writeln!(
            doc,
            "Each failing test counts once, under the first error it reported (locations stripped, values \
between `«»` elided, assertion prefixes dropped). This is the roadmap.\n"
        );
        let _ = writeln!(doc, "| tests | failure | example |");
        let _ = writeln!(doc, "|---:|---|---|");
        for (message, n, example) in failures.iter().take(TOP_FAILURES) {
            let _ = writeln!(doc, "| {n} | {} | `{example}` |", md_cell(message));
        }

        let _ = writeln!(doc, "\n## Exclusions\n");
        let _ = writeln!(doc, "Tests out of scope for codemode are not run and not counted:\n");
        let _ = writeln!(doc, "| reason | tests |");
        let _ = writeln!(doc, "|---|---:|");
        for (reason, n) in self.excluded {
            let _ = writeln!(doc, "| {} | {n} |", md_cell(reason));
        }
        let _ = writeln!(doc, "\nWhy:\n");
        let _ = writeln!(
            doc,
            "- `flags: [module]`: codemode runs a script body; modules are out of scope for now."
        );
        let _ = writeln!(
            doc,
            "- `flags: [noStrict]`: codemode has strict-mode semantics only (e.g. assignment to an undeclared \
name is a `ReferenceError`), so every other test runs once, in strict mode."
        );
        let _ =
            writeln!(doc, "- `flags: [CanBlockIsTrue]`: needs a host whose main thread can block (agents).");
        for (dir, why) in EXCLUDED_DIRS {
            let _ = writeln!(doc, "- directory `{dir}`: {why}.");
        }
        for (feature, why) in EXCLUDED_FEATURES {
            let _ = writeln!(doc, "- feature `{feature}`: {why}.");
        }
        let _ = writeln!(
            doc,
            "- stage-3 proposals: the features in the \"Proposed language features\" section of test262's \
`features.txt` ({}).",
            self.proposals.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
        );
        let _ = writeln!(
            doc,
            "- tests that mention `$262` (in the test or an included harness file): host hooks codemode does not \
provide (`createRealm`, `evalScript`, `detachArrayBuffer`, `gc`, `agent`, `IsHTMLDDA`)."
        );
        let _ = writeln!(
            doc,
            "- {SOURCE_TEXT_EVAL} (outside comments; not declarations or methods named `eval`; never a negative \
test): codemode compiles one program ahead of time and has neither, by design. Such tests would otherwise count \
as failures, or as passes when they expect the `ReferenceError` of a missing `eval` (`test262_scope.rs`)."
        );

        doc.push_str(RUNNING);
        (summary, doc)
    }
}

const RUNNING: &str = "
## Running it

```sh
git clone https://github.com/tc39/test262 /work/test262   # outside this repository
cargo xtask test262 /work/test262                         # all of test/built-ins and test/language
cargo xtask test262 /work/test262 built-ins/Array language/expressions   # some directories
```

Options: `--jobs N` (parallel processes, default 2), `--timeout-ms MS` (codemode's time limit per
test, default 2000; the process is killed after five times that), `--pass-list FILE` (default
`test262-pass.txt` next to the checkout), `--no-build`. It builds the release CLI
(`cargo build --release -p codemode-cli`), prints the figures, rewrites this file and writes the
paths of the passing tests to the pass list; when a previous list is there it first prints how
many tests newly pass or fail, so a change can be checked against the last run.

## How a test runs

Each test is one `codemode run FILE --json --timeout-ms 2000` child process (about 15 ms each),
so a crash or a hang loses one test. The program is `\"use strict\";`, a prelude defining `print`
as `console.log`, `harness/assert.js`, `harness/sta.js`, `harness/doneprintHandle.js` for
`flags: [async]` tests, each `includes` file, then the test source and `;void 0;` (so that the
run's result is plain data); `flags: [raw]` tests run unchanged. One harness file builds code from
source text and gets a documented replacement (`HARNESS_REPLACEMENTS` in
`xtask/src/test262_scope.rs`): `resizableArrayBufferUtils.js`'s `subClass` makes
`class MyUint8Array extends Uint8Array {}` (and the `Float32Array`, `BigInt64Array` ones) with
`new Function`; codemode writes the three classes out. A codemode run ends when the
program body returns, dropping queued jobs, where a test262 host runs them all: so an async test's
program ends with `await` on a promise that the prelude's `print` settles when `$DONE` prints
`Test262:AsyncTest...` (when nothing is left that could call `$DONE`, codemode ends the run at once
with a `can never settle` error: the test fails as `did not call $DONE`). The program runs as codemode's
script body: an async function body, so top-level declarations are not properties of the global
object.

- A test passes when the run ends `ok`.
- An async test passes when the run ends `ok` and its logs hold `Test262:AsyncTestComplete`
  (`Test262:AsyncTestFailure:...` is its failure message).
- A `negative` test with `phase: parse` passes when codemode reports a `ParseError` and the
  expected type is `SyntaxError`; `UnsupportedSyntax` is a failure, and so is a program that parses.
- A `negative` test with `phase: runtime` passes when the uncaught exception has the expected
  name (codemode's `Name: message`; the harness's `Test262Error` is not an Error and shows as
  JSON with a `message`).
";

fn md_cell(text: &str) -> String {
    text.replace('|', "\\|").replace('`', "'")
}

fn git_output(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn test262_commit(dir: &Path) -> String {
    git_output(dir, &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown (not a git checkout)".into())
}

/// `YYYY-MM-DD` in UTC (days-to-civil, proleptic Gregorian).
fn utc_date(now: SystemTime) -> String {
    let secs = now.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0) + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter() {
        let meta = parse_meta(
            "/*---\nesid: x\ndescription: >\n  flags: [nope]\nincludes: [a.js, b.js]\nflags:\n  - async\n  - onlyStrict\n\
features: [Symbol,\n  class]\nnegative:\n  phase: parse\n  type: SyntaxError\n---*/\n$DONOTEVALUATE();",
        );
        assert_eq!(meta.includes, ["a.js", "b.js"]);
        assert_eq!(meta.flags, ["async", "onlyStrict"]);
        assert_eq!(meta.features, ["Symbol", "class"]);
        let negative = meta.negative.as_ref().map(|n| (n.phase.as_str(), n.kind.as_str()));
        assert_eq!(negative, Some(("parse", "SyntaxError")));
    }

    #[test]
    fn verdicts() {
        let parse = parse_meta("/*---\nnegative:\n  phase: parse\n  type: SyntaxError\n---*/");
        let fail = |kind: &str, message: &str| serde_json::json!({ "ok": false, "error": { "kind": kind, "message": message } });
        assert!(matches!(judge(&parse, Ok(fail("ParseError", "x"))), Outcome::Pass));
        assert!(matches!(judge(&parse, Ok(fail("UnsupportedSyntax", "x"))), Outcome::Fail(_)));
        let runtime = parse_meta("/*---\nnegative:\n  phase: runtime\n  type: Test262Error\n---*/");
        assert!(matches!(
            judge(&runtime, Ok(fail("ExecutionFailure", "Uncaught: {\"message\":\"\"}"))),
            Outcome::Pass
        ));
        let asyn = parse_meta("/*---\nflags: [async]\n---*/");
        let done = serde_json::json!({ "ok": true, "logs": [ASYNC_COMPLETE] });
        assert!(matches!(judge(&asyn, Ok(done)), Outcome::Pass));
        assert!(matches!(judge(&asyn, Ok(serde_json::json!({ "ok": true }))), Outcome::Fail(_)));
    }

    #[test]
    fn grouping() {
        assert_eq!(
            normalize(&describe_error(
                "ExecutionFailure",
                "Uncaught: {\"message\":\"length Expected SameValue(«1», «2») to be true\"} (line 3, col 1)"
            )),
            "Test262Error: Expected SameValue(«…», «…») to be true"
        );
        assert_eq!(group_of("built-ins/Array/prototype/map/a.js"), "built-ins/Array");
        assert_eq!(utc_date(SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_000_000)), "2026-11-30");
    }
}
