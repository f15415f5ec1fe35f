//! Latin text beyond code units: the collation order of `localeCompare` and `Intl.Collator`
//! (an approximation of ICU's root collation for Latin script) and NFC/NFD normalization of
//! Latin letters with diacritics. Pure functions, apart from reading collation options.

use codemode_bytecode::ErrorKind;

use crate::Vm;
use crate::call::Throw;
use crate::value::Value;

/// ASCII and Latin-1 punctuation and symbols in the order of the Unicode root collation (what
/// Node's ICU uses): they sort before digits, and digits before letters.
const PUNCTUATION_ORDER: &str =
    "\t\n\u{b}\u{c}\r \u{a0}_-,;:!¡?¿.'\"«»()[]{}§¶@*/\\&#%`^°©®+±÷×<=>¬|¦~¤¢$£¥€";

/// Latin letters with diacritics: (letter, base, accent rank). Accent ranks follow the root
/// collation's secondary order (acute < grave < breve < circumflex < caron < ring < diaeresis <
/// double acute < tilde < dot < cedilla < ogonek < macron < stroke).
const ACCENTED: &[(char, char, u8)] = &[
    ('á', 'a', 1),
    ('à', 'a', 2),
    ('ă', 'a', 3),
    ('â', 'a', 4),
    ('å', 'a', 6),
    ('ä', 'a', 7),
    ('ã', 'a', 9),
    ('ą', 'a', 12),
    ('ā', 'a', 13),
    ('ć', 'c', 1),
    ('ĉ', 'c', 4),
    ('č', 'c', 5),
    ('ċ', 'c', 10),
    ('ç', 'c', 11),
    ('ď', 'd', 5),
    ('đ', 'd', 14),
    ('ð', 'd', 15),
    ('é', 'e', 1),
    ('è', 'e', 2),
    ('ĕ', 'e', 3),
    ('ê', 'e', 4),
    ('ě', 'e', 5),
    ('ë', 'e', 7),
    ('ė', 'e', 10),
    ('ę', 'e', 12),
    ('ē', 'e', 13),
    ('ğ', 'g', 3),
    ('ĝ', 'g', 4),
    ('ġ', 'g', 10),
    ('ģ', 'g', 11),
    ('ĥ', 'h', 4),
    ('ħ', 'h', 14),
    ('í', 'i', 1),
    ('ì', 'i', 2),
    ('ĭ', 'i', 3),
    ('î', 'i', 4),
    ('ï', 'i', 7),
    ('ĩ', 'i', 9),
    ('į', 'i', 12),
    ('ī', 'i', 13),
    ('ı', 'i', 15),
    ('ĵ', 'j', 4),
    ('ķ', 'k', 11),
    ('ĺ', 'l', 1),
    ('ľ', 'l', 5),
    ('ļ', 'l', 11),
    ('ŀ', 'l', 10),
    ('ł', 'l', 14),
    ('ń', 'n', 1),
    ('ň', 'n', 5),
    ('ñ', 'n', 9),
    ('ņ', 'n', 11),
    ('ó', 'o', 1),
    ('ò', 'o', 2),
    ('ŏ', 'o', 3),
    ('ô', 'o', 4),
    ('ö', 'o', 7),
    ('ő', 'o', 8),
    ('õ', 'o', 9),
    ('ō', 'o', 13),
    ('ø', 'o', 14),
    ('ŕ', 'r', 1),
    ('ř', 'r', 5),
    ('ŗ', 'r', 11),
    ('ś', 's', 1),
    ('ŝ', 's', 4),
    ('š', 's', 5),
    ('ş', 's', 11),
    ('ť', 't', 5),
    ('ţ', 't', 11),
    ('ŧ', 't', 14),
    ('ú', 'u', 1),
    ('ù', 'u', 2),
    ('ŭ', 'u', 3),
    ('û', 'u', 4),
    ('ů', 'u', 6),
    ('ü', 'u', 7),
    ('ű', 'u', 8),
    ('ũ', 'u', 9),
    ('ų', 'u', 12),
    ('ū', 'u', 13),
    ('ŵ', 'w', 4),
    ('ý', 'y', 1),
    ('ŷ', 'y', 4),
    ('ÿ', 'y', 7),
    ('ź', 'z', 1),
    ('ž', 'z', 5),
    ('ż', 'z', 10),
];

