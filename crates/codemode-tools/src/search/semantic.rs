//! A pluggable semantic ranker: the host supplies an [`Embedder`] (any model: a static
//! embedding table, a MiniLM behind ONNX, a remote service), and search fuses its cosine
//! ranking with the lexical BM25F ranking, by weighted score fusion or reciprocal-rank fusion
//! ([`Fusion`]).
//!
//! Tool vectors are computed once per catalog, in batches, and cached in the
//! [`SemanticRanker`] under a fingerprint of the catalog's texts, so a host can share one
//! ranker between tool sets; with [`SemanticRanker::with_vector_cache`] they are also kept on
//! disk by content (model id + tool text), so a restart embeds only what changed. With
//! [`SemanticRanker::with_background`] a catalog that needs embedding is embedded on a thread
//! of its own while search answers lexically. An embedder error never fails a search: the
//! lexical ranking is used alone.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::registry::ToolSet;
use crate::search::text::words;
use crate::search::vector_store::VectorStore;

/// Why an embedder could not embed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedError(pub String);

impl std::fmt::Display for EmbedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "embedding failed: {}", self.0)
    }
}

impl std::error::Error for EmbedError {}

/// Turns texts into vectors. Batched: `embed` gets many texts at once and returns one vector
/// per text, in order, all of one dimension. Synchronous; an async model can be wrapped by
/// blocking on it (search runs on the host's side of the program, not inside the VM).
pub trait Embedder: Send + Sync {
    /// Embeds a batch of texts.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;

    /// Embeds a search query. A model trained with different instructions for queries and
    /// documents (e5's `query: ` / `passage: `, bge's retrieval instruction) overrides this;
    /// by default a query is embedded like any other text.
    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        let mut vectors = self.embed(&[query])?;
        match (vectors.pop(), vectors.is_empty()) {
            (Some(vector), true) => Ok(vector),
            _ => Err(EmbedError("not one vector for the query".to_owned())),
        }
    }

    /// Identifies the model in the vector cache's key (two models never share vectors).
    fn model_id(&self) -> &str {
        "embedder"
    }
}

/// A shared embedder (one model behind several rankers).
impl<E: Embedder + ?Sized> Embedder for Arc<E> {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        (**self).embed(texts)
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        (**self).embed_query(query)
    }

    fn model_id(&self) -> &str {
        (**self).model_id()
    }
}

/// A boxed embedder (a model chosen at run time).
impl<E: Embedder + ?Sized> Embedder for Box<E> {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        (**self).embed(texts)
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        (**self).embed_query(query)
    }

    fn model_id(&self) -> &str {
        (**self).model_id()
    }
}

/// Texts per `embed` call when indexing a catalog.
const BATCH: usize = 64;
/// Texts embedded between two saves of the on-disk vector cache (so a process that ends
/// early keeps what it embedded).
const SAVE_EVERY: usize = 256;
/// Reciprocal-rank fusion's constant: `weight / (K + rank)`.
const RRF_K: f64 = 60.0;
/// Semantic results (best first) that may enter the fused list without a lexical match.
const SEMANTIC_CANDIDATES: usize = 50;
/// How a semantic ranking is fused with the lexical one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fusion {
    /// Weighted scores, each scaled to [0, 1] (BM25F by the best hit, cosine min-max over the
    /// semantic candidates): keeps how far apart the lexical hits are.
    #[default]
    Score,
    /// Weighted reciprocal-rank fusion, `w / (60 + rank)`: only ranks count.
    ReciprocalRank,
}

/// Catalogs whose vectors one ranker keeps.
const CACHED_CATALOGS: usize = 4;

struct CatalogVectors {
    fingerprint: u64,
    /// Unit vectors, in catalog order (centred when the ranker centres).
    vectors: Vec<Vec<f32>>,
    /// The mean of the catalog's unit vectors, subtracted from every vector (and from the
    /// query's) when the ranker centres; empty otherwise.
    mean: Vec<f32>,
}

/// An [`Embedder`] with fusion weights and a per-catalog vector cache. Attach one to a tool
/// set with [`ToolSet::with_semantic_ranker`].
pub struct SemanticRanker {
    embedder: Arc<dyn Embedder>,
    lexical_weight: f64,
    semantic_weight: f64,
    /// The semantic weight when the best lexical hit matches no query word literally (see
    /// [`SemanticRanker::with_adaptive_weight`]).
    semantic_weight_unmatched: f64,
    fusion: Fusion,
    /// Whether vectors are centred on the catalog's mean (see [`SemanticRanker::with_centering`]).
    centering: bool,
    text: Box<ToolText>,
    /// Directory of the on-disk vector cache, if any.
    store_dir: Option<PathBuf>,
    /// Whether a catalog is embedded on a thread of its own while search answers lexically.
    background: bool,
    state: Arc<Mutex<State>>,
}

