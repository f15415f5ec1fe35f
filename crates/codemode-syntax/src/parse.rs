//! Parsing normalized text with swc, as a script body with top-level `await` and `return`.
//!
//! swc has no option for both at once with TypeScript syntax on, so the text is parsed inside a
//! wrapper, `async function <name>(){` + text + `\n}`, and the result is checked to be exactly
//! that wrapper: one function declaration whose body ends where the wrapper's does. Otherwise the
//! text closed a brace it never opened, and that is reported as a syntax error. The wrapper's
//! prefix length is subtracted from every position ([`Locator`]).
//!
//! Before swc runs, [`crate::scan::prescan`] rejects empty text and nesting that would overflow
//! the stack. A parse that succeeds with recovered errors is a failure.
//!
//! When the parse fails, and only then, more is tried before reporting swc's error: a text that
//! parses as a module is reported as unsupported `import`/`export` (unless its module lines are
//! all TypeScript-only, which are blanked out and the text parsed again); prose around a fenced
//! block is blanked out; and a sync `() => { .. }` wrapper whose body uses `await` has its head
//! blanked out and its body parsed.
//! Blanking replaces bytes with spaces, so positions do not move.

use swc_common::{BytePos, Spanned};
use swc_ecma_ast::{
    Decl, ImportDecl, ImportPhase, ImportSpecifier, Module, ModuleDecl, ModuleExportName, ModuleItem, Stmt,
};
use swc_ecma_parser::{Parser, StringInput, Syntax, TsSyntax};

use crate::location::LineTable;
use crate::{SyntaxError, SyntaxErrorKind, ir::Span};

const WRAPPER_NAME: &str = "__codemode_program__";
const WRAPPER_PREFIX: &str = "async function __codemode_program__(){";
/// The newline keeps a trailing `// comment` in the text from swallowing the closing brace.
const WRAPPER_SUFFIX: &str = "\n}";
/// swc's first byte position; 0 is reserved for "no position".
const START_POS: u32 = 1;

/// Maps swc byte positions back to 1-based lines and columns of the normalized text.
#[derive(Debug)]
pub struct Locator<'a> {
    lines: LineTable<'a>,
    /// The `BytePos` of the text's first byte inside the wrapper.
    base: u32,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str) -> Self {
        let prefix = u32::try_from(WRAPPER_PREFIX.len()).unwrap_or(0);
        Locator { lines: LineTable::new(text), base: START_POS + prefix }
    }

    /// The position of `pos`; positions inside the wrapper clamp to the text's start or end.
    pub fn position(&self, pos: BytePos) -> Span {
        let offset = pos.0.saturating_sub(self.base);
        self.lines.span_at(usize::try_from(offset).unwrap_or(usize::MAX))
    }

    /// The start position of an swc span.
    pub fn start(&self, span: swc_common::Span) -> Span {
        self.position(span.lo)
    }

    /// The source text an swc span covers (empty when it lies outside the text, e.g. in the
    /// wrapper). Early errors read it for what the AST does not keep: escapes in identifiers and
    /// keywords, line breaks between tokens.
    pub fn source(&self, span: swc_common::Span) -> &'a str {
        let lo = span.lo.0.saturating_sub(self.base) as usize;
        let hi = span.hi.0.saturating_sub(self.base) as usize;
        self.lines.text().get(lo..hi).unwrap_or_default()
    }

    pub fn lines(&self) -> &LineTable<'a> {
        &self.lines
    }
}

