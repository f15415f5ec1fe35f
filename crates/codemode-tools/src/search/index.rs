//! The ranking index: field-weighted BM25 (BM25F) over each tool's name, namespace path,
//! title, description, enclosing namespace descriptions, input/output schema properties and
//! the WordNet relatives of the name's words, plus exact / normalized / fuzzy name boosts (as in the Go runtime) and the reference
//! runtime's path scoring as a tie-breaking component; a tool outside every namespace the
//! query names keeps part of its score.

use std::collections::HashMap;

use serde_json::Value;

use super::text::{expand_abbreviation, is_stopword, stem, stems, synonyms, words};
use super::thesaurus;
use crate::registry::{Registered, ToolDescription};
use crate::schema::{MAX_SCHEMA_DEPTH, resolve_ref, str_keyword};
use crate::suggest::{edit_distance, typo_budget};

/// The fields a tool is indexed under, with their BM25F weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Field {
    Name,
    Namespace,
    Title,
    Description,
    NamespaceDescription,
    InputProperty,
    InputPropertyDescription,
    OutputProperty,
    OutputPropertyDescription,
    /// Words the thesaurus relates to the name's words (`create_relations`: `link`, `connect`).
    NameRelated,
}

const FIELDS: [Field; 10] = [
    Field::Name,
    Field::Namespace,
    Field::Title,
    Field::Description,
    Field::NamespaceDescription,
    Field::InputProperty,
    Field::InputPropertyDescription,
    Field::OutputProperty,
    Field::OutputPropertyDescription,
    Field::NameRelated,
];

