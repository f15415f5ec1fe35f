//! `codemode`: run a JavaScript/TypeScript program against tools (the built-in demo tools, MCP
//! servers, OpenAPI documents) and print the result JSON, or serve code mode as an MCP server.
//!
//! ```text
//! codemode run examples/orders.js
//! echo 'return 1 + 1' | codemode run - --timeout-ms 500
//! codemode run prog.js --upstream "npx -y @modelcontextprotocol/server-everything" --json
//! codemode run --declarations --openapi petstore.json --base-url http://localhost:8080
//! codemode mcp --upstream "gh=npx -y @modelcontextprotocol/server-github"
//! codemode models pull            # all-MiniLM-L6-v2 into the cache: `search` understands paraphrases
//! ```
//!
//! Exit codes: 0 when the program succeeded, 1 when it failed (the printed result says why),
//! 2 for usage and I/O errors (including a source that cannot be reached).

mod models;

use std::io::Read as _;
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use codemode::{ExecuteOptions, Limits};
use codemode_mcp::{
    ClientOptions, CodeModeServer, HttpAccess, HttpOptions, Hub, HubOptions, ServerOptions, Source,
};
use models::{ModelArgs, ModelsCommand};

/// Run model-written JavaScript/TypeScript against host tools under hard limits.
#[derive(Debug, Parser)]
#[command(name = "codemode", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a program and print the result JSON. Without sources, against the built-in demo tools
    /// (orders.lookup, data.records, demo.echo, demo.fail, demo.sleep).
    Run {
        /// The program file, or `-` for standard input.
        #[arg(value_name = "FILE|-", required_unless_present = "declarations")]
        file: Option<PathBuf>,
        /// Print the TypeScript declarations (`.d.ts`) of the configured tools and exit.
        #[arg(long)]
        declarations: bool,
        /// Print the result as one line of JSON instead of pretty JSON.
        #[arg(long)]
        json: bool,
        /// Let durable tools suspend the run: its state is written to PATH and the printed result
        /// is `{"ok":"suspended","pending":[{key,path,args,handle?}]}`; finish it with `resume`.
        #[arg(long, value_name = "PATH")]
        state_out: Option<PathBuf>,
        /// Sign the saved state with the key in this file (HMAC-SHA256; trailing whitespace is
        /// not part of the key), so that `resume --state-key-file` refuses a state changed since.
        #[arg(long, value_name = "PATH", requires = "state_out")]
        state_key_file: Option<PathBuf>,
        /// The run's local time zone, an IANA name such as `America/New_York`: `Date`'s
        /// local-time methods and `Intl` use it (default UTC, whatever this machine's zone). A
        /// resumed run keeps the zone it was saved with.
        #[arg(long, value_name = "ZONE")]
        time_zone: Option<String>,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        sources: SourceArgs,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Resume a suspended run from its state file (written by `run --state-out`), with an outcome
    /// for each pending durable call, and print the result. Give the same sources as the run had.
    Resume {
        /// The state file.
        #[arg(value_name = "STATE")]
        state: PathBuf,
        /// A pending call's outcome: `KEY={"ok":true,"value":...}` or
        /// `KEY={"ok":false,"error":"message"}` (repeatable; one per pending key).
        #[arg(long, value_name = "KEY=JSON")]
        outcome: Vec<String>,
        /// Where to write the state if the run suspends again (default: STATE itself).
        #[arg(long, value_name = "PATH")]
        state_out: Option<PathBuf>,
        /// The state must be signed with the key in this file (`run --state-key-file`): a
        /// changed, unsigned or otherwise signed state is refused before it is read. A state
        /// saved again is signed with it too.
        #[arg(long, value_name = "PATH")]
        state_key_file: Option<PathBuf>,
        /// Print the result as one line of JSON instead of pretty JSON.
        #[arg(long)]
        json: bool,
        /// The resumed run keeps the limits it was saved with, each lowered to these where these
        /// are smaller (a state file cannot raise them). The state file itself may be at most
        /// twice the memory limit plus 1 MiB.
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        sources: SourceArgs,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// Serve code mode as an MCP server (stdio, or streamable HTTP with --http) with two tools,
    /// `search` and `execute`, in front of the configured sources.
    Mcp {
        /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8931) instead of stdio.
        #[arg(long, value_name = "ADDR")]
        http: Option<SocketAddr>,
        /// Longest `execute` description; larger APIs are described by namespace and `search`.
        #[arg(long, value_name = "CHARS", default_value_t = 16_000)]
        max_description_chars: usize,
        /// With --http: the bearer token clients must send (`Authorization: Bearer …`), read
        /// from this file (surrounding whitespace removed). Required on a non-loopback address.
        #[arg(long, value_name = "PATH", requires = "http", conflicts_with = "http_token_env")]
        http_token_file: Option<PathBuf>,
        /// With --http: the bearer token, read from this environment variable.
        #[arg(long, value_name = "VAR", requires = "http")]
        http_token_env: Option<String>,
        /// With --http: a browser origin allowed besides loopback ones, e.g.
        /// `https://app.example.com:443` (repeatable). Requests with any other `Origin` get 403.
        #[arg(long, value_name = "ORIGIN", requires = "http")]
        allow_origin: Vec<String>,
        /// With --http: a `Host` name (or host:port) allowed besides loopback ones (repeatable).
        #[arg(long, value_name = "HOST", requires = "http")]
        allow_host: Vec<String>,
        /// Programs running at once (over all clients); an `execute` past it gets a `Busy` error
        /// at once.
        #[arg(long, value_name = "N", default_value_t = codemode_mcp::server::DEFAULT_MAX_CONCURRENT_RUNS)]
        max_concurrent_runs: usize,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        sources: SourceArgs,
        #[command(flatten)]
        model: ModelArgs,
    },
    /// The sentence-embedding model `search` uses besides its lexical ranking (`codemode models
    /// pull` fetches the default, all-MiniLM-L6-v2).
    Models {
        #[command(subcommand)]
        command: ModelsCommand,
    },
}

