//! `codemode`: run a JavaScript/TypeScript program against codemode's built-in demo tools and print
//! the result as pretty JSON.
//!
//! ```text
//! codemode run examples/orders.js
//! echo 'return 1 + 1' | codemode run - --timeout-ms 500
//! ```
//!
//! Exit codes: 0 when the program succeeded, 1 when it failed (the printed result says why),
//! 2 for usage and I/O errors.

use std::io::Read as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use codemode::Limits;

/// Run model-written JavaScript/TypeScript against host tools under hard limits.
#[derive(Debug, Parser)]
#[command(name = "codemode", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a program against the built-in demo tools (orders.lookup, data.records, demo.echo,
    /// demo.fail, demo.sleep) and print the result JSON.
    Run {
        /// The program file, or `-` for standard input.
        #[arg(value_name = "FILE|-")]
        file: PathBuf,
        /// Execution time limit in milliseconds.
        #[arg(long, value_name = "MS")]
        timeout_ms: Option<u64>,
        /// Maximum number of tool calls the program may make.
        #[arg(long, value_name = "N")]
        max_tool_calls: Option<u32>,
        /// Memory the program may use: bytes, or a size such as `64MiB`, `512KiB`, `1GiB`, `100MB`
        /// (default 256MiB).
        #[arg(long, value_name = "SIZE", value_parser = parse_size)]
        memory_limit: Option<usize>,
    },
}

/// Parses `64MiB`-style sizes (KiB/MiB/GiB are powers of 1024, KB/MB/GB of 1000, a bare number is
/// bytes).
fn parse_size(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: usize = digits
        .parse()
        .map_err(|_| format!("'{text}' is not a size (examples: 64MiB, 512KiB, 1GiB, 1048576)"))?;
    let multiplier: usize = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        other => return Err(format!("unknown size unit '{other}' (use B, KiB, MiB, GiB, KB, MB or GB)")),
    };
    n.checked_mul(multiplier).ok_or_else(|| format!("'{text}' is too large"))
}

/// Exit code for usage and I/O errors (clap uses the same for argument errors).
const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(USAGE_ERROR) } else { ExitCode::SUCCESS };
        }
    };
    match cli.command {
        Command::Run { file, timeout_ms, max_tool_calls, memory_limit } => {
            match run(&file, timeout_ms, max_tool_calls, memory_limit) {
                Ok(code) => code,
                Err(message) => {
                    eprintln!("codemode: {message}");
                    ExitCode::from(USAGE_ERROR)
                }
            }
        }
    }
}

fn read_source(file: &PathBuf) -> Result<String, String> {
    if file.as_os_str() == "-" {
        let mut source = String::new();
        std::io::stdin()
            .read_to_string(&mut source)
            .map_err(|e| format!("cannot read the program from standard input: {e}"))?;
        Ok(source)
    } else {
        std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))
    }
}

fn run(
    file: &PathBuf,
    timeout_ms: Option<u64>,
    max_tool_calls: Option<u32>,
    memory_limit: Option<usize>,
) -> Result<ExitCode, String> {
    let source = read_source(file)?;
    let mut limits = Limits::default();
    if let Some(ms) = timeout_ms {
        limits = limits.timeout(Duration::from_millis(ms));
    }
    if let Some(n) = max_tool_calls {
        limits = limits.max_tool_calls(n);
    }
    if let Some(bytes) = memory_limit {
        limits = limits.memory_limit(bytes);
    }
    let runtime = codemode::demo::builder()
        .limits(limits)
        .build()
        .map_err(|e| format!("invalid configuration: {e}"))?;
    let tokio = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let result = tokio.block_on(runtime.execute(&source));
    // Streamed, not built as one string: the result may hold up to the memory limit of logs.
    // A reader that closed the pipe early (`| head`) is not an error worth a panic.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if serde_json::to_writer_pretty(&mut out, &result).is_ok() {
        let _ = writeln!(out);
        let _ = out.flush();
    }
    Ok(if result.ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
