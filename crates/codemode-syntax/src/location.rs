//! Byte offsets → 1-based line and column.
//!
//! Spans are converted exactly once, here, from byte offsets in the normalized text into the
//! project's own [`Span`]. Columns count Unicode scalar values (characters), not bytes, so that a
//! model reading its own program sees the same column an editor would show.

use std::cell::Cell;

use crate::ir::Span;

/// The start offset of every line of a text, for offset → line/column lookups.
#[derive(Debug)]
pub struct LineTable<'a> {
    text: &'a str,
    /// Byte offset of the first character of each line; `line_starts[0] == 0`.
    line_starts: Vec<usize>,
    /// Whether the text is all ASCII: then a column is a byte difference, with no counting.
    /// (Counting characters from the line start for every node would be quadratic on a long
    /// minified line.)
    ascii: bool,
    /// The last non-ASCII lookup `(line_start, offset, column)`: lookups come mostly in source
    /// order, so the next one on the same line counts on from there.
    last: Cell<(usize, usize, usize)>,
}

impl<'a> LineTable<'a> {
    /// Builds the table. Only `\n` ends a line: normalization has already turned `\r\n` and lone
    /// `\r` into `\n`.
    pub fn new(text: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        LineTable { text, line_starts, ascii: text.is_ascii(), last: Cell::new((0, 0, 0)) }
    }

    /// The text the table indexes.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The position of byte `offset` (clamped to the end of the text).
    pub fn span_at(&self, offset: usize) -> Span {
        let offset = offset.min(self.text.len());
        // `line_starts` is sorted and starts with 0, so the partition point is at least 1.
        let line_index = self.line_starts.partition_point(|&start| start <= offset).saturating_sub(1);
        let line_start = self.line_starts.get(line_index).copied().unwrap_or(0);
        let column = match self.text.get(line_start..offset) {
            Some(_) if self.ascii => offset - line_start,
            Some(prefix) => {
                let (last_start, last_offset, last_column) = self.last.get();
                let column = match self.text.get(last_offset..offset) {
                    Some(between) if last_start == line_start && last_offset <= offset => {
                        last_column + between.chars().count()
                    }
                    _ => prefix.chars().count(),
                };
                self.last.set((line_start, offset, column));
                column
            }
            // Not on a character boundary (cannot happen for swc spans): count bytes instead.
            None => offset - line_start,
        };
        Span { line: to_u32(line_index + 1), column: to_u32(column + 1) }
    }
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_are_one_based_and_count_characters() {
        let table = LineTable::new("ab\nçd\n\nx");
        assert_eq!(table.span_at(0), Span { line: 1, column: 1 });
        assert_eq!(table.span_at(1), Span { line: 1, column: 2 });
        assert_eq!(table.span_at(3), Span { line: 2, column: 1 });
        // `ç` is two bytes: `d` is the second character.
        assert_eq!(table.span_at(5), Span { line: 2, column: 2 });
        assert_eq!(table.span_at(8), Span { line: 4, column: 1 });
        assert_eq!(table.span_at(100), Span { line: 4, column: 2 });
        // Out of order lookups on a non-ASCII line.
        let table = LineTable::new("çaçbç");
        assert_eq!(table.span_at(5), Span { line: 1, column: 4 });
        assert_eq!(table.span_at(2), Span { line: 1, column: 2 });
        assert_eq!(table.span_at(6), Span { line: 1, column: 5 });
        assert_eq!(table.span_at(8), Span { line: 1, column: 6 });
    }
}
