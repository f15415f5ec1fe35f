//! Which model `search` uses: the stderr line, `--model-dir` and `CODEMODE_MODEL_DIR`
//! diagnostics, `codemode models which`, and (with a real model, `CODEMODE_MINILM_DIR`) a run
//! whose search is fused with it once the catalog is embedded in the background.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs the binary with a private, empty cache and no model variable, plus `env`.
fn codemode(args: &[&str], env: &[(&str, &str)], stdin: &str, cache: &Path) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut command = Command::new(env!("CARGO_BIN_EXE_codemode"));
    command
        .args(args)
        .current_dir(root)
        .env_remove("CODEMODE_MODEL_DIR")
        .env("XDG_CACHE_HOME", cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("codemode starts");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-cli-models-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const SEARCH: &str = "return search({ query: 'look up an order' }).items.map(h => h.path);";

#[test]
fn without_a_model_search_is_lexical_and_says_how_to_get_one() {
    let cache = scratch("none");
    let out = codemode(&["run", "-"], &[], SEARCH, &cache);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("search ranks lexically") && stderr.contains("codemode models pull"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("tools.orders.lookup"), "{stdout}");
    // --no-model: not a word.
    let out = codemode(&["run", "-", "--no-model"], &[], SEARCH, &cache);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn broken_model_directories_are_diagnostics() {
    let cache = scratch("broken");
    // Named on the command line: a usage error.
    let out = codemode(&["run", "-", "--model-dir", "/nonexistent/model"], &[], SEARCH, &cache);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--model-dir: model directory /nonexistent/model: not a directory"), "{stderr}");
    // From the environment: said, and search ranks lexically.
    let half = cache.join("half-a-model");
    std::fs::create_dir_all(&half).unwrap();
    std::fs::write(half.join("config.json"), r#"{"model_type":"bert","hidden_size":384}"#).unwrap();
    let dir = half.display().to_string();
    let out = codemode(&["run", "-"], &[("CODEMODE_MODEL_DIR", &dir)], SEARCH, &cache);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("config.json has no usable num_attention_heads")
            && stderr.contains("search ranks lexically"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("tools.orders.lookup"));
    // A cached copy that is broken says to pull again.
    let cached = cache.join("codemode/models/all-MiniLM-L6-v2");
    std::fs::create_dir_all(&cached).unwrap();
    let out = codemode(&["models", "which"], &[], "", &cache);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("config.json is missing") && stdout.contains("codemode models pull all-MiniLM-L6-v2"),
        "{stdout}"
    );
    // Names that are not model names never reach the network.
    let out = codemode(&["models", "pull", "../../etc"], &[], "", &cache);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a model name"));
    let _ = std::fs::remove_dir_all(&cache);
}

#[test]
fn models_which_names_the_directory_and_where_it_came_from() {
    let cache = scratch("which");
    let model = cache.join("my-model");
    std::fs::create_dir_all(&model).unwrap();
    let config = r#"{"model_type":"bert","hidden_size":8,"num_attention_heads":2,"num_hidden_layers":1,
        "intermediate_size":16,"vocab_size":10,"max_position_embeddings":16}"#;
    std::fs::write(model.join("config.json"), config).unwrap();
    std::fs::write(model.join("tokenizer.json"), "{}").unwrap();
    std::fs::write(model.join("model.safetensors"), "").unwrap();
    let dir = model.display().to_string();
    let out = codemode(&["models", "which"], &[("CODEMODE_MODEL_DIR", &dir)], "", &cache);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout.contains(&format!("my-model at {dir} (from CODEMODE_MODEL_DIR)")), "{stdout}");
    let out = codemode(&["models", "which", "--model-dir", &dir], &[], "", &cache);
    assert!(String::from_utf8_lossy(&out.stdout).contains("(given by the host)"));
    // The weights are only read when a program searches: a run that does not search is
    // untouched by this unloadable model.
    let out = codemode(&["run", "-", "--json", "--model-dir", &dir], &[], "return 1 + 1", &cache);
    assert_eq!(out.status.code(), Some(0));
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["value"], 2);
    // A program that searches with it gets lexical results, and the run goes on.
    let out = codemode(&["run", "-", "--json", "--model-dir", &dir], &[], SEARCH, &cache);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("tools.orders.lookup"));
    let _ = std::fs::remove_dir_all(&cache);
}

