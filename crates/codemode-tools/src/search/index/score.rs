//! Scoring: BM25F per query word (its best alternative), the coverage factor, the reference
//! runtime's path scoring, property-name hits, the namespace gate and the name boosts; and why
//! a tool matched. Only the tools holding one of the query's terms are scored (the index's
//! postings per term): every other tool scores 0.

use super::SearchIndex;
use super::doc::Doc;
use super::fields::{FIELDS, Field};
use super::query::Query;
use crate::suggest::{edit_distance, typo_budget};

const K1: f64 = 3.0;
/// k1 of the plain baseline: BM25's customary value.
const K1_PLAIN: f64 = 1.2;
/// Weight of a query word that is exactly an input property name, times ln(1 + tools / takers).
const PROPERTY_NAME_WEIGHT: f64 = 0.5;
/// Factor for a tool outside every namespace the query names.
const NAMESPACE_GATE: f64 = 0.7;

impl SearchIndex {
    /// The tools with a positive score for `query` among those `in_scope` accepts, by index,
    /// in catalog order. A tool without any of the query's terms (alternatives with a weight)
    /// scores 0, so only the tools on those terms' postings are scored.
    pub(crate) fn scored(&self, query: &Query, in_scope: impl Fn(usize) -> bool) -> Vec<(usize, f64)> {
        let mut candidate = vec![false; self.docs.len()];
        for &(id, weight) in query.ids.iter().flatten() {
            if weight > 0.0 {
                for &doc in self.tools_by_term.get(id as usize).map_or(&[][..], Vec::as_slice) {
                    if let Some(slot) = candidate.get_mut(doc as usize) {
                        *slot = true;
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (i, (doc, &is_candidate)) in self.docs.iter().zip(&candidate).enumerate() {
            if is_candidate && in_scope(i) {
                let score = self.score(doc, query);
                if score > 0.0 {
                    out.push((i, score));
                }
            }
        }
        out
    }

    /// The BM25F score of one term alternative (by id) in one document.
    fn term_score(&self, doc: &Doc, id: u32, plain: bool) -> f64 {
        let Some(frequencies) = doc.frequencies(id) else { return 0.0 };
        let k1 = if plain { K1_PLAIN } else { K1 };
        let mut weighted = 0.0;
        for field in FIELDS {
            // The plain baseline knows only the tool's own text.
            if plain && field == Field::NameRelated {
                continue;
            }
            let i = field.index();
            let tf = frequencies[i];
            if tf > 0 {
                weighted += field.weight() * f64::from(tf) / doc.norms[i];
            }
        }
        if weighted == 0.0 {
            return 0.0;
        }
        let idf = self.idf_by_id.get(id as usize).copied().unwrap_or(0.0);
        idf * weighted * (k1 + 1.0) / (k1 + weighted)
    }

    /// The reference runtime's per-word path/description scoring, scaled to break ties and to
    /// reward path hits (a word that is a path segment).
    fn reference_score(doc: &Doc, forms: &[String]) -> f64 {
        let any = |f: &dyn Fn(&str) -> bool| forms.iter().any(|form| f(form));
        let mut score = 0.0;
        let segment = |form: &str| {
            doc.path.strip_suffix(form).is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
        };
        if any(&segment) {
            score += 20.0;
        }
        if any(&|form| doc.path.contains(form)) {
            score += 8.0;
        }
        if any(&|form| doc.description.contains(form)) {
            score += 4.0;
        }
        if any(&|form| doc.other_text.contains(form)) {
            score += 2.0;
        }
        score
    }

    /// The fields of one document that a query word (or its synonym, related word or typo
    /// match) occurs in, in field order: why the tool matched.
    pub(crate) fn matched_fields(&self, doc_index: usize, query: &Query) -> Vec<&'static str> {
        let Some(doc) = self.docs.get(doc_index) else { return Vec::new() };
        let mut found = [false; 10];
        for (id, _) in query.ids.iter().flatten() {
            if let Some(frequencies) = doc.frequencies(*id) {
                for (seen, &tf) in found.iter_mut().zip(frequencies) {
                    *seen |= tf > 0;
                }
            }
        }
        FIELDS.into_iter().filter(|field| found[field.index()]).map(Field::label).collect()
    }

    /// How literally a document matches the query, in [0, 1]: per query word, the weight of
    /// its best alternative the document has (1 for the word itself, less for a synonym,
    /// another ending or a typo), averaged over the words. A paraphrase shares few words with
    /// the tool it means, so its best lexical hit scores low here.
    pub(crate) fn match_strength(&self, doc_index: usize, query: &Query) -> f64 {
        let Some(doc) = self.docs.get(doc_index) else { return 0.0 };
        if query.ids.is_empty() {
            return 0.0;
        }
        let total: f64 = query
            .ids
            .iter()
            .map(|alternatives| {
                alternatives
                    .iter()
                    .filter(|(id, weight)| *weight > 0.0 && doc.frequencies(*id).is_some())
                    .map(|(_, weight)| weight.min(1.0))
                    .fold(0.0f64, f64::max)
            })
            .sum();
        total / query.terms.len().max(1) as f64
    }

    /// [`NAMESPACE_GATE`] when the query names namespaces and the document is in none of
    /// them, else 1.
    fn namespace_factor(doc: &Doc, query: &Query) -> f64 {
        let outside = !query.namespace_terms.is_empty()
            && !query
                .namespace_terms
                .iter()
                .any(|&id| doc.frequencies(id).is_some_and(|f| f[Field::Namespace.index()] > 0));
        if outside { NAMESPACE_GATE } else { 1.0 }
    }

    /// Scores one document; `0` means not relevant.
    fn score(&self, doc: &Doc, query: &Query) -> f64 {
        let mut total = 0.0;
        let mut matched = 0usize;
        for alternatives in &query.ids {
            let best = alternatives
                .iter()
                .filter(|(_, weight)| *weight > 0.0)
                .map(|(id, weight)| weight * self.term_score(doc, *id, query.plain))
                .fold(0.0f64, f64::max);
            if best > 0.0 {
                matched += 1;
            }
            total += best;
        }
        if total <= 0.0 {
            return 0.0;
        }
        if !query.plain {
            // Tools matching more of the query's words rank above tools matching one word often.
            let coverage = matched as f64 / query.terms.len().max(1) as f64;
            total *= 0.4 + 0.6 * coverage;
            let reference: f64 =
                query.reference_forms.iter().map(|forms| Self::reference_score(doc, forms)).sum();
            total += reference / 40.0;
        }
        // A query word that is exactly an input property name of the tool (`jql`,
        // `repo_path`), weighted by how few tools take that property.
        let tools = self.docs.len().max(1) as f64;
        for name in &query.property_names {
            if doc.property_names.binary_search(name).is_ok() {
                let takers = f64::from(self.property_frequency.get(name.as_str()).copied().unwrap_or(1));
                total += PROPERTY_NAME_WEIGHT * (1.0 + tools / takers).ln();
            }
        }
        // A query that names a namespace ("copy a linear ticket") most likely means a tool of
        // it: tools elsewhere keep only part of their score.
        total *= Self::namespace_factor(doc, query);
        // Name boosts (the Go runtime): exact name, normalized name or path, fuzzy name.
        if query.raw == doc.name || query.raw == doc.path {
            total += 10.0;
        } else if !query.raw_normalized.is_empty()
            && (query.raw_normalized == doc.name_normalized || query.raw_normalized == doc.path_normalized)
        {
            total += 8.0;
        } else if query.raw_normalized.len() >= 4 {
            let budget = typo_budget(query.raw_normalized.len());
            // Names more letters apart than the budget are not typos of the query (checked
            // before `edit_distance`, which allocates).
            let apart = query.raw_normalized_chars.abs_diff(doc.name_normalized_chars);
            if apart <= budget && edit_distance(&query.raw_normalized, &doc.name_normalized, budget) <= budget
            {
                total += 4.0;
            }
        }
        total
    }
}