#[derive(Default)]
struct State {
    catalogs: Vec<Arc<CatalogVectors>>,
    /// Fingerprints of catalogs being embedded in the background.
    pending: Vec<u64>,
    /// The last background embedding's failure (catalog fingerprint, error): not retried in
    /// the background (each search would start it again); [`SemanticRanker::warm`] retries.
    failure: Option<(u64, EmbedError)>,
}

impl std::fmt::Debug for SemanticRanker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SemanticRanker")
            .field("model", &self.embedder.model_id())
            .field("lexical_weight", &self.lexical_weight)
            .field("semantic_weight", &self.semantic_weight)
            .field("semantic_weight_unmatched", &self.semantic_weight_unmatched)
            .finish_non_exhaustive()
    }
}

/// How a tool is turned into the text that is embedded.
pub type ToolText = dyn Fn(&ToolSet, usize) -> String + Send + Sync;

/// The default text a tool is embedded as: its path in words, title, description and input
/// property names. `index` is the tool's position in [`ToolSet::catalog`].
pub fn tool_text(tools: &ToolSet, index: usize) -> String {
    let Some(entry) = tools.catalog().get(index) else { return String::new() };
    let mut text = words(&entry.path).join(" ");
    if let Some(tool) = tools.get(&entry.path) {
        if let Some(title) = tool.title() {
            text.push_str(". ");
            text.push_str(title);
        }
        text.push_str(". ");
        text.push_str(tool.description());
        if let Some(Value::Object(properties)) = tool.input_schema().and_then(|s| s.get("properties")) {
            let names: Vec<String> = properties.keys().take(40).map(|k| words(k).join(" ")).collect();
            if !names.is_empty() {
                text.push_str(" Parameters: ");
                text.push_str(&names.join(", "));
            }
        }
    }
    text
}

fn normalize(mut vector: Vec<f32>) -> Vec<f32> {
    let norm = vector.iter().map(|x| f64::from(*x) * f64::from(*x)).sum::<f64>().sqrt();
    if norm > 0.0 && norm.is_finite() {
        for x in &mut vector {
            *x = (f64::from(*x) / norm) as f32;
        }
    } else {
        vector.iter_mut().for_each(|x| *x = 0.0);
    }
    vector
}

/// `vector - mean`, as a unit vector.
fn centred(vector: Vec<f32>, mean: &[f32]) -> Vec<f32> {
    normalize(vector.iter().zip(mean).map(|(x, m)| x - m).collect())
}

fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum()
}

impl SemanticRanker {
    /// A ranker over `embedder`, fusing with equal weights.
    pub fn new(embedder: impl Embedder + 'static) -> Self {
        Self {
            embedder: Arc::new(embedder),
            lexical_weight: 1.0,
            semantic_weight: 1.0,
            semantic_weight_unmatched: 1.0,
            fusion: Fusion::default(),
            centering: false,
            text: Box::new(tool_text),
            store_dir: None,
            background: false,
            state: Arc::default(),
        }
    }

    /// Keeps tool vectors in `dir` between runs, by content (model id + tool text): a restart
    /// reads them instead of embedding again, and a changed catalog embeds only its changed
    /// tools. The directory is created when first written; an unreadable cache is ignored.
    #[must_use]
    pub fn with_vector_cache(mut self, dir: impl Into<PathBuf>) -> Self {
        self.store_dir = Some(dir.into());
        self
    }

    /// Embeds a catalog whose vectors are not cached (in memory or on disk) on a thread of its
    /// own: until it is done, search ranks lexically. Off by default: the first search waits
    /// for the catalog to be embedded.
    #[must_use]
    pub fn with_background(mut self, background: bool) -> Self {
        self.background = background;
        self
    }

    /// The model's id (loads a lazily loaded model).
    pub fn model_id(&self) -> &str {
        self.embedder.model_id()
    }