#[derive(Debug, Args)]
struct LimitArgs {
    /// Execution time limit of a run in milliseconds (`codemode mcp`: 60000 unless given).
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
    /// Maximum number of tool calls a run may make.
    #[arg(long, value_name = "N")]
    max_tool_calls: Option<u32>,
    /// Memory a run may use: bytes, or a size such as `64MiB`, `512KiB`, `1GiB`, `100MB`
    /// (default 256MiB).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    memory_limit: Option<usize>,
    /// Bytes of output a run may retain: one budget for its value (or error message), logs,
    /// warnings and tool-call record together, e.g. `1000` or `64KiB`. Past it the value becomes a
    /// string with a marker, logs and warnings are cut and the call record is summarized
    /// (`toolCallSummary`); the result says `"truncated": true`.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_output_bytes: Option<usize>,
    /// Nested calls before a catchable `RangeError` (default 10000).
    #[arg(long, value_name = "N")]
    max_call_depth: Option<usize>,
    /// Longest program accepted, e.g. `4MiB` (the default); a longer one is a `ParseError`.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_source_bytes: Option<usize>,
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

#[derive(Debug, Args)]
struct SourceArgs {
    /// An MCP server to start and talk to over stdio: `"[name=]CMD ARGS"` (repeatable). The
    /// namespace is `name`, else the server's own name.
    #[arg(long, value_name = "[NAME=]CMD ARGS")]
    upstream: Vec<String>,
    /// An MCP server reached over streamable HTTP: `"[name=]URL"` (repeatable).
    #[arg(long, value_name = "[NAME=]URL")]
    upstream_url: Vec<String>,
    /// An OpenAPI 3.x document (JSON or YAML) whose operations become tools: `"[name=]FILE"` (repeatable).
    #[arg(long, value_name = "[NAME=]FILE")]
    openapi: Vec<String>,
    /// Where the requests of the n-th --openapi document go (default: its `servers[].url`).
    #[arg(long, value_name = "URL")]
    base_url: Vec<String>,
    /// A header sent with every request to an --upstream-url server or --openapi API:
    /// `"[SOURCE=]Name: value"`, for the source named SOURCE (required when there are several).
    /// `${VAR}` in the value is read from the environment (repeatable).
    #[arg(long, value_name = "[SOURCE=]NAME: VALUE")]
    header: Vec<String>,
    /// A credential for a security scheme of an --openapi document: `"[SOURCE.]SCHEME=VALUE"`
    /// (a bearer/OAuth token, an API key, or `user:password` for HTTP basic), for the source
    /// named SOURCE (required when there are several). `${VAR}` is read from the environment
    /// (repeatable).
    #[arg(long, value_name = "[SOURCE.]SCHEME=VALUE")]
    auth: Vec<String>,
    /// A file holding the bearer token of an --upstream-url server: `"[NAME=]PATH"`. Read at
    /// start and again when the server answers 401, so a token another process renews is
    /// picked up (repeatable, one per server).
    #[arg(long, value_name = "[NAME=]PATH")]
    upstream_token_file: Vec<String>,
    /// OAuth 2.1 client credentials for an --upstream-url server:
    /// `"[NAME=]client_id=ID,client_secret=SECRET[,scope=S][,token_url=URL]"` (`${VAR}` read
    /// from the environment). The token endpoint is discovered from the server's 401 challenge
    /// unless given; tokens are renewed before they expire (repeatable, one per server).
    #[arg(long, value_name = "[NAME=]client_id=ID,client_secret=SECRET")]
    upstream_oauth: Vec<String>,
    /// Time limit of one upstream MCP call in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    call_timeout_ms: u64,
    /// Time limit of one OpenAPI request in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    http_timeout_ms: u64,
    /// Largest OpenAPI response body in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 10 * 1024 * 1024)]
    max_response_bytes: usize,
    /// How long starting and initializing an upstream MCP server may take, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    connect_timeout_ms: u64,
    /// How long to wait before restarting an upstream MCP server whose connection closed, in
    /// milliseconds; the wait doubles per failed attempt (up to 30 s, 8 attempts).
    #[arg(long, value_name = "MS", default_value_t = 500)]
    restart_delay_ms: u64,
    /// Also mount the built-in demo tools (they are the default when no source is given).
    #[arg(long)]
    demo: bool,
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
    let outcome = match cli.command {
        Command::Run {
            file,
            declarations,
            json,
            state_out,
            state_key_file,
            time_zone,
            limits,
            sources,
            model,
        } => read_state_key(state_key_file.as_deref()).and_then(|key| {
            let save = state_out.as_deref().map(|path| SaveTo { path, key: key.as_deref() });
            let mut run_options = ExecuteOptions::new();
            run_options.time_zone = time_zone;
            run(file.as_deref(), declarations, json, save, run_options, &limits, &sources, &model)
        }),
        Command::Resume { state, outcome, state_out, state_key_file, json, limits, sources, model } => {
            read_state_key(state_key_file.as_deref()).and_then(|key| {
                let save = SaveTo { path: state_out.as_deref().unwrap_or(&state), key: key.as_deref() };
                resume(&state, &outcome, save, json, &limits, &sources, &model)
            })
        }
        Command::Models { command: ModelsCommand::Pull { name, revision, force } } => tokio_runtime()
            .and_then(|tokio| tokio.block_on(models::pull(&name, &revision, force)))
            .map(|()| ExitCode::SUCCESS),
        Command::Models { command: ModelsCommand::Which { model } } => {
            models::which(&model).map(|()| ExitCode::SUCCESS)
        }
        Command::Mcp {
            http,
            http_token_file,
            http_token_env,
            allow_origin,
            allow_host,
            max_description_chars,
            max_concurrent_runs,
            limits,
            sources,
            model,
        } => {
            let options = ServerOptions { max_description_chars, max_concurrent_runs };
            match read_token(http_token_file.as_deref(), http_token_env.as_deref()) {
                Ok(token) => {
                    let access =
                        HttpAccess { token, allowed_origins: allow_origin, allowed_hosts: allow_host };
                    mcp(http.map(|addr| (addr, access)), options, &limits, &sources, &model)
                }
                Err(e) => Err(e),
            }
        }
    };
    match outcome {
        Ok(code) => code,
        Err(message) => {
            eprintln!("codemode: {message}");
            ExitCode::from(USAGE_ERROR)
        }
    }
}

/// The semantic ranker `search` fuses with, and one stderr line saying which model (or how to
/// get one).
fn semantic_ranker(args: &ModelArgs) -> Result<Option<Arc<codemode::tools::search::SemanticRanker>>, String> {
    let (ranker, line) = models::ranker(args)?;
    if let Some(line) = line {
        eprintln!("codemode: {line}");
    }
    Ok(ranker)
}

fn read_source(file: &Path) -> Result<String, String> {
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

fn limits(args: &LimitArgs) -> Limits {
    let mut limits = Limits::default();
    if let Some(ms) = args.timeout_ms {
        limits = limits.timeout(Duration::from_millis(ms));
    }
    if let Some(n) = args.max_tool_calls {
        limits = limits.max_tool_calls(n);
    }
    if let Some(bytes) = args.memory_limit {
        limits = limits.memory_limit(bytes);
    }
    if let Some(bytes) = args.max_output_bytes {
        limits = limits.max_output_bytes(bytes);
    }
    if let Some(depth) = args.max_call_depth {
        limits = limits.max_call_depth(depth);
    }
    if let Some(bytes) = args.max_source_bytes {
        limits = limits.max_source_bytes(bytes);
    }
    limits
}

/// The sources in flag order (commands, URLs, documents) and the hub options.
fn sources(args: &SourceArgs, limits: Limits) -> Result<(Vec<Source>, HubOptions), String> {
    let mut sources = Vec::new();
    for value in &args.upstream {
        sources.push(Source::command(value).map_err(|e| e.to_string())?);
    }
    for value in &args.upstream_url {
        sources.push(Source::url(value).map_err(|e| e.to_string())?);
    }
    if args.base_url.len() > args.openapi.len() {
        return Err("--base-url is given more often than --openapi (the n-th --base-url belongs to the n-th --openapi)".to_owned());
    }
    for (i, value) in args.openapi.iter().enumerate() {
        sources.push(Source::openapi(value, args.base_url.get(i).cloned()).map_err(|e| e.to_string())?);
    }
    for header in &args.header {
        let (target, name, value) = codemode_mcp::source::parse_header(header, |var| std::env::var(var).ok())
            .map_err(|e| e.to_string())?;
        let index = match &target {
            Some(target) => sources.iter().position(|s| s.takes_headers() && s.name() == Some(target.as_str())).ok_or_else(
                || format!("--header {name}: there is no --upstream-url or --openapi named {target:?} (give it as \"{target}=…\")"),
            )?,
            None => {
                let http: Vec<usize> = (0..sources.len()).filter(|&i| sources[i].takes_headers()).collect();
                match http.as_slice() {
                    [only] => *only,
                    [] => return Err(format!("--header {name}: there is no --upstream-url or --openapi source")),
                    _ => {
                        return Err(format!(
                            "--header {name}: there are several HTTP sources; say which one it is for \
                             (\"NAME={name}: …\", with NAME given to --upstream-url or --openapi as \"NAME=…\")"
                        ));
                    }
                }
            }
        };
        sources[index].add_header(name, value).map_err(|e| e.to_string())?;
    }
    for auth in &args.auth {
        let (target, scheme, value) = codemode_mcp::source::parse_auth(auth, |var| std::env::var(var).ok())
            .map_err(|e| e.to_string())?;
        let documents: Vec<usize> =
            (0..sources.len()).filter(|&i| matches!(sources[i], Source::OpenApi { .. })).collect();
        let index = match &target {
            Some(target) => documents
                .iter()
                .copied()
                .find(|&i| sources[i].name() == Some(target.as_str()))
                .ok_or_else(|| format!("--auth {target}.{scheme}: there is no --openapi named {target:?} (give it as \"{target}=FILE\")"))?,
            None => match documents.as_slice() {
                [only] => *only,
                [] => return Err(format!("--auth {scheme}: there is no --openapi source")),
                _ => {
                    return Err(format!(
                        "--auth {scheme}: there are several --openapi sources; say which one it is for (\"NAME.{scheme}=…\")"
                    ));
                }
            },
        };
        sources[index].add_credential(scheme, value).map_err(|e| e.to_string())?;
    }
    for value in &args.upstream_token_file {
        let (target, path) = codemode_mcp::source::split_name(value);
        let path = path.trim();
        if path.is_empty() {
            return Err(format!("--upstream-token-file {value:?}: the file name is empty"));
        }
        let index = url_source(&sources, target.as_deref(), "--upstream-token-file")?;
        sources[index]
            .set_auth(codemode_mcp::source::UpstreamAuth::TokenFile(path.into()))
            .map_err(|e| e.to_string())?;
    }
    for value in &args.upstream_oauth {
        let (target, auth) = codemode_mcp::source::parse_oauth(value, |var| std::env::var(var).ok())
            .map_err(|e| e.to_string())?;
        let index = url_source(&sources, target.as_deref(), "--upstream-oauth")?;
        sources[index].set_auth(auth).map_err(|e| e.to_string())?;
    }
    if args.connect_timeout_ms == 0 || args.http_timeout_ms == 0 || args.call_timeout_ms == 0 {
        return Err("timeouts must be greater than zero".to_owned());
    }
    limits.check().map_err(|e| format!("invalid limits: {e}"))?;
    let options = HubOptions {
        limits,
        client: ClientOptions {
            connect_timeout: Duration::from_millis(args.connect_timeout_ms),
            call_timeout: Some(Duration::from_millis(args.call_timeout_ms)),
            inherit_stderr: true,
            restart_delay: Duration::from_millis(args.restart_delay_ms),
        },
        http: HttpOptions {
            timeout: Duration::from_millis(args.http_timeout_ms),
            max_body_bytes: args.max_response_bytes,
            headers: Vec::new(),
            credentials: Vec::new(),
        },
        demo: args.demo || sources.is_empty(),
        semantic: None,
    };
    Ok((sources, options))
}

/// The `--upstream-url` source a flag is for: the one named `target`, else the only one.
fn url_source(sources: &[Source], target: Option<&str>, flag: &str) -> Result<usize, String> {
    let urls: Vec<usize> = (0..sources.len()).filter(|&i| matches!(sources[i], Source::Url { .. })).collect();
    match target {
        Some(target) => urls.iter().copied().find(|&i| sources[i].name() == Some(target)).ok_or_else(|| {
            format!("{flag}: there is no --upstream-url named {target:?} (give it as \"{target}=URL\")")
        }),
        None => match urls.as_slice() {
            [only] => Ok(*only),
            [] => Err(format!("{flag}: there is no --upstream-url source")),
            _ => Err(format!(
                "{flag}: there are several --upstream-url sources; say which one it is for (\"NAME=…\")"
            )),
        },
    }
}

fn tokio_runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// Where a suspended run's state goes, and the key that signs it.
#[derive(Clone, Copy)]
struct SaveTo<'a> {
    path: &'a Path,
    key: Option<&'a [u8]>,
}

/// The state key in `path` (`--state-key-file`), without trailing whitespace (a key written by
/// `openssl rand -hex 32 > key` ends in a newline).
fn read_state_key(path: Option<&Path>) -> Result<Option<Vec<u8>>, String> {
    let Some(path) = path else { return Ok(None) };
    let mut key =
        std::fs::read(path).map_err(|e| format!("cannot read the state key {}: {e}", path.display()))?;
    while key.last().is_some_and(u8::is_ascii_whitespace) {
        key.pop();
    }
    if key.is_empty() {
        return Err(format!("the state key file {} is empty", path.display()));
    }
    Ok(Some(key))
}

#[allow(clippy::too_many_arguments)] // one per command-line group
fn run(
    file: Option<&Path>,
    declarations: bool,
    json: bool,
    state_out: Option<SaveTo<'_>>,
    run_options: ExecuteOptions,
    limit_args: &LimitArgs,
    source_args: &SourceArgs,
    model_args: &ModelArgs,
) -> Result<ExitCode, String> {
    let (sources, mut options) = sources(source_args, limits(limit_args))?;
    if !declarations {
        options.semantic = semantic_ranker(model_args)?;
    }
    // Read the program before starting any server: a missing file is a usage error.
    let program = match (declarations, file) {
        (true, _) => None,
        (false, Some(file)) => Some(read_source(file)?),
        (false, None) => return Err("a program file (or -) is required".to_owned()),
    };
    let tokio = tokio_runtime()?;
    let outcome = tokio.block_on(async {
        let hub = Hub::connect(&sources, options).await?;
        for line in hub.skipped_operations() {
            eprintln!("codemode: skipped OpenAPI operation {line}");
        }
        for line in hub.missing_credentials() {
            eprintln!("codemode: OpenAPI operation without credentials (its calls fail): {line}");
        }
        let outcome = match &program {
            None => hub.declarations().await.map(Output::Declarations),
            Some(program) => match hub.runtime(None).await {
                Ok(runtime) => match state_out {
                    None => Ok(Output::Result(Box::new(runtime.execute_with(program, run_options).await))),
                    Some(save) => {
                        let mut execution = runtime.execute_with(program, run_options);
                        outcome_output(execution.result().await, save)
                    }
                },
                Err(e) => Err(e),
            },
        };
        hub.close().await;
        outcome
    })?;
    // Child processes are ended in the background; do not wait for stragglers.
    tokio.shutdown_timeout(Duration::from_millis(500));
    print_output(outcome, json)
}

/// `codemode resume`: the state file, the outcomes, the same sources, a new process.
fn resume(
    state_path: &Path,
    outcome_args: &[String],
    state_out: SaveTo<'_>,
    json: bool,
    limit_args: &LimitArgs,
    source_args: &SourceArgs,
    model_args: &ModelArgs,
) -> Result<ExitCode, String> {
    let outcomes = outcome_args.iter().map(|arg| parse_outcome(arg)).collect::<Result<Vec<_>, _>>()?;
    let limits = limits(limit_args);
    let max_state_bytes = limits.memory_limit.saturating_mul(2).saturating_add(1 << 20);
    let file = open_state(state_path, max_state_bytes)?;
    // Decoded as it is read: resuming holds no copy of the state besides the run.
    let state = match state_out.key {
        Some(key) => codemode::Snapshot::read_signed_from(std::io::BufReader::new(file), key),
        // A device is cut at the size a state can have.
        None => codemode::Snapshot::read_from(std::io::BufReader::new(std::io::Read::take(
            file,
            max_state_bytes as u64 + 1,
        ))),
    }
    .map_err(|e| format!("{}: {e}", state_path.display()))?;
    let (sources, mut options) = sources(source_args, limits)?;
    options.semantic = semantic_ranker(model_args)?;
    let tokio = tokio_runtime()?;
    let outcome = tokio.block_on(async {
        let hub = Hub::connect(&sources, options).await?;
        let outcome = match hub.runtime(None).await {
            Ok(runtime) => match runtime.resume(state, outcomes) {
                Ok(mut execution) => outcome_output(execution.result().await, state_out),
                Err(e) => Err(format!("cannot resume {}: {e}", state_path.display())),
            },
            Err(e) => Err(e),
        };
        hub.close().await;
        outcome
    })?;
    tokio.shutdown_timeout(Duration::from_millis(500));
    print_output(outcome, json)
}

/// The bytes of a state file, read header first (anything not starting like a saved run is
/// refused after 8 bytes) and at most `max_bytes` of them (a larger file is refused before it is
/// read), so a wrong path (`/dev/zero`, a 3 GiB file) costs nothing.
/// Opens a state file for reading after checking, before anything else is read, that it is no
/// larger than a run under the memory limit can save and that it starts with the state header.
fn open_state(path: &Path, max_bytes: usize) -> Result<std::fs::File, String> {
    use std::io::{Read, Seek};
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    if let Ok(meta) = file.metadata()
        && meta.len() > max_bytes as u64
    {
        return Err(format!(
            "{} is larger than {max_bytes} bytes, more than a run under this memory limit can save \
             (raise --memory-limit if it is a state you trust)",
            path.display()
        ));
    }
    let mut magic = [0u8; 8];
    file.read_exact(&mut magic)
        .map_err(|_| format!("{} is not a codemode run state (too short)", path.display()))?;
    if &magic != codemode::Snapshot::MAGIC {
        return Err(format!(
            "{} is not a codemode run state (it does not start with the state header; `run --state-out` writes one)",
            path.display()
        ));
    }
    file.rewind().map_err(cannot)?;
    Ok(file)
}

/// `KEY={"ok":true,"value":V}` or `KEY={"ok":false,"error":"message"}` (or `{"message":..}`).
fn parse_outcome(arg: &str) -> Result<(String, Result<serde_json::Value, codemode::ToolError>), String> {
    let usage = || {
        format!(
            "--outcome '{arg}': expected KEY={{\"ok\":true,\"value\":...}} or KEY={{\"ok\":false,\"error\":\"message\"}}"
        )
    };
    let (key, json) = arg.split_once('=').ok_or_else(usage)?;
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("{}: {e}", usage()))?;
    let serde_json::Value::Object(fields) = &value else { return Err(usage()) };
    // Exactly the fields of the form: a typo (`valeu`) is refused, not read as a missing value.
    let allowed: &[&str] = match fields.get("ok") {
        Some(serde_json::Value::Bool(true)) => &["ok", "value"],
        _ => &["ok", "error"],
    };
    if let Some(unknown) = fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(format!("{}: unknown field '{unknown}' (allowed: {})", usage(), allowed.join(", ")));
    }
    let outcome = match value.get("ok") {
        Some(serde_json::Value::Bool(true)) => match value.get("value") {
            Some(v) => Ok(v.clone()),
            None => return Err(format!("{}: the field 'value' is missing", usage())),
        },
        Some(serde_json::Value::Bool(false)) => {
            let message = match value.get("error") {
                Some(serde_json::Value::String(m)) => m.clone(),
                Some(e) => e
                    .get("message")
                    .and_then(serde_json::Value::as_str)
                    .map_or_else(|| e.to_string(), str::to_string),
                None => "the call failed".to_string(),
            };
            Err(codemode::ToolError::failure(message))
        }
        _ => return Err(usage()),
    };
    Ok((key.trim().to_string(), outcome))
}

