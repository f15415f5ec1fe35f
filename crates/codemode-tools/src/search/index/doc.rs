//! One tool's analyzed text ([`Doc`]) and how the index builder makes it: the text of each
//! field (name, namespace, title, description, namespace descriptions, schema properties, the
//! name's WordNet relatives) tokenized and stemmed into dense term ids, each word stemmed once
//! per catalog.

use ahash::AHashMap;
use serde_json::Value;

use super::fields::{FIELD_COUNT, Field};
use super::hash::{FxMap, Interner};
use super::runs::{DESCRIPTION, OTHER, PATH, RunsBuilder, split_runs};
use super::typo::Counts;
use crate::registry::Registered;
use crate::schema::{MAX_SCHEMA_DEPTH, resolve_ref};
use crate::search::text::{Words, stem};
use crate::search::thesaurus;

/// WordNet relatives indexed per word of a tool's name (see [`name_relatives`]).
const NAME_RELATIVES: usize = 3;
/// The properties collected per schema, so huge schemas cannot bloat the index.
const MAX_PROPERTIES: usize = 200;

/// One tool's analyzed text.
#[derive(Debug, Clone, Default)]
pub(super) struct Doc {
    /// Per field: token count.
    pub(super) lengths: [u32; FIELD_COUNT],
    /// Lowercase path, last segment, and their alphanumeric-only forms, for name boosts.
    pub(super) path: String,
    /// Where `path`'s last segment (after its last `.`) starts.
    pub(super) last_segment: usize,
    pub(super) name: String,
    pub(super) name_normalized: String,
    pub(super) path_normalized: String,
    /// `name_normalized`'s chars and their counts, for the fuzzy name boost.
    pub(super) name_chars: Box<[char]>,
    pub(super) name_counts: Counts,
    /// Input property names, normalized (`repo_path` → `repopath`), as ids (see
    /// [`Builder::property_ids`]), sorted.
    pub(super) property_ids: Vec<u32>,
}

/// Makes the [`Doc`]s of a catalog, numbering stems as it meets them.
#[derive(Debug, Default)]
pub(super) struct Builder {
    /// Every stem of any field → its dense id.
    pub(super) ids: FxMap<String, u32>,
    /// Every word met, and per word the id of its stem, so a word is stemmed once per
    /// catalog.
    words_met: Interner,
    word_terms: Vec<u32>,
    /// The name words' WordNet relatives (see [`name_relatives`]).
    relatives: AHashMap<String, Vec<&'static str>>,
    words: Words,
    /// The runs of the tools' path, description and other text, for substring scoring.
    pub(super) runs: RunsBuilder,
    /// Per tool, each term it has with its frequency per field: the tool's entries are
    /// `entries[doc_ends[tool - 1]..doc_ends[tool]]`, in order of first occurrence (nothing
    /// looks a term up in them: the index turns them into per-term postings).
    pub(super) entries: Vec<(u32, [u32; FIELD_COUNT])>,
    pub(super) doc_ends: Vec<u32>,
    /// Per term id: the current tool's entry for it in `entries`, when `seen` is the
    /// current tool's number (made so far + 1).
    slot: Vec<(u32, u32)>,
    /// Tools made so far.
    count: u32,
    /// Every normalized input property name → a dense id.
    pub(super) property_ids: FxMap<String, u32>,
    /// A buffer for normalizing property names.
    normalized: String,
    /// Every run met (as written), numbered as its entry in `cached`.
    run_cache: Interner,
    cached: Vec<Cached>,
    /// The term ids of the cached runs' words, run after run.
    cached_terms: Vec<u32>,
}

