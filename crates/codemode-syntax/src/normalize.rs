//! Normalization of model output into a script body.
//!
//! Models wrap programs in ways a parser rejects or that would make the program's result a
//! function instead of what the function computes. Two normalizations run, in two places:
//!
//! - [`normalize`], on the text, before parsing: line endings become `\n`, a leading byte order
//!   mark is dropped, and markdown code fences are removed. Fence lines are *blanked*, not deleted,
//!   so every line and column the parser reports refers to the text the model wrote.
//! - [`unwrap_program_wrapper`], on the parsed statements (and, for a sync arrow whose body uses
//!   `await`, which does not parse as it is, `parse` blanks the arrow head on the text): a program that is exactly one arrow
//!   function without parameters (`async () => { .. }`, `() => { .. }`), possibly called right away
//!   (`(async () => { .. })()`, optionally awaited), runs as its body. This is done on the AST
//!   rather than on the text because only the parser knows where the arrow's body really ends;
//!   spans stay those of the original text.

use swc_ecma_ast::{ArrowFunctionBody, Callee, Decl, Expr, Stmt};

/// Normalizes line endings and strips markdown code fences.
///
/// The result has as many lines as the input (counting `\r\n` as one line break), and every
/// character that is kept stays on its line and column; fence lines become empty lines.
pub fn normalize(source: &str) -> String {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let text =
        if source.contains('\r') { source.replace("\r\n", "\n").replace('\r', "\n") } else { source.into() };
    strip_fences(text)
}

/// Blanks an opening fence on the first non-blank line and the closing fence: the last later
/// line made of backticks only. Whatever follows the closing fence (a model's explanation) is
/// blanked too, keeping its line breaks. Only a leading fence counts: a line of backticks in the
/// middle of a program that does not start with one may well be inside a template literal.
fn strip_fences(text: String) -> String {
    // The common case, no fence, without splitting into lines.
    if !text.trim_start().starts_with("```") {
        return text;
    }
    let lines = lines(&text);
    let Some(open) = lines.iter().position(|&range| !line_text(&text, range).trim().is_empty()) else {
        return text;
    };
    if !lines.get(open).is_some_and(|&range| is_opening_fence(line_text(&text, range))) {
        return text;
    }
    let close = lines
        .iter()
        .rposition(|&range| is_closing_fence(line_text(&text, range)))
        .filter(|&close| close > open);
    let mut out = String::with_capacity(text.len());
    for (index, &range) in lines.iter().enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let blank = index == open || close.is_some_and(|close| index >= close);
        if !blank {
            out.push_str(line_text(&text, range));
        }
    }
    out
}

/// For a text whose fenced code block comes after some prose ("Here is the program:" + fence),
/// the text with everything but the block's contents blanked: every byte replaced by a space,
/// line breaks kept, so byte offsets, lines and columns all stay where they were. `None` when
/// there is no opening fence after the first line.
///
/// Prose is code to a parser, so this is only tried when the text does not parse as it is (a
/// fence line may be inside a template literal of a valid program).
pub fn blank_prose_around_fence(text: &str) -> Option<String> {
    let lines = lines(text);
    let first_code = lines.iter().position(|&range| !line_text(text, range).trim().is_empty())?;
    let open = lines
        .iter()
        .enumerate()
        .skip(first_code + 1)
        .find_map(|(index, &range)| is_opening_fence(line_text(text, range)).then_some(index))?;
    let close = lines
        .iter()
        .rposition(|&range| is_closing_fence(line_text(text, range)))
        .filter(|&close| close > open);
    let mut bytes = text.as_bytes().to_vec();
    for (index, &(start, end)) in lines.iter().enumerate() {
        let inside = index > open && close.is_none_or(|close| index < close);
        if !inside {
            bytes.get_mut(start..end)?.fill(b' ');
        }
    }
    // Only whole lines were replaced, and with ASCII: still UTF-8.
    String::from_utf8(bytes).ok()
}

/// `(start, end)` byte range of a line, without its `\n`.
type LineRange = (usize, usize);

fn lines(text: &str) -> Vec<LineRange> {
    let mut start = 0;
    text.split('\n')
        .map(|line| {
            let range = (start, start + line.len());
            start += line.len() + 1;
            range
        })
        .collect()
}

fn line_text(text: &str, (start, end): LineRange) -> &str {
    text.get(start..end).unwrap_or("")
}