/// Parses normalized `text` into the statements of the script body.
///
/// `report` is what [`crate::scan::prescan`] said of `text` (the caller runs it first, to size
/// the stack).
pub fn parse(
    text: &str,
    locator: &Locator<'_>,
    report: crate::scan::ScanReport,
) -> Result<Vec<Stmt>, SyntaxError> {
    // swc positions are u32; leave room for the wrapper.
    if text.len() > (u32::MAX / 2) as usize {
        return Err(parse_error("Source is too large".into(), Span { line: 1, column: 1 }));
    }
    if !report.has_code {
        return Err(parse_error("Source is empty".into(), Span { line: 1, column: 1 }));
    }

    let error = match parse_wrapped(text, locator, report.unmatched_closer) {
        Ok(stmts) => return Ok(stmts),
        Err(error) => error,
    };
    // Static imports (of the extension modules the host maps): each declaration is blanked and
    // becomes a `const` binding placed first, as imports are hoisted.
    let mut import_error = None;
    if let Some((blanked, mut bindings)) = static_imports(text, locator) {
        match parse_wrapped(&blanked, locator, report.unmatched_closer) {
            Ok(mut stmts) => {
                bindings.append(&mut stmts);
                return Ok(bindings);
            }
            // The imports were fine: a later failure is the text's real mistake.
            Err(e) => import_error = Some(e),
        }
    }
    let error = import_error.unwrap_or(error);
    // A program written as a module that exports its work (`export default async function run()
    // { .. }`, `export const x = ..`): the exports become plain declarations and the default
    // export is the result.
    if let Some(stmts) = exported_program(text, locator) {
        return Ok(stmts);
    }
    // TypeScript `import type`/`export type` lines carry no code: blank them and try again.
    if let Some(blanked) = blank_type_only_module_decls(text, locator)
        && let Ok(stmts) = parse_wrapped(&blanked, locator, None)
    {
        return Ok(stmts);
    }
    // Prose before a fenced block ("Here is the program:" + fence): keep only the block.
    if let Some(block) = crate::normalize::blank_prose_around_fence(text) {
        if let Ok(stmts) = parse_wrapped(&block, locator, None) {
            return Ok(stmts);
        }
        // The block may import modules.
        if let Some((blanked, mut bindings)) = static_imports(&block, locator)
            && let Ok(mut stmts) = parse_wrapped(&blanked, locator, None)
        {
            bindings.append(&mut stmts);
            return Ok(bindings);
        }
        if let Some(stmts) = exported_program(&block, locator) {
            return Ok(stmts);
        }
    }
    // A sync arrow wrapper whose body uses `await` (`() => { await .. }`) fails to parse as it
    // is; the Go runtime unwraps it as text. Try that, on the failure path only, and keep the
    // first error if it does not help.
    let Some(unwrapped) = blank_sync_arrow_head(text) else { return Err(error) };
    match parse_wrapped(&unwrapped, locator, None).map(into_single_block_body) {
        Ok(Some(stmts)) => Ok(stmts),
        _ => Err(error),
    }
}

/// Parses `text` inside the wrapper and checks that the result is exactly the wrapper.
fn parse_wrapped(
    text: &str,
    locator: &Locator<'_>,
    unmatched_closer: Option<usize>,
) -> Result<Vec<Stmt>, SyntaxError> {
    let wrapped = format!("{WRAPPER_PREFIX}{text}{WRAPPER_SUFFIX}");
    let end = BytePos(START_POS + u32::try_from(wrapped.len()).unwrap_or(u32::MAX - START_POS));
    let parsed = guard_panics(|| {
        let mut parser = Parser::new(typescript(), StringInput::new(&wrapped, BytePos(START_POS), end), None);
        let script = parser.parse_script();
        (script, parser.take_errors())
    });
    let Some((script, recovered)) = parsed else {
        return Err(parse_error(
            "The parser failed on this program without naming the place: a syntax error it does not \
             report, such as an arrow `=>` after something that is not a parameter list (`(a, 1 => 1)`)"
                .into(),
            Span { line: 1, column: 1 },
        ));
    };
    let script = match script {
        Ok(script) => script,
        Err(error) => return Err(swc_error(text, locator, &error, unmatched_closer)),
    };
    // The first error by position; at one position, swc's TypeScript notice that `with` is
    // unsupported (TS2410) yields to the strict-mode error it comes with, which is JavaScript's.
    let ts2410 = |error: &swc_ecma_parser::error::Error| {
        matches!(error.kind(), swc_ecma_parser::error::SyntaxError::TS2410)
    };
    if let Some(error) = recovered.iter().min_by_key(|error| (error.span().lo, ts2410(error))) {
        return Err(swc_error(text, locator, error, unmatched_closer));
    }

    let mut body = script.body;
    let wrapper_end = body.first().map(|stmt| stmt.span().hi);
    match (body.len(), body.pop()) {
        (1, Some(Stmt::Decl(Decl::Fn(decl))))
            if decl.ident.sym == WRAPPER_NAME && wrapper_end == Some(end) =>
        {
            Ok(decl.function.body.map(|body| body.stmts).unwrap_or_default())
        }
        // The text closed the wrapper early: the wrapper's first statement ends at that `}`.
        _ => Err(parse_error(
            "Unexpected token `}`: it closes a bracket that was never opened".into(),
            locator.position(BytePos(wrapper_end.map_or(START_POS, |pos| pos.0.saturating_sub(1)))),
        )),
    }
}