impl Builder {
    /// A builder for a catalog of `tools` tools, its tables sized for it (a catalog's tools
    /// have a few new words and runs each, and some 45 terms: growing the tables step by
    /// step, rehashing every key, cost more than the room).
    pub(super) fn new(tools: usize) -> Self {
        let map = |n: usize| FxMap::with_capacity_and_hasher(n, Default::default());
        Self {
            ids: map(tools * 4),
            words_met: Interner::with_capacity(tools * 5),
            word_terms: Vec::with_capacity(tools * 5),
            runs: RunsBuilder::with_capacity(tools * 6),
            run_cache: Interner::with_capacity(tools * 7),
            entries: Vec::with_capacity(tools * 48),
            doc_ends: Vec::with_capacity(tools),
            ..Self::default()
        }
    }

    /// The analyzed text of one tool.
    pub(super) fn doc(&mut self, registered: &Registered) -> Doc {
        let tool = &registered.tool;
        let path = registered.path.as_str();
        let (namespace, name) = path.rsplit_once('.').unwrap_or(("", path));
        let input = schema_text(tool.input_schema());
        let output = schema_text(tool.output_schema());
        let mut property_ids: Vec<u32> = Vec::with_capacity(input.names.len());
        for name in &input.names {
            normalize_into(name, &mut self.normalized);
            if self.normalized.is_empty() {
                continue;
            }
            // Looked up by `&str` first: most names are met before.
            let id = match self.property_ids.get(self.normalized.as_str()) {
                Some(&id) => id,
                None => {
                    let id = self.property_ids.len() as u32;
                    self.property_ids.insert(self.normalized.clone(), id);
                    id
                }
            };
            property_ids.push(id);
        }
        property_ids.sort_unstable();
        property_ids.dedup();
        let name_related = name_relatives(name, &mut self.words, &mut self.relatives);
        let name_normalized = normalized(name);
        let lower_path = path.to_lowercase();
        let mut doc = Doc {
            last_segment: lower_path.rfind('.').map_or(0, |dot| dot + 1),
            path: lower_path,
            name: name.to_lowercase(),
            name_chars: name_normalized.chars().collect(),
            name_normalized,
            path_normalized: normalized(path),
            property_ids,
            ..Doc::default()
        };
        let title = [tool.title().unwrap_or("")];
        let description = [tool.description()];
        let namespace_descriptions: Vec<&str> =
            registered.namespace_descriptions.iter().map(String::as_str).collect();
        // A field's text is its parts (property names, descriptions, related words) as if
        // joined with spaces: a space separates words and runs, and, being neither cased nor
        // case-ignorable, does not change how the parts lowercase, so each part is analyzed
        // alone. Each text's runs go to the substring index under the bit of the lowercased
        // text holding them: the path is the namespace, `.` and the name, whose runs are
        // theirs; the other text is the title, namespace descriptions and input properties.
        let path_bit = if path.is_ascii() { PATH } else { 0 };
        let texts: [(Field, &[&str], u8); FIELD_COUNT] = [
            (Field::Name, &[name], path_bit),
            (Field::Namespace, &[namespace], path_bit),
            (Field::Title, &title, OTHER),
            (Field::Description, &description, DESCRIPTION),
            (Field::NamespaceDescription, &namespace_descriptions, OTHER),
            (Field::InputProperty, &input.names, OTHER),
            (Field::InputPropertyDescription, &input.descriptions, OTHER),
            (Field::OutputProperty, &output.names, 0),
            (Field::OutputPropertyDescription, &output.descriptions, 0),
            (Field::NameRelated, &name_related, 0),
        ];
        doc.name_counts = Counts::of(&doc.name_chars);
        if path_bit == 0 {
            // A non-ASCII path lowercases as a whole (`.` is case-ignorable: a final sigma
            // depends on what follows it).
            self.runs.add(&doc.path, PATH);
        }
        self.count += 1;
        for (field, parts, bit) in texts {
            let mut length = 0;
            for part in parts {
                length += self.text(part, field, bit);
            }
            doc.lengths[field.index()] = length;
        }
        self.runs.next_doc();
        self.doc_ends.push(self.entries.len() as u32);
        doc
    }
}

