//! A byte-pair filter of a text: a text without one of a word's pairs of adjacent bytes
//! cannot contain the word, so most of the reference scoring's substring searches are
//! answered without searching (a filter that lets a word through is then searched as before).

/// Bits of the filter.
const BITS: usize = 1024;

/// The pairs of adjacent bytes of a text, hashed into [`BITS`] bits.
#[derive(Debug, Clone)]
pub(super) struct Pairs([u64; BITS / 64]);

impl Default for Pairs {
    /// A filter that lets every word through.
    fn default() -> Self {
        Pairs([u64::MAX; BITS / 64])
    }
}

/// The bit of a pair: distinct for pairs of ASCII letters.
fn bit(first: u8, second: u8) -> usize {
    (usize::from(first & 31) << 5 | usize::from(second & 31)) % BITS
}

impl Pairs {
    /// The filter of `text`.
    pub(super) fn of(text: &str) -> Self {
        let mut bits = [0u64; BITS / 64];
        for pair in text.as_bytes().windows(2) {
            let b = bit(pair[0], pair[1]);
            bits[b / 64] |= 1 << (b % 64);
        }
        Pairs(bits)
    }

    /// False only when the text cannot contain `word` (a word of one byte always passes).
    pub(super) fn may_contain(&self, word: &str) -> bool {
        word.as_bytes().windows(2).all(|pair| {
            let b = bit(pair[0], pair[1]);
            self.0[b / 64] & (1 << (b % 64)) != 0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Pairs;

    /// The filter never turns away a word the text contains.
    #[test]
    fn passes_every_substring() {
        let text = "list the repository's open pull requests, ünïcödé and `snake_case` too";
        let pairs = Pairs::of(text);
        for start in 0..text.len() {
            for end in start..=text.len() {
                if let Some(word) = text.get(start..end) {
                    assert!(pairs.may_contain(word), "{word:?}");
                }
            }
        }
        assert!(!pairs.may_contain("xyz"));
        assert!(Pairs::default().may_contain("xyz"));
    }
}