/// For a text that starts with a parameterless arrow head and a block (`() => {`,
/// `async () => {`), the text with the head replaced by spaces (line breaks kept, so every
/// position stays where it was): the arrow's body becomes a block statement.
fn blank_sync_arrow_head(text: &str) -> Option<String> {
    let start = text.len() - text.trim_start().len();
    let mut rest = text.get(start..)?;
    if let Some(after) = rest.strip_prefix("async")
        && after.starts_with(char::is_whitespace)
    {
        rest = after.trim_start();
    }
    let rest =
        rest.strip_prefix('(')?.trim_start().strip_prefix(')')?.trim_start().strip_prefix("=>")?.trim_start();
    if !rest.starts_with('{') {
        return None;
    }
    let head_end = text.len() - rest.len();
    let head = text.get(start..head_end)?;
    let blanked: String = head.chars().map(|c| if c == '\n' { c } else { ' ' }).collect();
    Some(format!("{}{blanked}{}", text.get(..start)?, rest))
}

/// The statements of a program that is one block statement (and maybe empty statements).
fn into_single_block_body(stmts: Vec<Stmt>) -> Option<Vec<Stmt>> {
    let mut blocks = stmts.into_iter().filter(|stmt| !matches!(stmt, Stmt::Empty(_)));
    match (blocks.next(), blocks.next()) {
        (Some(Stmt::Block(block)), None) => Some(block.stmts),
        _ => None,
    }
}

/// Runs swc, turning a panic inside it (a bug there, but input-triggered) into `None`, so that
/// it surfaces as a diagnostic rather than unwinding into the host. The parser state is
/// discarded with the closure, so nothing observes it half-updated.
fn guard_panics<T>(parse: impl FnOnce() -> T) -> Option<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(parse)).ok()
}

fn typescript() -> Syntax {
    Syntax::Typescript(TsSyntax { tsx: false, decorators: true, ..Default::default() })
}

fn parse_error(message: String, span: Span) -> SyntaxError {
    SyntaxError { kind: SyntaxErrorKind::ParseError, message, span }
}

/// Converts an swc error. Before reporting a syntax error, checks whether the text is a module
/// (`import`/`export`), which parses fine as one but is not supported.
///
/// When the text has a closing bracket that closes nothing before the place swc complains
/// about, that bracket is the real mistake (swc took it as the end of the wrapper and failed
/// later), so it is reported instead.
fn swc_error(
    text: &str,
    locator: &Locator<'_>,
    error: &swc_ecma_parser::error::Error,
    unmatched_closer: Option<usize>,
) -> SyntaxError {
    if let Some(unsupported) = module_syntax(text, locator) {
        return unsupported;
    }
    // A program with imports and a mistake elsewhere: the mistake, as a module parse finds it.
    if matches!(error.kind(), swc_ecma_parser::error::SyntaxError::ImportExportInScript)
        && let Some(module_error) = module_parse_error(text, locator)
    {
        return parse_error(module_error.kind().msg().into_owned(), locator.start(module_error.span()));
    }
    // A program is a script, where `import.meta` is an early error (as in JavaScript).
    if matches!(error.kind(), swc_ecma_parser::error::SyntaxError::ImportMetaInScript) {
        return parse_error(
            "Cannot use 'import.meta' outside a module (a program is a script body)".into(),
            locator.start(error.span()),
        );
    }
    // Errors swc reports for valid JavaScript that the runtime does not implement.
    let unsupported = match error.kind() {
        swc_ecma_parser::error::SyntaxError::TS2410 => {
            Some("`with` statements are not supported; use the object's properties directly")
        }
        _ => None,
    };
    if let Some(what) = unsupported {
        return SyntaxError {
            kind: SyntaxErrorKind::UnsupportedSyntax,
            message: format!("Unsupported syntax: {what}"),
            span: locator.start(error.span()),
        };
    }
    let error_offset = error.span().lo.0.saturating_sub(locator.base) as usize;
    if let Some(offset) = unmatched_closer.filter(|&offset| offset <= error_offset) {
        let closer = text.get(offset..).and_then(|rest| rest.chars().next()).unwrap_or('}');
        return parse_error(
            format!("Unexpected token `{closer}`: it closes a bracket that was never opened"),
            locator.lines().span_at(offset),
        );
    }
    parse_error(error.kind().msg().into_owned(), locator.start(error.span()))
}