impl Field {
    fn weight(self) -> f64 {
        match self {
            Field::Name => 3.0,
            Field::Namespace => 1.5,
            Field::Title => 2.0,
            Field::Description => 1.0,
            Field::NamespaceDescription => 0.4,
            Field::InputProperty => 0.8,
            Field::InputPropertyDescription => 0.3,
            Field::OutputProperty => 0.5,
            Field::OutputPropertyDescription => 0.2,
            Field::NameRelated => 0.45,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The field's name in search results' `matches`.
    fn label(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Namespace => "namespace",
            Field::Title => "title",
            Field::Description => "description",
            Field::NamespaceDescription => "namespace description",
            Field::InputProperty => "input property",
            Field::InputPropertyDescription => "input property description",
            Field::OutputProperty => "output property",
            Field::OutputPropertyDescription => "output property description",
            Field::NameRelated => "name (related word)",
        }
    }
}

const K1: f64 = 3.0;
/// k1 of the plain baseline: BM25's customary value.
const K1_PLAIN: f64 = 1.2;
const B: f64 = 0.75;
/// Discount for a query word matched through a synonym.
const SYNONYM_DISCOUNT: f64 = 0.45;
/// Weight of a query word that is exactly an input property name, times ln(1 + tools / takers).
const PROPERTY_NAME_WEIGHT: f64 = 0.5;
/// Discount for a query word matched through another ending of it (`watch` → `watcher`).
const MORPHOLOGY_DISCOUNT: f64 = 0.5;
/// Stems shorter than this have no morphological relatives (`list` is not `listen`).
const MORPHOLOGY_MIN_STEM: usize = 5;
/// Letters by which a morphological relative may be longer than the stem it extends.
const MORPHOLOGY_MAX_EXTRA: usize = 3;
/// WordNet relatives indexed per word of a tool's name (see [`name_relatives`]).
const NAME_RELATIVES: usize = 3;
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
/// Factor for a tool outside every namespace the query names.
const NAMESPACE_GATE: f64 = 0.7;
/// Bytes of a query that are analyzed; the rest is ignored.
const MAX_QUERY_BYTES: usize = 1024;
/// Words of a query that are analyzed.
const MAX_QUERY_WORDS: usize = 32;
/// Longer "words" (hashes, blobs) are skipped: they cannot be meant as search terms.
const MAX_WORD_BYTES: usize = 64;

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

/// Weight of a stopword kept in a query (see [`SearchIndex::analyze`]).
const STOPWORD_WEIGHT: f64 = 0.3;
/// Discount for a query word matched through a near-typo.
const FUZZY_DISCOUNT: f64 = 0.6;
/// The properties collected per schema, so huge schemas cannot bloat the index.
const MAX_PROPERTIES: usize = 200;

/// One tool's analyzed text.
#[derive(Debug, Clone, Default)]
struct Doc {
    /// Per field: stem → term frequency (while the index is built; then `postings`).
    terms: [HashMap<String, u32>; 10],
    /// Per term id (see [`SearchIndex::term_ids`]), sorted by id: its frequency per field.
    postings: Vec<(u32, [u32; 10])>,
    /// Per field: token count.
    lengths: [u32; 10],
    /// Lowercase path, last segment, and their alphanumeric-only forms, for name boosts.
    path: String,
    name: String,
    name_normalized: String,
    path_normalized: String,
    /// Lowercase description and searchable text, for the reference's substring scoring.
    description: String,
    other_text: String,
    /// Input property names, normalized (`repo_path` → `repopath`), sorted.
    property_names: Vec<String>,
}

/// The search index of a [`crate::ToolSet`]: built once with it.
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    docs: Vec<Doc>,
    /// stem → number of tools containing it in any field.
    document_frequency: HashMap<String, u32>,
    average_lengths: [f64; 10],
    /// Every word of every tool name, so stopwords that name tools are kept in queries.
    name_vocabulary: std::collections::HashSet<String>,
    /// Normalized input property name → number of tools that take it.
    property_frequency: HashMap<String, u32>,
    /// Every indexed stem, sorted, for prefix lookups.
    vocabulary: Vec<String>,
    /// Every stem of any field → a dense id, so ranking looks a query term up once per query
    /// rather than once per field of every tool.
    term_ids: HashMap<String, u32>,
    /// IDF per term id.
    idf_by_id: Vec<f64>,
    /// Per term id: the share of the tools using it (outside related words) that have it in
    /// their namespace path.
    namespace_share: Vec<f64>,
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

/// The WordNet relatives of a tool name's words (the first [`NAME_RELATIVES`] of each, its
/// most frequent senses): `create_relations` → `make create relate interrelate associate`,
/// `add_watcher` → `increase append supply spectator witness viewer`. A query word finds the
/// tool through them when the tool's own text has no word for it ("link two entities").
/// `cache` keeps each word's relatives: tool names share most of their words.
fn name_relatives(name: &str, cache: &mut HashMap<String, Vec<&'static str>>) -> String {
    let mut related: Vec<&str> = Vec::new();
    for word in words(name) {
        let found = cache.entry(word).or_insert_with_key(|word| {
            let mut found = thesaurus::related(word);
            if found.is_empty() {
                found = thesaurus::related(&stem(word));
            }
            found.truncate(NAME_RELATIVES);
            found
        });
        for r in found.iter() {
            if !related.contains(r) {
                related.push(r);
            }
        }
    }
    related.join(" ")
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

fn normalized(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Collects property names and descriptions of a schema, nested ones included (an output
/// `{ items: [{ title }] }` is found by "title"), depth- and count-limited.
fn collect_properties(
    root: &Value,
    schema: &Value,
    depth: usize,
    steps: &mut usize,
    names: &mut Vec<String>,
    descriptions: &mut Vec<String>,
) {
    // `steps` bounds the walk: `allOf`s of `$ref`s can revisit a definition exponentially often.
    if depth > MAX_SCHEMA_DEPTH.min(8) || names.len() >= MAX_PROPERTIES || *steps == 0 {
        return;
    }
    *steps -= 1;
    let Some(object) = schema.as_object() else { return };
    if let Some(target) = str_keyword(schema, "$ref").and_then(|r| resolve_ref(root, r)) {
        collect_properties(root, target, depth + 1, steps, names, descriptions);
    }
    if let Some(Value::Object(props)) = object.get("properties") {
        for (name, sub) in props {
            if names.len() >= MAX_PROPERTIES {
                return;
            }
            names.push(name.clone());
            if let Some(d) = str_keyword(sub, "description") {
                descriptions.push(d.to_owned());
            }
            collect_properties(root, sub, depth + 1, steps, names, descriptions);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = object.get(key) {
            collect_properties(root, sub, depth + 1, steps, names, descriptions);
        }
    }
    for key in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(parts)) = object.get(key) {
            for part in parts {
                collect_properties(root, part, depth + 1, steps, names, descriptions);
            }
        }
    }
}

fn schema_text(schema: Option<&Value>) -> (String, String, Vec<String>) {
    let mut names = Vec::new();
    let mut descriptions = Vec::new();
    if let Some(schema) = schema {
        let mut steps = 2_000;
        collect_properties(schema, schema, 0, &mut steps, &mut names, &mut descriptions);
    }
    let normalized_names = names.iter().map(|n| normalized(n)).filter(|n| !n.is_empty()).collect();
    (names.join(" "), descriptions.join(" "), normalized_names)
}

impl Doc {
    fn new(registered: &Registered, relatives: &mut HashMap<String, Vec<&'static str>>) -> Self {
        let tool = &registered.tool;
        let path = registered.path.as_str();
        let (namespace, name) = path.rsplit_once('.').unwrap_or(("", path));
        let (input_names, input_descriptions, mut property_names) = schema_text(tool.input_schema());
        let (output_names, output_descriptions, _) = schema_text(tool.output_schema());
        property_names.sort();
        property_names.dedup();
        let namespace_descriptions = registered.namespace_descriptions.join(" ");
        let name_related = name_relatives(name, relatives);
        let mut doc = Doc {
            path: path.to_lowercase(),
            name: name.to_lowercase(),
            name_normalized: normalized(name),
            path_normalized: normalized(path),
            description: tool.description().to_lowercase(),
            property_names,
            ..Doc::default()
        };
        let texts: [(Field, &str); 10] = [
            (Field::Name, name),
            (Field::Namespace, namespace),
            (Field::Title, tool.title().unwrap_or("")),
            (Field::Description, tool.description()),
            (Field::NamespaceDescription, &namespace_descriptions),
            (Field::InputProperty, &input_names),
            (Field::InputPropertyDescription, &input_descriptions),
            (Field::OutputProperty, &output_names),
            (Field::OutputPropertyDescription, &output_descriptions),
            (Field::NameRelated, &name_related),
        ];
        let mut other = vec![namespace_descriptions.clone(), input_names.clone(), input_descriptions.clone()];
        other.push(tool.title().unwrap_or("").to_owned());
        doc.other_text = other.join("\n").to_lowercase();
        for (field, text) in texts {
            let tokens = stems(text);
            doc.lengths[field.index()] = tokens.len() as u32;
            for token in tokens {
                *doc.terms[field.index()].entry(token).or_insert(0) += 1;
            }
        }
        doc
    }
}

/// A query after analysis: each meaningful word with its alternatives and their discounts.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    /// The query lowercased and trimmed.
    raw: String,
    raw_normalized: String,
    /// Per word: (stem, weight) alternatives, the word's own stem first with weight 1.
    terms: Vec<Vec<(String, f64)>>,
    /// Per word: the alternatives some tool has, as (term id, weight).
    ids: Vec<Vec<(u32, f64)>>,
    /// Per word: the reference's forms (the word, minus `-es`, minus `-s`).
    reference_forms: Vec<Vec<String>>,
    /// The plain-BM25 baseline: no coverage factor or reference scoring, BM25's usual k1.
    plain: bool,
    /// Query tokens (split on spaces and punctuation other than `_`), normalized, that some
    /// tool takes as an input property: `repo_path`, `labelSelector`, `latitude`.
    property_names: Vec<String>,
    /// Ids of the query's own words (not their alternatives) that name a namespace: most tools
    /// using them are in a namespace of that name (see [`NAMESPACE_SHARE`]).
    namespace_terms: Vec<u32>,
}

impl SearchIndex {
    /// Indexes the registered tools (in catalog order).
    pub(crate) fn new(registered: &[Registered], _catalog: &[ToolDescription]) -> Self {
        let mut relatives = HashMap::new();
        let mut docs: Vec<Doc> = registered.iter().map(|r| Doc::new(r, &mut relatives)).collect();
        let mut totals = [0f64; 10];
        // Every stem gets a dense id; each tool keeps its frequencies per field by id.
        let mut term_ids: HashMap<String, u32> = HashMap::new();
        let mut frequency_by_id: Vec<u32> = Vec::new();
        let mut namespace_by_id: Vec<u32> = Vec::new();
        for doc in &mut docs {
            let mut entries: Vec<(u32, usize, u32)> = Vec::new();
            for field in FIELDS {
                totals[field.index()] += f64::from(doc.lengths[field.index()]);
                for (term, &tf) in &doc.terms[field.index()] {
                    let id = match term_ids.get(term.as_str()) {
                        Some(&id) => id,
                        None => {
                            let id = term_ids.len() as u32;
                            term_ids.insert(term.clone(), id);
                            frequency_by_id.push(0);
                            namespace_by_id.push(0);
                            id
                        }
                    };
                    entries.push((id, field.index(), tf));
                }
            }
            entries.sort_unstable();
            for (id, field, tf) in entries {
                match doc.postings.last_mut() {
                    Some((last, frequencies)) if *last == id => frequencies[field] = tf,
                    _ => {
                        let mut frequencies = [0; 10];
                        frequencies[field] = tf;
                        doc.postings.push((id, frequencies));
                    }
                }
            }
            doc.terms = Default::default();
            // Related words are not the tool's text: they do not make a word common.
            for (id, frequencies) in &doc.postings {
                let in_text = FIELDS.iter().any(|f| *f != Field::NameRelated && frequencies[f.index()] > 0);
                if in_text && let Some(df) = frequency_by_id.get_mut(*id as usize) {
                    *df += 1;
                }
                if frequencies[Field::Namespace.index()] > 0
                    && let Some(count) = namespace_by_id.get_mut(*id as usize)
                {
                    *count += 1;
                }
            }
        }
        let document_frequency: HashMap<String, u32> = term_ids
            .iter()
            .filter_map(|(term, &id)| {
                let df = frequency_by_id.get(id as usize).copied().unwrap_or(0);
                (df > 0).then(|| (term.clone(), df))
            })
            .collect();
        let count = docs.len().max(1) as f64;
        let average_lengths = totals.map(|t| (t / count).max(1.0));
        let name_vocabulary =
            registered.iter().flat_map(|r| words(r.path.rsplit('.').next().unwrap_or(&r.path))).collect();
        let mut property_frequency: HashMap<String, u32> = HashMap::new();
        for doc in &docs {
            for name in &doc.property_names {
                *property_frequency.entry(name.clone()).or_insert(0) += 1;
            }
        }
        let mut vocabulary: Vec<String> = document_frequency.keys().cloned().collect();
        vocabulary.sort_unstable();
        let mut index = Self {
            docs,
            document_frequency,
            average_lengths,
            name_vocabulary,
            property_frequency,
            vocabulary,
            term_ids,
            idf_by_id: Vec::new(),
            namespace_share: frequency_by_id
                .iter()
                .zip(&namespace_by_id)
                .map(|(&df, &ns)| if df == 0 { 0.0 } else { f64::from(ns) / f64::from(df) })
                .collect(),
        };
        let mut idf_by_id = vec![0.0; index.term_ids.len()];
        for (term, &id) in &index.term_ids {
            if let Some(idf) = idf_by_id.get_mut(id as usize) {
                *idf = index.idf(term);
            }
        }
        index.idf_by_id = idf_by_id;
        index
    }

    /// Indexed stems that are the same word with another ending, which the light stemmer
    /// does not fold: `watch` → `watcher`, `deploy` → `deployment`, `recently` → `recent`,
    /// `relation` → `relat`. Both must be alphabetic, the shorter at least
    /// [`MORPHOLOGY_MIN_STEM`] letters and a prefix of the longer, which adds at most
    /// [`MORPHOLOGY_MAX_EXTRA`] letters.
    fn morphological_relatives(&self, own: &str) -> Vec<String> {
        if own.len() < MORPHOLOGY_MIN_STEM || !own.bytes().all(|b| b.is_ascii_lowercase()) {
            return Vec::new();
        }
        let start = self.vocabulary.partition_point(|t| t.as_str() < own);
        let mut out: Vec<String> = self.vocabulary[start..]
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
            if self.document_frequency.contains_key(prefix) {
                out.push(prefix.to_owned());
            }
        }
        out
    }

    fn idf(&self, term: &str) -> f64 {
        let n = self.docs.len() as f64;
        let df = f64::from(self.document_frequency.get(term).copied().unwrap_or(0));
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
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
            if !self.document_frequency.contains_key(&own) {
                looked_up.push(word.as_str());
                if own != *word {
                    looked_up.push(own.as_str());
                }
            }
            for key in looked_up {
                for related in thesaurus::related(key) {
                    let related = stem(related);
                    if related != own
                        && self.document_frequency.contains_key(&related)
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
            if !self.document_frequency.contains_key(&own) {
                // Short words have too many near neighbours for a typo match to mean anything.
                let budget = if own.chars().count() < 4 { 0 } else { typo_budget(own.chars().count()) };
                if budget > 0 {
                    let length = own.chars().count();
                    let mut fuzzy: Vec<(&String, usize)> = self
                        .document_frequency
                        .keys()
                        // Cheap first: more letters apart than the budget is never a typo.
                        .filter(|t| t.chars().count().abs_diff(length) <= budget)
                        .map(|t| (t, edit_distance(&own, t, budget)))
                        .filter(|(_, d)| *d <= budget)
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
                        || (!is_stopword(&lower) && thesaurus::related(&lower).is_empty())
                })
                .map(normalized)
                .filter(|n| n.len() >= 3 && self.property_frequency.contains_key(n))
                .take(MAX_QUERY_WORDS)
                .collect()
        };
        property_names.sort();
        property_names.dedup();
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
        Query {
            raw_normalized: normalized(&raw),
            raw,
            terms,
            ids,
            reference_forms,
            plain,
            property_names,
            namespace_terms,
        }
    }

    /// Whether the analyzed query has any words.
    pub(crate) fn is_empty_query(query: &Query) -> bool {
        query.terms.is_empty()
    }

    /// A document's term frequencies per field for a term id, if it has the term.
    fn frequencies(doc: &Doc, id: u32) -> Option<&[u32; 10]> {
        doc.postings.binary_search_by_key(&id, |(term, _)| *term).ok().map(|i| &doc.postings[i].1)
    }

    /// The BM25F score of one term alternative (by id) in one document.
    fn term_score(&self, doc: &Doc, id: u32, plain: bool) -> f64 {
        let Some(frequencies) = Self::frequencies(doc, id) else { return 0.0 };
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
                let norm = 1.0 - B + B * f64::from(doc.lengths[i]) / self.average_lengths[i];
                weighted += field.weight() * f64::from(tf) / norm;
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
            if let Some(frequencies) = Self::frequencies(doc, *id) {
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
                    .filter(|(id, weight)| *weight > 0.0 && Self::frequencies(doc, *id).is_some())
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
                .any(|&id| Self::frequencies(doc, id).is_some_and(|f| f[Field::Namespace.index()] > 0));
        if outside { NAMESPACE_GATE } else { 1.0 }
    }

    /// Scores one document; `0` means not relevant.
    pub(crate) fn score(&self, doc_index: usize, query: &Query) -> f64 {
        let Some(doc) = self.docs.get(doc_index) else { return 0.0 };
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
                let takers = f64::from(self.property_frequency.get(name).copied().unwrap_or(1));
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
            let apart = query.raw_normalized.chars().count().abs_diff(doc.name_normalized.chars().count());
            if apart <= budget && edit_distance(&query.raw_normalized, &doc.name_normalized, budget) <= budget
            {
                total += 4.0;
            }
        }
        total
    }
}
