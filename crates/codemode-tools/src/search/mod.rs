//! Search over a [`ToolSet`]: the `search({ query?, namespace?, limit?, offset? })` built-in
//! with the reference runtime's exact-path lookup, namespace scoping, empty-query browsing and
//! pagination, ranked by [`SearchIndex`] (BM25F, see `index/`); plus a regex search for hosts.

mod index;
#[cfg(feature = "embeddings")]
pub mod model;
pub mod regex;
mod semantic;
pub mod text;
pub mod thesaurus;
mod vector_store;

pub use index::SearchIndex;
pub use semantic::{EmbedError, Embedder, Fusion, SemanticRanker, ToolText, tool_text};
use serde::{Deserialize, Serialize};
use serde_json::Value;
pub use thesaurus::ThesaurusEmbedder;

use crate::error::ToolError;
use crate::names::{parse_expression, tool_expression};
use crate::registry::{ToolDescription, ToolSet};

/// Results per page when `limit` is not given.
pub const DEFAULT_LIMIT: usize = 10;

/// A search request, as the program passes it to `search(...)`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct SearchRequest {
    /// Words, a tool path (`orders.lookup`) or expression (`tools.orders.lookup`); empty browses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Restricts results to tools under this namespace path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Page size (positive); defaults to [`DEFAULT_LIMIT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
    /// Items to skip; defaults to 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<usize>,
}

impl SearchRequest {
    /// A request for `query` with defaults.
    pub fn query(query: impl Into<String>) -> Self {
        Self { query: Some(query.into()), ..Self::default() }
    }

    /// Scopes the request to a namespace.
    #[must_use]
    pub fn in_namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = Some(namespace.into());
        self
    }

    /// Sets the page size.
    #[must_use]
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Sets the offset.
    #[must_use]
    pub fn offset(mut self, offset: usize) -> Self {
        self.offset = Some(offset);
        self
    }
}

/// One search hit: the callable expression as `path`, description, signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchItem {
    /// The callable expression (`tools.orders.lookup`), as the reference returns it.
    pub path: String,
    /// The tool's description.
    pub description: String,
    /// The tool's signature.
    pub signature: String,
    /// Why it matched: the fields a query word occurs in (`name`, `description`,
    /// `input property`, …) and `semantic` when the embedding ranker put it forward; empty for
    /// exact-path and browse results (then not serialized).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<String>,
}

/// Where the next page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextPage {
    /// Offset of the next page.
    pub offset: usize,
}

/// A page of results: `{ items, remaining, next: { offset } | null }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchResponse {
    /// This page.
    pub items: Vec<SearchItem>,
    /// How many ranked results come after this page.
    pub remaining: usize,
    /// The next page, or `null` when none remain.
    pub next: Option<NextPage>,
}

/// A ranked hit with its score, for hosts and tests.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredHit<'a> {
    /// The catalog entry (canonical dotted path).
    pub tool: &'a ToolDescription,
    /// Relevance; higher is better. Exact-path and browse results have score 0. With a
    /// semantic ranker attached this is the fused (reciprocal-rank) score.
    pub score: f64,
    /// Why it matched (see [`SearchItem::matches`]).
    pub matches: Matches,
}

