//! A linear pre-scan that bounds how deeply the parser will recurse.
//!
//! swc's parser is recursive descent: every nested bracket, and every link of a right-nested
//! chain (`a => b => ..`, `a ? b : c ? ..`, `!!!..x`, `if (a) if (b) ..`), costs it a few stack
//! frames. Measured on a 2 MiB thread stack with a debug build, it overflows at about 800 nested
//! parentheses or arrows. So before swc sees the text, this scan walks it once, without
//! recursion, and rejects it when the estimated depth passes [`MAX_NESTING`].
//!
//! The estimate is the number of open brackets (`(`, `[`, `{`, `${`) plus, per open bracket, the
//! number of *chaining* tokens seen since the last point where a new expression or statement
//! certainly starts (`,`, `;`, or a line break or `}` between two statements). Chaining tokens
//! are the ones after which the parser recurses: prefix operators, `?`, `:`, assignment
//! operators, `=>`, `...`, `<`, `**`, the statement keywords that take a nested statement, and
//! TypeScript's prefix type operators (`keyof`, `readonly`, `unique`, `infer`). The
//! estimate errs on the high side; no realistic program comes near the limit.
//!
//! Strings, comments, template text and regular expression literals are skipped, so brackets in
//! them do not count. Telling a regex from a division needs the previous token; the scan keeps
//! just enough state for that, and a wrong guess only moves the estimate a little.
//!
//! Two more counts guard the recursion that is not right-nesting:
//! - `else` keywords of one `if .. else if ..` chain (each `else if` nests one level), which a `;`
//!   inside the chain does not end;
//! - *flat* links: binary operators, `.`/`?.` accesses, calls and index brackets, `as`. swc parses
//!   these in loops, but the resulting left-deep tree is dropped recursively (it overflows around
//!   30,000 links), so more than [`MAX_FLAT_CHAIN`] of them in one expression is an error too.
//!   (Past [`MAX_NESTING`] levels the lowering rejects such a chain anyway.)
//!
//! The scan also tells whether the text holds any code at all, for the "Source is empty" error,
//! and what compiling the text may cost ([`ScanReport::compile_bytes`]): the run's memory limit
//! bounds the front end too, before anything is built.

use crate::location::LineTable;
use crate::{MAX_NESTING, SyntaxError, SyntaxErrorKind};

/// What the pre-scan learned about a text it accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanReport {
    /// Whether there is anything besides whitespace and comments.
    pub has_code: bool,
    /// The byte offset of the first `)`, `]` or `}` that closes nothing, if any: a better place
    /// to point at than where swc notices that the program ended early.
    pub unmatched_closer: Option<usize>,
    /// The deepest nesting seen (in [`MAX_NESTING`] units; a flat chain counts a quarter level
    /// per link): what the recursive passes' stack needs are proportional to.
    pub max_depth: usize,
    /// An upper bound of the memory parsing, lowering and code generation may take for this text:
    /// [`COMPILE_BYTES_PER_TOKEN`] per token, and per byte of string, template, regex and comment
    /// text [`COMPILE_BYTES_PER_TEXT_BYTE`] plus a token for each ASCII punctuation character in
    /// it. Counting punctuation there too keeps the bound when the scan takes code for text (a
    /// `/` guessed to start a regex): code is mostly punctuation. When even every byte being a
    /// token stays within the memory limit [`prescan`] was given, nothing is counted and this is
    /// that plain bound.
    pub compile_bytes: u64,
}

/// The most memory compiling one token takes, measured (peak RSS of the release CLI over a
/// program of 200–500 KB of one shape repeated, less an empty run's): `class A{}` 922 bytes per
/// token, a class with a field 819, `{}` 490, `a:;` 282, `()=>1,` 274, `x++;` 187, array
/// elements 99, object members 77. Rounded up over the worst.
pub const COMPILE_BYTES_PER_TOKEN: u64 = 1024;

/// The most memory compiling one byte of literal or comment text takes (copies of the text in
/// the syntax tree, the IR and the constants).
pub const COMPILE_BYTES_PER_TEXT_BYTE: u64 = 8;

