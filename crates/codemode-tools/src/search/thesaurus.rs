//! General English word knowledge for query expansion: a table built from WordNet 3.0 by
//! `data/build_thesaurus.py` (checked in as `data/thesaurus.txt`, ~587 KB, 14.5k headwords) that
//! maps a verb to its frequent senses' synonyms and direct hypernyms (`erase` → `delete`,
//! `remove`), a multi-word verb likewise (`throw_away` → `discard`, `remove`; 2.6k of them) and
//! a noun to its first senses' synonyms and the verbs derived from it, and a question form to
//! the attribute it asks for (`how_big` → `size`, `magnitude`; 639 of them). Nothing in
//! it was chosen for a tool catalog or a query set; the index keeps only related words that
//! occur in its catalog, at a discount (see `index/`).

const TABLE: &str = include_str!("../../data/thesaurus.txt");

/// The table's entries (`word<TAB>related related ...` lines, sorted bytewise by word), after
/// the comment header.
fn entries() -> &'static str {
    static START: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let start = *START.get_or_init(|| {
        let mut start = 0;
        while TABLE[start..].starts_with('#') {
            match TABLE[start..].find('\n') {
                Some(end) => start += end + 1,
                None => return TABLE.len(),
            }
        }
        start
    });
    TABLE.get(start..).unwrap_or("")
}

/// Where each entry's line starts in [`entries`], found once per process by one pass over
/// the text (a few hundred thousand instructions, 4 bytes per entry); the entries themselves
/// are not parsed into a table (that cost every process ~20M instructions at start).
fn line_starts() -> &'static [u32] {
    static STARTS: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    STARTS.get_or_init(|| {
        let body = entries();
        let mut starts = Vec::with_capacity(16 * 1024);
        let mut start = 0;
        while start < body.len() {
            starts.push(u32::try_from(start).unwrap_or(u32::MAX));
            start = match body.get(start..).and_then(|rest| rest.find('\n')) {
                Some(end) => start + end + 1,
                None => body.len(),
            };
        }
        starts
    })
}

/// The related words of `word`'s entry, found by binary search over the entries' lines.
fn entry(word: &str) -> Option<&'static str> {
    let body = entries();
    let starts = line_starts();
    let found = starts
        .binary_search_by(|&start| {
            // The head: the line up to its tab (bytewise order is the table's and `str`'s).
            let rest = body.as_bytes().get(start as usize..).unwrap_or(&[]);
            let len = rest.iter().position(|&b| b == b'\t' || b == b'\n').unwrap_or(rest.len());
            rest.get(..len).unwrap_or(&[]).cmp(word.as_bytes())
        })
        .ok()?;
    let start = starts.get(found).map_or(body.len(), |&s| s as usize);
    let line = body.get(start..).unwrap_or("").split('\n').next().unwrap_or("");
    Some(line.split_once('\t').map_or("", |(_, rest)| rest))
}

/// Words related to `word` (lowercase), most frequent senses first; empty when unknown.
pub fn related(word: &str) -> Vec<&'static str> {
    related_iter(word).collect()
}

/// [`related`] without collecting: callers that want the first few, or whether there are
/// any, need not split (and allocate for) a whole entry.
pub(crate) fn related_iter(word: &str) -> impl Iterator<Item = &'static str> {
    entry(word).unwrap_or("").split(' ').filter(|w| !w.is_empty())
}

/// A deterministic, offline [`Embedder`](super::Embedder) built on the thesaurus: a text is a
/// bag of its word stems (stopwords dropped), each also voting for the stems of its related
/// words at half weight, hashed into a fixed number of signed dimensions. It knows no more than
/// WordNet does, but it lets the semantic ranker and its fusion run without a model, and it
/// matches "erase" with "delete" where BM25 cannot.
#[derive(Debug, Clone)]
pub struct ThesaurusEmbedder {
    dimensions: usize,
}

impl Default for ThesaurusEmbedder {
    fn default() -> Self {
        Self { dimensions: 1024 }
    }
}

/// FNV-1a: a stable hash (the vectors must not change between runs or builds).
fn fnv(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

impl ThesaurusEmbedder {
    /// An embedder with `dimensions` hashed dimensions (at least 16).
    pub fn new(dimensions: usize) -> Self {
        Self { dimensions: dimensions.max(16) }
    }

    fn add(&self, vector: &mut [f32], stem: &str, weight: f32) {
        let hash = fnv(stem);
        let slot = (hash % self.dimensions as u64) as usize;
        let sign = if hash >> 63 == 0 { 1.0 } else { -1.0 };
        if let Some(x) = vector.get_mut(slot) {
            *x += sign * weight;
        }
    }

    fn embed_one(&self, text: &str) -> Vec<f32> {
        use super::text::{is_stopword, stem, words};
        let mut vector = vec![0.0f32; self.dimensions];
        for word in words(text).into_iter().take(512) {
            if is_stopword(&word) || word.len() > 64 {
                continue;
            }
            let own = stem(&word);
            self.add(&mut vector, &own, 1.0);
            let mut related_words: Vec<&str> = related(&word);
            if own != word {
                related_words.extend(related(&own));
            }
            for other in related_words {
                let other = stem(other);
                if other != own {
                    self.add(&mut vector, &other, 0.5);
                }
            }
        }
        vector
    }
}

impl super::Embedder for ThesaurusEmbedder {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, super::EmbedError> {
        Ok(texts.iter().map(|text| self.embed_one(text)).collect())
    }

    fn model_id(&self) -> &str {
        "codemode-thesaurus-v1"
    }
}

#[cfg(test)]
mod tests {
    use super::related;

    #[test]
    fn knows_general_verbs_and_nouns() {
        assert!(related("erase").contains(&"delete"));
        assert!(related("approve").contains(&"authorize"));
        assert!(related("remember").contains(&"recall"));
        assert!(related("get_rid_of").contains(&"remove"));
        assert!(related("qwertyuiop").is_empty());
    }

    /// The lookup is a binary search over the entries' lines: every entry must be found, which
    /// holds only while the table stays sorted bytewise with one entry per word.
    #[test]
    fn every_entry_is_found_by_the_binary_search() {
        let mut previous = "";
        let mut count = 0;
        for line in super::entries().lines() {
            let (head, rest) = line.split_once('\t').unwrap_or((line, ""));
            assert!(previous < head, "table not sorted at {head:?}");
            assert_eq!(super::entry(head), Some(rest), "{head}");
            previous = head;
            count += 1;
        }
        assert!(count > 10_000);
        assert_eq!(super::entry(""), None);
        assert_eq!(super::entry("zzzzzzzz"), None);
    }
}