    /// Sets the fusion weights of the lexical and the semantic ranking (non-negative). The
    /// semantic weight is the same for every query unless [`Self::with_adaptive_weight`]
    /// follows.
    #[must_use]
    pub fn with_weights(mut self, lexical: f64, semantic: f64) -> Self {
        self.lexical_weight = if lexical.is_finite() { lexical.max(0.0) } else { 1.0 };
        self.semantic_weight = if semantic.is_finite() { semantic.max(0.0) } else { 1.0 };
        self.semantic_weight_unmatched = self.semantic_weight;
        self
    }

    /// Makes the semantic weight depend on the query: the weight given by
    /// [`Self::with_weights`] when the best lexical hit has every query word itself, rising
    /// linearly to `unmatched` as fewer of them match literally (a synonym, another ending or
    /// a typo counts by its discount). A query in the catalog's own words is then ranked
    /// mostly lexically, a paraphrase mostly by meaning.
    #[must_use]
    pub fn with_adaptive_weight(mut self, unmatched: f64) -> Self {
        self.semantic_weight_unmatched = if unmatched.is_finite() { unmatched.max(0.0) } else { 1.0 };
        self
    }

    /// Sets how a tool becomes the text that is embedded (default [`tool_text`]).
    #[must_use]
    pub fn with_tool_text(
        mut self,
        text: impl Fn(&ToolSet, usize) -> String + Send + Sync + 'static,
    ) -> Self {
        self.text = Box::new(text);
        self
    }

    /// Centres the vectors on the catalog's mean: the mean of the tools' unit vectors is
    /// subtracted from each tool's vector and from the query's before the cosine. Sentence
    /// embeddings share a large common direction (every tool description is "about software"),
    /// which crowds the cosines together; removing it leaves what tells tools apart.
    #[must_use]
    pub fn with_centering(mut self, centering: bool) -> Self {
        self.centering = centering;
        self
    }

    /// Sets how the rankings are fused (default [`Fusion::Score`]).
    #[must_use]
    pub fn with_fusion(mut self, fusion: Fusion) -> Self {
        self.fusion = fusion;
        self
    }

    fn catalog_vectors(&self, tools: &ToolSet) -> Result<Arc<CatalogVectors>, EmbedError> {
        self.catalog_vectors_in(tools, self.background)
    }

    /// The texts of the catalog's tools and their fingerprint: one ranker has one embedder, so
    /// the texts (and the centring) identify the vectors.
    fn fingerprint(&self, tools: &ToolSet) -> (Vec<String>, u64) {
        let texts: Vec<String> = (0..tools.catalog().len()).map(|i| (self.text)(tools, i)).collect();
        let mut hasher = DefaultHasher::new();
        texts.hash(&mut hasher);
        self.centering.hash(&mut hasher);
        let fingerprint = hasher.finish();
        (texts, fingerprint)
    }

    fn catalog_vectors_in(
        &self,
        tools: &ToolSet,
        background: bool,
    ) -> Result<Arc<CatalogVectors>, EmbedError> {
        let (texts, fingerprint) = self.fingerprint(tools);
        {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(hit) = state.catalogs.iter().find(|c| c.fingerprint == fingerprint) {
                return Ok(Arc::clone(hit));
            }
            if state.pending.contains(&fingerprint) {
                return Err(EmbedError("the catalog is still being embedded".to_owned()));
            }
            if background
                && let Some((failed, error)) = &state.failure
                && *failed == fingerprint
            {
                return Err(error.clone());
            }
            // Claimed now, so that concurrent searches start one embedding, not several.
            if background {
                state.pending.push(fingerprint);
            }
        }
        let job = Job {
            embedder: Arc::clone(&self.embedder),
            store_dir: self.store_dir.clone(),
            centering: self.centering,
            texts,
            fingerprint,
        };
        // Vectors the disk cache has: when it has them all, no thread is needed.
        let (store, stored) = job.stored();
        let all_stored =
            store.as_ref().is_some_and(|s| job.texts.iter().all(|t| stored.contains_key(&s.key(t))));
        if background && !all_stored {
            let state = Arc::clone(&self.state);
            let spawned = std::thread::Builder::new().name("codemode-embed".to_owned()).spawn(move || {
                let outcome = job.run(store, stored);
                let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
                state.release(fingerprint);
                match outcome {
                    Ok(vectors) => {
                        remember(&mut state, Arc::new(vectors));
                        state.failure = None;
                    }
                    Err(e) => state.failure = Some((fingerprint, e)),
                }
            });
            if let Err(e) = spawned {
                self.state.lock().unwrap_or_else(PoisonError::into_inner).release(fingerprint);
                return Err(EmbedError(format!("cannot start the embedding thread: {e}")));
            }
            return Err(EmbedError("the catalog is being embedded in the background".to_owned()));
        }
        let outcome = job.run(store, stored).map(Arc::new);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.release(fingerprint);
        let vectors = outcome?;
        remember(&mut state, Arc::clone(&vectors));
        state.failure = None;
        Ok(vectors)
    }

