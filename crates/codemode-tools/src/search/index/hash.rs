//! A fast hasher for the index builder's maps of short strings (words, runs): tens of
//! thousands of lookups per catalog, where a keyed hasher's per-key cost dominates. The keys
//! come from the host's tool definitions, not from programs' queries, so flooding is not a
//! concern here. And [`Interner`], which numbers such strings without an allocation each.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map with [`FxHasher`].
pub(super) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// The multiply-rotate hash of rustc (`FxHasher`), eight bytes at a time.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A hasher for keys that are hashes already: the key is the hash.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct IdHasher {
    hash: u64,
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed here; anything else still hashes (not well).
        for &byte in bytes {
            self.hash = (self.hash.rotate_left(8) ^ u64::from(byte)).wrapping_mul(SEED);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.hash = value;
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A string's 64-bit hash: [`FxHasher`]'s, its bits mixed (murmur3's finalizer) so that the
/// high bits the table uses for tags and the low ones it uses for buckets both vary.
fn hash_str(text: &str) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(text.as_bytes());
    let mut h = hasher.finish() ^ text.len() as u64;
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Distinct strings numbered densely at first sight, kept in one arena (`text`, each string
/// followed by `\n`) rather than one allocation each: the builder meets thousands of words
/// and runs per catalog. The table maps a string's hash to the first string with it; a
/// string whose hash an earlier one has goes to `collisions` (rare), so lookups are exact.
#[derive(Debug, Clone, Default)]
pub(super) struct Interner {
    text: String,
    /// Per id: where its string starts in `text`.
    starts: Vec<u32>,
    table: HashMap<u64, u32, BuildHasherDefault<IdHasher>>,
    collisions: FxMap<String, u32>,
    /// Tests: every string gets the same hash (all but the first collide).
    #[cfg(test)]
    collide: bool,
}

impl Interner {
    /// An interner with room for `strings` strings.
    pub(super) fn with_capacity(strings: usize) -> Self {
        Self {
            text: String::with_capacity(strings * 8),
            starts: Vec::with_capacity(strings),
            table: HashMap::with_capacity_and_hasher(strings, BuildHasherDefault::default()),
            ..Self::default()
        }
    }

    fn hash(&self, text: &str) -> u64 {
        #[cfg(test)]
        if self.collide {
            return 0;
        }
        hash_str(text)
    }

    /// How many strings there are.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.starts.len()
    }

    /// String `id`'s bytes (bytes, not `str`: comparing them needs no char-boundary checks).
    fn bytes(&self, id: u32) -> &[u8] {
        let start = self.starts.get(id as usize).map_or(0, |&s| s as usize);
        // The next string starts after this one's `\n`; the last ends before the text's last.
        let end = self.starts.get(id as usize + 1).map_or(self.text.len(), |&s| s as usize);
        self.text.as_bytes().get(start..end.saturating_sub(1).max(start)).unwrap_or(&[])
    }

    /// String `id`.
    #[cfg(test)]
    pub(super) fn str(&self, id: u32) -> &str {
        std::str::from_utf8(self.bytes(id)).unwrap_or("")
    }

    fn find(&self, text: &str, hash: u64) -> Option<u32> {
        match self.table.get(&hash) {
            Some(&id) if self.bytes(id) == text.as_bytes() => Some(id),
            Some(_) => self.collisions.get(text).copied(),
            None => None,
        }
    }

    /// The id of `text`, if it was interned.
    #[cfg(test)]
    fn get(&self, text: &str) -> Option<u32> {
        self.find(text, self.hash(text))
    }

    /// The id of `text`, numbered now if it is new (then also `true`).
    pub(super) fn intern(&mut self, text: &str) -> (u32, bool) {
        let hash = self.hash(text);
        if let Some(id) = self.find(text, hash) {
            return (id, false);
        }
        let id = self.starts.len() as u32;
        self.starts.push(self.text.len() as u32);
        self.text.push_str(text);
        self.text.push('\n');
        match self.table.entry(hash) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(id);
            }
            std::collections::hash_map::Entry::Occupied(_) => {
                self.collisions.insert(text.to_owned(), id);
            }
        }
        (id, true)
    }

    /// The arena and where each string starts in it.
    pub(super) fn into_parts(self) -> (String, Vec<u32>) {
        (self.text, self.starts)
    }
}

#[cfg(test)]
mod tests {
    use super::Interner;

    /// Ids are dense and lookups exact, hashes colliding or not.
    #[test]
    fn interner_numbers_strings_exactly() {
        for collide in [false, true] {
            let mut interner = Interner { collide, ..Interner::default() };
            let words = ["issue", "", "issues", "repo", "ünï", "issue", "a", "", "repo", "b"];
            let mut expected: Vec<&str> = Vec::new();
            for word in words {
                let (id, new) = interner.intern(word);
                match expected.iter().position(|w| *w == word) {
                    Some(i) => assert_eq!((id, new), (i as u32, false), "{word}"),
                    None => {
                        assert_eq!((id, new), (expected.len() as u32, true), "{word}");
                        expected.push(word);
                    }
                }
            }
            assert_eq!(interner.len(), expected.len());
            for (i, word) in expected.iter().enumerate() {
                assert_eq!(interner.str(i as u32), *word);
                assert_eq!(interner.get(word), Some(i as u32));
            }
            assert_eq!(interner.get("missing"), None);
            assert_eq!(interner.get("issu"), None);
        }
    }
}