/// With all-MiniLM-L6-v2 (`CODEMODE_MINILM_DIR`, as `.ci/run` installs it): the first search
/// starts embedding the catalog in the background and ranks lexically; once the vectors are
/// there (and cached on disk), search is fused with the model.
#[test]
#[ignore = "needs the all-MiniLM-L6-v2 model: set CODEMODE_MINILM_DIR"]
fn run_uses_the_model_once_the_catalog_is_embedded() {
    let model = std::env::var("CODEMODE_MINILM_DIR").expect("CODEMODE_MINILM_DIR names the model directory");
    let cache = scratch("minilm");
    let program = "
        const first = search({ query: 'what did the customer buy' }).items;
        await tools.demo.sleep({ ms: 3000 });
        const later = search({ query: 'what did the customer buy' }).items;
        return { first: first.map(h => h.matches ?? []), later: later.map(h => h.matches ?? []) };";
    let out = codemode(&["run", "-", "--json"], &[("CODEMODE_MODEL_DIR", &model)], program, &cache);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("search ranks with the model") && stderr.contains("(from CODEMODE_MODEL_DIR)"),
        "{stderr}"
    );
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let semantic = |key: &str| result["value"][key].to_string().contains("semantic");
    assert!(!semantic("first"), "{result}");
    assert!(semantic("later"), "{result}");
    // The vectors are on disk: the next process's first search is fused.
    let vectors = std::fs::read_dir(cache.join("codemode/vectors")).unwrap().count();
    assert_eq!(vectors, 1);
    let out = codemode(&["run", "-", "--json"], &[("CODEMODE_MODEL_DIR", &model)], program, &cache);
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(result["value"]["first"].to_string().contains("semantic"), "{result}");
    let _ = std::fs::remove_dir_all(&cache);
}

/// A hub on 127.0.0.1 serving `dir`'s files as `/{owner}/{name}/resolve/{revision}/{file}` (404
/// for anything else); its address. Serves until the process ends.
fn local_hub(dir: PathBuf) -> String {
    use std::io::{BufRead as _, BufReader};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            reader.read_line(&mut request).unwrap();
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap() == 0 || header.trim().is_empty() {
                    break;
                }
            }
            let path = request.split_whitespace().nth(1).unwrap_or("").to_owned();
            let file = path.strip_prefix("/sentence-transformers/all-MiniLM-L6-v2/resolve/main/");
            let body =
                file.and_then(|f| (!f.contains("..")).then(|| std::fs::read(dir.join(f)).ok()).flatten());
            let head = match &body {
                Some(b) => {
                    format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", b.len())
                }
                None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_owned(),
            };
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(body.as_deref().unwrap_or_default());
        }
    });
    address
}

/// `codemode models pull` against a local hub serving all-MiniLM-L6-v2 (`CODEMODE_MINILM_DIR`):
/// the files land in the cache, the model loads, `which` finds it, a second pull is a no-op, and
/// a model the hub does not have is a clear error that leaves nothing behind.
#[test]
#[ignore = "needs the all-MiniLM-L6-v2 model: set CODEMODE_MINILM_DIR"]
fn models_pull_fetches_into_the_cache() {
    let model = std::env::var("CODEMODE_MINILM_DIR").expect("CODEMODE_MINILM_DIR names the model directory");
    let hub = local_hub(PathBuf::from(model));
    let cache = scratch("pull");
    let env = [("HF_ENDPOINT", hub.as_str())];
    let out = codemode(&["models", "pull"], &env, "", &cache);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let pulled = cache.join("codemode/models/all-MiniLM-L6-v2");
    for file in ["config.json", "tokenizer.json", "model.safetensors", "1_Pooling/config.json"] {
        assert!(pulled.join(file).is_file(), "{file} missing; {stderr}");
    }
    assert!(!cache.join("codemode/models/all-MiniLM-L6-v2.partial").exists());
    let out = codemode(&["models", "which"], &[], "", &cache);
    assert!(String::from_utf8_lossy(&out.stdout).contains("(from the model cache)"));
    let out = codemode(&["models", "pull"], &env, "", &cache);
    assert!(String::from_utf8_lossy(&out.stderr).contains("already in the cache"));
    let out = codemode(&["models", "pull", "all-mpnet-base-v2"], &env, "", &cache);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("has no config.json"), "{stderr}");
    assert!(!cache.join("codemode/models/all-mpnet-base-v2.partial").exists());
    assert!(!cache.join("codemode/models/all-mpnet-base-v2").exists());
    let _ = std::fs::remove_dir_all(&cache);
}