/// A markdown code fence's opening line: three backticks and an info string of any language
/// (`js`, `typescript`, `javascript title="main.js"`, even a wrong one such as `python`: the
/// program inside is what runs, and a wrong tag must not turn it into a parse error of the fence).
/// A JavaScript program cannot start with such a line.
fn is_opening_fence(line: &str) -> bool {
    line.trim().strip_prefix("```").is_some_and(|info| !info.contains('`'))
}

fn is_closing_fence(line: &str) -> bool {
    let line = line.trim();
    line.len() >= 3 && line.bytes().all(|b| b == b'`')
}

/// If the whole program is one parameterless arrow function with a block body (maybe called at
/// once, maybe awaited), returns that body's statements; otherwise returns the statements as given.
///
/// An arrow's body sees the same `this` and `arguments` as the code around it, so running the body
/// as the top-level script changes nothing but the result: the program's result becomes what the
/// function returns instead of the function itself.
pub fn unwrap_program_wrapper(mut stmts: Vec<Stmt>) -> Vec<Stmt> {
    let is_wrapper = match stmts.as_slice() {
        [Stmt::Expr(stmt)] => wrapper_body_of(&stmt.expr).is_some(),
        _ => false,
    };
    if !is_wrapper {
        return stmts;
    }
    match stmts.pop() {
        Some(Stmt::Expr(stmt)) => into_wrapper_body(*stmt.expr).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// What a program that *is* a function means: the function is called, with no arguments, and
/// what it returns (awaited, like any completion value) is the run's result. Applied to the
/// parsed statements after [`unwrap_program_wrapper`]:
///
/// - a final expression statement (the REPL result) that is a function literal — an arrow with
///   an expression body or parameters (`async () => (await tools.x.y({})).total`,
///   `() => ({ answer: 42 })`), a function expression — becomes a call of it;
/// - a program that only declares one function (`async function main() { .. }` and nothing that
///   runs) gets a call of it as its last statement: the model meant it to run.
///
/// A function's value is never a useful result (it crosses the boundary as `null`), so calling it
/// cannot take away a result the program meant to give.
pub fn apply_program_shape(stmts: Vec<Stmt>) -> Vec<Stmt> {
    let mut stmts = unwrap_program_wrapper(stmts);
    if let Some(index) = crate::lower::repl_result_index(&stmts)
        && let Some(Stmt::Expr(stmt)) = stmts.get_mut(index)
        && is_function_literal(&stmt.expr)
    {
        let function = std::mem::replace(&mut *stmt.expr, Expr::Invalid(Default::default()));
        *stmt.expr = call_of(function, stmt.span);
        return stmts;
    }
    if let Some((name, span)) = lone_function_declaration(&stmts) {
        let callee = Expr::Ident(name);
        stmts.push(Stmt::Expr(swc_ecma_ast::ExprStmt { span, expr: Box::new(call_of(callee, span)) }));
    }
    stmts
}

/// The functions a program declares when that is all it does: two or more function declarations
/// and nothing that runs. Which one was meant to run is not guessed (the host warns instead); a
/// lone declaration was made into a call by [`apply_program_shape`] and is not listed.
pub fn uncalled_functions(stmts: &[Stmt]) -> Vec<String> {
    let mut names = Vec::new();
    for stmt in stmts {
        if !crate::lower::runs_nothing(stmt) {
            return Vec::new();
        }
        if let Stmt::Decl(Decl::Fn(function)) = stmt
            && !function.declare
            && function.function.body.is_some()
        {
            names.push(function.ident.sym.to_string());
        }
    }
    if names.len() < 2 { Vec::new() } else { names }
}

/// An arrow function or function expression (in parentheses or not), not a generator: calling it
/// runs it.
fn is_function_literal(expr: &Expr) -> bool {
    match strip_parens(expr) {
        Expr::Arrow(arrow) => !arrow.is_generator,
        Expr::Fn(function) => !function.function.is_generator,
        _ => false,
    }
}

/// `callee()`, at `span`.
fn call_of(callee: Expr, span: swc_common::Span) -> Expr {
    Expr::Call(swc_ecma_ast::CallExpr {
        span,
        ctxt: Default::default(),
        callee: Callee::Expr(Box::new(callee)),
        args: Vec::new(),
        type_args: None,
    })
}

/// The name of the only function a program declares, when that declaration is all it has (besides
/// statements that run nothing: types, empty statements).
fn lone_function_declaration(stmts: &[Stmt]) -> Option<(swc_ecma_ast::Ident, swc_common::Span)> {
    let mut declared = None;
    for stmt in stmts {
        match stmt {
            Stmt::Decl(Decl::Fn(function)) if !function.declare && function.function.body.is_some() => {
                if declared.is_some() || function.function.is_generator {
                    return None;
                }
                declared = Some((function.ident.clone(), function.function.span));
            }
            stmt if crate::lower::runs_nothing(stmt) => {}
            _ => return None,
        }
    }
    declared
}

fn strip_parens(expr: &Expr) -> &Expr {
    // Parentheses nest at most `MAX_NESTING` deep (the pre-scan guarantees it), and this loop does
    // not recurse anyway.
    let mut expr = expr;
    while let Expr::Paren(paren) = expr {
        expr = &paren.expr;
    }
    expr
}

/// The body statements of a wrapper expression, by reference, to decide without moving.
fn wrapper_body_of(expr: &Expr) -> Option<&[Stmt]> {
    match strip_parens(expr) {
        Expr::Arrow(arrow) if arrow.params.is_empty() && !arrow.is_generator => match &*arrow.body {
            ArrowFunctionBody::FunctionBody(body) => Some(&body.stmts),
            ArrowFunctionBody::Expr(_) => None,
        },
        Expr::Call(call) if call.args.is_empty() => match &call.callee {
            Callee::Expr(callee) if matches!(strip_parens(callee), Expr::Arrow(_)) => wrapper_body_of(callee),
            _ => None,
        },
        Expr::Await(await_expr) if matches!(strip_parens(&await_expr.arg), Expr::Call(_)) => {
            wrapper_body_of(&await_expr.arg)
        }
        _ => None,
    }
}

/// Moves the body statements out of an expression [`wrapper_body_of`] accepted. The recursion is
/// at most three levels deep (await → call → arrow) plus parentheses.
fn into_wrapper_body(expr: Expr) -> Option<Vec<Stmt>> {
    let mut expr = expr;
    while let Expr::Paren(paren) = expr {
        expr = *paren.expr;
    }
    match expr {
        Expr::Arrow(arrow) => match *arrow.body {
            ArrowFunctionBody::FunctionBody(body) => Some(body.stmts),
            ArrowFunctionBody::Expr(_) => None,
        },
        Expr::Call(call) => match call.callee {
            Callee::Expr(callee) => into_wrapper_body(*callee),
            _ => None,
        },
        Expr::Await(await_expr) => into_wrapper_body(*await_expr.arg),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_are_blanked_keeping_lines() {
        assert_eq!(normalize("```js\nlet x = 1;\nx\n```\n"), "\nlet x = 1;\nx\n\n");
        assert_eq!(normalize("\n  ```TypeScript  \nx\n```"), "\n\nx\n");
        assert_eq!(normalize("```\nx\n"), "\nx\n");
        // An explanation after the closing fence is blanked too.
        assert_eq!(normalize("```js\nx\n```\nThis returns x.\n"), "\nx\n\n\n");
        // Fence lines inside the program (a template literal) are kept; the last one closes.
        assert_eq!(normalize("```js\nm = `\n```\n`\n```"), "\nm = `\n```\n`\n");
    }

    #[test]
    fn any_language_tag_opens_a_fence_and_inner_fences_are_kept() {
        assert_eq!(normalize("```python\nx\n```"), "\nx\n");
        assert_eq!(normalize("```javascript title=\"main.js\"\nx\n```"), "\nx\n");
        assert_eq!(normalize("x\n```\ny"), "x\n```\ny");
        // Not a fence: backticks in the info string (a template literal on the first line).
        assert_eq!(normalize("```a`\nx"), "```a`\nx");
    }

    #[test]
    fn prose_around_a_fence_is_blanked_byte_for_byte() {
        let text = "Here is it:\n```js\nx\n```\nDone ü.";
        assert_eq!(blank_prose_around_fence(text).as_deref(), Some("           \n     \nx\n   \n        "));
        assert_eq!(blank_prose_around_fence("x\ny"), None);
    }

    #[test]
    fn line_endings_become_newlines() {
        assert_eq!(normalize("\u{feff}a\r\nb\rc"), "a\nb\nc");
    }
}
