//! Query analysis: a query's words with their alternatives (synonyms, WordNet relatives kept
//! to the catalog's words, other endings, typo matches, multi-word verbs) and discounts, looked
//! up in the index's vocabulary once per query.

use super::SearchIndex;
use super::doc::normalized;
use super::typo::{Counts, Distance};
use crate::search::text::{expand_abbreviation, is_stopword, stem, synonyms, words};
use crate::search::thesaurus;
use crate::suggest::typo_budget;

/// Discount for a query word matched through a synonym.
const SYNONYM_DISCOUNT: f64 = 0.45;
/// Discount for a query word matched through another ending of it (`watch` → `watcher`).
const MORPHOLOGY_DISCOUNT: f64 = 0.5;
/// Stems shorter than this have no morphological relatives (`list` is not `listen`).
const MORPHOLOGY_MIN_STEM: usize = 5;
/// Letters by which a morphological relative may be longer than the stem it extends.
const MORPHOLOGY_MAX_EXTRA: usize = 3;
/// Discount for a query word matched through the WordNet thesaurus.
const THESAURUS_DISCOUNT: f64 = 0.0;
/// Discount for a multi-word verb of a query (`throw away`) matched through its WordNet
/// relatives (`discard`, `remove`).
const PHRASE_DISCOUNT: f64 = 0.45;
/// Weight of a multi-word verb's first word taken literally (`throw`).
const PHRASE_HEAD_WEIGHT: f64 = 0.3;
/// Weight of a question form's adjective taken literally (`many` of `how many`).
const QUESTION_ADJECTIVE_WEIGHT: f64 = 0.0;
/// A query word names a namespace when at least this share of the tools using it have it in
/// their namespace path (`linear`, `github`, `trello`; not `search` of `brave_search`).
const NAMESPACE_SHARE: f64 = 0.5;
/// Bytes of a query that are analyzed; the rest is ignored.
const MAX_QUERY_BYTES: usize = 1024;
/// Words of a query that are analyzed.
const MAX_QUERY_WORDS: usize = 32;
/// Longer "words" (hashes, blobs) are skipped: they cannot be meant as search terms.
const MAX_WORD_BYTES: usize = 64;
/// Weight of a stopword kept in a query (see [`SearchIndex::analyze`]).
const STOPWORD_WEIGHT: f64 = 0.3;
/// Discount for a query word matched through a near-typo.
const FUZZY_DISCOUNT: f64 = 0.6;

/// The longest prefix of `text` of at most `max` bytes, on a char boundary.
fn truncate(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `README.md`, `*.toml`, `src/main.rs`: a word, a dot, and a short alphabetic extension.
fn looks_like_file_name(token: &str) -> bool {
    let token = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '*');
    match token.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty() && (1..=4).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

/// Removes the multi-word verbs (`throw away`, `get rid of`, `logged in`) and question forms
/// (`how big`, `how many`) of a query's words, returning each one's own word (a verb's first
/// word, a question's adjective) and WordNet relatives.
fn take_phrases(all: &mut Vec<String>) -> Vec<(String, f64, Vec<&'static str>)> {
    let mut out = Vec::new();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let mut found = None;
        for len in [3usize, 2] {
            let Some(window) = all.get(i..i + len) else { continue };
            let first = &window[0];
            let rest = window[1..].join("_");
            // The first word as written, or the base of an `-ed`/`-ing` form (`logged` → `log`,
            // `staged` → `stage`); not a plural's (`files in` is not `file in`).
            let mut heads = vec![first.clone()];
            if first.ends_with("ed") || first.ends_with("ing") {
                let base = stem(first);
                heads.push(format!("{base}e"));
                heads.push(base);
            }
            for head in heads {
                let related = thesaurus::related(&format!("{head}_{rest}"));
                if !related.is_empty() {
                    // A question form's (`how big`) own word is its adjective, not `how`.
                    let (head, weight) = if is_stopword(&head) {
                        (window[len - 1].clone(), QUESTION_ADJECTIVE_WEIGHT)
                    } else {
                        (head, PHRASE_HEAD_WEIGHT)
                    };
                    found = Some((len, head, weight, related));
                    break;
                }
            }
            if found.is_some() {
                break;
            }
        }
        match found {
            Some((len, head, weight, related)) => {
                out.push((head, weight, related));
                i += len;
            }
            None => {
                kept.push(all[i].clone());
                i += 1;
            }
        }
    }
    *all = kept;
    out
}