/// A finished run's result, or a suspended run's pending calls (its state written to `path`).
fn outcome_output(outcome: codemode::Outcome, save: SaveTo<'_>) -> Result<Output, String> {
    match outcome {
        codemode::Outcome::Finished(result) => Ok(Output::Result(Box::new(result))),
        codemode::Outcome::Suspended(suspended) => {
            let path = save.path;
            let file =
                std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            // Encoded as it is written: saving holds no copy of the state besides the run.
            let out = std::io::BufWriter::new(file);
            match save.key {
                Some(key) => suspended.state.write_signed_to(out, key),
                None => suspended.state.write_to(out),
            }
            .map_err(|e| format!("cannot save the run to {}: {e}", path.display()))?;
            Ok(Output::Suspended(suspended.to_json()))
        }
    }
}

fn print_output(outcome: Output, json: bool) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    match outcome {
        Output::Suspended(value) => {
            let text = if json {
                value.to_string()
            } else {
                serde_json::to_string_pretty(&value).unwrap_or_default()
            };
            let _ = writeln!(out, "{text}");
            Ok(ExitCode::SUCCESS)
        }
        Output::Declarations(text) => {
            // A reader that closed the pipe early (`| head`) is not an error worth a panic.
            let _ = write!(out, "{text}");
            Ok(ExitCode::SUCCESS)
        }
        Output::Result(result) => {
            // Streamed, not built as one string: the result may hold up to the memory limit of
            // logs. A reader that closed the pipe early is not an error worth a panic.
            let mut out = std::io::BufWriter::new(out);
            let printed = if json {
                serde_json::to_writer(&mut out, &result)
            } else {
                serde_json::to_writer_pretty(&mut out, &result)
            };
            if printed.is_ok() {
                let _ = writeln!(out);
                let _ = out.flush();
            }
            Ok(if result.ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
    }
}

enum Output {
    Declarations(String),
    Result(Box<codemode::ExecResult>),
    Suspended(serde_json::Value),
}

/// `codemode mcp`'s time limit of a run when `--timeout-ms` is not given: a server without one
/// would leak a core per runaway program.
const MCP_DEFAULT_TIMEOUT_MS: u64 = 60_000;

/// The `--http` bearer token from a file or an environment variable; an empty one is an error.
fn read_token(file: Option<&Path>, var: Option<&str>) -> Result<Option<String>, String> {
    let (token, from) = match (file, var) {
        (Some(file), _) => (
            std::fs::read_to_string(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?,
            file.display().to_string(),
        ),
        (None, Some(var)) => (
            std::env::var(var)
                .map_err(|_| format!("--http-token-env: the environment variable {var} is not set"))?,
            format!("${var}"),
        ),
        (None, None) => return Ok(None),
    };
    let token = token.trim();
    if token.is_empty() {
        return Err(format!("the HTTP bearer token in {from} is empty"));
    }
    if token.bytes().any(|b| !(0x21..=0x7e).contains(&b)) {
        return Err(format!("the HTTP bearer token in {from} must be printable ASCII without spaces"));
    }
    Ok(Some(token.to_owned()))
}

fn mcp(
    http: Option<(SocketAddr, HttpAccess)>,
    server_options: ServerOptions,
    limit_args: &LimitArgs,
    source_args: &SourceArgs,
    model_args: &ModelArgs,
) -> Result<ExitCode, String> {
    let mut limits = limits(limit_args);
    if limit_args.timeout_ms.is_none() {
        limits = limits.timeout(Duration::from_millis(MCP_DEFAULT_TIMEOUT_MS));
    }
    if let Some((addr, access)) = &http {
        codemode_mcp::server::check_http_access(*addr, access)?;
    }
    if server_options.max_concurrent_runs == 0 {
        return Err("--max-concurrent-runs must be at least 1".to_owned());
    }
    let (sources, mut options) = sources(source_args, limits)?;
    options.semantic = semantic_ranker(model_args)?;
    let ranker = options.semantic.clone();
    let tokio = tokio_runtime()?;
    let outcome = tokio.block_on(async {
        let hub = Arc::new(Hub::connect(&sources, options).await?);
        for line in hub.skipped_operations() {
            eprintln!("codemode: skipped OpenAPI operation {line}");
        }
        for line in hub.missing_credentials() {
            eprintln!("codemode: OpenAPI operation without credentials (its calls fail): {line}");
        }
        // The catalog is embedded while the server starts answering (lexically until then).
        if let Some(ranker) = ranker
            && let Ok(runtime) = hub.runtime(None).await
        {
            let tools = runtime.tools().clone();
            tokio::task::spawn_blocking(move || ranker.warm_in_background(&tools));
        }
        let server = CodeModeServer::new(hub, server_options);
        match http {
            Some((addr, access)) => {
                server
                    .serve_http(addr, access, |local| {
                        eprintln!("codemode: serving MCP on http://{local}/mcp")
                    })
                    .await
            }
            None => server.serve_stdio().await,
        }
    });
    tokio.shutdown_timeout(Duration::from_millis(500));
    outcome.map(|()| ExitCode::SUCCESS)
}