/// `text` parsed as a module, if it has `import`/`export` at all and parses as one. Positions are
/// those of the wrapped text, so the locator applies unchanged.
fn parse_module(text: &str, locator: &Locator<'_>) -> Option<Module> {
    if !(text.contains("import") || text.contains("export")) {
        return None;
    }
    let start = locator.base;
    let end = BytePos(start.checked_add(u32::try_from(text.len()).ok()?)?);
    guard_panics(|| {
        Parser::new(typescript(), StringInput::new(text, BytePos(start), end), None).parse_module().ok()
    })?
}

/// The error that stops `text` from parsing as a module, if it does not.
fn module_parse_error(text: &str, locator: &Locator<'_>) -> Option<swc_ecma_parser::error::Error> {
    let start = locator.base;
    let end = BytePos(start.checked_add(u32::try_from(text.len()).ok()?)?);
    guard_panics(|| {
        Parser::new(typescript(), StringInput::new(text, BytePos(start), end), None).parse_module().err()
    })?
}

/// `UnsupportedSyntax` for the first `import`/`export` declaration, if `text` parses as a module.
fn module_syntax(text: &str, locator: &Locator<'_>) -> Option<SyntaxError> {
    let module = parse_module(text, locator)?;
    module.body.iter().find_map(|item| match item {
        ModuleItem::ModuleDecl(decl) if type_only_range(decl).is_none() => {
            let message = match decl {
                // Static imports of modules are supported (see `static_imports`).
                ModuleDecl::Import(import) if import.phase == ImportPhase::Evaluation => return None,
                ModuleDecl::Import(_) => "import phases (`import source`, `import defer`) are not supported",
                ModuleDecl::TsImportEquals(_) => {
                    "`import x = require(...)` is not supported; write `const x = require(...)`"
                }
                _ => {
                    "re-exports (`export * from`, `export { x } from`) and `export =` are not supported (nothing imports a program: return the result instead; tools and globals are available without importing them)"
                }
            };
            Some(SyntaxError {
                kind: SyntaxErrorKind::UnsupportedSyntax,
                message: format!("Unsupported syntax: {message}"),
                span: locator.start(decl.span()),
            })
        }
        _ => None,
    })
}

/// If every `import`/`export` in `text` is TypeScript-only (`import type`, imports of types only,
/// `export type { .. }`, `export interface`/`export type X = ..`), the text with those blanked
/// (the whole declaration, or just `export` in front of a type declaration). Blanking replaces
/// each byte with a space, line breaks kept, so every position stays where it was.
fn blank_type_only_module_decls(text: &str, locator: &Locator<'_>) -> Option<String> {
    let module = parse_module(text, locator)?;
    let mut ranges = Vec::new();
    for item in &module.body {
        let ModuleItem::ModuleDecl(decl) = item else { continue };
        ranges.push(type_only_range(decl)?);
    }
    if ranges.is_empty() {
        return None;
    }
    blank_ranges(text, locator, &ranges)
}

/// `text` with the byte ranges (swc positions) replaced by spaces, line breaks kept.
fn blank_ranges(text: &str, locator: &Locator<'_>, ranges: &[(BytePos, BytePos)]) -> Option<String> {
    let mut bytes = text.as_bytes().to_vec();
    for &(lo, hi) in ranges {
        let lo = lo.0.saturating_sub(locator.base) as usize;
        let hi = hi.0.saturating_sub(locator.base) as usize;
        for byte in bytes.get_mut(lo..hi)?.iter_mut().filter(|byte| **byte != b'\n') {
            *byte = b' ';
        }
    }
    // Whole declarations and the ASCII keyword `export` were blanked: still UTF-8.
    String::from_utf8(bytes).ok()
}

/// For a text whose module declarations are all imports (value imports, and TypeScript-only
/// ones), the text with every declaration blanked and, for the value imports, the statements
/// that bind their names: `import fs from "fs"` and `import * as fs from "fs"` become
/// `const fs = __codemode_import__("fs", true)`, `import { readFile as rf } from "node:fs"`
/// becomes `const { readFile: rf } = __codemode_import__("node:fs", true)`, and `import "fs"` a
/// call. The statements' positions start where their declaration does.
fn static_imports(text: &str, locator: &Locator<'_>) -> Option<(String, Vec<Stmt>)> {
    let module = parse_module(text, locator)?;
    let mut ranges = Vec::new();
    let mut bindings = Vec::new();
    for item in &module.body {
        let ModuleItem::ModuleDecl(decl) = item else { continue };
        if let Some(range) = type_only_range(decl) {
            ranges.push(range);
            continue;
        }
        let ModuleDecl::Import(import) = decl else { return None };
        if import.phase != ImportPhase::Evaluation {
            return None;
        }
        ranges.push((import.span.lo, import.span.hi));
        bindings.extend(import_bindings(import)?);
    }
    if bindings.is_empty() {
        return None;
    }
    Some((blank_ranges(text, locator, &ranges)?, bindings))
}

