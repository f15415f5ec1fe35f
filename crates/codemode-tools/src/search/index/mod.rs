//! The ranking index: field-weighted BM25 (BM25F) over each tool's name, namespace path,
//! title, description, enclosing namespace descriptions, input/output schema properties and
//! the WordNet relatives of the name's words, plus exact / normalized / fuzzy name boosts (as
//! in the Go runtime) and the reference runtime's path scoring as a tie-breaking component; a
//! tool outside every namespace the query names keeps part of its score.
//!
//! Modules: [`fields`] (the fields and their weights), [`doc`] (a tool's analyzed text and the
//! builder that makes it), [`query`] (query analysis), [`score`] (scoring and match reasons),
//! [`typo`] (typo candidates from the vocabulary), [`runs`] (which tools' texts contain a word).
//! This one holds the index and builds it.

mod doc;
mod fields;
mod hash;
mod query;
mod runs;
mod score;
mod typo;

use std::sync::OnceLock;

use ahash::AHashSet;

use self::doc::{Builder, Doc};
use self::fields::{FIELD_COUNT, FIELDS, Field};
use self::hash::FxMap;
use self::runs::Runs;
use self::typo::ByLength;
use super::text::Words;
use crate::registry::{Registered, ToolDescription};

/// BM25's length normalization strength.
const B: f64 = 0.75;

/// One tool on a term's postings.
#[derive(Debug, Clone, Copy)]
struct Posting {
    /// The tool's index in the catalog.
    doc: u32,
    /// The fields the term occurs in, bit `Field::index`.
    fields: u16,
    /// BM25F's pseudo-frequency: the sum over fields of weight × tf / length norm.
    weighted: f64,
    /// The same without related words, for the plain baseline.
    weighted_plain: f64,
}

/// Every stem of some tool's text (document frequency above 0).
#[derive(Debug, Clone, Default)]
struct Vocabulary {
    /// Sorted, for prefix lookups.
    sorted: Vec<String>,
    /// By length, for typo candidates.
    by_length: ByLength,
}

/// The search index of a [`crate::ToolSet`]: built once with it.
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    docs: Vec<Doc>,
    /// Per term id: the tools having the term in any field, in catalog order, with what
    /// scoring needs of its frequencies there (the inverted index: ranking looks only at the
    /// tools on its query terms' lists). Term `id`'s list is
    /// `postings[posting_starts[id]..posting_starts[id + 1]]`: one allocation for all terms.
    postings: Vec<Posting>,
    posting_starts: Vec<u32>,
    /// Per term id: the number of tools containing it outside related words (0: the term is
    /// only a related word of some names).
    document_frequency: Vec<u32>,
    /// Every word of every tool name, so stopwords that name tools are kept in queries.
    name_vocabulary: AHashSet<String>,
    /// Normalized input property name → a dense id.
    property_ids: FxMap<String, u32>,
    /// Per property id: the number of tools that take it.
    property_frequency: Vec<u32>,
    /// The stems of the tools' text, sorted and by length: made at the first query that
    /// needs them (most of a build's cost would otherwise go to what few queries use).
    vocabulary: OnceLock<Vocabulary>,
    /// Every stem of any field → a dense id, so ranking looks a query term up once per query
    /// rather than once per field of every tool.
    term_ids: FxMap<String, u32>,
    /// IDF per term id.
    idf_by_id: Vec<f64>,
    /// Per term id: the share of the tools using it (outside related words) that have it in
    /// their namespace path.
    namespace_share: Vec<f64>,
    /// Which tools' path, description and other text contain a word.
    runs: Runs,
    /// Each lowercased last path segment → the tools it ends (ascending), so a query word's
    /// path-segment hits are looked up once per query rather than compared per tool.
    by_name: FxMap<String, Vec<u32>>,
    /// Whether the catalog is in path order (it is, paths being unique): then ties of score
    /// are broken by catalog index rather than by comparing paths.
    pub(crate) path_ordered: bool,
}

