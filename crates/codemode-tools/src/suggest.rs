//! Edit distance and "did you mean" picking, shared by path lookup, argument validation and
//! fuzzy name matching in search.

/// Edit distance over chars counting insertions, deletions, substitutions and swaps of two
/// adjacent characters (optimal string alignment: `nmae` is one edit from `name`), with an early
/// exit once a whole row exceeds `cap` (callers only care about small distances).
pub fn edit_distance(a: &str, b: &str, cap: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > cap {
        return cap + 1;
    }
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
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
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The largest edit distance accepted as a typo of a name of `len` characters.
pub fn typo_budget(len: usize) -> usize {
    match len {
        0..=1 => 0,
        2..=5 => 1,
        6..=9 => 2,
        _ => 3,
    }
}

/// The candidate closest to `wanted` (case-insensitive), if it is close enough to be a typo or
/// one contains the other. Ties go to the first candidate, so callers pass a stable order.
pub fn nearest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let wanted_lower = wanted.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let lower = candidate.to_lowercase();
        let budget = typo_budget(wanted_lower.chars().count().max(lower.chars().count()));
        let mut distance = edit_distance(&wanted_lower, &lower, budget);
        if distance > budget
            && wanted_lower.len() >= 3
            && lower.len() >= 3
            && (lower.contains(&wanted_lower) || wanted_lower.contains(&lower))
        {
            distance = budget;
        }
        if distance <= budget && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("kitten", "sitting", 10), 3);
        assert_eq!(edit_distance("", "abc", 10), 3);
        assert_eq!(edit_distance("same", "same", 0), 0);
        assert!(edit_distance("a", "abcdefgh", 2) > 2);
        assert_eq!(edit_distance("nmae", "name", 3), 1);
    }

    #[test]
    fn nearest_picks_typos_and_containment() {
        assert_eq!(nearest("nmae", ["id", "name"]), Some("name"));
        assert_eq!(nearest("lookup", ["lookupOrder", "list"]), Some("lookupOrder"));
        assert_eq!(nearest("zzz", ["name"]), None);
    }
}