/// The hidden binding of an anonymous default export (`export default async () => ..`).
const DEFAULT_EXPORT: &str = "__codemode_default__";

/// For a text that parses as a module with value exports, the script statements it stands for:
/// `export` in front of a declaration is dropped, `export { a, b }` (nothing imports them) is
/// dropped, a default export is declared (a named function keeps its name, anything else is bound
/// to [`DEFAULT_EXPORT`]), and imports bind their names first as [`static_imports`] does. Unless
/// the program ends with a result of its own (a final expression, `main();`), its default export
/// is the result, called when it is a function: the Go runtime and Node-style hosts run a
/// module's default export the same way. `None` when the text is no such module, or has a form
/// that has no meaning without other modules (`export * from`, `export { x } from`, `export =`).
fn exported_program(text: &str, locator: &Locator<'_>) -> Option<Vec<Stmt>> {
    use swc_ecma_ast::{DefaultDecl, Expr, FnDecl};
    let module = parse_module(text, locator)?;
    let exports = |item: &ModuleItem| {
        matches!(
            item,
            ModuleItem::ModuleDecl(
                ModuleDecl::ExportDecl(_)
                    | ModuleDecl::ExportDefaultDecl(_)
                    | ModuleDecl::ExportDefaultExpr(_)
                    | ModuleDecl::ExportNamed(_)
            )
        )
    };
    if !module.body.iter().any(exports) {
        return None;
    }
    let mut imports = Vec::new();
    let mut body = Vec::new();
    let mut default = None;
    for item in module.body {
        let decl = match item {
            ModuleItem::Stmt(stmt) => {
                body.push(stmt);
                continue;
            }
            ModuleItem::ModuleDecl(decl) if type_only_range(&decl).is_some() => continue,
            ModuleItem::ModuleDecl(decl) => decl,
        };
        match decl {
            ModuleDecl::Import(import) if import.phase == ImportPhase::Evaluation => {
                imports.extend(import_bindings(&import)?);
            }
            ModuleDecl::ExportDecl(export) => body.push(Stmt::Decl(export.decl)),
            ModuleDecl::ExportNamed(named) if named.src.is_none() => {}
            ModuleDecl::ExportDefaultDecl(export) => match export.decl {
                DefaultDecl::Fn(function) => {
                    let span = export.span;
                    match function.ident {
                        Some(ident) => {
                            default = Some((Expr::Ident(ident.clone()), span));
                            let function = function.function;
                            body.push(Stmt::Decl(Decl::Fn(FnDecl { ident, declare: false, function })));
                        }
                        None => {
                            body.push(bind_default(Expr::Fn(function), span));
                            default = Some((default_ident(span), span));
                        }
                    }
                }
                // A class is not called; declaring it is all a default export of one does.
                DefaultDecl::Class(class) => match class.ident {
                    Some(ident) => body.push(Stmt::Decl(Decl::Class(swc_ecma_ast::ClassDecl {
                        ident,
                        declare: false,
                        class: class.class,
                    }))),
                    None => body.push(bind_default(Expr::Class(class), export.span)),
                },
                DefaultDecl::TsInterfaceDecl(_) => {}
            },
            ModuleDecl::ExportDefaultExpr(export) => {
                body.push(bind_default(*export.expr, export.span));
                default = Some((default_ident(export.span), export.span));
            }
            _ => return None,
        }
    }
    if let Some((value, span)) = default
        && crate::lower::repl_result_index(&body).is_none()
    {
        body.push(call_if_function(value, span));
    }
    imports.append(&mut body);
    Some(imports)
}

fn default_ident(span: swc_common::Span) -> swc_ecma_ast::Expr {
    swc_ecma_ast::Expr::Ident(swc_ecma_ast::Ident::new_no_ctxt(DEFAULT_EXPORT.into(), span))
}

/// `const __codemode_default__ = value;`
fn bind_default(value: swc_ecma_ast::Expr, span: swc_common::Span) -> Stmt {
    use swc_ecma_ast::{BindingIdent, Ident, Pat, VarDecl, VarDeclKind, VarDeclarator};
    let name =
        Pat::Ident(BindingIdent { id: Ident::new_no_ctxt(DEFAULT_EXPORT.into(), span), type_ann: None });
    Stmt::Decl(Decl::Var(Box::new(VarDecl {
        span,
        ctxt: Default::default(),
        kind: VarDeclKind::Const,
        declare: false,
        decls: vec![VarDeclarator { span, name, init: Some(Box::new(value)), definite: false }],
    })))
}