/// Combining marks (U+0300..) and their accent ranks, for decomposed text.
fn combining_rank(c: char) -> Option<u8> {
    Some(match c {
        '\u{301}' => 1,
        '\u{300}' => 2,
        '\u{306}' => 3,
        '\u{302}' => 4,
        '\u{30C}' => 5,
        '\u{30A}' => 6,
        '\u{308}' => 7,
        '\u{30B}' => 8,
        '\u{303}' => 9,
        '\u{307}' => 10,
        '\u{327}' => 11,
        '\u{328}' => 12,
        '\u{304}' => 13,
        '\u{300}'..='\u{36F}' => 16,
        _ => return None,
    })
}

/// One collation element: (primary, secondary, tertiary).
type Element = (u32, u8, u8);

/// `localeCompare`/`Intl.Collator` options: `numeric` and `sensitivity`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct CollateOptions {
    /// Digit runs compare by numeric value (`"item 9" < "item 10"`).
    pub numeric: bool,
    /// Compare accents (secondary differences).
    pub ignore_accents: bool,
    /// Compare case (tertiary differences).
    pub ignore_case: bool,
}

/// Reads `{ numeric, sensitivity }` (RangeError on an unknown sensitivity).
pub(crate) fn collate_options(vm: &mut Vm, options: Value) -> Result<CollateOptions, Throw> {
    let mut o = CollateOptions::default();
    if !matches!(options, Value::Obj(_)) {
        return Ok(o);
    }
    let numeric = vm.get_named(options, "numeric")?;
    o.numeric = vm.to_boolean(numeric);
    let sensitivity = vm.get_named(options, "sensitivity")?;
    if sensitivity != Value::Undefined {
        match vm.to_rust_string(sensitivity)?.as_str() {
            "base" => (o.ignore_accents, o.ignore_case) = (true, true),
            "accent" => o.ignore_case = true,
            "case" => o.ignore_accents = true,
            "variant" => {}
            other => {
                let msg =
                    format!("Value {other} out of range for Intl.Collator options property sensitivity");
                return Err(vm.make_error(ErrorKind::RangeError, &msg));
            }
        }
    }
    Ok(o)
}

fn collation_elements(s: &str, numeric: bool) -> Vec<Element> {
    let mut out: Vec<Element> = Vec::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if numeric && c.is_ascii_digit() {
            // A digit run: its significant length first, then its digits.
            let mut run = String::from(c);
            while let Some(&d) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                run.push(d);
                chars.next();
            }
            let significant = run.trim_start_matches('0');
            let significant = if significant.is_empty() { "0" } else { significant };
            out.push(((1 << 24) | 0x10_0000 | (significant.len() as u32).min(0xF_FFFF), 0, 0));
            out.extend(significant.bytes().map(|b| ((1 << 24) | (b - b'0') as u32, 0, 0)));
            continue;
        }
        if let Some(rank) = combining_rank(c) {
            if let Some(last) = out.last_mut() {
                last.1 = last.1.max(rank);
            }
            continue;
        }
        if let Some(i) = PUNCTUATION_ORDER.chars().position(|p| p == c) {
            out.push((i as u32 + 1, 0, 0));
            continue;
        }
        if let Some(d) = c.to_digit(10) {
            out.push(((1 << 24) | d, 0, 0));
            continue;
        }
        let upper = c.is_uppercase() as u8;
        let lower = c.to_lowercase().next().unwrap_or(c);
        let letter = |b: char| (2 << 24) | b as u32;
        match lower {
            'a'..='z' => out.push((letter(lower), 0, upper)),
            'æ' => out.extend([(letter('a'), 0, upper), (letter('e'), 0, upper)]),
            'œ' => out.extend([(letter('o'), 0, upper), (letter('e'), 0, upper)]),
            'ß' => out.extend([(letter('s'), 0, 0), (letter('s'), 0, 0)]),
            'þ' => out.extend([(letter('t'), 0, upper), (letter('h'), 0, upper)]),
            _ => match ACCENTED.iter().find(|(a, _, _)| *a == lower) {
                Some((_, base, rank)) => out.push((letter(*base), *rank, upper)),
                None if c.is_whitespace() => out.push((0, 0, 0)),
                None => out.push(((3 << 24) | c as u32, 0, 0)),
            },
        }
    }
    out
}

