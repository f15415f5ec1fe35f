//! Which tools' texts contain a query word as a substring, for the reference runtime's path
//! and description scoring ([`super::SearchIndex`]'s `reference_points`), answered for every
//! tool at once rather than by searching each tool's text.
//!
//! A query word is made of lowercased alphanumeric chars, which include no ASCII byte other
//! than letters and digits (see the test below). So an occurrence of it in a lowercased text
//! lies inside one *run*: a maximal stretch without ASCII punctuation, space or control bytes.
//! The index keeps each distinct run once, joined by `\n` into one string (a few tens of
//! kilobytes for 869 tools, where the texts are some 450 KB), with the tools (and which of
//! their texts) that have it: the tools of the runs a query word occurs in are the tools
//! whose text contains it.
//!
//! Which runs a word occurs in is looked up in an n-gram index of the runs (made at the
//! first query, some 10M instructions for 869 tools, rather than searching all runs for
//! every word): a word of one to three bytes names the runs having it, a longer one the runs
//! having its rarest trigram, the only ones searched.

use std::sync::OnceLock;

use memchr::memmem;

use super::hash::Interner;

/// Bit of a tool's lowercased path in [`Runs`]' text masks.
pub(super) const PATH: u8 = 1;
/// Bit of a tool's lowercased description.
pub(super) const DESCRIPTION: u8 = 2;
/// Bit of a tool's other searchable text (namespace descriptions, input property names and
/// descriptions, title).
pub(super) const OTHER: u8 = 4;

/// Whether a byte separates runs: an ASCII byte other than a letter or digit.
pub(super) fn separates(byte: u8) -> bool {
    SEPARATES[byte as usize]
}

/// [`separates`] per byte: one load where texts are split (every byte of a catalog's texts).
static SEPARATES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = !(byte as u8).is_ascii_alphanumeric();
        byte += 1;
    }
    table
};

/// The runs of `text`: its maximal non-empty stretches without separating bytes, in order.
pub(super) fn split_runs(text: &str) -> SplitRuns<'_> {
    SplitRuns { text, at: 0 }
}

/// The iterator of [`split_runs`].
pub(super) struct SplitRuns<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Iterator for SplitRuns<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let rest = bytes.get(self.at..)?;
        let start = self.at + rest.iter().position(|&byte| !separates(byte))?;
        let after = bytes.get(start..).unwrap_or(&[]);
        let end = start + after.iter().position(|&byte| separates(byte)).unwrap_or(after.len());
        self.at = end;
        // Runs end at separating bytes, which are ASCII: every cut is a char boundary.
        self.text.get(start..end)
    }
}

/// The distinct runs of every tool's texts and the tools that have them.
#[derive(Debug, Clone, Default)]
pub(super) struct Runs {
    /// Every distinct run, each followed by `\n`.
    text: String,
    /// Per run id: its start in `text`, ascending.
    starts: Vec<u32>,
    /// Per run id: (tool, mask of its texts having the run), by tool: run `id`'s are
    /// `postings[posting_starts[id]..posting_starts[id + 1]]` (one allocation for all runs).
    postings: Vec<(u32, u8)>,
    posting_starts: Vec<u32>,
    /// The runs by trigram, made at the first query word that has one.
    grams: OnceLock<Grams>,
}

/// Which runs have each n-gram (one, two or three consecutive bytes) of some run.
#[derive(Debug, Clone, Default)]
struct Grams {
    /// Every n-gram of some run, as [`gram`] keys, ascending.
    keys: Vec<u32>,
    /// Per key: where its runs start in `runs` (one entry more than `keys`).
    starts: Vec<u32>,
    /// Per key: the runs having the trigram, ascending.
    runs: Vec<u32>,
}

/// The slots of a run's 1- and 2-grams in [`Runs::short_grams`]' table: a 1-gram `a` is
/// `a`, a 2-gram `ab` 256 + `ab` as a big-endian u16.
fn short_slots(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let singles = bytes.iter().map(|&b| usize::from(b));
    let pairs = bytes.windows(2).map(|w| 256 + (usize::from(w[0]) << 8 | usize::from(w[1])));
    singles.chain(pairs)
}

/// The key of an n-gram of up to three bytes: its length and bytes in one integer.
fn gram(bytes: &[u8]) -> u32 {
    let n = bytes.len().min(3);
    bytes.iter().take(n).fold(n as u32, |key, &byte| (key << 8) | u32::from(byte))
}