/// The labels of the fields a hit matched in (and `semantic`): a handful at most, kept inline,
/// since a ranking labels every hit (hundreds per query).
pub type Matches = smallvec::SmallVec<[&'static str; 4]>;

pub(crate) fn in_namespace(path: &str, namespace: &str) -> bool {
    namespace.is_empty()
        || path == namespace
        || (path.starts_with(namespace) && path[namespace.len()..].starts_with('.'))
}

/// Accepts `orders`, `tools.orders` and `tools["orders"]` for a namespace or path argument.
pub(crate) fn canonical(text: &str) -> String {
    let trimmed = text.trim();
    if trimmed == crate::names::ROOT {
        return String::new();
    }
    parse_expression(trimmed).unwrap_or_else(|| trimmed.to_owned())
}

impl ToolSet {
    /// Ranks tools for a query within an optional namespace: an exact path (or expression)
    /// returns that tool alone; an empty query lists the scope by path; otherwise tools with a
    /// positive score, best first, ties by path.
    pub fn rank(&self, query: &str, namespace: Option<&str>) -> Vec<ScoredHit<'_>> {
        let namespace = namespace.map(canonical).unwrap_or_default();
        let catalog = self.catalog();
        let scoped: Vec<usize> =
            (0..catalog.len()).filter(|&i| in_namespace(&catalog[i].path, &namespace)).collect();
        let trimmed = query.trim();
        if !trimmed.is_empty() {
            let path = canonical(trimmed);
            if let Some(&i) = scoped.iter().find(|&&i| catalog[i].path == path || catalog[i].path == trimmed)
            {
                return vec![ScoredHit { tool: &catalog[i], score: 0.0, matches: Matches::new() }];
            }
        }
        let index = self.index();
        let analyzed = index.analyze(query);
        if SearchIndex::is_empty_query(&analyzed) {
            return scoped
                .into_iter()
                .map(|i| ScoredHit { tool: &catalog[i], score: 0.0, matches: Matches::new() })
                .collect();
        }
        let mut hits = index.scored(&analyzed, |i| in_namespace(&catalog[i].path, &namespace));
        // Paths are unique, so the order is total: an unstable sort gives the same. In a
        // catalog in path order, the index orders as the path does, and is cheaper to compare.
        if index.path_ordered {
            // One integer key per hit, made once (a key function would be called twice per
            // comparison): the score's bits mapped to an order that is `total_cmp`'s,
            // reversed (best first), then the hit's position, which is in catalog order
            // (`scored` returns hits by index), so ties go by index, that is by path.
            let mut keys: Vec<u128> = hits
                .iter()
                .enumerate()
                .map(|(position, hit)| {
                    let bits = hit.score.to_bits() as i64;
                    let ordered = (bits ^ (((bits >> 63) as u64) >> 1) as i64) as u64 ^ (1 << 63);
                    (u128::from(!ordered) << 64) | position as u128
                })
                .collect();
            keys.sort_unstable();
            hits = keys.iter().filter_map(|&key| hits.get(key as u64 as usize).copied()).collect();
        } else {
            hits.sort_unstable_by(|a, b| {
                b.score.total_cmp(&a.score).then_with(|| catalog[a.index].path.cmp(&catalog[b.index].path))
            });
        }
        if let Some(ranker) = self.semantic_ranker()
            && let Ok(semantic) = ranker.similarities(self, trimmed, &scoped)
        {
            // How literally the best lexical hit matches: the less, the more the model counts.
            let lexical: Vec<(usize, f64)> = hits.iter().map(|hit| (hit.index, hit.score)).collect();
            let strength = lexical.first().map_or(0.0, |&(i, _)| index.match_strength(i, &analyzed));
            return ranker
                .fuse(&lexical, &semantic, strength)
                .into_iter()
                .map(|(i, score, by_meaning)| {
                    let mut matches = index.matched_fields(i, &analyzed);
                    if by_meaning {
                        matches.push("semantic");
                    }
                    ScoredHit { tool: &catalog[i], score, matches }
                })
                .collect();
        }
        hits.into_iter()
            .map(|hit| ScoredHit {
                tool: &catalog[hit.index],
                score: hit.score,
                matches: SearchIndex::field_labels(hit.fields),
            })
            .collect()
    }

    /// The semantic ranking alone (cosine similarity, best first), when a ranker is attached
    /// and embedding works; for measuring it in the search evaluation.
    #[doc(hidden)]
    pub fn rank_semantic(&self, query: &str) -> Vec<ScoredHit<'_>> {
        let catalog = self.catalog();
        let scope: Vec<usize> = (0..catalog.len()).collect();
        let Some(ranker) = self.semantic_ranker() else { return Vec::new() };
        ranker
            .similarities(self, query, &scope)
            .unwrap_or_default()
            .into_iter()
            .map(|(i, score)| ScoredHit {
                tool: &catalog[i],
                score,
                matches: smallvec::smallvec!["semantic"],
            })
            .collect()
    }

    /// A plain BM25F ranking over the same index — field weights and the Go runtime's name
    /// boosts, without this crate's query expansion (abbreviations, synonyms, other endings,
    /// typo terms), the names' WordNet relatives, coverage factor or path scoring. It exists to measure those against a Go-style baseline
    /// in the search-quality test; use [`ToolSet::rank`].
    #[doc(hidden)]
    pub fn rank_plain_bm25(&self, query: &str) -> Vec<ScoredHit<'_>> {
        let catalog = self.catalog();
        let index = self.index();
        let analyzed = index.analyze_plain(query);
        let mut hits: Vec<ScoredHit<'_>> = index
            .scored(&analyzed, |_| true)
            .into_iter()
            .map(|hit| ScoredHit { tool: &catalog[hit.index], score: hit.score, matches: Matches::new() })
            .collect();
        hits.sort_unstable_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.tool.path.cmp(&b.tool.path)));
        hits
    }

    /// The `search` built-in as a host API.
    pub fn search(&self, request: &SearchRequest) -> SearchResponse {
        let ranked = self.rank(request.query.as_deref().unwrap_or(""), request.namespace.as_deref());
        let offset = request.offset.unwrap_or(0);
        let limit = request.limit.unwrap_or(DEFAULT_LIMIT);
        let items: Vec<SearchItem> = ranked
            .iter()
            .skip(offset)
            .take(limit)
            .map(|hit| SearchItem {
                path: tool_expression(&hit.tool.path),
                description: hit.tool.description.clone(),
                signature: hit.tool.signature.clone(),
                matches: hit.matches.iter().map(|m| (*m).to_owned()).collect(),
            })
            .collect();
        let remaining = ranked.len().saturating_sub(offset).saturating_sub(items.len());
        let next = (remaining > 0).then_some(NextPage { offset: offset + items.len() });
        SearchResponse { items, remaining, next }
    }

    /// The `search` built-in on JSON, as the program calls it: checks the argument (an object
    /// with optional string `query`/`namespace`, positive integer `limit`, non-negative integer
    /// `offset`; other keys are ignored) and returns the response as JSON. The error is an
    /// `InvalidInput` whose message names the path and the expectation (without a
    /// "Invalid input for tool 'search'" prefix: the caller adds its own framing).
    pub fn search_json(&self, input: &Value) -> Result<Value, ToolError> {
        let request = parse_request(input)?;
        serde_json::to_value(self.search(&request)).map_err(ToolError::internal)
    }
}

