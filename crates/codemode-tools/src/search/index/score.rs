//! Scoring: BM25F per query word (its best alternative), the coverage factor, the reference
//! runtime's path scoring, property-name hits, the namespace gate and the name boosts; and why
//! a tool matched. Term at a time over the index's postings: a tool without any of the
//! query's terms is never looked at (it scores 0).

use super::SearchIndex;
use super::doc::Doc;
use super::fields::{FIELDS, Field};
use super::query::Query;
use super::runs::{DESCRIPTION, OTHER, PATH};
use super::typo::Distance;
use crate::suggest::typo_budget;

const K1: f64 = 3.0;
/// k1 of the plain baseline: BM25's customary value.
const K1_PLAIN: f64 = 1.2;
/// Weight of a query word that is exactly an input property name, times ln(1 + tools / takers).
const PROPERTY_NAME_WEIGHT: f64 = 0.5;
/// Factor for a tool outside every namespace the query names.
const NAMESPACE_GATE: f64 = 0.7;

/// A tool with a positive score.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hit {
    /// The tool's index in the catalog.
    pub(crate) index: usize,
    pub(crate) score: f64,
    /// The fields a query word (or its synonym, related word or typo match) occurs in, bit
    /// `Field::index` (see [`SearchIndex::field_labels`]).
    pub(crate) fields: u16,
}

/// A query word for the reference scoring: its forms and per tool the texts containing the
/// shortest.
struct Word<'q> {
    forms: &'q [String],
    /// Per tool: the texts containing the shortest form ([`PATH`], [`DESCRIPTION`],
    /// [`OTHER`]) and, when no form has a `.`, [`SEGMENT`] if its last path segment is a form.
    masks: Vec<u8>,
    /// Whether some form has a `.` (then the path segment is compared per tool).
    dotted: bool,
}

/// Bit of [`Word::masks`]: the tool's last path segment is one of the word's forms.
const SEGMENT: u8 = 8;

/// The reference scoring's points per [`Word::masks`] value: 20 for a path segment, 8, 4
/// and 2 for a path, description and other text containing the word. Small integers, so
/// their sum over the words is exact, as is that sum taken in `f64`s in any order.
const POINTS: [u32; 16] = {
    let mut points = [0; 16];
    let mut mask = 0;
    while mask < 16 {
        let m = mask as u8;
        points[mask] = if m & SEGMENT != 0 { 20 } else { 0 }
            + if m & PATH != 0 { 8 } else { 0 }
            + if m & DESCRIPTION != 0 { 4 } else { 0 }
            + if m & OTHER != 0 { 2 } else { 0 };
        mask += 1;
    }
    points
};

