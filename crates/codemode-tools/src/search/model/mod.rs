//! A sentence-embedding model run in pure Rust (feature `embeddings`): a sentence-transformers
//! model directory (`config.json`, `tokenizer.json`, `model.safetensors`,
//! `1_Pooling/config.json`) loaded into [candle](https://github.com/huggingface/candle) on the
//! CPU, as an [`Embedder`] for [`crate::search::SemanticRanker`].
//!
//! - Families: BERT (`model_type: "bert"`: all-MiniLM-L6-v2, bge, gte, e5) and MPNet
//!   (`"mpnet"`: all-mpnet-base-v2), in [`encoder`].
//! - Tokens: the model's own `tokenizer.json` through the `tokenizers` crate (pure-Rust regex
//!   engine). Texts are cut at [`DEFAULT_MAX_TOKENS`] word pieces unless
//!   [`SentenceEncoder::with_max_tokens`] says otherwise.
//! - Pooling: mean or first token as `1_Pooling/config.json` says; vectors are unit length.
//! - Batches: texts sorted by length and encoded [`BATCH`] at a time, padded to the longest.
//!
//! Nothing is downloaded: [`locate`] finds a directory (host, `CODEMODE_MODEL_DIR`, the cache
//! `codemode models pull` fills). A missing or broken directory is a [`ModelError`].

mod encoder;
pub mod locate;
mod spec;

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use tokenizers::{Tokenizer, TruncationParams};

pub use self::spec::{Family, ModelError, ModelSpec, Pooling};
use crate::registry::ToolSet;
use crate::search::{EmbedError, Embedder, SemanticRanker};

/// Fusion weights for a sentence-embedding model, chosen on the development queries
/// (docs/tools.md): lexical, semantic when the best lexical hit has every query word, semantic
/// when it has none (see [`SemanticRanker::with_adaptive_weight`]).
pub const MODEL_WEIGHTS: (f64, f64, f64) = (1.0, 0.2, 1.5);

impl SemanticRanker {
    /// A ranker over a sentence-embedding model with the fusion weights chosen for such
    /// models ([`MODEL_WEIGHTS`]): mostly lexical for a query in the catalog's words, mostly
    /// by meaning for a paraphrase.
    pub fn for_model(model: impl Embedder + 'static) -> Self {
        let (lexical, semantic, unmatched) = MODEL_WEIGHTS;
        Self::new(model).with_weights(lexical, semantic).with_adaptive_weight(unmatched)
    }
}

impl ToolSet {
    /// This tool set with search fused with the sentence-embedding model in `dir` (loaded on
    /// the first search, see [`LazyEncoder`]; weights [`MODEL_WEIGHTS`]). The directory's
    /// configuration is checked now.
    pub fn with_model_dir(self, dir: &Path) -> Result<Self, ModelError> {
        let spec = ModelSpec::read(dir)?;
        let ranker = SemanticRanker::for_model(LazyEncoder::new(spec.dir));
        Ok(self.with_semantic_ranker(std::sync::Arc::new(ranker)))
    }
}

/// Word pieces a text is cut at by default: the length the sentence-transformers `all-*`
/// models were trained on (their configs allow 256 or 384; longer texts cost more and, for
/// tool descriptions, rank no better).
pub const DEFAULT_MAX_TOKENS: usize = 128;
/// Texts encoded together.
pub const BATCH: usize = 16;

/// A loaded sentence-embedding model.
pub struct SentenceEncoder {
    spec: ModelSpec,
    encoder: encoder::Encoder,
    tokenizer: Tokenizer,
    max_tokens: usize,
    query_prefix: String,
    document_prefix: String,
    /// Name, shape, pooling, length and a digest of the weights: the vector cache's key.
    model_id: String,
    weights_digest: u64,
    device: Device,
}

impl std::fmt::Debug for SentenceEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SentenceEncoder").field("model", &self.model_id).finish_non_exhaustive()
    }
}

/// FNV-1a over `bytes`, continuing from `hash`.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

