//! `codemode-syntax`: from model-written source text to the IR.
//!
//! Three steps, each its own module:
//! - `normalize`: strips what models wrap code in (markdown fences, a lone `async () => { .. }`
//!   wrapper) so that the parser sees a script body;
//! - `parse`: swc with TypeScript syntax on, as a script body with top-level `await` and `return`,
//!   guarded against nesting deep enough to overflow the stack;
//! - `lower`: swc AST → [`ir::Program`], resolving scopes and rejecting what the runtime does not
//!   implement with [`SyntaxErrorKind::UnsupportedSyntax`].
//!
//! Nothing here panics on any input; every failure is a [`SyntaxError`] with a 1-based location.

pub mod ir;

pub use ir::Span;

/// Why source text could not become a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// Empty source, a syntax error, or nesting beyond [`MAX_NESTING`].
    ParseError,
    /// Valid JavaScript/TypeScript that the runtime does not implement.
    UnsupportedSyntax,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    /// A message a model can act on, e.g. "Unsupported syntax: class declarations".
    pub message: String,
    pub span: Span,
}

/// The deepest nesting of expressions, statements or patterns the parser and every recursive pass
/// accept. Deeper input is a `ParseError` before any recursion can overflow the stack.
pub const MAX_NESTING: usize = 500;

/// Normalizes, parses and lowers `source` into a program.
pub fn compile_to_ir(source: &str) -> Result<ir::Program, SyntaxError> {
    let _ = source;
    Err(SyntaxError {
        kind: SyntaxErrorKind::UnsupportedSyntax,
        message: "not implemented yet".into(),
        span: Span { line: 1, column: 1 },
    })
}
