//! Where a model directory is found, in the order deployments set it: a directory the host
//! names, then `CODEMODE_MODEL_DIR`, then the cache that `codemode models pull` fills
//! (`$XDG_CACHE_HOME/codemode/models/NAME`, else `~/.cache/codemode/models/NAME`).
//!
//! A directory that is named (by the host or the variable) but unusable is an error, not a
//! silent fall back to lexical search; an empty cache is `None`.

use std::path::{Path, PathBuf};

use super::spec::{ModelError, ModelSpec};

/// The model used when none is named: all-MiniLM-L6-v2 (6 layers, 384 wide, Apache-2.0).
pub const DEFAULT_MODEL: &str = "all-MiniLM-L6-v2";
/// The environment variable naming a model directory.
pub const MODEL_DIR_VAR: &str = "CODEMODE_MODEL_DIR";

/// Where a model directory came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Named by the host.
    Host,
    /// `CODEMODE_MODEL_DIR`.
    Environment,
    /// The model cache.
    Cache,
}

/// A model directory that was found and whose configuration reads.
#[derive(Debug, Clone)]
pub struct Located {
    /// The checked configuration (the directory is `spec.dir`).
    pub spec: ModelSpec,
    /// Where it came from.
    pub origin: Origin,
}

impl std::fmt::Display for Located {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let origin = match self.origin {
            Origin::Host => "given by the host",
            Origin::Environment => "from CODEMODE_MODEL_DIR",
            Origin::Cache => "from the model cache",
        };
        write!(f, "{} at {} ({origin})", self.spec.name(), self.spec.dir.display())
    }
}

/// The model cache: `$XDG_CACHE_HOME/codemode/models`, else `$HOME/.cache/codemode/models`.
/// `env` reads an environment variable (`|k| std::env::var(k).ok()`).
pub fn cache_root(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let nonempty = |k: &str| env(k).filter(|v| !v.trim().is_empty());
    let base = match nonempty("XDG_CACHE_HOME") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(nonempty("HOME")?).join(".cache"),
    };
    Some(base.join("codemode").join("models"))
}

/// The cache directory name of a model: the hub name's last part (`all-MiniLM-L6-v2` for
/// `sentence-transformers/all-MiniLM-L6-v2`). Names with anything but ASCII letters, digits,
/// `.`, `-` and `_` (or starting with `.`) are refused.
pub fn cache_name(name: &str) -> Result<&str, String> {
    let last = name.rsplit('/').next().unwrap_or(name);
    let valid = !last.is_empty()
        && !last.starts_with('.')
        && last.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if valid { Ok(last) } else { Err(format!("{name:?} is not a model name (such as {DEFAULT_MODEL})")) }
}

/// Finds the model directory: `host` if given, else `CODEMODE_MODEL_DIR` if set, else the
/// cached `name`. A named directory that cannot be used is an error; so is a cached one that
/// exists but is broken.
pub fn locate(
    host: Option<&Path>,
    name: &str,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<Located>, ModelError> {
    if let Some(dir) = host {
        return ModelSpec::read(dir).map(|spec| Some(Located { spec, origin: Origin::Host }));
    }
    if let Some(dir) = env(MODEL_DIR_VAR).filter(|d| !d.trim().is_empty()) {
        return ModelSpec::read(Path::new(&dir))
            .map(|spec| Some(Located { spec, origin: Origin::Environment }));
    }
    let Ok(folder) = cache_name(name) else { return Ok(None) };
    let Some(dir) = cache_root(&env).map(|root| root.join(folder)) else { return Ok(None) };
    if !dir.exists() {
        return Ok(None);
    }
    ModelSpec::read(&dir).map(|spec| Some(Located { spec, origin: Origin::Cache })).map_err(|e| ModelError {
        message: format!("{} (run `codemode models pull {name}` again)", e.message),
        ..e
    })
}