/// `localeCompare` in the spirit of the Unicode root collation (Node's ICU default): punctuation
/// before digits before letters; letters compared without accents and case first, then accents,
/// then case (lowercase first), then code units. An approximation for Latin text.
#[cfg(test)]
pub(crate) fn collate(a: &str, b: &str) -> std::cmp::Ordering {
    collate_with(a, b, CollateOptions::default())
}

/// [`collate_with`] inside the run's budget, for `localeCompare` and `Intl.Collator`: `a` and
/// `b` are copies the caller holds; the collation elements built for both are measured against
/// the memory left before they are built, and the work is charged. Equal texts are equal at once.
pub(crate) fn collate_charged(
    vm: &mut crate::Vm,
    a: &str,
    b: &str,
    o: CollateOptions,
) -> Result<std::cmp::Ordering, crate::call::Throw> {
    let len = a.len().saturating_add(b.len());
    vm.charge(crate::meter::Work::Scan(len));
    if a == b {
        return Ok(std::cmp::Ordering::Equal);
    }
    // At most one element per byte (a ligature makes two of a two-byte character), beside the
    // copies of the texts.
    vm.ensure_fits(len.saturating_mul(std::mem::size_of::<Element>() + 1))?;
    vm.charge(crate::meter::Work::Elements(len));
    Ok(collate_with(a, b, o))
}

/// [`collate`] with options. Strings that differ only in what the options ignore (or that are
/// canonically equivalent, like `"e\u{301}"` and `"é"`) compare equal.
pub(crate) fn collate_with(a: &str, b: &str, o: CollateOptions) -> std::cmp::Ordering {
    use std::cmp::Ordering::Equal;
    let (ea, eb) = (collation_elements(a, o.numeric), collation_elements(b, o.numeric));
    let primary = ea.iter().map(|e| e.0).cmp(eb.iter().map(|e| e.0));
    if primary != Equal {
        return primary;
    }
    if !o.ignore_accents {
        let secondary = ea.iter().map(|e| e.1).cmp(eb.iter().map(|e| e.1));
        if secondary != Equal {
            return secondary;
        }
    }
    if !o.ignore_case {
        return ea.iter().map(|e| e.2).cmp(eb.iter().map(|e| e.2));
    }
    Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collation_like_node() {
        let mut w = vec![
            "a", "B", "c", "A", "b", "é", "e", "E", "_", "1", "-", " ", "Z", "z", "ab", "aB", "Ab", "a b",
            "a-b", "a_b", "10", "9", "É", "f", "ä", "æ", "résumé", "resume", "Resume", "apple", "Äpfel",
            "zebra", "Zebra", "über", "uber", "item 10", "item 9", "x.y", "xy", "@", "#", "!", "~", "å", "ø",
            "ñ", "n", "o",
        ];
        w.sort_by(|a, b| collate(a, b));
        let node = [
            " ", "_", "-", "!", "@", "#", "~", "1", "10", "9", "a", "A", "å", "ä", "a b", "a_b", "a-b", "ab",
            "aB", "Ab", "æ", "Äpfel", "apple", "b", "B", "c", "e", "E", "é", "É", "f", "item 10", "item 9",
            "n", "ñ", "o", "ø", "resume", "Resume", "résumé", "uber", "über", "x.y", "xy", "z", "Z", "zebra",
            "Zebra",
        ];
        assert_eq!(w, node);
        assert_eq!(collate("a\u{301}", "á"), std::cmp::Ordering::Equal);
        let numeric = CollateOptions { numeric: true, ..CollateOptions::default() };
        let mut items = ["item 10", "item 9", "Item 1", "item 1", "a2b", "a10b", "é", "e", "E"];
        items.sort_by(|a, b| collate_with(a, b, numeric));
        assert_eq!(items, ["a2b", "a10b", "e", "E", "é", "item 1", "Item 1", "item 9", "item 10"]);
        assert_eq!(collate_with("x02", "x2", numeric), std::cmp::Ordering::Equal);
        let base = CollateOptions { ignore_accents: true, ignore_case: true, ..CollateOptions::default() };
        assert_eq!(collate_with("a", "Á", base), std::cmp::Ordering::Equal);
        assert_eq!(collate("", "a"), std::cmp::Ordering::Less);
    }
}
