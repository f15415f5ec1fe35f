//! `using` and `await using` declarations, lowered to existing IR around the VM's internal
//! helpers (`codemode-vm`'s `builtins/using.rs`).
//!
//! A block (or function body, or `for (using x of ..)` iteration) that declares `using` bindings
//! directly becomes
//!
//! ```text
//! %using = #internal.usingScope();   // the block's hidden DisposeCapability
//! %usingError = %using;              // "no exception" (no program can throw %using)
//! try {
//!     ... using x = e  →  const x = #internal.usingAdd(%using, e, isAwait) ...
//! } catch (%usingError) {            // the exception the block ends with, if any
//! } finally {
//!     #internal.usingDispose(%using, %usingError);   // disposes; throws the final error
//! }
//! ```
//!
//! so every way out of the block (normal end, `break`/`continue`/`return`, a throw) disposes the
//! resources, last first, and a disposer's error while another is pending becomes a
//! `SuppressedError`. In a block with `await using`, `usingDispose` returns the promise of an
//! asynchronous disposal when one was declared, and the `finally` awaits it:
//! `%usingError = #internal.usingDispose(..); if (%usingError !== undefined) await %usingError;`
//! (no await at all when no `await using` declaration was reached, as the language says).

use swc_ecma_ast::{self as ast, Decl, Stmt};

use super::scope::{Scope, ScopeKind};
use super::{LowerResult, Lowerer, collect};
use crate::ir::{self, Block, CatchClause, ExprKind, Pattern, StmtKind, VarId, VarKind, VarRef};

/// The hidden bindings of one block with `using` declarations.
pub(crate) struct UsingScope {
    scope: VarId,
    error: VarId,
    /// The block declares `await using` bindings: its disposal may have to be awaited.
    is_await: bool,
    span: ir::Span,
}

/// `Some(is_await)` when the statements declare `using` bindings directly (`is_await`: some of
/// them with `await using`).
fn using_in(stmts: &[Stmt]) -> Option<bool> {
    let mut found = None;
    for stmt in stmts {
        if let Stmt::Decl(Decl::Using(using)) = stmt {
            found = Some(found.unwrap_or(false) || using.is_await);
        }
    }
    found
}

fn expr(kind: ExprKind, span: ir::Span) -> ir::Expr {
    ir::Expr { kind, span }
}

fn read(var: VarId, span: ir::Span) -> ir::Expr {
    expr(ExprKind::Var { var: VarRef::Local(var), check_tdz: false }, span)
}

/// A call of the internal helper `name`.
fn call_internal(name: &str, args: Vec<ir::Expr>, span: ir::Span) -> ir::Expr {
    let callee = Box::new(expr(ExprKind::Internal(format!("#internal.{name}")), span));
    let args = args.into_iter().map(ir::ArrayElem::Item).collect();
    expr(ExprKind::Call { callee, args, optional: false }, span)
}

fn stmt(kind: StmtKind, span: ir::Span) -> ir::Stmt {
    ir::Stmt { kind, span }
}

