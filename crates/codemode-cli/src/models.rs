//! The sentence-embedding model behind `search`: which one `run`, `resume` and `mcp` use (and
//! the one stderr line that says so), and `codemode models pull`, which fetches a
//! sentence-transformers model from the Hugging Face hub into the model cache.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Subcommand};
use codemode::tools::search::SemanticRanker;
use codemode::tools::search::model::locate::{self, DEFAULT_MODEL, MODEL_DIR_VAR, cache_name, cache_root};
use codemode::tools::search::model::{LazyEncoder, SentenceEncoder};

/// How `search` ranks.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// The sentence-embedding model directory `search` uses besides its lexical ranking
    /// (default: $CODEMODE_MODEL_DIR, else the all-MiniLM-L6-v2 that `codemode models pull`
    /// puts in the cache, if there).
    #[arg(long, value_name = "DIR", conflicts_with = "no_model")]
    model_dir: Option<PathBuf>,
    /// Rank `search` lexically only, without a model.
    #[arg(long)]
    no_model: bool,
}

/// `codemode models …`.
#[derive(Debug, Subcommand)]
pub enum ModelsCommand {
    /// Fetch a sentence-transformers model (config.json, tokenizer.json, model.safetensors,
    /// pooling config) from the Hugging Face hub into the model cache
    /// ($XDG_CACHE_HOME/codemode/models/NAME, else ~/.cache/codemode/models/NAME), where
    /// `codemode run` and `codemode mcp` find it. HF_ENDPOINT names another hub, HF_TOKEN is
    /// sent as a bearer token.
    Pull {
        /// The model: a name under sentence-transformers/ or a full `owner/name`.
        #[arg(value_name = "NAME", default_value = DEFAULT_MODEL)]
        name: String,
        /// The hub revision (branch, tag or commit).
        #[arg(long, default_value = "main")]
        revision: String,
        /// Fetch again even if the cache has a usable copy.
        #[arg(long)]
        force: bool,
    },
    /// Print where the model `search` would use is found, or why there is none.
    Which {
        #[command(flatten)]
        model: ModelArgs,
    },
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// The vector cache next to the model cache (`…/codemode/vectors`).
fn vector_cache() -> Option<PathBuf> {
    cache_root(env).and_then(|models| models.parent().map(|codemode| codemode.join("vectors")))
}

/// The ranker `search` uses, and the line that says which model (or how to get one). A model
/// directory given with `--model-dir` that cannot be used is an error; a broken one from the
/// environment or the cache is reported and search ranks lexically.
pub fn ranker(args: &ModelArgs) -> Result<(Option<Arc<SemanticRanker>>, Option<String>), String> {
    if args.no_model {
        return Ok((None, None));
    }
    match locate::locate(args.model_dir.as_deref(), DEFAULT_MODEL, env) {
        Ok(Some(found)) => {
            let line = format!("search ranks with the model {found}");
            let mut ranker =
                SemanticRanker::for_model(LazyEncoder::new(found.spec.dir)).with_background(true);
            if let Some(dir) = vector_cache() {
                ranker = ranker.with_vector_cache(dir);
            }
            Ok((Some(Arc::new(ranker)), Some(line)))
        }
        Ok(None) => Ok((
            None,
            Some(format!(
                "search ranks lexically; for search that understands paraphrases run `codemode models pull` \
                 ({DEFAULT_MODEL}, ~90 MB) or set {MODEL_DIR_VAR}"
            )),
        )),
        Err(e) if args.model_dir.is_some() => Err(format!("--model-dir: {e}")),
        Err(e) => Ok((None, Some(format!("{e}; search ranks lexically")))),
    }
}

/// `codemode models which`.
pub fn which(args: &ModelArgs) -> Result<(), String> {
    let (ranker, line) = ranker(args)?;
    match line {
        Some(line) => println!("{line}"),
        None => println!("search ranks lexically (--no-model)"),
    }
    if ranker.is_some()
        && let Some(dir) = vector_cache()
    {
        println!("tool vectors are cached in {}", dir.display());
    }
    Ok(())
}

/// Files of a sentence-transformers model directory: required, then optional.
const REQUIRED: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];
const OPTIONAL: [&str; 5] = [
    "1_Pooling/config.json",
    "sentence_bert_config.json",
    "modules.json",
    "config_sentence_transformers.json",
    "tokenizer_config.json",
];