impl Builder {
    /// Counts the words of one field's `text` of the current tool into `entries` and adds
    /// its runs to the substring index under `bit` (0: none), returning its word count.
    ///
    /// A text is taken run by run (a run: a maximal stretch without ASCII bytes other than
    /// letters and digits), each distinct run split, stemmed and lowercased once per catalog:
    /// tools repeat most of their words. A run's words do not depend on its neighbours,
    /// which are separators (neither letters, digits nor lowercase, so neither case
    /// boundaries nor acronym plurals). Nor does its lowercase, except for a capital sigma
    /// (the only char whose lowercase depends on its context, final or not, through
    /// case-ignorable separators like `.`): a text with one lowercases as a whole.
    fn text(&mut self, text: &str, field: Field, bit: u8) -> u32 {
        let Builder {
            ids,
            words_met,
            word_terms,
            words,
            runs,
            slot,
            count,
            run_cache,
            cached,
            cached_terms,
            entries,
            ..
        } = self;
        let mut length = 0;
        if !text.is_ascii() && text.contains('\u{3a3}') {
            words.each(text, |word| {
                let id = word_id(ids, words_met, word_terms, word);
                length += 1;
                add_term(slot, *count, entries, id, field);
            });
            if bit != 0 {
                runs.add(&text.to_lowercase(), bit);
            }
            return length;
        }
        for run in split_runs(text) {
            // A run's id is its entry in `cached`, made at its first sight.
            let (index, new) = run_cache.intern(run);
            if new {
                let first = cached_terms.len() as u32;
                words.each(run, |word| cached_terms.push(word_id(ids, words_met, word_terms, word)));
                cached.push(Cached { run: None, start: first, end: cached_terms.len() as u32 });
            }
            let index = index as usize;
            let Some(entry) = cached.get_mut(index) else { continue };
            if bit != 0 {
                let id = match entry.run {
                    Some(id) => id,
                    None => {
                        // Without a capital sigma, lowercasing maps each char alone, and
                        // no char but a separator lowercases to a separating byte (see
                        // `runs.rs`): the lowercased text's runs are the runs lowercased.
                        let id = if run.is_ascii() {
                            runs.id(&run.to_ascii_lowercase())
                        } else {
                            runs.id(&run.to_lowercase())
                        };
                        entry.run = Some(id);
                        id
                    }
                };
                runs.post(id, bit);
            }
            for &id in cached_terms.get(entry.start as usize..entry.end as usize).unwrap_or(&[]) {
                length += 1;
                add_term(slot, *count, entries, id, field);
            }
        }
        length
    }
}

/// The term id of a word, its stem numbered at first sight; each word stemmed once.
fn word_id(
    ids: &mut FxMap<String, u32>,
    words_met: &mut Interner,
    word_terms: &mut Vec<u32>,
    word: &str,
) -> u32 {
    let (index, new) = words_met.intern(word);
    if new {
        let stemmed = stem(word);
        let next = ids.len() as u32;
        let id = match ids.get(stemmed.as_str()) {
            Some(&id) => id,
            None => {
                ids.insert(stemmed, next);
                next
            }
        };
        word_terms.push(id);
    }
    word_terms.get(index as usize).copied().unwrap_or(0)
}

/// Counts one occurrence of term `id` in `field` of the current tool (number `current`).
fn add_term(
    slot: &mut Vec<(u32, u32)>,
    current: u32,
    entries: &mut Vec<(u32, [u32; FIELD_COUNT])>,
    id: u32,
    field: Field,
) {
    let index = id as usize;
    if slot.len() <= index {
        slot.resize(index + 1, (0, 0));
    }
    // The term's entry of this tool, made at its first occurrence here.
    let entry = match slot[index] {
        (seen, entry) if seen == current => entry as usize,
        _ => {
            slot[index] = (current, entries.len() as u32);
            entries.push((id, [0; FIELD_COUNT]));
            entries.len() - 1
        }
    };
    if let Some((_, frequencies)) = entries.get_mut(entry) {
        frequencies[field.index()] += 1;
    }
}