impl SearchIndex {
    /// The tools with a positive score for `query` among those `in_scope` accepts, in catalog
    /// order. Term at a time: each alternative's postings give the tools that have it their
    /// BM25F score for it, so only tools with one of the query's terms are looked at, and the
    /// rest of the score is computed only for tools with a positive BM25F.
    pub(crate) fn scored(&self, query: &Query, in_scope: impl Fn(usize) -> bool) -> Vec<Hit> {
        let n = self.docs.len();
        let k1 = if query.plain { K1_PLAIN } else { K1 };
        let mut total = vec![0.0f64; n];
        let mut matched = vec![0u32; n];
        let mut fields = vec![0u16; n];
        // Per tool, the current word's best alternative so far; negative: not met yet.
        let mut best = vec![-1.0f64; n];
        let mut met: Vec<usize> = Vec::with_capacity(n);
        for alternatives in &query.ids {
            for &(id, weight) in alternatives {
                let postings = self.postings_of(id);
                if weight <= 0.0 {
                    // No score, but still a reason the tool matched.
                    for posting in postings {
                        if let Some(f) = fields.get_mut(posting.doc as usize) {
                            *f |= posting.fields;
                        }
                    }
                    continue;
                }
                let idf = self.idf_by_id.get(id as usize).copied().unwrap_or(0.0);
                for posting in postings {
                    let doc = posting.doc as usize;
                    let (Some(slot), Some(f)) = (best.get_mut(doc), fields.get_mut(doc)) else { continue };
                    *f |= posting.fields;
                    let weighted = if query.plain { posting.weighted_plain } else { posting.weighted };
                    let term =
                        if weighted == 0.0 { 0.0 } else { idf * weighted * (k1 + 1.0) / (k1 + weighted) };
                    if *slot < 0.0 {
                        *slot = 0.0;
                        met.push(doc);
                    }
                    *slot = slot.max(weight * term);
                }
            }
            for doc in met.drain(..) {
                let word = std::mem::replace(&mut best[doc], -1.0);
                if word > 0.0 {
                    matched[doc] += 1;
                }
                total[doc] += word;
            }
        }
        let mut distance = Distance::default();
        let words: Vec<Word<'_>> = query.reference_forms.iter().map(|forms| self.word(forms)).collect();
        let mut out = Vec::with_capacity(total.iter().filter(|&&bm25| bm25 > 0.0).count());
        for (index, doc) in self.docs.iter().enumerate() {
            let bm25 = total[index];
            if bm25 > 0.0 && in_scope(index) {
                let score =
                    self.finish(doc, index, query, &words, bm25, matched[index] as usize, &mut distance);
                if score > 0.0 {
                    out.push(Hit { index, score, fields: fields[index] });
                }
            }
        }
        out
    }

    /// The labels of the fields in a [`Hit::fields`] mask, in field order.
    pub(crate) fn field_labels(fields: u16) -> crate::search::Matches {
        // Bit by bit, lowest (first field) first: a ranking labels every hit, and most
        // masks have a bit or two.
        let mut labels = crate::search::Matches::new();
        let mut rest = fields;
        while rest != 0 {
            if let Some(field) = FIELDS.get(rest.trailing_zeros() as usize) {
                labels.push(field.label());
            }
            rest &= rest - 1;
        }
        labels
    }