/// `codemode models pull NAME`.
pub async fn pull(name: &str, revision: &str, force: bool) -> Result<(), String> {
    let folder = cache_name(name)?;
    let repo = if name.contains('/') { name.to_owned() } else { format!("sentence-transformers/{name}") };
    if repo.split('/').count() != 2 || repo.split('/').any(|p| cache_name(p).is_err()) {
        return Err(format!("{name:?} is not a model name (such as {DEFAULT_MODEL} or owner/name)"));
    }
    if revision.is_empty()
        || revision.contains("..")
        || revision.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '%'))
    {
        return Err(format!("{revision:?} is not a revision"));
    }
    let root = cache_root(env).ok_or("no cache directory: set XDG_CACHE_HOME or HOME")?;
    let target = root.join(folder);
    if !force && target.exists() && SentenceEncoder::load(&target).is_ok() {
        eprintln!("codemode: {} is already in the cache (--force fetches it again)", target.display());
        return Ok(());
    }
    let partial = root.join(format!("{folder}.partial"));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial).map_err(|e| format!("cannot create {}: {e}", partial.display()))?;
    codemode_mcp::install_crypto_provider();
    let client = reqwest::Client::builder()
        .user_agent(concat!("codemode/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(std::time::Duration::from_secs(30))
        .read_timeout(std::time::Duration::from_secs(60))
        .build()
        .map_err(|e| format!("cannot start an HTTP client: {e}"))?;
    let endpoint = env("HF_ENDPOINT").unwrap_or_else(|| "https://huggingface.co".to_owned());
    let endpoint = endpoint.trim_end_matches('/');
    let token = env("HF_TOKEN").filter(|t| !t.trim().is_empty());
    for (file, required) in REQUIRED.iter().map(|f| (f, true)).chain(OPTIONAL.iter().map(|f| (f, false))) {
        let url = format!("{endpoint}/{repo}/resolve/{revision}/{file}");
        let fetched = match fetch(&client, &url, token.as_deref(), &partial.join(file)).await {
            Ok(fetched) => fetched,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&partial);
                return Err(e);
            }
        };
        match (fetched, required) {
            (true, _) => {}
            (false, true) => {
                let _ = std::fs::remove_dir_all(&partial);
                return Err(format!("{repo} has no {file} (is it a sentence-transformers model?)"));
            }
            (false, false) => {}
        }
    }
    // The real load: a model that does not load is not put in the cache.
    if let Err(e) = SentenceEncoder::load(&partial) {
        let _ = std::fs::remove_dir_all(&partial);
        return Err(format!("{repo} was fetched but does not load: {e}"));
    }
    if target.exists() {
        std::fs::remove_dir_all(&target).map_err(|e| format!("cannot replace {}: {e}", target.display()))?;
    }
    std::fs::rename(&partial, &target)
        .map_err(|e| format!("cannot move the model to {}: {e}", target.display()))?;
    eprintln!(
        "codemode: {repo} is in {}; `codemode run` and `codemode mcp` use it{}",
        target.display(),
        if folder == DEFAULT_MODEL {
            String::new()
        } else {
            format!(" with --model-dir {}", target.display())
        }
    );
    Ok(())
}

/// Streams `url` to `path`; false when the hub has no such file (404).
async fn fetch(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    path: &Path,
) -> Result<bool, String> {
    use std::io::Write as _;
    let mut request = client.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let mut response = request.send().await.map_err(|e| format!("cannot fetch {url}: {}", causes(&e)))?;
    if response.status() == reqwest::StatusCode::NOT_FOUND {
        return Ok(false);
    }
    if !response.status().is_success() {
        return Err(format!("cannot fetch {url}: HTTP {}", response.status()));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut file =
        std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
    let total = response.content_length();
    let (mut written, mut reported) = (0u64, 0u64);
    while let Some(chunk) =
        response.chunk().await.map_err(|e| format!("cannot fetch {url}: {}", causes(&e)))?
    {
        file.write_all(&chunk).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written += chunk.len() as u64;
        if written - reported >= 16 << 20 {
            reported = written;
            let of = total.map(|t| format!(" of {} MB", t >> 20)).unwrap_or_default();
            eprintln!("codemode: {url}: {} MB{of}", written >> 20);
        }
    }
    file.sync_all().map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(true)
}

/// An error with its causes (`error sending request: … : connection refused`).
fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
