//! Typo matching against the index's vocabulary: [`Distance`] is `suggest::edit_distance`
//! (optimal string alignment, capped) on buffers kept between calls and only near the
//! table's diagonal, and the vocabulary is
//! kept in buckets by length, so a query word is compared only with stems whose length is
//! within its typo budget.

/// The capped optimal-string-alignment distance of `suggest::edit_distance`, without its
/// allocations: the rows are kept between calls.
#[derive(Debug, Default)]
pub(super) struct Distance {
    before: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

impl Distance {
    /// The distance of `a` and `b` when it is at most `cap`, else `cap + 1` (so
    /// `suggest::edit_distance(a, b, cap).min(cap + 1)`), computing only the
    /// cells of the table at most `cap` off its diagonal (the others are more than `cap`).
    pub(super) fn within(&mut self, a: &[char], b: &[char], cap: usize) -> usize {
        let over = cap + 1;
        if a.len().abs_diff(b.len()) > cap {
            return over;
        }
        let Distance { before, prev, cur } = self;
        // Row i holds the distances of a[..i] to b[..j]; cells off the band stay `over`.
        for row in [&mut *before, &mut *prev, &mut *cur] {
            row.clear();
            row.resize(b.len() + 1, over);
        }
        for (j, cell) in prev.iter_mut().enumerate().take(cap.min(b.len()) + 1) {
            *cell = j;
        }
        for i in 1..=a.len() {
            let low = i.saturating_sub(cap);
            let high = (i + cap).min(b.len());
            cur.fill(over);
            if low == 0 {
                cur[0] = i.min(over);
            }
            let mut row_min = if low == 0 { cur[0] } else { over };
            for j in low.max(1)..=high {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut best = (prev[j - 1] + cost).min(prev[j] + 1).min(cur[j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(before[j - 2] + 1);
                }
                let best = best.min(over);
                cur[j] = best;
                row_min = row_min.min(best);
            }
            if row_min > cap {
                return over;
            }
            std::mem::swap(before, prev);
            std::mem::swap(prev, cur);
        }
        prev[b.len()].min(over)
    }
}

/// A word's chars counted by their low five bits. An edit changes at most two counts by one
/// (a transposition none), so two words whose counts are more than `2 × budget` apart (summed)
/// are more than `budget` edits apart: most of the vocabulary is ruled out without [`Distance`].
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counts([u8; 32]);

impl Counts {
    pub(super) fn of(chars: &[char]) -> Self {
        let mut counts = [0u8; 32];
        for &c in chars {
            let slot = &mut counts[(u32::from(c) & 31) as usize];
            // Saturating only lowers differences: the bound still holds.
            *slot = slot.saturating_add(1);
        }
        Counts(counts)
    }

    /// False only when words with these counts are more than `budget` edits apart.
    pub(super) fn may_be_within(&self, other: &Counts, budget: usize) -> bool {
        // At most 32 × 255 apart: a u16 sum cannot overflow, and sums 32 lanes at once.
        let apart: u16 = self.0.iter().zip(&other.0).map(|(a, b)| u16::from(a.abs_diff(*b))).sum();
        usize::from(apart) <= 2 * budget
    }
}

/// Indexed stems by length in chars: `buckets[n]` holds (the stem's chars, their counts, its
/// position in the sorted vocabulary) for every stem of `n` chars.
#[derive(Debug, Clone, Default)]
pub(super) struct ByLength {
    buckets: Vec<Vec<Stem>>,
}

/// A stem of the vocabulary, ready for comparing.
#[derive(Debug, Clone)]
struct Stem {
    chars: Box<[char]>,
    counts: Counts,
    /// Its position in the sorted vocabulary.
    position: u32,
}

impl ByLength {
    /// Buckets a sorted vocabulary.
    pub(super) fn new(vocabulary: &[String]) -> Self {
        let mut buckets: Vec<Vec<Stem>> = Vec::new();
        for (position, term) in vocabulary.iter().enumerate() {
            let chars: Box<[char]> = term.chars().collect();
            if buckets.len() <= chars.len() {
                buckets.resize_with(chars.len() + 1, Vec::new);
            }
            let counts = Counts::of(&chars);
            buckets[chars.len()].push(Stem { chars, counts, position: position as u32 });
        }
        Self { buckets }
    }

    /// The positions (in the vocabulary) and distances of the stems within `budget` edits of
    /// `word`.
    pub(super) fn near(&self, word: &[char], budget: usize, distance: &mut Distance) -> Vec<(u32, usize)> {
        let low = word.len().saturating_sub(budget);
        let high = (word.len() + budget).min(self.buckets.len().saturating_sub(1));
        let counts = Counts::of(word);
        let mut out = Vec::new();
        for bucket in self.buckets.get(low..=high).unwrap_or(&[]) {
            for stem in bucket {
                if !counts.may_be_within(&stem.counts, budget) {
                    continue;
                }
                let d = distance.within(word, &stem.chars, budget);
                if d <= budget {
                    out.push((stem.position, d));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Counts, Distance};
    use crate::suggest::edit_distance;

    /// The counts never rule out a word within the budget.
    #[test]
    fn counts_bound_the_distance() {
        let words =
            ["", "a", "ab", "ba", "list", "lsit", "issue", "isuse", "kubernetes", "kubernetse", "Ünïcödé"];
        for a in words {
            for b in words {
                let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                for budget in 0..5 {
                    if edit_distance(a, b, budget) <= budget {
                        assert!(Counts::of(&ca).may_be_within(&Counts::of(&cb), budget), "{a} {b}");
                    }
                }
            }
        }
    }

    /// The banded distance equals the capped one on many random short words over a small
    /// alphabet (where transpositions and near misses are common).
    #[test]
    fn banded_distance_equals_suggest_edit_distance_on_random_words() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut distance = Distance::default();
        for _ in 0..20_000 {
            let word = |next: &mut dyn FnMut(u64) -> u64| -> String {
                let len = next(9);
                (0..len).map(|_| char::from(b'a' + next(4) as u8)).collect()
            };
            let (a, b) = (word(&mut next), word(&mut next));
            let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let cap = next(5) as usize;
            let expected = edit_distance(&a, &b, cap);
            assert_eq!(distance.within(&ca, &cb, cap), expected.min(cap + 1), "{a} {b} {cap}");
            if expected <= cap {
                assert!(Counts::of(&ca).may_be_within(&Counts::of(&cb), cap), "{a} {b} {cap}");
            }
        }
    }

    /// The kept-buffer distance is `suggest::edit_distance`, capped or not.
    #[test]
    fn distance_equals_suggest_edit_distance() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "acb",
            "list",
            "lsit",
            "issue",
            "isuse",
            "repository",
            "repostiory",
            "created",
            "create",
            "crate",
            "Ünïcödé",
            "unicode",
            "kubernetes",
            "kubernetse",
            "xyzzy",
        ];
        let mut distance = Distance::default();
        for a in words {
            for b in words {
                let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                for cap in 0..5 {
                    let expected = edit_distance(a, b, cap);
                    assert_eq!(distance.within(&ca, &cb, cap), expected.min(cap + 1), "{a} {b} {cap}");
                }
            }
        }
    }
}