impl Grams {
    /// The runs having the trigram with key `key` (none: empty).
    fn runs_of(&self, key: u32) -> &[u32] {
        let Ok(i) = self.keys.binary_search(&key) else { return &[] };
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&start), Some(&end)) => self.runs.get(start as usize..end as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// Makes [`Runs`], one tool after the other.
#[derive(Debug, Default)]
pub(super) struct RunsBuilder {
    /// The distinct runs: its arena becomes [`Runs`]' text.
    ids: Interner,
    runs: Runs,
    /// Every (run, tool, mask) met, by tool: made into [`Runs`]' postings at the end.
    pairs: Vec<(u32, u32, u8)>,
    /// Per run id: its last entry in `pairs` (the current tool's, if that has the run).
    last: Vec<u32>,
    /// The current tool's number.
    doc: u32,
}

impl RunsBuilder {
    /// A builder with room for about `runs` distinct runs.
    pub(super) fn with_capacity(runs: usize) -> Self {
        Self { ids: Interner::with_capacity(runs), last: Vec::with_capacity(runs), ..Self::default() }
    }

    /// Adds a lowercased text of the current tool under `bit`.
    pub(super) fn add(&mut self, text: &str, bit: u8) {
        for run in split_runs(text) {
            let id = self.id(run);
            self.post(id, bit);
        }
    }

    /// The id of a (lowercased) run, numbered at its first sight.
    pub(super) fn id(&mut self, run: &str) -> u32 {
        let (id, new) = self.ids.intern(run);
        if new {
            self.last.push(u32::MAX);
        }
        id
    }

    /// Records that the current tool's text `bit` has the run `id`.
    pub(super) fn post(&mut self, id: u32, bit: u8) {
        let doc = self.doc;
        let Some(last) = self.last.get_mut(id as usize) else { return };
        // Tools are added in order: the current tool's entry for the run, if any, is its last.
        match self.pairs.get_mut(*last as usize) {
            Some((_, seen, mask)) if *seen == doc => *mask |= bit,
            _ => {
                *last = self.pairs.len() as u32;
                self.pairs.push((id, doc, bit));
            }
        }
    }

    /// Ends the current tool: the next texts are the next tool's.
    pub(super) fn next_doc(&mut self) {
        self.doc += 1;
    }

    /// The runs of tool `doc` with their masks, sorted (for tests).
    #[cfg(test)]
    pub(super) fn runs_of(&self, doc: u32) -> Vec<(String, u8)> {
        let mut out = Vec::new();
        for &(r, d, mask) in &self.pairs {
            if d == doc {
                out.push((self.ids.str(r).to_owned(), mask));
            }
        }
        out.sort();
        out
    }

    pub(super) fn build(self) -> Runs {
        let RunsBuilder { mut runs, pairs, ids, .. } = self;
        (runs.text, runs.starts) = ids.into_parts();
        // A counting sort of the pairs by run (stable: each run's stay by tool).
        let mut starts = vec![0u32; runs.starts.len() + 1];
        for &(run, _, _) in &pairs {
            if let Some(count) = starts.get_mut(run as usize + 1) {
                *count += 1;
            }
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let mut postings = vec![(0u32, 0u8); pairs.len()];
        for (run, doc, mask) in pairs {
            if let Some(at) = next.get_mut(run as usize)
                && let Some(slot) = postings.get_mut(*at as usize)
            {
                *slot = (doc, mask);
                *at += 1;
            }
        }
        runs.postings = postings;
        runs.posting_starts = starts;
        runs
    }
}

impl Runs {
    /// ORs into `masks[tool]` the bits of the texts of each tool that contain `word`, a
    /// lowercased query word; false (leaving `masks` as it was) when `word` has a byte that
    /// separates runs (or is empty), which this index cannot answer. A query word's forms
    /// never do: they are non-empty runs of lowercased alphanumeric chars (see the test of
    /// `Query::reference_forms` in `query.rs` and the one below).
    pub(super) fn containing(&self, word: &str, masks: &mut [u8]) -> bool {
        if word.is_empty() || word.bytes().any(separates) {
            return false;
        }
        // A word of up to three bytes is an n-gram: its runs are those having it. A longer one
        // is only in runs having each of its trigrams: those of the rarest are searched (a
        // missing trigram: none).
        let grams = self.grams();
        let mut rarest: Option<&[u32]> = None;
        for window in word.as_bytes().windows(word.len().min(3)) {
            let runs = grams.runs_of(gram(window));
            if rarest.is_none_or(|r| runs.len() < r.len()) {
                rarest = Some(runs);
            }
            if runs.is_empty() {
                break;
            }
        }
        let finder = (word.len() > 3).then(|| memmem::Finder::new(word.as_bytes()));
        for &run in rarest.unwrap_or(&[]) {
            if finder.as_ref().is_none_or(|finder| finder.find(self.run(run as usize)).is_some()) {
                self.add_masks(run as usize, masks);
            }
        }
        true
    }

    /// [`Self::containing`] by searching the string of all runs (what the n-gram index
    /// answers faster), for the tests to compare with.
    #[cfg(test)]
    fn containing_by_search(&self, word: &str, masks: &mut [u8]) -> bool {
        if word.is_empty() || word.bytes().any(separates) {
            return false;
        }
        let finder = memmem::Finder::new(word.as_bytes());
        let text = self.text.as_bytes();
        let (mut from, mut first_run) = (0, 0);
        while let Some(found) = text.get(from..).and_then(|rest| finder.find(rest)) {
            let position = from + found;
            // The run the occurrence starts in holds all of it (a run has no separator); it
            // starts after the previous match's run.
            let Some(later) = self.starts.get(first_run..) else { break };
            let run =
                first_run + later.partition_point(|&start| start as usize <= position).saturating_sub(1);
            self.add_masks(run, masks);
            // Other occurrences in the same run add nothing: search on from the next one.
            first_run = run + 1;
            match self.starts.get(first_run) {
                Some(&next) => from = next as usize,
                None => break,
            }
        }
        true
    }

    /// ORs into `masks[tool]` the bits of the tools' texts having run `run`.
    fn add_masks(&self, run: usize, masks: &mut [u8]) {
        let (start, end) = match (self.posting_starts.get(run), self.posting_starts.get(run + 1)) {
            (Some(&start), Some(&end)) => (start as usize, end as usize),
            _ => (0, 0),
        };
        for &(doc, mask) in self.postings.get(start..end).unwrap_or(&[]) {
            if let Some(slot) = masks.get_mut(doc as usize) {
                *slot |= mask;
            }
        }
    }

    /// The bytes of run `run` (without its `\n`).
    fn run(&self, run: usize) -> &[u8] {
        let start = self.starts.get(run).map_or(0, |&s| s as usize);
        // The next run starts after this one's `\n`; the last ends before the text's last.
        let end = self.starts.get(run + 1).map_or(self.text.len(), |&s| s as usize).saturating_sub(1);
        self.text.as_bytes().get(start..end).unwrap_or(&[])
    }

    /// The n-gram index, made at the first call: keys ascending (1-grams, then 2-grams, then
    /// 3-grams, as [`gram`] orders them), each key's runs ascending.
    fn grams(&self) -> &Grams {
        self.grams.get_or_init(|| {
            let mut grams = Grams::default();
            self.short_grams(&mut grams);
            self.trigrams(&mut grams);
            grams.starts.push(grams.runs.len() as u32);
            grams
        })
    }

    /// Adds the 1- and 2-grams: few enough (256 + 65536) to count in a table indexed by the
    /// bytes, then place by a prefix sum (a counting sort, with no sort of pairs).
    fn short_grams(&self, grams: &mut Grams) {
        const SLOTS: usize = 256 + (1 << 16);
        // Per slot: its runs' count, then where they go; `last` keeps a run's repeats out
        // (runs are taken in order, so a slot's last run is the current one if it has it).
        let mut counts = vec![0u32; SLOTS];
        let mut last = vec![u32::MAX; SLOTS];
        for run in 0..self.starts.len() {
            for slot in short_slots(self.run(run)) {
                if let (Some(count), Some(seen)) = (counts.get_mut(slot), last.get_mut(slot))
                    && *seen != run as u32
                {
                    *seen = run as u32;
                    *count += 1;
                }
            }
        }
        let mut at = grams.runs.len() as u32;
        for (slot, count) in counts.iter_mut().enumerate() {
            if *count > 0 {
                grams.keys.push(if slot < 256 {
                    (1 << 8) | slot as u32
                } else {
                    (2 << 16) | (slot - 256) as u32
                });
                grams.starts.push(at);
            }
            let here = *count;
            *count = at;
            at += here;
        }
        grams.runs.resize(at as usize, 0);
        last.fill(u32::MAX);
        for run in 0..self.starts.len() {
            for slot in short_slots(self.run(run)) {
                if let (Some(next), Some(seen)) = (counts.get_mut(slot), last.get_mut(slot))
                    && *seen != run as u32
                {
                    *seen = run as u32;
                    if let Some(place) = grams.runs.get_mut(*next as usize) {
                        *place = run as u32;
                    }
                    *next += 1;
                }
            }
        }
    }

    /// Adds the 3-grams: (key, run) pairs, stably sorted by key.
    fn trigrams(&self, grams: &mut Grams) {
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(self.text.len());
        for run in 0..self.starts.len() {
            pairs.extend(self.run(run).windows(3).map(|window| (gram(window), run as u32)));
        }
        // The pairs come by run, so a stable sort by key (least significant digit first, two
        // 12-bit digits: the bytes of a 3-gram key) keeps each key's runs ascending; a
        // comparison sort costs several times more.
        let mut spare = vec![(0u32, 0u32); pairs.len()];
        for shift in [0, 12] {
            let mut counts = vec![0u32; 1 << 12];
            for &(key, _) in &pairs {
                if let Some(count) = counts.get_mut((key >> shift) as usize & 0xfff) {
                    *count += 1;
                }
            }
            let mut at = 0;
            for count in &mut counts {
                let here = *count;
                *count = at;
                at += here;
            }
            for &pair in &pairs {
                if let Some(next) = counts.get_mut((pair.0 >> shift) as usize & 0xfff)
                    && let Some(place) = spare.get_mut(*next as usize)
                {
                    *place = pair;
                    *next += 1;
                }
            }
            std::mem::swap(&mut pairs, &mut spare);
        }
        debug_assert!(pairs.windows(2).all(|w| w[0] <= w[1]));
        pairs.dedup();
        for (key, run) in pairs {
            // 3-gram keys are above the 1- and 2-grams' (see `gram`).
            if grams.keys.last() != Some(&key) {
                grams.keys.push(key);
                grams.starts.push(grams.runs.len() as u32);
            }
            grams.runs.push(run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DESCRIPTION, OTHER, PATH, RunsBuilder, separates, split_runs};

    /// No alphanumeric char lowercases to a separating byte: a query word never spans runs.
    #[test]
    fn lowercased_alphanumerics_have_no_separators() {
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32).filter(|c| c.is_alphanumeric()) {
            for lower in c.to_lowercase() {
                assert!(!(lower.is_ascii() && separates(lower as u8)), "{c:?}");
            }
        }
    }

    /// Lowercasing a char other than a separator gives no separating byte, and a separator
    /// lowercases to itself: a text's lowercase has the runs of the text, each lowercased
    /// (when no char's lowercase depends on its neighbours: see `doc.rs`).
    #[test]
    fn lowercasing_keeps_runs() {
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            let lower: String = c.to_lowercase().collect();
            if c.is_ascii() && separates(c as u8) {
                assert_eq!(lower, c.to_string());
            } else {
                assert!(!lower.is_empty() && !lower.bytes().any(separates), "{c:?}");
            }
        }
    }

    /// The runs are the text split at separating bytes, empty pieces dropped.
    #[test]
    fn split_runs_is_split() {
        for text in ["", " ", "a", " a", "a ", "..a.b..c-", "ünï cödé—x", "listPRs get_file-contents!"]
        {
            let expected: Vec<&str> =
                text.split(|c: char| c.is_ascii() && separates(c as u8)).filter(|r| !r.is_empty()).collect();
            assert_eq!(split_runs(text).collect::<Vec<_>>(), expected, "{text:?}");
        }
    }

    /// The masks are those of `str::contains` on each text.
    #[test]
    fn masks_equal_contains() {
        let docs = [
            ["github.create_issue", "create an issue in a repository", "owner repo title body"],
            ["github.list_issues", "list issues; filter by state.", "owner\nrepo\nstate ünïcödé"],
            ["slack.post_message", "post a message to a channel", ""],
        ];
        let mut builder = RunsBuilder::default();
        for texts in &docs {
            for (text, bit) in texts.iter().zip([PATH, DESCRIPTION, OTHER]) {
                builder.add(text, bit);
            }
            builder.next_doc();
        }
        let runs = builder.build();
        for word in [
            "issue",
            "iss",
            "sue",
            "repo",
            "o",
            "te",
            "ünï",
            "cödé",
            "message",
            "xyz",
            "github",
            "st",
            "ssu",
            "issues",
            "create",
            "eate",
            "nnel",
            "channel",
            "é",
            "ödé",
            "repository",
            "positor",
            "ory",
            "sitory",
            "tate",
            "filter",
            "an",
            "a",
            "postamessage",
            "post",
            "slack",
        ] {
            let mut masks = vec![0u8; docs.len()];
            assert!(runs.containing(word, &mut masks));
            let mut searched = vec![0u8; docs.len()];
            assert!(runs.containing_by_search(word, &mut searched));
            assert_eq!(masks, searched, "{word}");
            for (doc, texts) in docs.iter().enumerate() {
                let mut expected = 0;
                for (text, bit) in texts.iter().zip([PATH, DESCRIPTION, OTHER]) {
                    if text.contains(word) {
                        expected |= bit;
                    }
                }
                assert_eq!(masks[doc], expected, "{word} {doc}");
            }
        }
        // The n-gram index: keys ascending (binary search), each key's runs ascending, once.
        let grams = runs.grams();
        assert!(grams.keys.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(grams.starts.len(), grams.keys.len() + 1);
        for (i, &key) in grams.keys.iter().enumerate() {
            let list = grams.runs_of(key);
            assert!(!list.is_empty() && list.windows(2).all(|w| w[0] < w[1]), "{key:x}");
            assert_eq!(list.len(), (grams.starts[i + 1] - grams.starts[i]) as usize);
        }
        let mut masks = vec![0u8; docs.len()];
        assert!(!runs.containing("a b", &mut masks));
        assert!(!runs.containing("", &mut masks));
    }
}