impl SearchIndex {
    /// Indexes the registered tools (in catalog order).
    pub(crate) fn new(registered: &[Registered], catalog: &[ToolDescription]) -> Self {
        let mut builder = Builder::new(registered.len());
        let docs: Vec<Doc> = registered.iter().map(|r| builder.doc(r)).collect();
        let runs = builder.runs.build();
        let term_ids = builder.ids;
        let terms = term_ids.len();
        let mut totals = [0f64; FIELD_COUNT];
        // Per term id: the tools having it in any field, then where its postings start.
        let mut posting_starts: Vec<u32> = vec![0; terms + 1];
        let mut document_frequency: Vec<u32> = vec![0; terms];
        let mut namespace_by_id: Vec<u32> = vec![0; terms];
        for doc in &docs {
            for field in FIELDS {
                totals[field.index()] += f64::from(doc.lengths[field.index()]);
            }
        }
        for (id, frequencies) in &builder.entries {
            let id = *id as usize;
            if let Some(count) = posting_starts.get_mut(id + 1) {
                *count += 1;
            }
            // Related words are not the tool's text: they do not make a word common.
            let in_text = FIELDS.iter().any(|f| *f != Field::NameRelated && frequencies[f.index()] > 0);
            if in_text && let Some(df) = document_frequency.get_mut(id) {
                *df += 1;
            }
            if frequencies[Field::Namespace.index()] > 0
                && let Some(count) = namespace_by_id.get_mut(id)
            {
                *count += 1;
            }
        }
        for i in 1..posting_starts.len() {
            posting_starts[i] += posting_starts[i - 1];
        }
        let count = docs.len().max(1) as f64;
        let average_lengths = totals.map(|t| (t / count).max(1.0));
        // Each term's next free posting; tools are taken in order, so each list is by tool.
        let mut next: Vec<u32> = posting_starts.clone();
        let empty = Posting { doc: 0, fields: 0, weighted: 0.0, weighted_plain: 0.0 };
        let mut postings: Vec<Posting> = vec![empty; builder.entries.len()];
        let mut from = 0;
        for (i, (doc, &end)) in docs.iter().zip(&builder.doc_ends).enumerate() {
            let mut norms = [0f64; FIELD_COUNT];
            for ((norm, &length), average) in norms.iter_mut().zip(&doc.lengths).zip(average_lengths) {
                *norm = 1.0 - B + B * f64::from(length) / average;
            }
            for (id, frequencies) in builder.entries.get(from..end as usize).unwrap_or(&[]) {
                // Summed in field order, related words (the last field) last: the plain sum is
                // the full one before its last term.
                let (mut weighted, mut weighted_plain, mut fields) = (0.0, 0.0, 0u16);
                for field in FIELDS {
                    let f = field.index();
                    let tf = frequencies[f];
                    if tf > 0 {
                        weighted += field.weight() * f64::from(tf) / norms[f];
                        if field != Field::NameRelated {
                            weighted_plain = weighted;
                        }
                        fields |= 1 << f;
                    }
                }
                if let Some(at) = next.get_mut(*id as usize)
                    && let Some(slot) = postings.get_mut(*at as usize)
                {
                    *slot = Posting { doc: i as u32, fields, weighted, weighted_plain };
                    *at += 1;
                }
            }
            from = end as usize;
        }
        let mut name_vocabulary = AHashSet::new();
        let mut words = Words::default();
        for r in registered {
            words.each(r.path.rsplit('.').next().unwrap_or(&r.path), |word| {
                if !name_vocabulary.contains(word) {
                    name_vocabulary.insert(word.to_owned());
                }
            });
        }
        let property_ids = std::mem::take(&mut builder.property_ids);
        let mut property_frequency: Vec<u32> = vec![0; property_ids.len()];
        for doc in &docs {
            for &id in &doc.property_ids {
                if let Some(count) = property_frequency.get_mut(id as usize) {
                    *count += 1;
                }
            }
        }
        let mut by_name: FxMap<String, Vec<u32>> = FxMap::default();
        for (i, doc) in docs.iter().enumerate() {
            if let Some(name) = doc.path.get(doc.last_segment..) {
                by_name.entry(name.to_owned()).or_default().push(i as u32);
            }
        }
        let n = docs.len() as f64;
        let idf_by_id = document_frequency
            .iter()
            .map(|&df| {
                let df = f64::from(df);
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            })
            .collect();
        let namespace_share = document_frequency
            .iter()
            .zip(&namespace_by_id)
            .map(|(&df, &ns)| if df == 0 { 0.0 } else { f64::from(ns) / f64::from(df) })
            .collect();
        Self {
            docs,
            postings,
            posting_starts,
            document_frequency,
            name_vocabulary,
            property_ids,
            property_frequency,
            vocabulary: OnceLock::new(),
            term_ids,
            idf_by_id,
            namespace_share,
            runs,
            by_name,
            path_ordered: catalog.windows(2).all(|pair| pair[0].path < pair[1].path),
        }
    }

    /// The postings of term `id`: the tools having it, ascending.
    fn postings_of(&self, id: u32) -> &[Posting] {
        let id = id as usize;
        match (self.posting_starts.get(id), self.posting_starts.get(id + 1)) {
            (Some(&start), Some(&end)) => self.postings.get(start as usize..end as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Tool `doc`'s posting of term `id`, if it has the term.
    fn posting(&self, id: u32, doc: usize) -> Option<&Posting> {
        let list = self.postings_of(id);
        list.binary_search_by_key(&(doc as u32), |p| p.doc).ok().and_then(|i| list.get(i))
    }

    /// The vocabulary, made at the first call.
    fn vocabulary(&self) -> &Vocabulary {
        self.vocabulary.get_or_init(|| {
            let mut sorted: Vec<String> = self
                .term_ids
                .iter()
                .filter(|&(_, &id)| self.document_frequency.get(id as usize).is_some_and(|&df| df > 0))
                .map(|(term, _)| term.clone())
                .collect();
            sorted.sort_unstable();
            Vocabulary { by_length: ByLength::new(&sorted), sorted }
        })
    }

    /// Whether some tool's own text (not only a name's related words) has the stem.
    fn in_text(&self, term: &str) -> bool {
        self.term_ids
            .get(term)
            .is_some_and(|&id| self.document_frequency.get(id as usize).is_some_and(|&df| df > 0))
    }
}