    /// Embeds every tool of `tools` now, waiting for it (otherwise the first semantic search
    /// does, or starts it in the background).
    pub fn warm(&self, tools: &ToolSet) -> Result<(), EmbedError> {
        self.catalog_vectors_in(tools, false).map(|_| ())
    }

    /// Starts embedding `tools` on a thread of its own unless its vectors are cached, and
    /// returns at once; search ranks lexically until it is done.
    pub fn warm_in_background(&self, tools: &ToolSet) {
        let _ = self.catalog_vectors_in(tools, true);
    }

    /// Whether the vectors of `tools` are ready (semantic search will not wait or fall back).
    pub fn is_ready(&self, tools: &ToolSet) -> bool {
        let (_, fingerprint) = self.fingerprint(tools);
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.catalogs.iter().any(|c| c.fingerprint == fingerprint)
    }

    /// Why the last background embedding failed, if it did.
    pub fn background_failure(&self) -> Option<EmbedError> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner).failure.as_ref().map(|(_, e)| e.clone())
    }

    /// Cosine similarity of the query to each tool of the scope (catalog indices), best first.
    pub(crate) fn similarities(
        &self,
        tools: &ToolSet,
        query: &str,
        scope: &[usize],
    ) -> Result<Vec<(usize, f64)>, EmbedError> {
        let catalog = self.catalog_vectors(tools)?;
        let mut query_vector = normalize(self.embedder.embed_query(query)?);
        if !catalog.mean.is_empty() && query_vector.len() == catalog.mean.len() {
            query_vector = centred(query_vector, &catalog.mean);
        }
        let mut scored: Vec<(usize, f64)> = scope
            .iter()
            .filter_map(|&i| catalog.vectors.get(i).map(|v| (i, dot(&query_vector, v))))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(scored)
    }

    /// Fuses a lexical ranking (catalog index, BM25F score; best first) with a semantic one
    /// (catalog index, cosine; best first). Every lexical hit stays; the best semantic
    /// results join them. `strength` (0–1) is how literally the best lexical hit matches the
    /// query (see [`Self::with_adaptive_weight`]). Returns (index, fused score, whether the
    /// semantic ranking put it among its candidates), best first.
    pub(crate) fn fuse(
        &self,
        lexical: &[(usize, f64)],
        semantic: &[(usize, f64)],
        strength: f64,
    ) -> Vec<(usize, f64, bool)> {
        let strength = if strength.is_finite() { strength.clamp(0.0, 1.0) } else { 0.0 };
        let semantic_weight =
            self.semantic_weight + (self.semantic_weight_unmatched - self.semantic_weight) * (1.0 - strength);
        let candidates = &semantic[..semantic.len().min(SEMANTIC_CANDIDATES)];
        let (lexical_part, semantic_part): (Vec<f64>, Vec<f64>) = match self.fusion {
            // `w / (60 + rank)`.
            Fusion::ReciprocalRank => (
                (0..lexical.len()).map(|rank| 1.0 / (RRF_K + rank as f64 + 1.0)).collect(),
                (0..candidates.len()).map(|rank| 1.0 / (RRF_K + rank as f64 + 1.0)).collect(),
            ),
            // Scores scaled to [0, 1]: BM25F by the best score, cosine min-max over the candidates.
            Fusion::Score => {
                let top = lexical.first().map_or(1.0, |(_, s)| *s).max(f64::MIN_POSITIVE);
                let high = candidates.first().map_or(0.0, |(_, s)| *s);
                let low = candidates.last().map_or(0.0, |(_, s)| *s);
                let span = (high - low).max(1e-9);
                (
                    lexical.iter().map(|(_, s)| s / top).collect(),
                    candidates.iter().map(|(_, s)| (s - low) / span).collect(),
                )
            }
        };
        let mut fused: Vec<(usize, f64, bool)> = lexical
            .iter()
            .zip(&lexical_part)
            .map(|(&(i, _), part)| (i, self.lexical_weight * part, false))
            .collect();
        for (&(i, cosine), part) in candidates.iter().zip(&semantic_part) {
            let contribution = semantic_weight * part;
            match fused.iter_mut().find(|entry| entry.0 == i) {
                Some(entry) => {
                    entry.1 += contribution;
                    entry.2 = true;
                }
                // A tool only the model puts forward must be somewhat close to the query.
                None if contribution > 0.0 && cosine > 0.0 => fused.push((i, contribution, true)),
                None => {}
            }
        }
        fused.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        fused
    }
}

