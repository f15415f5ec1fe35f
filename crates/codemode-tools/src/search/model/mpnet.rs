//! The MPNet encoder (all-mpnet-base-v2) in candle, which `candle-transformers` does not have:
//! BERT's layer shape without token types, positions numbered from the padding id + 1, and one
//! relative-position bias (T5-style buckets) shared by every layer's attention. Follows
//! Hugging Face's `modeling_mpnet.py`.

use candle_core::{DType, Device, Module, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear, VarBuilder, embedding, layer_norm, linear};

use super::spec::ModelSpec;

struct Layer {
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

/// A loaded MPNet encoder.
pub struct MpNet {
    words: Embedding,
    positions: Embedding,
    embeddings_norm: LayerNorm,
    relative_bias: Embedding,
    buckets: usize,
    layers: Vec<Layer>,
    heads: usize,
    pad_id: u32,
}

impl MpNet {
    /// Loads the weights (`vb` at the model's root, `mpnet.` prefix already removed).
    pub fn load(vb: &VarBuilder, spec: &ModelSpec) -> Result<Self> {
        let hidden = spec.hidden;
        let inner = spec.usize_or("intermediate_size", 4 * hidden);
        let eps = spec.f64_or("layer_norm_eps", 1e-5);
        let buckets = spec.usize_or("relative_attention_num_buckets", 32);
        let e = vb.pp("embeddings");
        let words = embedding(spec.usize_or("vocab_size", 0), hidden, e.pp("word_embeddings"))?;
        let positions =
            embedding(spec.usize_or("max_position_embeddings", 0), hidden, e.pp("position_embeddings"))?;
        let embeddings_norm = layer_norm(hidden, eps, e.pp("LayerNorm"))?;
        let relative_bias = embedding(buckets, spec.heads, vb.pp("encoder.relative_attention_bias"))?;
        let mut layers = Vec::with_capacity(spec.layers);
        for l in 0..spec.layers {
            let p = vb.pp(format!("encoder.layer.{l}"));
            let a = p.pp("attention");
            layers.push(Layer {
                q: linear(hidden, hidden, a.pp("attn.q"))?,
                k: linear(hidden, hidden, a.pp("attn.k"))?,
                v: linear(hidden, hidden, a.pp("attn.v"))?,
                o: linear(hidden, hidden, a.pp("attn.o"))?,
                attention_norm: layer_norm(hidden, eps, a.pp("LayerNorm"))?,
                intermediate: linear(hidden, inner, p.pp("intermediate.dense"))?,
                output: linear(inner, hidden, p.pp("output.dense"))?,
                output_norm: layer_norm(hidden, eps, p.pp("output.LayerNorm"))?,
            });
        }
        Ok(Self {
            words,
            positions,
            embeddings_norm,
            relative_bias,
            buckets,
            layers,
            heads: spec.heads,
            pad_id: spec.pad_id,
        })
    }

    /// The bucket of `key position - query position`: half the buckets per direction, exact up
    /// to a quarter of them, logarithmic up to 128 apart.
    fn bucket(&self, relative: i64) -> u32 {
        let half = (self.buckets / 2).max(1);
        let exact = (half / 2).max(1);
        let distance = -relative;
        let mut bucket = if distance < 0 { half } else { 0 };
        let magnitude = usize::try_from(distance.unsigned_abs()).unwrap_or(usize::MAX);
        bucket += if magnitude < exact {
            magnitude
        } else {
            let ratio = (magnitude as f64 / exact as f64).ln() / (128.0 / exact as f64).ln();
            (exact + (ratio * (half - exact) as f64) as usize).min(half.saturating_sub(1))
        };
        u32::try_from(bucket.min(self.buckets.saturating_sub(1))).unwrap_or(0)
    }

    /// `heads × n × n` relative-position bias, with a leading batch axis of 1.
    fn position_bias(&self, n: usize, device: &Device) -> Result<Tensor> {
        let mut ids = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                ids.push(self.bucket(j as i64 - i as i64));
            }
        }
        let ids = Tensor::from_vec(ids, (n, n), device)?;
        // (n, n, heads) → (1, heads, n, n)
        self.relative_bias.forward(&ids)?.permute((2, 0, 1))?.unsqueeze(0)?.contiguous()
    }

    /// Hidden states `(batch, n, hidden)` of token ids `(batch, n)` with attention mask
    /// `(batch, n)` (1 for tokens, 0 for padding).
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (batch, n) = ids.dims2()?;
        let device = ids.device();
        // Positions count the real tokens from pad + 1; padding sits at the pad position.
        let mut positions = Vec::with_capacity(batch * n);
        for row in mask.to_vec2::<u32>()? {
            let mut counted = self.pad_id;
            for m in row {
                counted += m;
                positions.push(if m == 0 { self.pad_id } else { counted });
            }
        }
        let position_ids = Tensor::from_vec(positions, (batch, n), device)?;
        let x = self.words.forward(ids)?.add(&self.positions.forward(&position_ids)?)?;
        let mut x = self.embeddings_norm.forward(&x)?;
        let hidden = x.dim(2)?;
        let head = hidden / self.heads;
        // (batch, 1, 1, n): 0 for tokens, a large negative number for padding.
        let blocked = mask.to_dtype(DType::F32)?.affine(1.0, -1.0)?.affine(1e9, 0.0)?;
        let blocked = blocked.unsqueeze(1)?.unsqueeze(1)?;
        let bias = self.position_bias(n, device)?.broadcast_add(&blocked)?;
        let scale = 1.0 / (head as f64).sqrt();
        let split = |t: Tensor| -> Result<Tensor> {
            t.reshape((batch, n, self.heads, head))?.transpose(1, 2)?.contiguous()
        };
        for layer in &self.layers {
            let q = split(layer.q.forward(&x)?)?;
            let k = split(layer.k.forward(&x)?)?;
            let v = split(layer.v.forward(&x)?)?;
            let scores = (q.matmul(&k.t()?)? * scale)?.broadcast_add(&bias)?;
            let weights = candle_nn::ops::softmax_last_dim(&scores)?;
            let context = weights.matmul(&v)?.transpose(1, 2)?.contiguous()?.reshape((batch, n, hidden))?;
            let attended = layer.attention_norm.forward(&layer.o.forward(&context)?.add(&x)?)?;
            let inner = layer.intermediate.forward(&attended)?.gelu_erf()?;
            x = layer.output_norm.forward(&layer.output.forward(&inner)?.add(&attended)?)?;
        }
        Ok(x)
    }
}