impl SentenceEncoder {
    /// Loads the model in `dir` (reads the weights into memory: ~90 MB for all-MiniLM-L6-v2).
    pub fn load(dir: &Path) -> Result<Self, ModelError> {
        let spec = ModelSpec::read(dir)?;
        let err = |what: &str, e: &dyn std::fmt::Display| {
            ModelError::new(dir, format!("{what}: {}", first_line(e)))
        };
        let tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| err("tokenizer.json cannot be read", &e))?;
        let bytes = std::fs::read(dir.join("model.safetensors"))
            .map_err(|e| err("cannot read model.safetensors", &e))?;
        let device = Device::Cpu;
        let tensors = candle_core::safetensors::load_buffer(&bytes, &device)
            .map_err(|e| err("model.safetensors is not a valid safetensors file", &e))?;
        // Digest of the length, the header (names, shapes, offsets) and the first MiB.
        let head = bytes.get(..bytes.len().min(1 << 20)).unwrap_or(&bytes);
        let weights_digest = fnv1a(fnv1a(FNV_OFFSET, &(bytes.len() as u64).to_le_bytes()), head);
        drop(bytes);
        // Some exports prefix every name with the architecture.
        let mut renamed: HashMap<String, Tensor> = HashMap::with_capacity(tensors.len());
        for (name, t) in tensors {
            let name = name.strip_prefix("bert.").or_else(|| name.strip_prefix("mpnet.")).unwrap_or(&name);
            // Layer weights stored column-major (the same matrix): `Linear` multiplies by their
            // transpose, which is then contiguous, and gemm uses it without packing it again
            // for every product (most of a short query's time otherwise).
            let t = if name.starts_with("encoder.layer.") && name.ends_with(".weight") && t.rank() == 2 {
                t.to_dtype(DType::F32)
                    .and_then(|t| t.t()?.contiguous()?.t())
                    .map_err(|e| err("model.safetensors", &e))?
            } else {
                t
            };
            renamed.insert(name.to_owned(), t);
        }
        let tensors = renamed;
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &device);
        let activation =
            encoder::Activation::parse(spec.config.get("hidden_act").and_then(serde_json::Value::as_str))
                .ok_or_else(|| {
                    ModelError::new(
                        dir,
                        "config.json's hidden_act is not supported (gelu, gelu_new, relu are)",
                    )
                })?;
        let network = encoder::Encoder::load(&vb, &spec, activation)
            .map_err(|e| err("model.safetensors does not fit config.json", &e))?;
        let mut encoder = Self {
            max_tokens: DEFAULT_MAX_TOKENS.min(spec.max_tokens),
            spec,
            encoder: network,
            tokenizer,
            query_prefix: String::new(),
            document_prefix: String::new(),
            model_id: String::new(),
            weights_digest,
            device,
        };
        encoder.configure()?;
        Ok(encoder)
    }

    /// Sets truncation and the model id after a change of length or prefixes.
    fn configure(&mut self) -> Result<(), ModelError> {
        self.tokenizer.with_padding(None);
        self.tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: self.max_tokens,
                ..TruncationParams::default()
            }))
            .map_err(|e| ModelError::new(&self.spec.dir, format!("tokenizer.json: {e}")))?;
        let spec = &self.spec;
        let mut id = format!(
            "{} ({:?}, {} layers x {}, {:?} pooling, {} tokens, weights {:016x})",
            spec.name(),
            spec.family,
            spec.layers,
            spec.hidden,
            spec.pooling,
            self.max_tokens,
            self.weights_digest
        );
        if !self.query_prefix.is_empty() || !self.document_prefix.is_empty() {
            id.push_str(&format!(" [{:?} / {:?}]", self.query_prefix, self.document_prefix));
        }
        self.model_id = id;
        Ok(())
    }

    /// Cuts texts at `max_tokens` word pieces (special tokens included), at most what the model's
    /// position table allows.
    pub fn with_max_tokens(mut self, max_tokens: usize) -> Result<Self, ModelError> {
        self.max_tokens = max_tokens.clamp(3, self.spec.max_tokens.max(3));
        self.configure()?;
        Ok(self)
    }

    /// Texts a query and a document start with (e5's `query: ` and `passage: `, bge's retrieval
    /// instruction for queries). A query is what [`Embedder::embed_query`] gets; every other
    /// text is a document.
    pub fn with_prefixes(mut self, query: &str, document: &str) -> Result<Self, ModelError> {
        self.query_prefix = query.to_owned();
        self.document_prefix = document.to_owned();
        self.configure()?;
        Ok(self)
    }

    /// What the model directory says.
    pub fn spec(&self) -> &ModelSpec {
        &self.spec
    }

    /// Unit vectors of `texts`, in order.
    pub fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let owned: Vec<String> = texts.iter().map(|t| (*t).to_owned()).collect();
        let encodings = self
            .tokenizer
            .encode_batch(owned, true)
            .map_err(|e| EmbedError(format!("tokenizing failed: {e}")))?;
        let ids: Vec<&[u32]> = encodings.iter().map(tokenizers::Encoding::get_ids).collect();
        // Longest first, so a batch pads little.
        let mut order: Vec<usize> = (0..ids.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(ids.get(i).map_or(0, |t| t.len())));
        let mut vectors: Vec<Vec<f32>> = vec![Vec::new(); ids.len()];
        for chunk in order.chunks(BATCH) {
            let batch: Vec<&[u32]> = chunk.iter().filter_map(|&i| ids.get(i).copied()).collect();
            let pooled = self
                .forward(&batch)
                .map_err(|e| EmbedError(format!("{}: {}", self.spec.name(), first_line(&e))))?;
            for (&i, vector) in chunk.iter().zip(pooled) {
                if let Some(slot) = vectors.get_mut(i) {
                    *slot = normalize(vector);
                }
            }
        }
        Ok(vectors)
    }

    /// Pooled vectors of one batch of token ids.
    fn forward(&self, batch: &[&[u32]]) -> candle_core::Result<Vec<Vec<f32>>> {
        let n = batch.iter().map(|t| t.len()).max().unwrap_or(0).max(1);
        let mut ids = Vec::with_capacity(batch.len() * n);
        let mut mask = Vec::with_capacity(batch.len() * n);
        for tokens in batch {
            ids.extend_from_slice(tokens);
            mask.extend(std::iter::repeat_n(1u32, tokens.len()));
            ids.extend(std::iter::repeat_n(self.spec.pad_id, n - tokens.len()));
            mask.extend(std::iter::repeat_n(0u32, n - tokens.len()));
        }
        let shape = (batch.len(), n);
        let ids = Tensor::from_vec(ids, shape, &self.device)?;
        let mask = Tensor::from_vec(mask, shape, &self.device)?;
        let hidden = self.encoder.forward(&ids, &mask)?;
        let pooled = match self.spec.pooling {
            Pooling::Cls => hidden.narrow(1, 0, 1)?.squeeze(1)?,
            Pooling::Mean => {
                let weights = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
                let summed = hidden.broadcast_mul(&weights)?.sum(1)?;
                let counts = weights.sum(1)?.clamp(1.0, f64::MAX)?;
                summed.broadcast_div(&counts)?
            }
        };
        pooled.to_vec2::<f32>()
    }
}