/// A distinct run of the catalog's texts, as written, analyzed once.
#[derive(Debug, Clone, Copy)]
struct Cached {
    /// Its lowercased form's id in the substring index, once a text indexed there has it.
    run: Option<u32>,
    /// Its words' term ids: `Builder::cached_terms[start..end]`.
    start: u32,
    end: u32,
}

/// The WordNet relatives of a tool name's words (the first [`NAME_RELATIVES`] of each, its
/// most frequent senses): `create_relations` → `make create relate interrelate associate`,
/// `add_watcher` → `increase append supply spectator witness viewer`. A query word finds the
/// tool through them when the tool's own text has no word for it ("link two entities").
/// `cache` keeps each word's relatives: tool names share most of their words.
fn name_relatives(
    name: &str,
    words: &mut Words,
    cache: &mut AHashMap<String, Vec<&'static str>>,
) -> Vec<&'static str> {
    let mut related: Vec<&'static str> = Vec::new();
    words.each(name, |word| {
        // Looked up by `&str` first: most words are cached, and need no owned key.
        let found = match cache.get(word) {
            Some(found) => found,
            None => cache.entry(word.to_owned()).or_insert_with_key(|word| {
                let mut found: Vec<&'static str> =
                    thesaurus::related_iter(word).take(NAME_RELATIVES).collect();
                if found.is_empty() {
                    found = thesaurus::related_iter(&stem(word)).take(NAME_RELATIVES).collect();
                }
                found
            }),
        };
        for &r in found {
            if !related.contains(&r) {
                related.push(r);
            }
        }
    });
    related
}

/// [`normalized`] into `out` (cleared first), without allocating once `out` has room.
fn normalize_into(text: &str, out: &mut String) {
    out.clear();
    if text.is_ascii() {
        out.extend(
            text.bytes().filter(u8::is_ascii_alphanumeric).map(|b| char::from(b.to_ascii_lowercase())),
        );
    } else {
        out.extend(text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase));
    }
}

/// The alphanumeric characters of `text`, lowercase (`repo_path` → `repopath`).
pub(super) fn normalized(text: &str) -> String {
    if text.is_ascii() {
        // The same for ASCII, without decoding chars: property names are mostly ASCII.
        // On bytes, in place: an ASCII text stays ASCII, so it stays UTF-8.
        let mut bytes = text.as_bytes().to_vec();
        bytes.retain(u8::is_ascii_alphanumeric);
        bytes.make_ascii_lowercase();
        return String::from_utf8(bytes).unwrap_or_default();
    }
    text.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// A schema's property names and descriptions (nested ones included), borrowed from it.
#[derive(Debug, Default)]
struct SchemaText<'a> {
    names: Vec<&'a str>,
    descriptions: Vec<&'a str>,
}