/// A query after analysis: each meaningful word with its alternatives and their discounts.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    /// The query lowercased and trimmed.
    pub(super) raw: String,
    pub(super) raw_normalized: String,
    /// `raw_normalized`'s chars and their counts, for the fuzzy name boost.
    pub(super) raw_chars: Vec<char>,
    pub(super) raw_counts: Counts,
    /// Per word: (stem, weight) alternatives, the word's own stem first with weight 1.
    pub(super) terms: Vec<Vec<(String, f64)>>,
    /// Per word: the alternatives some tool has, as (term id, weight).
    pub(super) ids: Vec<Vec<(u32, f64)>>,
    /// Per word: the reference's forms (the word, minus `-es`, minus `-s`). Each is a
    /// non-empty string of lowercased alphanumeric chars (a word of [`words`] or of an
    /// abbreviation's phrase, or a prefix of one), so it has no byte that separates runs:
    /// [`super::runs::Runs`] answers which texts contain it.
    pub(super) reference_forms: Vec<Vec<String>>,
    /// The plain-BM25 baseline: no coverage factor or reference scoring, BM25's usual k1.
    pub(super) plain: bool,
    /// Query tokens (split on spaces and punctuation other than `_`), normalized, that some
    /// tool takes as an input property: `repo_path`, `labelSelector`, `latitude`; as
    /// property ids, in the names' order.
    pub(super) property_ids: Vec<u32>,
    /// Ids of the query's own words (not their alternatives) that name a namespace: most tools
    /// using them are in a namespace of that name (see [`NAMESPACE_SHARE`]).
    pub(super) namespace_terms: Vec<u32>,
}

impl SearchIndex {
    /// Indexed stems that are the same word with another ending, which the light stemmer
    /// does not fold: `watch` → `watcher`, `deploy` → `deployment`, `recently` → `recent`,
    /// `relation` → `relat`. Both must be alphabetic, the shorter at least
    /// [`MORPHOLOGY_MIN_STEM`] letters and a prefix of the longer, which adds at most
    /// [`MORPHOLOGY_MAX_EXTRA`] letters.
    fn morphological_relatives(&self, own: &str) -> Vec<String> {
        if own.len() < MORPHOLOGY_MIN_STEM || !own.bytes().all(|b| b.is_ascii_lowercase()) {
            return Vec::new();
        }
        let vocabulary = &self.vocabulary().sorted;
        let start = vocabulary.partition_point(|t| t.as_str() < own);
        let mut out: Vec<String> = vocabulary[start..]
            .iter()
            .take_while(|t| t.starts_with(own))
            .filter(|t| {
                t.len() > own.len()
                    && t.len() <= own.len() + MORPHOLOGY_MAX_EXTRA
                    && t.bytes().all(|b| b.is_ascii_lowercase())
            })
            .cloned()
            .collect();
        // `own` is ASCII, so every cut is a char boundary.
        for cut in (MORPHOLOGY_MIN_STEM.max(own.len().saturating_sub(MORPHOLOGY_MAX_EXTRA))..own.len()).rev()
        {
            let prefix = &own[..cut];
            if self.in_text(prefix) {
                out.push(prefix.to_owned());
            }
        }
        out
    }

    /// Analyzes a query against this index's vocabulary (fuzzy matches need it).
    pub(crate) fn analyze(&self, query: &str) -> Query {
        self.analyze_with(query, false)
    }

    /// Analyzes a query for the plain BM25 baseline: stopwords dropped, nothing added (no
    /// abbreviations, synonyms, typo terms or file hint).
    pub(crate) fn analyze_plain(&self, query: &str) -> Query {
        self.analyze_with(query, true)
    }