/// An error's first line (candle's errors carry a backtrace when `RUST_BACKTRACE` is set).
fn first_line(e: &dyn std::fmt::Display) -> String {
    e.to_string().lines().next().unwrap_or_default().to_owned()
}

fn normalize(mut vector: Vec<f32>) -> Vec<f32> {
    let norm = vector.iter().map(|v| v * v).sum::<f32>().sqrt();
    if norm > 0.0 && norm.is_finite() {
        vector.iter_mut().for_each(|v| *v /= norm);
    }
    vector
}

impl Embedder for SentenceEncoder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if self.document_prefix.is_empty() {
            return self.encode(texts);
        }
        let prefixed: Vec<String> = texts.iter().map(|t| format!("{}{t}", self.document_prefix)).collect();
        self.encode(&prefixed.iter().map(String::as_str).collect::<Vec<_>>())
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        let text = format!("{}{query}", self.query_prefix);
        let mut vectors = self.encode(&[&text])?;
        vectors.pop().ok_or_else(|| EmbedError("no vector for the query".to_owned()))
    }

    fn model_id(&self) -> &str {
        &self.model_id
    }
}

/// A [`SentenceEncoder`] loaded on first use: a program that never searches never loads the
/// model. A model that fails to load makes every embedding fail (search then ranks lexically)
/// with the load's diagnostic.
pub struct LazyEncoder {
    dir: std::path::PathBuf,
    loaded: OnceLock<Result<SentenceEncoder, ModelError>>,
}

impl std::fmt::Debug for LazyEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyEncoder").field("dir", &self.dir).finish_non_exhaustive()
    }
}

impl LazyEncoder {
    /// An encoder for the model in `dir`, not loaded yet.
    pub fn new(dir: impl Into<std::path::PathBuf>) -> Self {
        Self { dir: dir.into(), loaded: OnceLock::new() }
    }

    /// The model, loading it if this is the first use.
    pub fn get(&self) -> Result<&SentenceEncoder, &ModelError> {
        self.loaded.get_or_init(|| SentenceEncoder::load(&self.dir)).as_ref()
    }
}

impl Embedder for LazyEncoder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.get().map_err(|e| EmbedError(e.to_string()))?.embed(texts)
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        self.get().map_err(|e| EmbedError(e.to_string()))?.embed_query(query)
    }

    fn model_id(&self) -> &str {
        self.get().map_or("unloadable model", |m| m.model_id())
    }
}

#[cfg(test)]
mod tests;