fn parse_request(input: &Value) -> Result<SearchRequest, ToolError> {
    let object = match input {
        Value::Null => return Ok(SearchRequest::default()),
        Value::Object(object) => object,
        other => {
            return Err(ToolError::invalid_input(format!(
                "at input: expected object, got {}",
                json_type(other)
            )));
        }
    };
    let string = |key: &str| -> Result<Option<String>, ToolError> {
        match object.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(ToolError::invalid_input(format!(
                "at input.{key}: expected string, got {}",
                json_type(other)
            ))),
        }
    };
    let integer = |key: &str, min: u64| -> Result<Option<usize>, ToolError> {
        match object.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => {
                let value = n
                    .as_u64()
                    .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64));
                match value {
                    Some(v) if v >= min => Ok(Some(usize::try_from(v).unwrap_or(usize::MAX))),
                    _ => Err(ToolError::invalid_input(format!(
                        "at input.{key}: expected an integer >= {min}, got {n}"
                    ))),
                }
            }
            Some(other) => Err(ToolError::invalid_input(format!(
                "at input.{key}: expected an integer >= {min}, got {}",
                json_type(other)
            ))),
        }
    };
    Ok(SearchRequest {
        query: string("query")?,
        namespace: string("namespace")?,
        limit: integer("limit", 1)?,
        offset: integer("offset", 0)?,
    })
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