    fn analyze_with(&self, query: &str, plain: bool) -> Query {
        // Queries come from programs: bound the work any one of them can cause.
        let query = truncate(query, MAX_QUERY_BYTES);
        let raw = query.trim().to_lowercase();
        let mut all: Vec<String> = Vec::new();
        for word in words(query).into_iter().filter(|w| w.len() <= MAX_WORD_BYTES).take(MAX_QUERY_WORDS) {
            match expand_abbreviation(&word) {
                Some(phrase) if !plain => all.extend(phrase.split(' ').map(str::to_owned)),
                _ => all.push(word),
            }
        }
        // A file name in the query (`README.md`, `*.toml`) is about files.
        if !plain && query.split_whitespace().any(looks_like_file_name) {
            all.push("file".to_owned());
        }
        // Multi-word verbs (`throw away`, `get rid of`, `log in`) mean what their WordNet
        // relatives mean, not what their words do: each becomes one term of those relatives.
        let phrases = if plain { Vec::new() } else { take_phrases(&mut all) };
        // Stopwords go, unless a tool is named with them (`get_me`).
        let meaningful: Vec<String> = all
            .iter()
            .filter(|w| !is_stopword(w) || (!plain && self.name_vocabulary.contains(*w)))
            .cloned()
            .collect();
        // A query of only stopwords still means something ("list all").
        if !meaningful.is_empty() {
            all = meaningful;
        }
        let mut terms = Vec::new();
        let mut reference_forms = Vec::new();
        let mut distance = Distance::default();
        for word in &all {
            let own = stem(word);
            // A stopword kept because a tool is named with it is weak evidence on its own.
            let base = if is_stopword(word) { STOPWORD_WEIGHT } else { 1.0 };
            let mut alternatives = vec![(own.clone(), base)];
            if plain {
                terms.push(alternatives);
                continue;
            }
            for synonym in synonyms(&own) {
                alternatives.push((synonym, base * SYNONYM_DISCOUNT));
            }
            // General word knowledge (WordNet), kept to words the catalog uses, for words the
            // catalog does not use itself: a word it uses most likely means what it says there.
            let mut looked_up = Vec::new();
            if !self.in_text(&own) {
                looked_up.push(word.as_str());
                if own != *word {
                    looked_up.push(own.as_str());
                }
            }
            for key in looked_up {
                for related in thesaurus::related(key) {
                    let related = stem(related);
                    if related != own
                        && self.in_text(&related)
                        && !alternatives.iter().any(|(t, _)| *t == related)
                    {
                        alternatives.push((related, base * THESAURUS_DISCOUNT));
                    }
                }
            }
            for related in self.morphological_relatives(&own) {
                if !alternatives.iter().any(|(t, _)| *t == related) {
                    alternatives.push((related, base * MORPHOLOGY_DISCOUNT));
                }
            }
            if !self.in_text(&own) {
                // Short words have too many near neighbours for a typo match to mean anything.
                let budget = if own.chars().count() < 4 { 0 } else { typo_budget(own.chars().count()) };
                if budget > 0 {
                    let own_chars: Vec<char> = own.chars().collect();
                    let vocabulary = self.vocabulary();
                    let mut fuzzy: Vec<(&String, usize)> = vocabulary
                        .by_length
                        .near(&own_chars, budget, &mut distance)
                        .into_iter()
                        .filter_map(|(position, d)| Some((vocabulary.sorted.get(position as usize)?, d)))
                        .collect();
                    fuzzy.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(b.0)));
                    for (term, _) in fuzzy.into_iter().take(3) {
                        alternatives.push((term.clone(), base * FUZZY_DISCOUNT));
                    }
                }
            }
            terms.push(alternatives);
            let mut forms = vec![word.clone()];
            if word.ends_with("es") && word.len() > 3 {
                forms.push(word[..word.len() - 2].to_owned());
            }
            if word.ends_with('s') && word.len() > 2 {
                forms.push(word[..word.len() - 1].to_owned());
            }
            reference_forms.push(forms);
        }
        for (head, weight, related) in phrases {
            let mut alternatives = vec![(stem(&head), weight)];
            for r in related {
                let r = stem(r);
                if !alternatives.iter().any(|(t, _)| *t == r) {
                    alternatives.push((r, PHRASE_DISCOUNT));
                }
            }
            terms.push(alternatives);
        }
        let mut property_names: Vec<String> = if plain {
            Vec::new()
        } else {
            query
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                // An identifier (`repo_path`, `labelSelector`) or a word English does not know
                // (`jql`): a plain English word that happens to name a property is a word.
                .filter(|token| {
                    let lower = token.to_lowercase();
                    words(token).len() > 1
                        || token.chars().any(|c| c.is_ascii_digit())
                        || (!is_stopword(&lower) && thesaurus::related_iter(&lower).next().is_none())
                })
                .map(normalized)
                .filter(|n| n.len() >= 3 && self.property_ids.contains_key(n))
                .take(MAX_QUERY_WORDS)
                .collect()
        };
        property_names.sort();
        property_names.dedup();
        let property_ids = property_names.iter().filter_map(|n| self.property_ids.get(n).copied()).collect();
        let namespace_terms = if plain {
            Vec::new()
        } else {
            terms
                .iter()
                .filter_map(|alternatives| alternatives.first())
                .filter(|(_, weight)| *weight >= 1.0)
                .filter_map(|(term, _)| self.term_ids.get(term).copied())
                .filter(|&id| self.namespace_share.get(id as usize).is_some_and(|&s| s >= NAMESPACE_SHARE))
                .collect()
        };
        // Alternatives no tool has cannot score: only the others are looked up when ranking.
        let ids = terms
            .iter()
            .map(|alternatives| {
                alternatives
                    .iter()
                    .filter_map(|(term, weight)| self.term_ids.get(term).map(|&id| (id, *weight)))
                    .collect()
            })
            .collect();
        let raw_normalized = normalized(&raw);
        let raw_chars: Vec<char> = raw_normalized.chars().collect();
        Query {
            raw_counts: Counts::of(&raw_chars),
            raw_chars,
            raw_normalized,
            raw,
            terms,
            ids,
            reference_forms,
            plain,
            property_ids,
            namespace_terms,
        }
    }

    /// Whether the analyzed query has any words.
    pub(crate) fn is_empty_query(query: &Query) -> bool {
        query.terms.is_empty()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use crate::search::index::runs::separates;
    use crate::{Namespace, Tool};

    /// Every reference form of every query is non-empty and has no byte that separates runs,
    /// so the runs answer it (ranking never searches the texts themselves).
    #[test]
    fn reference_forms_are_runs() {
        let mut ns = Namespace::new();
        ns.add_tool(
            "create_issue",
            Tool::from_json("Create an issue", None, None, |_, _| async { Ok(serde_json::Value::Null) }),
        );
        let tools = ns.build().unwrap();
        let index = tools.index();
        let mut queries: Vec<String> = [
            "",
            " ",
            "a",
            "README.md",
            "*.toml",
            "src/main.rs",
            "créer un problème",
            "ΟΔΟΣ. Σ.Α",
            "İstanbul ﬁle ß",
            "日本語 検索",
            "emoji 🎉 reaction",
            "tools[\"github\"][\"create_issue\"]",
            "rm -rf /",
            "dm the team",
            "prs repos ls",
            "HTTPServer listPullRequests get_file-contents",
            "aes es s ies",
            "K Å ǅ ᾈ",
            "x.y_z-w'v:u",
            "a\u{0301}b \u{200d}",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        // Pseudo-random strings over letters, digits, punctuation and cased non-ASCII chars.
        let alphabet: Vec<char> = "aZ9 ._-'/:sSeΣσςİıﬁßÅǅ\u{0301}日🎉".chars().collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2_000 {
            let mut q = String::new();
            for _ in 0..12 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                q.push(alphabet[(state % alphabet.len() as u64) as usize]);
            }
            queries.push(q);
        }
        for q in &queries {
            for forms in &index.analyze(q).reference_forms {
                for form in forms {
                    assert!(!form.is_empty() && !form.bytes().any(separates), "{q:?}: {form:?}");
                }
            }
        }
    }
}
