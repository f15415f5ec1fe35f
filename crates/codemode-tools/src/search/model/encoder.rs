//! The transformer encoder in candle (`candle-core` tensors, `candle-nn` layers), for the two
//! families sentence-transformers ships: BERT (Hugging Face's `modeling_bert.py`: token-type
//! embeddings, positions from 0) and MPNet (`modeling_mpnet.py`: no token types, positions from
//! the padding id + 1, one relative-position bias with T5-style buckets shared by every layer).
//! Both have the same post-norm layer: self-attention, add & norm, feed-forward, add & norm.
//!
//! Written here rather than taken from `candle-transformers`, whose BERT would be the only model
//! used of the hundred that crate compiles (minutes of CI at the optimisation the kernels need),
//! and which has no MPNet.

use candle_core::{DType, Device, Module, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear, VarBuilder, embedding, layer_norm, linear};

use super::spec::{Family, ModelSpec};

/// The feed-forward activation (`hidden_act`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activation {
    /// `gelu`: the exact (erf) form.
    Gelu,
    /// `gelu_new`, `gelu_pytorch_tanh`: the tanh approximation.
    GeluTanh,
    /// `relu`.
    Relu,
}

impl Activation {
    /// The activation a `hidden_act` names, if supported.
    pub fn parse(name: Option<&str>) -> Option<Self> {
        match name {
            Some("gelu") | None => Some(Self::Gelu),
            Some("gelu_new" | "gelu_pytorch_tanh" | "gelu_fast") => Some(Self::GeluTanh),
            Some("relu") => Some(Self::Relu),
            Some(_) => None,
        }
    }

    fn apply(self, x: &Tensor) -> Result<Tensor> {
        match self {
            Self::Gelu => x.gelu_erf(),
            Self::GeluTanh => x.gelu(),
            Self::Relu => x.relu(),
        }
    }
}

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

/// A loaded encoder.
pub struct Encoder {
    family: Family,
    words: Embedding,
    positions: Embedding,
    /// BERT's token-type embeddings (every token is type 0).
    token_types: Option<Embedding>,
    embeddings_norm: LayerNorm,
    /// MPNet's relative-position bias table (buckets × heads).
    relative_bias: Option<Embedding>,
    buckets: usize,
    layers: Vec<Layer>,
    heads: usize,
    activation: Activation,
    pad_id: u32,
}

impl Encoder {
    /// Loads the weights (`vb` at the model's root, any `bert.` / `mpnet.` prefix removed).
    pub fn load(vb: &VarBuilder, spec: &ModelSpec, activation: Activation) -> Result<Self> {
        let hidden = spec.hidden;
        let inner = spec.usize_or("intermediate_size", 4 * hidden);
        let default_eps = match spec.family {
            Family::Bert => 1e-12,
            Family::MpNet => 1e-5,
        };
        let eps = spec.f64_or("layer_norm_eps", default_eps);
        let buckets = spec.usize_or("relative_attention_num_buckets", 32);
        let e = vb.pp("embeddings");
        let words = embedding(spec.usize_or("vocab_size", 0), hidden, e.pp("word_embeddings"))?;
        let positions =
            embedding(spec.usize_or("max_position_embeddings", 0), hidden, e.pp("position_embeddings"))?;
        let embeddings_norm = layer_norm(hidden, eps, e.pp("LayerNorm"))?;
        let (token_types, relative_bias) = match spec.family {
            Family::Bert => {
                let types = spec.usize_or("type_vocab_size", 2).max(1);
                (Some(embedding(types, hidden, e.pp("token_type_embeddings"))?), None)
            }
            Family::MpNet => {
                (None, Some(embedding(buckets, spec.heads, vb.pp("encoder.relative_attention_bias"))?))
            }
        };
        let mut layers = Vec::with_capacity(spec.layers);
        for l in 0..spec.layers {
            let p = vb.pp(format!("encoder.layer.{l}"));
            let a = p.pp("attention");
            let (q, k, v, o, norm) = match spec.family {
                Family::Bert => (
                    a.pp("self.query"),
                    a.pp("self.key"),
                    a.pp("self.value"),
                    a.pp("output.dense"),
                    a.pp("output.LayerNorm"),
                ),
                Family::MpNet => {
                    (a.pp("attn.q"), a.pp("attn.k"), a.pp("attn.v"), a.pp("attn.o"), a.pp("LayerNorm"))
                }
            };
            layers.push(Layer {
                q: linear(hidden, hidden, q)?,
                k: linear(hidden, hidden, k)?,
                v: linear(hidden, hidden, v)?,
                o: linear(hidden, hidden, o)?,
                attention_norm: layer_norm(hidden, eps, norm)?,
                intermediate: linear(hidden, inner, p.pp("intermediate.dense"))?,
                output: linear(inner, hidden, p.pp("output.dense"))?,
                output_norm: layer_norm(hidden, eps, p.pp("output.LayerNorm"))?,
            });
        }
        Ok(Self {
            family: spec.family,
            words,
            positions,
            token_types,
            embeddings_norm,
            relative_bias,
            buckets,
            layers,
            heads: spec.heads,
            activation,
            pad_id: spec.pad_id,
        })
    }