    /// A query word's forms for [`Self::reference_points`], with which tools' texts contain
    /// the shortest (looked up once for all tools).
    fn word<'q>(&self, forms: &'q [String]) -> Word<'q> {
        // The forms are the word and prefixes of it (without `-es`, `-s`): a text contains one
        // of them exactly when it contains the shortest.
        // A query word's forms are lowercased alphanumeric chars (see `Query::reference_forms`),
        // which the runs answer for every text: no text needs searching here.
        let mut masks = vec![0u8; self.docs.len()];
        if let Some(shortest) = forms.iter().min_by_key(|form| form.len()) {
            let answered = self.runs.containing(shortest, &mut masks);
            debug_assert!(answered, "{shortest:?} is not a run");
        }
        let dotted = forms.iter().any(|form| form.contains('.'));
        if !dotted {
            // A form without `.` ends the path after a `.` or as a whole exactly when it is
            // the last segment: looked up once per query.
            for tools in forms.iter().filter_map(|form| self.by_name.get(form.as_str())) {
                for &tool in tools {
                    if let Some(mask) = masks.get_mut(tool as usize) {
                        *mask |= SEGMENT;
                    }
                }
            }
        }
        Word { forms, masks, dotted }
    }

    /// The reference runtime's per-word path/description scoring (scaled by the caller to
    /// break ties and to reward path hits: a word that is a path segment), in points.
    fn reference_points(doc: &Doc, index: usize, word: &Word<'_>) -> u32 {
        let mut mask = word.masks.get(index).copied().unwrap_or(0);
        if word.dotted
            && word.forms.iter().any(|form| {
                doc.path
                    .strip_suffix(form.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
            })
        {
            mask |= SEGMENT;
        }
        POINTS.get(usize::from(mask & 15)).copied().unwrap_or(0)
    }

    /// The fields of one document that a query word (or its synonym, related word or typo
    /// match) occurs in, in field order: why the tool matched.
    pub(crate) fn matched_fields(&self, doc_index: usize, query: &Query) -> crate::search::Matches {
        if doc_index >= self.docs.len() {
            return crate::search::Matches::new();
        }
        let mut found = 0u16;
        for (id, _) in query.ids.iter().flatten() {
            if let Some(posting) = self.posting(*id, doc_index) {
                found |= posting.fields;
            }
        }
        Self::field_labels(found)
    }

    /// How literally a document matches the query, in [0, 1]: per query word, the weight of
    /// its best alternative the document has (1 for the word itself, less for a synonym,
    /// another ending or a typo), averaged over the words. A paraphrase shares few words with
    /// the tool it means, so its best lexical hit scores low here.
    pub(crate) fn match_strength(&self, doc_index: usize, query: &Query) -> f64 {
        if doc_index >= self.docs.len() || query.ids.is_empty() {
            return 0.0;
        }
        let total: f64 = query
            .ids
            .iter()
            .map(|alternatives| {
                alternatives
                    .iter()
                    .filter(|(id, weight)| *weight > 0.0 && self.posting(*id, doc_index).is_some())
                    .map(|(_, weight)| weight.min(1.0))
                    .fold(0.0f64, f64::max)
            })
            .sum();
        total / query.terms.len().max(1) as f64
    }

    /// [`NAMESPACE_GATE`] when the query names namespaces and the document is in none of
    /// them, else 1.
    fn namespace_factor(&self, index: usize, query: &Query) -> f64 {
        let outside = !query.namespace_terms.is_empty()
            && !query.namespace_terms.iter().any(|&id| {
                self.posting(id, index).is_some_and(|p| p.fields & (1 << Field::Namespace.index()) != 0)
            });
        if outside { NAMESPACE_GATE } else { 1.0 }
    }

    /// The score of a document from its BM25F sum over the query's words (positive) and the
    /// number of words it matched.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        doc: &Doc,
        index: usize,
        query: &Query,
        words: &[Word<'_>],
        bm25: f64,
        matched: usize,
        distance: &mut Distance,
    ) -> f64 {
        let mut total = bm25;
        if !query.plain {
            // Tools matching more of the query's words rank above tools matching one word often.
            let coverage = matched as f64 / query.terms.len().max(1) as f64;
            total *= 0.4 + 0.6 * coverage;
            let reference: u32 = words.iter().map(|word| Self::reference_points(doc, index, word)).sum();
            total += f64::from(reference) / 40.0;
        }
        // A query word that is exactly an input property name of the tool (`jql`,
        // `repo_path`), weighted by how few tools take that property.
        let tools = self.docs.len().max(1) as f64;
        for &id in &query.property_ids {
            if doc.property_ids.binary_search(&id).is_ok() {
                let takers = f64::from(self.property_frequency.get(id as usize).copied().unwrap_or(1));
                total += PROPERTY_NAME_WEIGHT * (1.0 + tools / takers).ln();
            }
        }
        // A query that names a namespace ("copy a linear ticket") most likely means a tool of
        // it: tools elsewhere keep only part of their score.
        total *= self.namespace_factor(index, query);
        // Name boosts (the Go runtime): exact name, normalized name or path, fuzzy name.
        if query.raw == doc.name || query.raw == doc.path {
            total += 10.0;
        } else if !query.raw_normalized.is_empty()
            && (query.raw_normalized == doc.name_normalized || query.raw_normalized == doc.path_normalized)
        {
            total += 8.0;
        } else if query.raw_normalized.len() >= 4 {
            let budget = typo_budget(query.raw_normalized.len());
            // Lengths further apart than the budget are further apart in edits too.
            if query.raw_chars.len().abs_diff(doc.name_chars.len()) <= budget
                && query.raw_counts.may_be_within(&doc.name_counts, budget)
                && distance.within(&query.raw_chars, &doc.name_chars, budget) <= budget
            {
                total += 4.0;
            }
        }
        total
    }
}
