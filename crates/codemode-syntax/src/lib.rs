//! `codemode-syntax`: from model-written source text to the IR.
//!
//! The pipeline, one module per step (see the crate README for the decisions behind each):
//! - `normalize`: strips what models wrap code in: markdown fences on the text, and a whole-program
//!   `async () => { .. }` wrapper on the parsed statements;
//! - `scan`: a linear pre-scan that rejects nesting deep enough to overflow swc's stack;
//! - `parse`: swc with TypeScript syntax on, as a script body with top-level `await` and `return`;
//! - `lower`: swc AST → [`ir::Program`], resolving scopes and rejecting what the runtime does not
//!   implement with [`SyntaxErrorKind::UnsupportedSyntax`];
//! - `dump`: [`Dump::dump`], the text form snapshot tests compare.
//!
//! `location` converts swc byte positions to 1-based lines and columns, once.
//!
//! Nothing here panics on any input; every failure is a [`SyntaxError`] with a 1-based location.

mod dump;
/// The IR lives in its own crate (no swc), re-exported here as `codemode_syntax::ir`.
pub use codemode_ir as ir;
pub use dump::Dump;
mod location;
mod lower;
mod normalize;
mod parse;
mod scan;

pub use ir::Span;
pub use normalize::normalize;

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
    /// A message a model can act on, e.g. "Unsupported syntax: class declarations are not
    /// supported".
    pub message: String,
    pub span: Span,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (line {}, column {})", self.message, self.span.line, self.span.column)
    }
}

impl std::error::Error for SyntaxError {}

/// The deepest nesting of expressions, statements or patterns the parser and every recursive pass
/// accept. Deeper input is a `ParseError` before any recursion can overflow the stack.
pub const MAX_NESTING: usize = 500;

/// The diagnostic for input nested deeper than [`MAX_NESTING`], from the pre-scan or a pass.
fn nesting_too_deep_message() -> String {
    format!(
        "Nesting is too deep: brackets, blocks, statements or expressions are nested more than {MAX_NESTING} levels deep"
    )
}

/// The diagnostic for a program whose compilation could outgrow the run's memory limit.
fn too_costly_message(compile_bytes: u64, memory_limit: u64) -> String {
    const MIB: u64 = 1 << 20;
    format!(
        "The program is too large to compile within the run's memory limit: compiling it may take up to \
         {} MiB, more than the {} MiB limit (Limits::memory_limit, `--memory-limit`). Send a shorter \
         program, and keep data in tool results rather than in the source.",
        compile_bytes.div_ceil(MIB),
        memory_limit / MIB,
    )
}

/// Normalizes, parses and lowers `source` into a program.
///
/// Locations in errors and in the IR are 1-based lines and columns (in characters) of `source`
/// itself: normalization blanks what it strips instead of removing it, so nothing shifts. The one
/// exception is a leading byte order mark, which is dropped and not counted.
/// The hidden global `import(name)` and static `import` declarations are lowered to: the VM's
/// `__codemode_import__(name, sync)` gives the extension module the host mapped to `name` (a
/// promise of it unless `sync`). `import()` references it directly, so program bindings cannot
/// shadow it there.
pub const IMPORT_GLOBAL: &str = "__codemode_import__";

pub fn compile_to_ir(source: &str) -> Result<ir::Program, SyntaxError> {
    compile_to_ir_within(source, u64::MAX)
}

/// [`compile_to_ir`] for a run whose memory limit is `memory_limit` bytes: a text whose
/// compilation may take more ([`scan::ScanReport::compile_bytes`], an upper bound from the
/// pre-scan) is a `ParseError` before anything is parsed, so **a program cannot cost more than
/// its run's memory limit before it runs**.
pub fn compile_to_ir_within(source: &str, memory_limit: u64) -> Result<ir::Program, SyntaxError> {
    let text = normalize::normalize(source);
    let locator = parse::Locator::new(&text);
    // The pre-scan is linear and iterative; its depth tells how much stack the recursive passes
    // need.
    let report = scan::prescan(&text, locator.lines(), memory_limit)?;
    if report.compile_bytes > memory_limit {
        return Err(SyntaxError {
            kind: SyntaxErrorKind::ParseError,
            message: too_costly_message(report.compile_bytes, memory_limit),
            span: Span { line: 1, column: 1 },
        });
    }
    let nesting = report.max_depth;
    ir::stack::with_stack_for(nesting, || {
        let stmts = parse::parse(&text, &locator, report)?;
        let stmts = normalize::apply_program_shape(stmts);
        let mut program = lower::lower_program(&stmts, &locator)?;
        program.nesting = nesting;
        program.uncalled_functions = normalize::uncalled_functions(&stmts);
        Ok(program)
    })
}