impl State {
    /// Ends the claim on a catalog being embedded.
    fn release(&mut self, fingerprint: u64) {
        self.pending.retain(|&p| p != fingerprint);
    }
}

fn remember(state: &mut State, entry: Arc<CatalogVectors>) {
    if state.catalogs.len() >= CACHED_CATALOGS {
        state.catalogs.remove(0);
    }
    state.catalogs.push(entry);
}

/// Embedding one catalog: what a background thread is handed.
struct Job {
    embedder: Arc<dyn Embedder>,
    store_dir: Option<PathBuf>,
    centering: bool,
    texts: Vec<String>,
    fingerprint: u64,
}

impl Job {
    /// The disk cache and what it holds (nothing without one).
    fn stored(&self) -> (Option<VectorStore>, HashMap<u128, Vec<f32>>) {
        match &self.store_dir {
            Some(dir) => {
                let store = VectorStore::new(dir, self.embedder.model_id());
                let stored = store.load();
                (Some(store), stored)
            }
            None => (None, HashMap::new()),
        }
    }

    fn embed_checked(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let vectors = self.embedder.embed(texts)?;
        if vectors.len() != texts.len() {
            return Err(EmbedError(format!("{} vectors for {} texts", vectors.len(), texts.len())));
        }
        Ok(vectors.into_iter().map(normalize).collect())
    }

    /// Unit vectors of every text (from the disk cache where it has them), centred if asked;
    /// new vectors are saved to the disk cache as they come.
    fn run(
        self,
        store: Option<VectorStore>,
        mut stored: HashMap<u128, Vec<f32>>,
    ) -> Result<CatalogVectors, EmbedError> {
        let keys: Vec<u128> = self.texts.iter().map(|t| store.as_ref().map_or(0, |s| s.key(t))).collect();
        let mut vectors: Vec<Option<Vec<f32>>> = keys
            .iter()
            .map(|k| if store.is_some() { stored.get(k).map(|v| normalize(v.clone())) } else { None })
            .collect();
        let missing: Vec<usize> = (0..self.texts.len()).filter(|&i| vectors[i].is_none()).collect();
        let mut since_save = 0;
        for batch in missing.chunks(BATCH) {
            let refs: Vec<&str> = batch.iter().map(|&i| self.texts[i].as_str()).collect();
            for (&i, vector) in batch.iter().zip(self.embed_checked(&refs)?) {
                if store.is_some() {
                    stored.insert(keys[i], vector.clone());
                }
                vectors[i] = Some(vector);
            }
            since_save += batch.len();
            if since_save >= SAVE_EVERY {
                since_save = 0;
                save(store.as_ref(), &keys, &stored);
            }
        }
        if since_save > 0 {
            save(store.as_ref(), &keys, &stored);
        }
        let mut vectors: Vec<Vec<f32>> = vectors.into_iter().map(Option::unwrap_or_default).collect();
        let dimension = vectors.first().map_or(0, Vec::len);
        if vectors.iter().any(|v| v.len() != dimension) {
            return Err(EmbedError("vectors of different dimensions".to_owned()));
        }
        let mut mean = Vec::new();
        if self.centering && !vectors.is_empty() {
            let mut sum = vec![0f64; dimension];
            for vector in &vectors {
                for (m, x) in sum.iter_mut().zip(vector) {
                    *m += f64::from(*x);
                }
            }
            let count = vectors.len() as f64;
            mean = sum.iter().map(|m| (m / count) as f32).collect();
            vectors = vectors.into_iter().map(|v| centred(v, &mean)).collect();
        }
        Ok(CatalogVectors { fingerprint: self.fingerprint, vectors, mean })
    }
}

/// Saves the catalog's vectors (those computed so far) first, then the older ones.
fn save(store: Option<&VectorStore>, keys: &[u128], stored: &HashMap<u128, Vec<f32>>) {
    let Some(store) = store else { return };
    let current: Vec<(u128, &[f32])> =
        keys.iter().filter_map(|k| stored.get(k).map(|v| (*k, v.as_slice()))).collect();
    // A cache that cannot be written costs time on the next start, nothing else.
    let _ = store.save(&current, stored);
}