/// The most flat links (binary operators, member accesses, calls) one expression may chain.
pub const MAX_FLAT_CHAIN: usize = 4 * MAX_NESTING;

/// Which limit a text passed.
enum Limit {
    Nesting,
    FlatChain,
}

/// Scans `text`, rejecting nesting deeper than [`MAX_NESTING`] (or chains longer than
/// [`MAX_FLAT_CHAIN`]) with a `ParseError` located at the token that goes past the limit.
///
/// `memory_limit` is what compiling may take: [`ScanReport::compile_bytes`] is counted only when
/// the plain bound (every byte a token) could pass it, so a program of ordinary size pays
/// nothing for the count.
pub fn prescan(text: &str, lines: &LineTable<'_>, memory_limit: u64) -> Result<ScanReport, SyntaxError> {
    let plain_bound =
        (text.len() as u64).saturating_mul(COMPILE_BYTES_PER_TOKEN + COMPILE_BYTES_PER_TEXT_BYTE);
    let mut scanner = Scanner::new(text.as_bytes(), plain_bound > memory_limit);
    scanner.run().map_err(|(offset, limit)| SyntaxError {
        kind: SyntaxErrorKind::ParseError,
        message: match limit {
            Limit::Nesting => crate::nesting_too_deep_message(),
            Limit::FlatChain => format!(
                "Expression is too long: more than {MAX_FLAT_CHAIN} operators, property accesses or calls in a row"
            ),
        },
        span: lines.span_at(offset),
    })?;
    Ok(ScanReport {
        has_code: scanner.has_code,
        unmatched_closer: scanner.unmatched_closer,
        max_depth: scanner.max_depth,
        compile_bytes: if scanner.counting { scanner.compile_bytes() } else { plain_bound },
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    /// `(` of an `if`/`for`/`while`/`with`/`switch`/`catch` head: its `)` does not end a statement.
    StatementHead,
    Paren,
    Bracket,
    Brace,
    /// `${` inside a template literal: its `}` goes back to template text.
    TemplateExpr,
}

struct Frame {
    kind: FrameKind,
    /// Chaining tokens since the last certain expression/statement start inside this frame.
    chain: usize,
    /// `else` keywords of the `if .. else if ..` chain going on in this frame.
    else_chain: usize,
    /// Flat links since the last certain expression/statement start inside this frame.
    flat: usize,
}

impl Frame {
    fn new(kind: FrameKind) -> Self {
        Frame { kind, chain: 0, else_chain: 0, flat: 0 }
    }
}

/// The scan stops with the offset of the offending token and the limit it passed.
type ScanResult = Result<(), (usize, Limit)>;

/// The class of the previous significant token, which decides regex-vs-division and whether a
/// following word may start a new statement.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// Start of text, an operator, an opening bracket, or a keyword that expects an operand:
    /// an expression may start here (so `/` starts a regex, `-` is a prefix operator).
    ExpressionStart,
    /// An identifier, literal, `)`, `]`: an expression may end here.
    Operand,
    /// A `}`: a block or an object literal ended.
    CloseBrace,
    /// The `)` of a statement head (`if (..)`): a statement follows.
    HeadClose,
    /// A keyword after which a parenthesized head follows (`if`, `for`, ...).
    HeadKeyword,
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    frames: Vec<Frame>,
    /// The implicit outermost frame (the script body).
    root: Frame,
    /// Sums over all frames, kept to avoid summing on every token: chains and `else` chains
    /// (which count as depth), and flat links.
    total_chain: usize,
    total_flat: usize,
    /// The high-water mark of `depth() + total_flat / 4`.
    max_depth: usize,
    /// Whether the previous token was `;` or `}`: a word other than `else` after it starts a new
    /// statement, which ends an `if .. else` chain.
    after_terminator: bool,
    /// Whether the previous token was the word `else`, and whether the current one follows it:
    /// the `if` of an `else if` is part of the same chain link and is not counted again.
    last_was_else: bool,
    follows_else: bool,
    prev: Prev,
    newline_since_prev: bool,
    has_code: bool,
    unmatched_closer: Option<usize>,
    /// Whether `tokens` and `text_bytes` are counted (see [`prescan`]).
    counting: bool,
    /// Tokens of code, plus punctuation characters of text (see [`ScanReport::compile_bytes`]).
    tokens: u64,
    /// Bytes of string, template, regex and comment text.
    text_bytes: u64,
}

/// What a word means to the scan (a set of the `WORD_*` bits; 0 for any other word).
/// A `match` rather than lists searched in turn: every identifier of the program goes through it.
fn word_class(word: &[u8]) -> u8 {
    match word {
        b"typeof" | b"void" | b"delete" | b"await" | b"new" | b"yield" | b"do" | b"keyof" => {
            WORD_EXPECTS_OPERAND | WORD_CHAINS
        }
        b"return" | b"case" | b"throw" | b"extends" | b"default" | b"export" | b"var" | b"let" | b"const"
        | b"async" | b"function" | b"import" | b"try" => WORD_EXPECTS_OPERAND,
        b"in" | b"instanceof" | b"as" | b"satisfies" => WORD_EXPECTS_OPERAND | WORD_FLAT | WORD_CONTINUES,
        b"of" | b"else" | b"finally" => WORD_EXPECTS_OPERAND | WORD_CONTINUES,
        b"if" | b"for" | b"with" => WORD_CHAINS | WORD_HEAD,
        b"while" => WORD_CHAINS | WORD_HEAD | WORD_CONTINUES,
        // TypeScript type operators, which nest the same way.
        b"readonly" | b"unique" | b"infer" => WORD_CHAINS,
        b"switch" => WORD_HEAD,
        b"catch" => WORD_HEAD | WORD_CONTINUES,
        _ => 0,
    }
}

/// A keyword after which an expression starts (so a `/` is a regex and `-` a prefix operator).
const WORD_EXPECTS_OPERAND: u8 = 1;
/// A keyword that makes the parser recurse into what follows.
const WORD_CHAINS: u8 = 2;
/// A keyword followed by a parenthesized head and then a nested statement or block.
const WORD_HEAD: u8 = 4;
/// A binary-operator word: a flat link.
const WORD_FLAT: u8 = 8;
/// A word that continues the previous expression or statement rather than starts a new one.
const WORD_CONTINUES: u8 = 16;

/// Punctuators, longest first so that the first match is the longest.
const PUNCTUATORS: &[&[u8]] = &[
    b">>>=", b"...", b"===", b"!==", b"**=", b"<<=", b">>=", b">>>", b"&&=", b"||=", b"??=", b"=>", b"==",
    b"!=", b"<=", b">=", b"&&", b"||", b"??", b"?.", b"++", b"--", b"+=", b"-=", b"*=", b"/=", b"%=", b"&=",
    b"|=", b"^=", b"**", b"<<", b">>",
];

impl<'a> Scanner<'a> {
    fn new(bytes: &'a [u8], counting: bool) -> Self {
        Scanner {
            bytes,
            counting,
            pos: 0,
            frames: Vec::new(),
            root: Frame::new(FrameKind::Brace),
            total_chain: 0,
            total_flat: 0,
            max_depth: 0,
            after_terminator: false,
            last_was_else: false,
            follows_else: false,
            prev: Prev::ExpressionStart,
            newline_since_prev: false,
            has_code: false,
            unmatched_closer: None,
            tokens: 0,
            text_bytes: 0,
        }
    }

    /// Counts `from..self.pos` as text (see [`ScanReport::compile_bytes`]).
    fn count_text(&mut self, from: usize) {
        let text = self.bytes.get(from..self.pos).unwrap_or_default();
        self.text_bytes += text.len() as u64;
        // Summed without branches: most programs' text is short strings and comments.
        self.tokens += text.iter().map(|b| u64::from(b.is_ascii_punctuation())).sum::<u64>();
    }

    fn compile_bytes(&self) -> u64 {
        self.tokens
            .saturating_mul(COMPILE_BYTES_PER_TOKEN)
            .saturating_add(self.text_bytes.saturating_mul(COMPILE_BYTES_PER_TEXT_BYTE))
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    /// Runs to the end; `Err` when a limit is passed.
    fn run(&mut self) -> ScanResult {
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let byte = self.peek(0);
            match byte {
                b'\n' => {
                    self.newline_since_prev = true;
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\x0b' | b'\x0c' => self.pos += 1,
                b'/' if self.peek(1) == b'/' => {
                    self.skip_line_comment();
                    if self.counting {
                        self.count_text(start);
                    }
                }
                b'/' if self.peek(1) == b'*' => {
                    self.skip_block_comment();
                    if self.counting {
                        self.count_text(start);
                    }
                }
                _ => {
                    self.has_code = true;
                    let terminates = matches!(byte, b';' | b'}');
                    self.follows_else = std::mem::take(&mut self.last_was_else);
                    // Strings, templates and regexes are text (their quotes count as its
                    // punctuation); so is the template text after the `}` of a `${`.
                    let text = self.counting
                        && (matches!(byte, b'\'' | b'"' | b'`')
                            || (byte == b'/' && !matches!(self.prev, Prev::Operand | Prev::CloseBrace)));
                    self.token(byte, start)?;
                    if self.counting {
                        if text {
                            self.count_text(start);
                        } else if byte == b'}' && self.pos > start + 1 {
                            self.tokens += 1;
                            self.count_text(start + 1);
                        } else {
                            self.tokens += 1;
                        }
                    }
                    self.newline_since_prev = false;
                    self.after_terminator = terminates;
                }
            }
        }
        Ok(())
    }

    fn token(&mut self, byte: u8, start: usize) -> ScanResult {
        match byte {
            b'\'' | b'"' => {
                self.statement_boundary_before_operand(false);
                self.skip_string(byte);
                self.prev = Prev::Operand;
            }
            b'`' => {
                self.statement_boundary_before_operand(false);
                self.pos += 1;
                self.template_text(start)?;
            }
            b'/' if !matches!(self.prev, Prev::Operand | Prev::CloseBrace) => {
                self.skip_regex();
                self.prev = Prev::Operand;
            }
            b'(' | b'[' | b'{' => {
                let kind = match byte {
                    b'(' if self.prev == Prev::HeadKeyword => FrameKind::StatementHead,
                    b'(' => FrameKind::Paren,
                    b'[' => FrameKind::Bracket,
                    _ => FrameKind::Brace,
                };
                // A call or an index (`f(`, `a[` after an operand) is a flat link.
                if byte != b'{' && self.prev == Prev::Operand {
                    self.flat(start)?;
                }
                self.pos += 1;
                self.open(kind, start)?;
            }
            b')' | b']' | b'}' => {
                self.pos += 1;
                let closed = self.close();
                if closed.is_none() && self.unmatched_closer.is_none() {
                    self.unmatched_closer = Some(start);
                }
                self.prev = match closed {
                    Some(FrameKind::StatementHead) => Prev::HeadClose,
                    Some(FrameKind::TemplateExpr) => return self.template_text(start),
                    _ if byte == b'}' => Prev::CloseBrace,
                    _ => Prev::Operand,
                };
            }
            b',' | b';' => {
                self.pos += 1;
                self.reset_chain();
                self.prev = Prev::ExpressionStart;
            }
            b'0'..=b'9' => {
                self.statement_boundary_before_operand(false);
                self.skip_number();
                self.prev = Prev::Operand;
            }
            b'.' if self.peek(1).is_ascii_digit() => {
                self.skip_number();
                self.prev = Prev::Operand;
            }
            _ if is_word_byte(byte) => self.word(start)?,
            _ => self.punctuator(start)?,
        }
        Ok(())
    }

    fn word(&mut self, start: usize) -> ScanResult {
        while self.pos < self.bytes.len() && is_word_byte(self.peek(0)) {
            self.pos += 1;
        }
        let word = self.bytes.get(start..self.pos).unwrap_or_default();
        let class = word_class(word);
        self.statement_boundary_before_operand(class & WORD_CONTINUES != 0);
        if word == b"else" {
            self.current_frame().else_chain += 1;
            self.total_chain += 1;
            self.check_depth(start)?;
        } else if self.after_terminator {
            let ended = std::mem::take(&mut self.current_frame().else_chain);
            self.total_chain = self.total_chain.saturating_sub(ended);
        }
        let else_if = word == b"if" && self.follows_else;
        if class & WORD_CHAINS != 0 && !else_if {
            self.chain(start)?;
        }
        self.last_was_else = word == b"else";
        if class & WORD_FLAT != 0 {
            self.flat(start)?;
        }
        self.prev = if class & WORD_HEAD != 0 {
            Prev::HeadKeyword
        } else if class & WORD_EXPECTS_OPERAND != 0 {
            Prev::ExpressionStart
        } else {
            Prev::Operand
        };
        Ok(())
    }

    fn punctuator(&mut self, start: usize) -> ScanResult {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        let first = rest.first().copied();
        let len = (PUNCTUATORS.iter())
            .find(|p| p.first().copied() == first && rest.starts_with(p))
            .map_or(1, |p| p.len());
        let punct = rest.get(..len).unwrap_or_default();
        self.pos += len.max(1);
        let prefix_position = self.prev != Prev::Operand && self.prev != Prev::CloseBrace;
        let chains = match punct {
            b"!" | b"~" | b"+" | b"-" | b"++" | b"--" => prefix_position,
            // `**` is right-associative: the parser recurses for each one.
            b"?" | b":" | b"=>" | b"..." | b"<" | b"**" => true,
            // Every assignment operator ends in `=`; comparisons are listed separately.
            b"==" | b"===" | b"!=" | b"!==" | b"<=" | b">=" => false,
            _ => punct.last() == Some(&b'='),
        };
        if chains {
            self.chain(start)?;
        } else {
            self.flat(start)?;
        }
        // A postfix `++`/`--` leaves an operand behind; anything else expects one.
        self.prev = if matches!(punct, b"++" | b"--") && !prefix_position {
            Prev::Operand
        } else {
            Prev::ExpressionStart
        };
        Ok(())
    }

    fn depth(&self) -> usize {
        self.frames.len() + self.total_chain
    }

    fn check_depth(&mut self, start: usize) -> ScanResult {
        self.max_depth = self.max_depth.max(self.depth() + self.total_flat / 4);
        if self.depth() > MAX_NESTING { Err((start, Limit::Nesting)) } else { Ok(()) }
    }

    fn open(&mut self, kind: FrameKind, start: usize) -> ScanResult {
        self.frames.push(Frame::new(kind));
        self.prev = Prev::ExpressionStart;
        self.check_depth(start)
    }

    fn close(&mut self) -> Option<FrameKind> {
        let frame = self.frames.pop()?;
        self.total_chain = self.total_chain.saturating_sub(frame.chain + frame.else_chain);
        self.total_flat = self.total_flat.saturating_sub(frame.flat);
        Some(frame.kind)
    }

    fn current_frame(&mut self) -> &mut Frame {
        match self.frames.last_mut() {
            Some(frame) => frame,
            None => &mut self.root,
        }
    }

    fn chain(&mut self, start: usize) -> ScanResult {
        self.current_frame().chain += 1;
        self.total_chain += 1;
        self.check_depth(start)
    }

    fn flat(&mut self, start: usize) -> ScanResult {
        self.current_frame().flat += 1;
        self.total_flat += 1;
        self.max_depth = self.max_depth.max(self.depth() + self.total_flat / 4);
        if self.total_flat > MAX_FLAT_CHAIN { Err((start, Limit::FlatChain)) } else { Ok(()) }
    }

    /// A new expression starts (after `,`, `;`, or between statements): the chains and flat
    /// links of the current frame are over.
    fn reset_chain(&mut self) {
        let frame = self.current_frame();
        let (chain, flat) = (std::mem::take(&mut frame.chain), std::mem::take(&mut frame.flat));
        self.total_chain = self.total_chain.saturating_sub(chain);
        self.total_flat = self.total_flat.saturating_sub(flat);
    }

    /// Called before an operand-like token: if the previous token ended a statement and a line
    /// break or a `}` separates them, a new statement starts here (automatic semicolon insertion),
    /// so the parser has unwound and the current chain is over.
    fn statement_boundary_before_operand(&mut self, continues: bool) {
        let ended = match self.prev {
            Prev::Operand => self.newline_since_prev,
            Prev::CloseBrace => true,
            _ => false,
        };
        if ended && !continues {
            self.reset_chain();
        }
    }

    /// Template text after a `` ` `` or the `}` of a `${`: up to the closing backtick (an operand
    /// ends) or the next `${` (an expression frame opens).
    fn template_text(&mut self, start: usize) -> ScanResult {
        while self.pos < self.bytes.len() {
            match self.peek(0) {
                b'\\' => self.pos += 2,
                b'`' => {
                    self.pos += 1;
                    self.prev = Prev::Operand;
                    return Ok(());
                }
                b'$' if self.peek(1) == b'{' => {
                    self.pos += 2;
                    return self.open(FrameKind::TemplateExpr, start);
                }
                _ => self.pos += 1,
            }
        }
        self.prev = Prev::Operand;
        Ok(())
    }

    fn skip_string(&mut self, quote: u8) {
        self.pos += 1;
        while self.pos < self.bytes.len() {
            match self.peek(0) {
                b'\\' => self.pos += 2,
                b'\n' => return,
                byte => {
                    self.pos += 1;
                    if byte == quote {
                        return;
                    }
                }
            }
        }
    }

    fn skip_regex(&mut self) {
        self.pos += 1;
        let mut in_class = false;
        while self.pos < self.bytes.len() {
            match self.peek(0) {
                b'\\' => self.pos += 2,
                b'\n' => return,
                b'[' => {
                    in_class = true;
                    self.pos += 1;
                }
                b']' => {
                    in_class = false;
                    self.pos += 1;
                }
                b'/' if !in_class => {
                    self.pos += 1;
                    while is_word_byte(self.peek(0)) {
                        self.pos += 1;
                    }
                    return;
                }
                _ => self.pos += 1,
            }
        }
    }

    fn skip_number(&mut self) {
        while self.pos < self.bytes.len() {
            let byte = self.peek(0);
            if byte.is_ascii_alphanumeric() || byte == b'.' || byte == b'_' {
                self.pos += 1;
            } else {
                return;
            }
        }
    }

    fn skip_line_comment(&mut self) {
        while self.pos < self.bytes.len() && self.peek(0) != b'\n' {
            self.pos += 1;
        }
    }

    fn skip_block_comment(&mut self) {
        self.pos += 2;
        while self.pos < self.bytes.len() {
            if self.peek(0) == b'*' && self.peek(1) == b'/' {
                self.pos += 2;
                return;
            }
            if self.peek(0) == b'\n' {
                self.newline_since_prev = true;
            }
            self.pos += 1;
        }
    }
}

/// Identifier characters, including every byte of a non-ASCII character and `\` of a unicode
/// escape; `#` starts private names.
fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'$' | b'\\' | b'#') || byte >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_ok(text: &str) -> bool {
        prescan(text, &LineTable::new(text), 0).is_ok()
    }

    #[test]
    fn brackets_in_strings_comments_templates_and_regexes_do_not_count() {
        let deep = "(".repeat(MAX_NESTING + 1);
        assert!(depth_ok(&format!("'{deep}'; \"{deep}\"; // {deep}\n /* {deep} */ `{deep}`; x = /{deep}/")));
        assert!(!depth_ok(&format!("x = {deep}")));
    }

    #[test]
    fn template_expressions_nest() {
        let text = format!("{}1{}", "`${".repeat(MAX_NESTING + 1), "}`".repeat(MAX_NESTING + 1));
        assert!(!depth_ok(&text));
        let text = format!("{}1{}", "`${".repeat(100), "}`".repeat(100));
        assert!(depth_ok(&text));
    }

    #[test]
    fn chains_count_but_statements_reset_them() {
        assert!(!depth_ok(&format!("x = {}1", "a => ".repeat(MAX_NESTING + 1))));
        assert!(!depth_ok(&format!("x = {}1", "!".repeat(MAX_NESTING + 1))));
        assert!(!depth_ok(&format!("{}x", "if (a)\n".repeat(MAX_NESTING + 1))));
        assert!(depth_ok(&"x = a - b\n".repeat(MAX_NESTING * 2)));
        assert!(depth_ok(&"if (a) { b = 1 }\n".repeat(MAX_NESTING * 2)));
        assert!(depth_ok(&"if (a) { b = 1 } ".repeat(MAX_NESTING * 2)));
        assert!(depth_ok(&"const a = 1; ".repeat(MAX_NESTING * 2)));
        assert!(depth_ok(&format!("f({})", "a = 1, ".repeat(MAX_NESTING * 2))));
    }

    #[test]
    fn else_chains_and_flat_chains_are_bounded() {
        // A `;` inside an `if .. else if ..` chain does not end it.
        assert!(!depth_ok(&format!("if (a) x;{}", " else if (a) x;".repeat(MAX_NESTING + 1))));
        // One level per `else if` link, as in the lowering.
        assert!(depth_ok(&format!("if (a) {{ x }}{}", " else if (a) {{ x }}".repeat(MAX_NESTING - 10))));
        assert!(depth_ok(&"if (a) x; else y;\n".repeat(MAX_NESTING * 2)));
        assert!(depth_ok(&"if (a) { x } else { y } z()\n".repeat(MAX_NESTING * 2)));
        assert!(!depth_ok(&format!("x = a{}", ".b".repeat(MAX_FLAT_CHAIN + 1))));
        assert!(!depth_ok(&format!("x = f{}", "()".repeat(MAX_FLAT_CHAIN + 1))));
        assert!(!depth_ok(&format!("x = 1{}", " + 1".repeat(MAX_FLAT_CHAIN + 1))));
        assert!(depth_ok(&format!("x = 1{}", " + 1".repeat(MAX_FLAT_CHAIN - 1))));
        // Commas and statements end a flat chain.
        assert!(depth_ok(&format!("x = [{}]", "a.b + 1, ".repeat(MAX_FLAT_CHAIN))));
        assert!(depth_ok(&"x = a.b.c + d;\n".repeat(MAX_FLAT_CHAIN)));
    }

    fn compile_bytes(text: &str) -> u64 {
        prescan(text, &LineTable::new(text), 0).map_or(0, |r| r.compile_bytes)
    }

    #[test]
    fn compile_bytes_count_code_tokens_and_text_bytes() {
        // `x`, `++`, `;` three times.
        assert_eq!(compile_bytes("x++;x++;x++;"), 9 * COMPILE_BYTES_PER_TOKEN);
        // A string: its quotes are punctuation (with `s`, `=`, `;`: five tokens), its letters text.
        let prose = format!("s = '{}';", "lorem ipsum ".repeat(1000));
        let text_bytes = 12_000 + 2;
        assert_eq!(
            compile_bytes(&prose),
            5 * COMPILE_BYTES_PER_TOKEN + text_bytes * COMPILE_BYTES_PER_TEXT_BYTE
        );
        // Code the scan takes for text (after `o.void` it guesses a regex) still counts its
        // punctuation: the bound holds within a factor of the tokens' letters.
        let hidden = format!("o.void /1;{}y = z / 1;", "{}".repeat(1000));
        assert!(compile_bytes(&hidden) >= 2000 * COMPILE_BYTES_PER_TOKEN);
        // Template text, and the text after a `${..}`.
        assert_eq!(
            compile_bytes("`ab${x}cd`"),
            // `, $, {, x, }, `: the `}` is a token and its text follows.
            6 * COMPILE_BYTES_PER_TOKEN + 8 * COMPILE_BYTES_PER_TEXT_BYTE
        );
    }

    #[test]
    fn reports_emptiness_and_location() {
        let text = "  // only a comment\n /* and another */ ";
        assert_eq!(
            prescan(text, &LineTable::new(text), 0),
            // Two comments of 17 bytes, with 6 punctuation characters between them.
            Ok(ScanReport {
                has_code: false,
                unmatched_closer: None,
                max_depth: 0,
                compile_bytes: 6 * COMPILE_BYTES_PER_TOKEN + 34 * COMPILE_BYTES_PER_TEXT_BYTE
            })
        );
        let text = format!("x;\n  {}", "[".repeat(MAX_NESTING + 1));
        let error = prescan(&text, &LineTable::new(&text), 0).err();
        assert_eq!(error.map(|e| e.span), Some(crate::Span { line: 2, column: 3 + MAX_NESTING as u32 }));
    }
}