impl Lowerer<'_> {
    /// Before lowering a statement list whose scope is open (innermost): when it declares
    /// `using` bindings, adds the hidden bindings to that scope and makes them the target of its
    /// declarations.
    pub(crate) fn begin_using(&mut self, stmts: &[Stmt], span: swc_common::Span) -> Option<UsingScope> {
        let is_await = using_in(stmts)?;
        Some(self.open_using(is_await, span))
    }

    fn open_using(&mut self, is_await: bool, span: swc_common::Span) -> UsingScope {
        let index = self.func.scopes.len().saturating_sub(1);
        let scope = self.func.add_var(index, "%using", VarKind::Temp, false);
        let error = self.func.add_var(index, "%usingError", VarKind::Temp, false);
        self.func.using_scopes.push(scope);
        UsingScope { scope, error, is_await, span: self.span(span) }
    }

    /// After lowering the statement list: wraps `body` so that leaving it disposes the resources.
    pub(crate) fn end_using(&mut self, using: Option<UsingScope>, body: Vec<ir::Stmt>) -> Vec<ir::Stmt> {
        let Some(UsingScope { scope, error, is_await, span }) = using else { return body };
        self.func.using_scopes.pop();
        let bind = |var: VarId, init: ir::Expr| {
            stmt(StmtKind::Bind { pattern: Pattern::Var(VarRef::Local(var)), init }, span)
        };
        let dispose = call_internal("usingDispose", vec![read(scope, span), read(error, span)], span);
        let finally = if is_await {
            let assign = ExprKind::Assign {
                op: None,
                target: Box::new(Pattern::Var(VarRef::Local(error))),
                value: Box::new(dispose),
            };
            let test = ExprKind::Binary {
                op: ir::BinaryOp::StrictNotEq,
                left: Box::new(read(error, span)),
                right: Box::new(expr(ExprKind::Undefined, span)),
            };
            let wait = stmt(StmtKind::Expr(expr(ExprKind::Await(Box::new(read(error, span))), span)), span);
            vec![
                stmt(StmtKind::Expr(expr(assign, span)), span),
                stmt(StmtKind::If { test: expr(test, span), then: Box::new(wait), otherwise: None }, span),
            ]
        } else {
            vec![stmt(StmtKind::Expr(dispose), span)]
        };
        let catch = CatchClause { param: Some(Pattern::Var(VarRef::Local(error))), body: Block::default() };
        vec![
            bind(scope, call_internal("usingScope", Vec::new(), span)),
            bind(error, read(scope, span)),
            stmt(
                StmtKind::Try {
                    block: Block { scope: Vec::new(), body },
                    catch: Some(catch),
                    finally: Some(Block { scope: Vec::new(), body: finally }),
                },
                span,
            ),
        ]
    }

    /// `using x = e, y = f;` as `Bind`s of `#internal.usingAdd(%using, e, isAwait)`.
    pub(crate) fn using_decl(&mut self, decl: &ast::UsingDecl, out: &mut Vec<ir::Stmt>) -> LowerResult<()> {
        let Some(&scope) = self.func.using_scopes.last() else {
            return Err(self.parse_error(
                "`using` declarations are only allowed directly in a block, a function body or a `for...of` head",
                decl.span,
            ));
        };
        for declarator in &decl.decls {
            let span = self.span(declarator.span);
            let ast::Pat::Ident(binding) = &declarator.name else {
                return Err(
                    self.parse_error("`using` declarations may not have binding patterns", declarator.span)
                );
            };
            let Some(init) = &declarator.init else {
                return Err(self.parse_error("Missing initializer in using declaration", declarator.span));
            };
            let value = self.lower_named_expr(init, Some(binding.id.sym.as_str()))?;
            let pattern = self.lower_binding_pattern(&declarator.name)?;
            self.mark_pattern_initialized(&declarator.name);
            let add = call_internal(
                "usingAdd",
                vec![read(scope, span), value, expr(ExprKind::Bool(decl.is_await), span)],
                span,
            );
            out.push(stmt(StmtKind::Bind { pattern, init: add }, span));
        }
        Ok(())
    }

    /// `for ([await] using x of iterable) body`: each iteration binds a hidden `%value`, and its
    /// body is a block of its own declaring `x` with it, disposed when the iteration ends.
    /// Gives the loop's pattern, body and per-iteration scope.
    pub(crate) fn for_using_head(
        &mut self,
        using: &ast::UsingDecl,
        body: &Stmt,
        is_of: bool,
    ) -> LowerResult<(Pattern, Box<ir::Stmt>, Vec<VarId>)> {
        let [declarator] = using.decls.as_slice() else {
            return Err(self.parse_error(
                "Only a single variable declaration is allowed in a for loop head",
                using.span,
            ));
        };
        if !is_of {
            return Err(
                self.parse_error("`using` declarations are not allowed in a for-in loop head", using.span)
            );
        }
        if declarator.init.is_some() {
            return Err(self.parse_error(
                "for-in/of loop variable declaration may not have an initializer",
                declarator.span,
            ));
        }
        let ast::Pat::Ident(binding) = &declarator.name else {
            return Err(
                self.parse_error("`using` declarations may not have binding patterns", declarator.span)
            );
        };
        self.func.scopes.push(Scope::new(ScopeKind::Block));
        for ident in collect::binding_idents(&declarator.name) {
            self.declare_lexical(ident, VarKind::Const)?;
        }
        let index = self.func.scopes.len().saturating_sub(1);
        let value = self.func.add_var(index, "%value", VarKind::Temp, false);
        let scope = self.open_using(using.is_await, using.span);
        let span = self.span(binding.span);
        let pattern = self.lower_binding_pattern(&declarator.name)?;
        self.mark_pattern_initialized(&declarator.name);
        let add = call_internal(
            "usingAdd",
            vec![read(scope.scope, span), read(value, span), expr(ExprKind::Bool(using.is_await), span)],
            span,
        );
        let mut inner = vec![stmt(StmtKind::Bind { pattern, init: add }, span)];
        inner.push(*self.nested_stmt(body)?);
        let body_span = scope.span;
        let wrapped = self.end_using(Some(scope), inner);
        let vars = self.close_scope();
        let body = Box::new(stmt(StmtKind::Block(Block { scope: Vec::new(), body: wrapped }), body_span));
        Ok((Pattern::Var(VarRef::Local(value)), body, vars))
    }
}