/// The expression statement `typeof v === "function" ? v() : v;` (`v` an identifier).
fn call_if_function(value: swc_ecma_ast::Expr, span: swc_common::Span) -> Stmt {
    use swc_ecma_ast::{
        BinExpr, BinaryOp, CallExpr, Callee, CondExpr, Expr, ExprStmt, Lit, UnaryExpr, UnaryOp,
    };
    let test = Expr::Bin(BinExpr {
        span,
        op: BinaryOp::EqEqEq,
        left: Box::new(Expr::Unary(UnaryExpr { span, op: UnaryOp::TypeOf, arg: Box::new(value.clone()) })),
        right: Box::new(Expr::Lit(Lit::Str("function".into()))),
    });
    let call = Expr::Call(CallExpr {
        span,
        ctxt: Default::default(),
        callee: Callee::Expr(Box::new(value.clone())),
        args: Vec::new(),
        type_args: None,
    });
    let expr =
        Expr::Cond(CondExpr { span, test: Box::new(test), cons: Box::new(call), alt: Box::new(value) });
    Stmt::Expr(ExprStmt { span, expr: Box::new(expr) })
}

/// The statements one value import declaration stands for (see [`static_imports`]).
fn import_bindings(import: &ImportDecl) -> Option<Vec<Stmt>> {
    let call = format!("{}({}, true)", crate::IMPORT_GLOBAL, js_string(&import.src.value.to_atom_lossy()));
    let mut whole = Vec::new();
    let mut named = Vec::new();
    for specifier in &import.specifiers {
        match specifier {
            ImportSpecifier::Named(n) if n.is_type_only => {}
            ImportSpecifier::Named(n) => {
                let local = n.local.sym.to_string();
                let imported = match &n.imported {
                    None => local.clone(),
                    Some(ModuleExportName::Ident(i)) => i.sym.to_string(),
                    Some(ModuleExportName::Str(s)) => js_string(&s.value.to_atom_lossy()),
                };
                // The module is the extension's value itself: its default export is all of it.
                if imported == "default" || imported == "\"default\"" {
                    whole.push(local);
                } else if imported == local {
                    named.push(local);
                } else {
                    named.push(format!("{imported}: {local}"));
                }
            }
            ImportSpecifier::Default(d) => whole.push(d.local.sym.to_string()),
            ImportSpecifier::Namespace(ns) => whole.push(ns.local.sym.to_string()),
        }
    }
    let mut declarators: Vec<String> = whole.iter().map(|name| format!("{name} = {call}")).collect();
    if !named.is_empty() {
        declarators.push(format!("{{ {} }} = {call}", named.join(", ")));
    }
    let source = if declarators.is_empty() {
        if !import.specifiers.is_empty() {
            // Only type-only names: nothing to bind, nothing to load.
            return Some(Vec::new());
        }
        format!("{call};")
    } else {
        format!("const {};", declarators.join(", "))
    };
    let start = import.span.lo;
    let end = BytePos(start.0.checked_add(u32::try_from(source.len()).ok()?)?);
    let script = guard_panics(|| {
        Parser::new(typescript(), StringInput::new(&source, start, end), None).parse_script().ok()
    })??;
    Some(script.body)
}

/// A JavaScript string literal for `s`.
fn js_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// For a TypeScript-only `import`/`export`, the range to blank: the whole declaration, or the
/// `export` keyword in front of a type declaration. `None` for anything that carries values.
fn type_only_range(decl: &ModuleDecl) -> Option<(BytePos, BytePos)> {
    match decl {
        ModuleDecl::Import(import)
            if import.type_only
                || !import.specifiers.is_empty()
                    && import.specifiers.iter().all(
                        |specifier| matches!(specifier, ImportSpecifier::Named(named) if named.is_type_only),
                    ) =>
        {
            Some((import.span.lo, import.span.hi))
        }
        ModuleDecl::ExportNamed(export) if export.type_only => Some((export.span.lo, export.span.hi)),
        ModuleDecl::ExportDecl(export)
            if matches!(export.decl, Decl::TsInterface(_) | Decl::TsTypeAlias(_)) =>
        {
            Some((export.span.lo, export.decl.span().lo))
        }
        _ => None,
    }
}