/// Collects property names and descriptions of a schema, nested ones included (an output
/// `{ items: [{ title }] }` is found by "title"), depth- and count-limited.
fn collect_properties<'a>(
    root: &'a Value,
    schema: &'a Value,
    depth: usize,
    steps: &mut usize,
    out: &mut SchemaText<'a>,
) {
    // `steps` bounds the walk: `allOf`s of `$ref`s can revisit a definition exponentially often.
    if depth > MAX_SCHEMA_DEPTH.min(8) || out.names.len() >= MAX_PROPERTIES || *steps == 0 {
        return;
    }
    *steps -= 1;
    let Some(object) = schema.as_object() else { return };
    // One pass over the keywords rather than a (hashed) lookup of each.
    let (mut reference, mut properties) = (None, None);
    let mut nested: [Option<&Value>; 2] = [None; 2];
    let mut parts: [Option<&Value>; 4] = [None; 4];
    for (key, value) in object {
        match key.as_str() {
            "$ref" => reference = value.as_str(),
            "properties" => properties = Some(value),
            "items" => nested[0] = Some(value),
            "additionalProperties" => nested[1] = Some(value),
            "anyOf" => parts[0] = Some(value),
            "oneOf" => parts[1] = Some(value),
            "allOf" => parts[2] = Some(value),
            "prefixItems" => parts[3] = Some(value),
            _ => {}
        }
    }
    if let Some(target) = reference.and_then(|r| resolve_ref(root, r)) {
        collect_properties(root, target, depth + 1, steps, out);
    }
    if let Some(Value::Object(props)) = properties {
        for (name, sub) in props {
            if out.names.len() >= MAX_PROPERTIES {
                return;
            }
            out.names.push(name);
            // A property's keywords are few: a scan finds `description` sooner than the
            // object's (SipHash-keyed) index would.
            if let Value::Object(keywords) = sub
                && let Some(Value::String(d)) =
                    keywords.iter().find(|(k, _)| *k == "description").map(|(_, v)| v)
            {
                out.descriptions.push(d);
            }
            collect_properties(root, sub, depth + 1, steps, out);
        }
    }
    for sub in nested.into_iter().flatten() {
        collect_properties(root, sub, depth + 1, steps, out);
    }
    for part in parts.into_iter().flatten() {
        if let Value::Array(list) = part {
            for item in list {
                collect_properties(root, item, depth + 1, steps, out);
            }
        }
    }
}

/// A schema's property names and descriptions.
fn schema_text(schema: Option<&Value>) -> SchemaText<'_> {
    let mut out = SchemaText::default();
    if let Some(schema) = schema {
        let mut steps = 2_000;
        collect_properties(schema, schema, 0, &mut steps, &mut out);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::super::fields::Field;
    use super::super::runs::{DESCRIPTION, separates};
    use super::Builder;
    use crate::search::text::{stem, words};

    /// Taking a text run by run (each distinct run analyzed once) counts the words the whole
    /// text has and indexes the runs of its lowercase, non-ASCII and sigma texts included.
    #[test]
    fn run_by_run_equals_whole_text() {
        let texts = [
            "HTTPServer listPRs get_file-contents, IDs and URLs",
            "Créer un problème — ünïcödé façade's naïve café",
            "ΟΔΟΣ. Σ.Α ΣΑΣ. ΑΣ'Β σ ς Σ",
            "ΟΔΟΣ. ΑΒ",
            "İstanbul ﬁle straße KELVIN \u{212a} Å ǅungla",
            "a—b c–d e…f 日本語 検索 🎉emoji",
            "x.y_z-w'v:u \u{0301}b a\u{0301} ǄǅǆᾈᾀᾸ",
        ];
        for text in texts {
            let mut builder = Builder::default();
            builder.count += 1;
            let length = builder.text(text, Field::Description, DESCRIPTION);
            // The words' stems and their counts, from the whole text.
            let mut expected: Vec<(String, u32)> = Vec::new();
            for word in words(text) {
                let stemmed = stem(&word);
                match expected.iter_mut().find(|(s, _)| *s == stemmed) {
                    Some((_, n)) => *n += 1,
                    None => expected.push((stemmed, 1)),
                }
            }
            expected.sort();
            let mut got: Vec<(String, u32)> = builder
                .entries
                .iter()
                .map(|(id, f)| {
                    let term = builder.ids.iter().find(|(_, i)| *i == id).unwrap().0.clone();
                    (term, f[Field::Description.index()])
                })
                .collect();
            got.sort();
            assert_eq!(got, expected, "{text}");
            assert_eq!(length as usize, words(text).len(), "{text}");
            // The runs, from the whole text's lowercase.
            let lower = text.to_lowercase();
            let mut runs: Vec<(String, u8)> = lower
                .as_bytes()
                .split(|&b| separates(b))
                .filter(|r| !r.is_empty())
                .map(|r| (String::from_utf8(r.to_vec()).unwrap(), DESCRIPTION))
                .collect();
            runs.sort();
            runs.dedup();
            assert_eq!(builder.runs.runs_of(0), runs, "{text}");
        }
    }
}
