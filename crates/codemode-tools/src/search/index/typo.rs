//! Typo matching against the index's vocabulary: [`Distance`] is `suggest::edit_distance`
//! (optimal string alignment, capped) on buffers kept between calls, and the vocabulary is
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
    /// The distance of `a` and `b`, or `cap + 1` when it is more than `cap` (the same value as
    /// `suggest::edit_distance(a, b, cap)`).
    pub(super) fn between(&mut self, a: &[char], b: &[char], cap: usize) -> usize {
        if a.len().abs_diff(b.len()) > cap {
            return cap + 1;
        }
        let Distance { before, prev, cur } = self;
        before.clear();
        before.resize(b.len() + 1, 0);
        prev.clear();
        prev.extend(0..=b.len());
        cur.clear();
        cur.resize(b.len() + 1, 0);
        for i in 0..a.len() {
            cur[0] = i + 1;
            let mut row_min = cur[0];
            for j in 0..b.len() {
                let cost = usize::from(a[i] != b[j]);
                let mut best = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
                if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                    best = best.min(before[j - 1] + 1);
                }
                cur[j + 1] = best;
                row_min = row_min.min(best);
            }
            if row_min > cap {
                return cap + 1;
            }
            std::mem::swap(before, prev);
            std::mem::swap(prev, cur);
        }
        prev[b.len()]
    }
}

/// Indexed stems by length in chars: `buckets[n]` holds (the stem's chars, its position in
/// the sorted vocabulary) for every stem of `n` chars.
#[derive(Debug, Clone, Default)]
pub(super) struct ByLength {
    buckets: Vec<Vec<(Box<[char]>, u32)>>,
}

impl ByLength {
    /// Buckets a sorted vocabulary.
    pub(super) fn new(vocabulary: &[String]) -> Self {
        let mut buckets: Vec<Vec<(Box<[char]>, u32)>> = Vec::new();
        for (position, term) in vocabulary.iter().enumerate() {
            let chars: Box<[char]> = term.chars().collect();
            if buckets.len() <= chars.len() {
                buckets.resize_with(chars.len() + 1, Vec::new);
            }
            buckets[chars.len()].push((chars, position as u32));
        }
        Self { buckets }
    }

    /// The positions (in the vocabulary) and distances of the stems within `budget` edits of
    /// `word`.
    pub(super) fn near(&self, word: &[char], budget: usize, distance: &mut Distance) -> Vec<(u32, usize)> {
        let low = word.len().saturating_sub(budget);
        let high = (word.len() + budget).min(self.buckets.len().saturating_sub(1));
        let mut out = Vec::new();
        for bucket in self.buckets.get(low..=high).unwrap_or(&[]) {
            for (chars, position) in bucket {
                let d = distance.between(word, chars, budget);
                if d <= budget {
                    out.push((*position, d));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Distance;
    use crate::suggest::edit_distance;

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
                    assert_eq!(distance.between(&ca, &cb, cap), edit_distance(a, b, cap), "{a} {b} {cap}");
                }
            }
        }
    }
}
