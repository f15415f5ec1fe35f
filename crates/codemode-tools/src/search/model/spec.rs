//! What a sentence-transformers model directory says about its model, read and checked before
//! any weight is loaded: the architecture and shape (`config.json`), the pooling
//! (`1_Pooling/config.json`), the longest input (`sentence_bert_config.json`). Every problem is
//! a [`ModelError`] that names the file and what to do, never a panic.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Why a model directory cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// The model directory.
    pub dir: PathBuf,
    /// What is wrong, and what to do about it.
    pub message: String,
}

impl ModelError {
    pub(crate) fn new(dir: &Path, message: impl Into<String>) -> Self {
        Self { dir: dir.to_path_buf(), message: message.into() }
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "model directory {}: {} (a sentence-transformers model directory has config.json, \
             tokenizer.json and model.safetensors; `codemode models pull` fetches one)",
            self.dir.display(),
            self.message
        )
    }
}

impl std::error::Error for ModelError {}

/// The encoder families the runner implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// BERT encoders: all-MiniLM-L6-v2, MiniLM-L12, bge, gte, e5.
    Bert,
    /// MPNet encoders: all-mpnet-base-v2 (relative-position bias, positions from 2).
    MpNet,
}

/// How the token vectors become the sentence vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    /// The mean of the (unpadded) token vectors.
    Mean,
    /// The first token's (`[CLS]` / `<s>`) vector.
    Cls,
}

/// A model directory's description.
#[derive(Debug, Clone)]
pub struct ModelSpec {
    /// The directory.
    pub dir: PathBuf,
    /// The encoder family (`model_type`).
    pub family: Family,
    /// The whole `config.json`.
    pub config: Value,
    /// Width of the hidden states.
    pub hidden: usize,
    /// Attention heads.
    pub heads: usize,
    /// Encoder layers.
    pub layers: usize,
    /// Pooling, from `1_Pooling/config.json` (mean when that file is absent).
    pub pooling: Pooling,
    /// Longest input in tokens the model takes (`sentence_bert_config.json`'s
    /// `max_seq_length`, bounded by the position table).
    pub max_tokens: usize,
    /// The padding token id (`pad_token_id`).
    pub pad_id: u32,
}

fn read_json(dir: &Path, name: &str) -> Result<Option<Value>, ModelError> {
    let path = dir.join(name);
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| ModelError::new(dir, format!("{name} is not valid JSON: {e}"))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ModelError::new(dir, format!("cannot read {name}: {e}"))),
    }
}

fn positive(dir: &Path, config: &Value, key: &str) -> Result<usize, ModelError> {
    config
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n > 0 && n <= 1 << 20)
        .ok_or_else(|| ModelError::new(dir, format!("config.json has no usable {key}")))
}

impl ModelSpec {
    /// Reads and checks the directory's configuration files (not the weights).
    pub fn read(dir: &Path) -> Result<Self, ModelError> {
        if !dir.is_dir() {
            return Err(ModelError::new(dir, "not a directory"));
        }
        let config =
            read_json(dir, "config.json")?.ok_or_else(|| ModelError::new(dir, "config.json is missing"))?;
        let family = match config.get("model_type").and_then(Value::as_str) {
            Some("bert") | None => Family::Bert,
            Some("mpnet") => Family::MpNet,
            Some(other) => {
                return Err(ModelError::new(
                    dir,
                    format!("model_type {other:?} is not supported (BERT and MPNet encoders are)"),
                ));
            }
        };
        let hidden = positive(dir, &config, "hidden_size")?;
        let heads = positive(dir, &config, "num_attention_heads")?;
        let layers = positive(dir, &config, "num_hidden_layers")?;
        positive(dir, &config, "intermediate_size")?;
        positive(dir, &config, "vocab_size")?;
        let positions = positive(dir, &config, "max_position_embeddings")?;
        if hidden % heads != 0 {
            return Err(ModelError::new(
                dir,
                format!("hidden_size {hidden} is not a multiple of {heads} heads"),
            ));
        }
        let pooling = match read_json(dir, "1_Pooling/config.json")? {
            Some(pooling) if pooling.get("pooling_mode_cls_token").and_then(Value::as_bool) == Some(true) => {
                Pooling::Cls
            }
            Some(pooling)
                if pooling.get("pooling_mode_max_tokens").and_then(Value::as_bool) == Some(true)
                    && pooling.get("pooling_mode_mean_tokens").and_then(Value::as_bool) != Some(true) =>
            {
                return Err(ModelError::new(
                    dir,
                    "1_Pooling/config.json asks for max pooling, which is not supported",
                ));
            }
            _ => Pooling::Mean,
        };
        // MPNet (like RoBERTa) numbers positions from the padding id + 1.
        let usable_positions = match family {
            Family::Bert => positions,
            Family::MpNet => positions.saturating_sub(2),
        };
        let declared = read_json(dir, "sentence_bert_config.json")?
            .and_then(|c| c.get("max_seq_length").and_then(Value::as_u64))
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(usable_positions);
        let max_tokens = declared.clamp(3, usable_positions.max(3));
        let pad_id =
            config.get("pad_token_id").and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok()).unwrap_or(
                match family {
                    Family::Bert => 0,
                    Family::MpNet => 1,
                },
            );
        for file in ["tokenizer.json", "model.safetensors"] {
            if !dir.join(file).is_file() {
                return Err(ModelError::new(dir, format!("{file} is missing")));
            }
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            family,
            config,
            hidden,
            heads,
            layers,
            pooling,
            max_tokens,
            pad_id,
        })
    }

    /// The directory's last component, the model's name in messages.
    pub fn name(&self) -> String {
        self.dir
            .file_name()
            .map_or_else(|| self.dir.display().to_string(), |f| f.to_string_lossy().into_owned())
    }

    /// A `config.json` number, or `default`.
    pub fn f64_or(&self, key: &str, default: f64) -> f64 {
        self.config.get(key).and_then(Value::as_f64).unwrap_or(default)
    }

    /// A `config.json` count, or `default`.
    pub fn usize_or(&self, key: &str, default: usize) -> usize {
        self.config.get(key).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok()).unwrap_or(default)
    }
}