    /// MPNet's bucket of `key position - query position`: half the buckets per direction,
    /// exact up to a quarter of them, logarithmic up to 128 apart.
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

    /// MPNet's `(1, heads, n, n)` relative-position bias.
    fn position_bias(&self, table: &Embedding, n: usize, device: &Device) -> Result<Tensor> {
        let mut ids = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                ids.push(self.bucket(j as i64 - i as i64));
            }
        }
        let ids = Tensor::from_vec(ids, (n, n), device)?;
        // (n, n, heads) → (1, heads, n, n)
        table.forward(&ids)?.permute((2, 0, 1))?.unsqueeze(0)?.contiguous()
    }

    /// Position ids: BERT counts from 0; MPNet counts the real tokens from pad + 1 and puts
    /// padding at the pad position.
    fn position_ids(&self, mask: &Tensor) -> Result<Tensor> {
        let (batch, n) = mask.dims2()?;
        let mut positions = Vec::with_capacity(batch * n);
        for row in mask.to_vec2::<u32>()? {
            let mut counted = self.pad_id;
            for (i, m) in row.into_iter().enumerate() {
                positions.push(match self.family {
                    Family::Bert => u32::try_from(i).unwrap_or(u32::MAX),
                    Family::MpNet if m == 0 => self.pad_id,
                    Family::MpNet => {
                        counted += 1;
                        counted
                    }
                });
            }
        }
        Tensor::from_vec(positions, (batch, n), mask.device())
    }

    /// Hidden states `(batch, n, hidden)` of token ids `(batch, n)` with attention mask
    /// `(batch, n)` (1 for tokens, 0 for padding; u32).
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (batch, n) = ids.dims2()?;
        let device = ids.device();
        let mut x = self.words.forward(ids)?.add(&self.positions.forward(&self.position_ids(mask)?)?)?;
        if let Some(types) = &self.token_types {
            x = x.add(&types.forward(&ids.zeros_like()?)?)?;
        }
        let mut x = self.embeddings_norm.forward(&x)?;
        let hidden = x.dim(2)?;
        let head = hidden / self.heads;
        // (batch, 1, 1, n): 0 for tokens, a large negative number for padding.
        let blocked = mask.to_dtype(DType::F32)?.affine(1e9, -1e9)?.unsqueeze(1)?.unsqueeze(1)?;
        let bias = match &self.relative_bias {
            Some(table) => self.position_bias(table, n, device)?.broadcast_add(&blocked)?,
            None => blocked,
        };
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
            let inner = self.activation.apply(&layer.intermediate.forward(&attended)?)?;
            x = layer.output_norm.forward(&layer.output.forward(&inner)?.add(&attended)?)?;
        }
        Ok(x)
    }
}
