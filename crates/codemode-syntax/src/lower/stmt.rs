//! Lowering statements: control flow, declarations, loops with their head scopes, `try`,
//! `switch`, labels. TypeScript-only declarations (`interface`, `type`, `declare ..`) vanish.

use swc_common::Spanned;
use swc_ecma_ast::{self as ast, Decl, ForHead, Stmt, VarDeclKind, VarDeclOrExpr};

use super::scope::{Scope, ScopeKind};
use super::{LowerResult, Lowerer, collect, early_errors};
use crate::ir::{self, Block, CatchClause, ExprKind, StmtKind, SwitchCase, VarKind};

impl Lowerer<'_> {
    /// Lowers a statement list into `out`, one source statement giving zero or more IR
    /// statements (function declarations were hoisted already; `var x;` gives nothing).
    pub(crate) fn lower_stmts(&mut self, stmts: &[Stmt], out: &mut Vec<ir::Stmt>) -> LowerResult<()> {
        for stmt in stmts {
            self.lower_stmt_into(stmt, out)?;
        }
        Ok(())
    }

    pub(crate) fn lower_stmt_into(&mut self, stmt: &Stmt, out: &mut Vec<ir::Stmt>) -> LowerResult<()> {
        match stmt {
            Stmt::Decl(Decl::Var(decl)) => self.var_decl(decl, out),
            Stmt::Decl(Decl::Using(using)) => self.using_decl(using, out),
            // Hoisted already, or types only: nothing runs here.
            Stmt::Decl(Decl::Fn(_) | Decl::TsInterface(_) | Decl::TsTypeAlias(_)) | Stmt::Empty(_) => Ok(()),
            Stmt::Decl(Decl::TsEnum(ts_enum)) if ts_enum.declare => Ok(()),
            Stmt::Decl(Decl::Class(class)) if class.declare => Ok(()),
            Stmt::Decl(Decl::TsModule(module)) if module.declare => Ok(()),
            _ => {
                out.push(*self.lower_stmt(stmt)?);
                Ok(())
            }
        }
    }

    /// Lowers a statement in a position that holds exactly one (a loop or `if` body, a label's
    /// body).
    ///
    /// Statements travel boxed through the recursion: in debug builds every stack frame on the
    /// way holds copies of the returned value, and an unboxed `ir::Stmt` is a few hundred bytes.
    pub(crate) fn lower_stmt(&mut self, stmt: &Stmt) -> LowerResult<Box<ir::Stmt>> {
        self.lower_labeled_stmt(stmt, None)
    }

    /// Lowers a statement; `label` is the label directly in front of it, which a loop or
    /// `switch` carries itself.
    fn lower_labeled_stmt(&mut self, stmt: &Stmt, label: Option<String>) -> LowerResult<Box<ir::Stmt>> {
        self.enter(stmt.span())?;
        let span = self.span(stmt.span());
        // `break`/`continue` inside see the loop or switch (its head too, which holds no
        // statements outside nested functions, whose context is their own).
        let breakable = early_errors::breakable(stmt);
        self.count_breakable(breakable, true);
        let lowered = self.lower_stmt_kind(stmt, label, span);
        self.count_breakable(breakable, false);
        self.leave();
        lowered
    }

    /// Dispatches on the statement kind. Every arm is a call into a function of its own: in
    /// debug builds a `match` with the arms' code inline reserves stack for all arms at once, and
    /// this function is on the stack once per nesting level.
    fn lower_stmt_kind(
        &mut self,
        stmt: &Stmt,
        label: Option<String>,
        span: ir::Span,
    ) -> LowerResult<Box<ir::Stmt>> {
        let carries_label = matches!(
            stmt,
            Stmt::While(_)
                | Stmt::DoWhile(_)
                | Stmt::For(_)
                | Stmt::ForIn(_)
                | Stmt::ForOf(_)
                | Stmt::Switch(_)
        );
        if !carries_label && let Some(label) = label {
            return self.labeled(stmt, label, span);
        }
        match stmt {
            Stmt::Block(block) => self.block_stmt(&block.stmts, span),
            Stmt::Empty(_) | Stmt::Debugger(_) | Stmt::Break(_) | Stmt::Continue(_) | Stmt::With(_) => {
                self.leaf_stmt(stmt, span)
            }
            Stmt::Return(ret) => self.return_stmt(ret, span),
            // The label goes onto the loop or switch itself, or becomes a `Labeled` wrapper.
            Stmt::Labeled(labeled) => {
                self.push_label(labeled)?;
                let lowered = self.lower_labeled_stmt(&labeled.body, Some(labeled.label.sym.to_string()));
                self.pop_label();
                lowered
            }
            Stmt::If(stmt) => self.if_stmt(stmt, span),
            Stmt::Switch(switch) => self.switch(switch, label, span),
            Stmt::Throw(throw) => self.expr_stmt(&throw.arg, true, span),
            Stmt::Try(try_stmt) => self.try_stmt(try_stmt, span),
            Stmt::While(stmt) => self.while_stmt(&stmt.test, &stmt.body, false, label, span),
            Stmt::DoWhile(stmt) => self.while_stmt(&stmt.test, &stmt.body, true, label, span),
            Stmt::For(stmt) => self.for_stmt(stmt, label, span),
            Stmt::ForIn(stmt) => self.for_in_of(&stmt.left, &stmt.right, &stmt.body, false, label, span),
            Stmt::ForOf(stmt) => {
                let mut lowered = self.for_in_of(&stmt.left, &stmt.right, &stmt.body, true, label, span)?;
                if let StmtKind::ForOf { is_await, .. } = &mut lowered.kind {
                    *is_await = stmt.is_await;
                }
                Ok(lowered)
            }
            Stmt::Decl(decl) => self.decl_stmt(decl, span),
            Stmt::Expr(expr) => self.expr_stmt(&expr.expr, false, span),
        }
    }

    /// Statements without nested statements or expressions.
    fn leaf_stmt(&mut self, stmt: &Stmt, span: ir::Span) -> LowerResult<Box<ir::Stmt>> {
        self.check_jump(stmt)?;
        let label_of = |label: &Option<ast::Ident>| label.as_ref().map(|label| label.sym.to_string());
        let kind = match stmt {
            Stmt::Break(brk) => StmtKind::Break(label_of(&brk.label)),
            Stmt::Continue(cont) => {
                let label = label_of(&cont.label).map(|label| {
                    let alias = self.continue_aliases.iter().rev().find(|(from, _)| *from == label);
                    alias.map_or(label, |(_, to)| to.clone())
                });
                StmtKind::Continue(label)
            }
            Stmt::With(with) => {
                return Err(self.unsupported(
                    "`with` statements are not supported; use the object's properties directly",
                    with.span,
                ));
            }
            _ => StmtKind::Empty,
        };
        Ok(boxed(kind, span))
    }

    fn block_stmt(&mut self, stmts: &[Stmt], span: ir::Span) -> LowerResult<Box<ir::Stmt>> {
        let block = self.lower_block(stmts, ScopeKind::Block)?;
        Ok(boxed(StmtKind::Block(block), span))
    }

    /// An expression statement, or a `throw`.
    fn expr_stmt(&mut self, expr: &ast::Expr, throw: bool, span: ir::Span) -> LowerResult<Box<ir::Stmt>> {
        let expr = self.lower_expr(expr)?;
        Ok(boxed(if throw { StmtKind::Throw(expr) } else { StmtKind::Expr(expr) }, span))
    }

    /// A labelled statement that is not a loop or `switch`.
    ///
    /// A loop can carry one label in the IR. With several (`a: b: for (..) { continue a; }`), the
    /// loop carries the innermost one and the outer ones become `Labeled` wrappers, which `break`
    /// can target; a `continue` to an outer one is redirected to the innermost label.
    fn labeled(&mut self, stmt: &Stmt, label: String, span: ir::Span) -> LowerResult<Box<ir::Stmt>> {
        let loop_label = innermost_loop_label(stmt);
        if let Some(target) = &loop_label {
            self.continue_aliases.push((label.clone(), target.clone()));
        }
        // `label: function f() {}` (sloppy mode) gets a block, like the body of an `if`.
        let body = self.nested_stmt(stmt);
        if loop_label.is_some() {
            self.continue_aliases.pop();
        }
        Ok(boxed(StmtKind::Labeled { label, body: body? }, span))
    }

    fn return_stmt(&mut self, ret: &ast::ReturnStmt, span: ir::Span) -> LowerResult<Box<ir::Stmt>> {
        let value = match &ret.arg {
            Some(arg) => Some(self.lower_expr(arg)?),
            None => None,
        };
        Ok(boxed(StmtKind::Return(value), span))
    }

    fn if_stmt(&mut self, stmt: &ast::IfStmt, span: ir::Span) -> LowerResult<Box<ir::Stmt>> {
        let test = self.lower_expr(&stmt.test)?;
        let then = self.nested_stmt(&stmt.cons)?;
        let otherwise = match &stmt.alt {
            Some(alt) => Some(self.nested_stmt(alt)?),
            None => None,
        };
        Ok(boxed(StmtKind::If { test, then, otherwise }, span))
    }

    /// `while (test) body`, or `do body while (test)` (body lowered first, in source order).
    fn while_stmt(
        &mut self,
        test: &ast::Expr,
        body: &Stmt,
        do_while: bool,
        label: Option<String>,
        span: ir::Span,
    ) -> LowerResult<Box<ir::Stmt>> {
        let mut lowered_body = None;
        if do_while {
            lowered_body = Some(self.nested_stmt(body)?);
        }
        let test = self.lower_expr(test)?;
        let body = match lowered_body {
            Some(body) => body,
            None => self.nested_stmt(body)?,
        };
        Ok(boxed(StmtKind::While { test, body, do_while, label }, span))
    }

    /// The body of an `if` or loop. A declaration there gets a block of its own (JavaScript
    /// allows only function declarations, in sloppy mode; `let` is a syntax error swc reports).
    pub(crate) fn nested_stmt(&mut self, stmt: &Stmt) -> LowerResult<Box<ir::Stmt>> {
        self.check_single_statement(stmt)?;
        match stmt {
            Stmt::Decl(Decl::Using(using)) => Err(self.parse_error(
                "`using` declarations are not allowed here: only directly in a block or function body",
                using.span,
            )),
            Stmt::Decl(_) => {
                let span = self.span(stmt.span());
                self.block_stmt(std::slice::from_ref(stmt), span)
            }
            _ => self.lower_stmt(stmt),
        }
    }

    fn decl_stmt(&mut self, decl: &Decl, span: ir::Span) -> LowerResult<Box<ir::Stmt>> {
        let kind = match decl {
            Decl::Var(var) => {
                let mut binds = Vec::new();
                self.var_decl(var, &mut binds)?;
                single_or_block(binds)
            }
            // Hoisted to the top of the block by `hoist_functions`.
            Decl::Fn(_) => StmtKind::Empty,
            Decl::Class(class) if class.declare => StmtKind::Empty,
            Decl::Class(class) => self.class_declaration(class)?,
            Decl::Using(using) => {
                let mut binds = Vec::new();
                self.using_decl(using, &mut binds)?;
                single_or_block(binds)
            }
            Decl::TsInterface(_) | Decl::TsTypeAlias(_) => StmtKind::Empty,
            Decl::TsEnum(ts_enum) if ts_enum.declare => StmtKind::Empty,
            Decl::TsEnum(ts_enum) => self.enum_declaration(ts_enum)?,
            Decl::TsModule(module) if module.declare => StmtKind::Empty,
            Decl::TsModule(module) => {
                return Err(
                    self.unsupported("TypeScript namespaces are not supported; use an object", module.span)
                );
            }
        };
        Ok(boxed(kind, span))
    }

    /// `var`/`let`/`const` declarators as `Bind`s (none for `var x;`). The initializer is lowered
    /// before the bindings count as initialized, so reads inside it are TDZ-checked.
    pub(crate) fn var_decl(&mut self, decl: &ast::VarDecl, out: &mut Vec<ir::Stmt>) -> LowerResult<()> {
        if decl.declare {
            return Ok(());
        }
        for declarator in &decl.decls {
            let span = self.span(declarator.span);
            let name = match &declarator.name {
                ast::Pat::Ident(binding) => Some(binding.id.sym.to_string()),
                _ => None,
            };
            if decl.kind == VarDeclKind::Var {
                self.check_var_redeclaration(&declarator.name)?;
            }
            let init = match (&declarator.init, decl.kind) {
                (Some(init), _) => self.lower_named_expr(init, name.as_deref())?,
                (None, VarDeclKind::Var) => continue,
                (None, VarDeclKind::Const) if !declarator.definite => {
                    return Err(self.parse_error("Missing initializer in const declaration", declarator.span));
                }
                (None, _) => ir::Expr { kind: ExprKind::Undefined, span },
            };
            let pattern = self.lower_binding_pattern(&declarator.name)?;
            self.mark_pattern_initialized(&declarator.name);
            out.push(ir::Stmt { kind: StmtKind::Bind { pattern, init }, span });
        }
        Ok(())
    }

    /// A `var` whose name a `let`/`const` of an enclosing scope (of the same function), or a
    /// function declared in an enclosing block, already declares is an early error: the `var`
    /// is hoisted through that scope.
    fn check_var_redeclaration(&self, pat: &ast::Pat) -> LowerResult<()> {
        for ident in collect::binding_idents(pat) {
            let name = ident.sym.as_str();
            for (index, scope) in self.func.scopes.iter().enumerate() {
                let Some(var) = self.func.lookup_in(index, name) else { continue };
                let clash = match self.func.kind_of(var) {
                    Some(VarKind::Let | VarKind::Const) => true,
                    Some(VarKind::Function) => scope.kind != ScopeKind::Function,
                    _ => false,
                };
                if clash {
                    return Err(self.redeclared(name, ident.span));
                }
            }
        }
        Ok(())
    }

    fn for_stmt(
        &mut self,
        stmt: &ast::ForStmt,
        label: Option<String>,
        span: ir::Span,
    ) -> LowerResult<Box<ir::Stmt>> {
        // A `let`/`const` head has a scope of its own around the whole loop.
        let head_scope =
            matches!(&stmt.init, Some(VarDeclOrExpr::VarDecl(decl)) if decl.kind != VarDeclKind::Var);
        if head_scope && let Some(VarDeclOrExpr::VarDecl(decl)) = &stmt.init {
            self.func.scopes.push(Scope::new(ScopeKind::Block));
            for declared in collect::head_declarations(decl) {
                self.declare_lexical(declared.ident, declared.kind)?;
            }
        }
        let init = match &stmt.init {
            Some(VarDeclOrExpr::VarDecl(decl)) => {
                let mut binds = Vec::new();
                self.var_decl(decl, &mut binds)?;
                let span = self.span(decl.span);
                if binds.is_empty() {
                    None
                } else {
                    Some(Box::new(ir::Stmt { kind: single_or_block(binds), span }))
                }
            }
            Some(VarDeclOrExpr::Expr(expr)) => {
                let expr = self.lower_expr(expr)?;
                Some(Box::new(ir::Stmt { span: expr.span, kind: StmtKind::Expr(expr) }))
            }
            None => None,
        };
        let test = match &stmt.test {
            Some(test) => Some(self.lower_expr(test)?),
            None => None,
        };
        let update = match &stmt.update {
            Some(update) => Some(self.lower_expr(update)?),
            None => None,
        };
        let body = self.nested_stmt(&stmt.body)?;
        let scope = if head_scope { self.close_scope() } else { Vec::new() };
        // Closures capture the loop variables of their own iteration.
        let per_iteration = scope
            .iter()
            .copied()
            .filter(|var| self.func.vars.get(var.0 as usize).is_some_and(|info| info.captured))
            .collect();
        Ok(boxed(StmtKind::For { init, test, update, body, scope, per_iteration, label }, span))
    }

    /// `for (.. of ..)` (`is_of`) or `for (.. in ..)`. The object/iterable is lowered outside the
    /// head's scope: it is evaluated once, before the first iteration's bindings exist.
    fn for_in_of(
        &mut self,
        head: &ForHead,
        right: &ast::Expr,
        body: &Stmt,
        is_of: bool,
        label: Option<String>,
        span: ir::Span,
    ) -> LowerResult<Box<ir::Stmt>> {
        let right = self.lower_expr(right)?;
        let (pattern, declare, body, scope) = match head {
            ForHead::VarDecl(decl) => {
                let [declarator] = decl.decls.as_slice() else {
                    return Err(self.parse_error(
                        "Only a single variable declaration is allowed in a for loop head",
                        decl.span,
                    ));
                };
                if declarator.init.is_some() {
                    return Err(self.parse_error(
                        "for-in/of loop variable declaration may not have an initializer",
                        declarator.span,
                    ));
                }
                let lexical = decl.kind != VarDeclKind::Var;
                if lexical {
                    self.func.scopes.push(Scope::new(ScopeKind::Block));
                    for declared in collect::head_declarations(decl) {
                        self.declare_lexical(declared.ident, declared.kind)?;
                    }
                } else {
                    self.check_var_redeclaration(&declarator.name)?;
                }
                let pattern = self.lower_binding_pattern(&declarator.name)?;
                self.mark_pattern_initialized(&declarator.name);
                let body = self.nested_stmt(body)?;
                let scope = if lexical { self.close_scope() } else { Vec::new() };
                (pattern, true, body, scope)
            }
            ForHead::Pat(pat) => {
                let pattern = self.lower_assign_pattern(pat)?;
                (pattern, false, self.nested_stmt(body)?, Vec::new())
            }
            ForHead::UsingDecl(using) => {
                let (pattern, body, scope) = self.for_using_head(using, body, is_of)?;
                (pattern, true, body, scope)
            }
        };
        let kind = if is_of {
            StmtKind::ForOf { pattern, declare, iterable: right, body, scope, label, is_await: false }
        } else {
            StmtKind::ForIn { pattern, declare, object: right, body, scope, label }
        };
        Ok(boxed(kind, span))
    }

    /// One scope for all cases; the discriminant is evaluated outside it.
    fn switch(
        &mut self,
        switch: &ast::SwitchStmt,
        label: Option<String>,
        span: ir::Span,
    ) -> LowerResult<Box<ir::Stmt>> {
        self.check_switch_cases(switch)?;
        let discriminant = self.lower_expr(&switch.discriminant)?;
        self.open_scope(ScopeKind::Switch, switch.cases.iter().flat_map(|case| case.cons.iter()))?;
        let mut cases = Vec::with_capacity(switch.cases.len());
        for case in &switch.cases {
            let test = match &case.test {
                Some(test) => Some(self.lower_expr(test)?),
                None => None,
            };
            // Function declarations in a case are bound where they appear: there is no single
            // point before all cases where a hoisted `Bind` would run.
            let mut body = Vec::new();
            for stmt in &case.cons {
                match stmt {
                    Stmt::Decl(Decl::Fn(decl)) if !decl.declare && decl.function.body.is_some() => {
                        body.push(self.function_declaration(decl)?);
                    }
                    _ => self.lower_stmt_into(stmt, &mut body)?,
                }
            }
            cases.push(SwitchCase { test, body });
        }
        let scope = self.close_scope();
        Ok(boxed(StmtKind::Switch { discriminant, cases, scope, label }, span))
    }

    fn try_stmt(&mut self, stmt: &ast::TryStmt, span: ir::Span) -> LowerResult<Box<ir::Stmt>> {
        let block = self.lower_block(&stmt.block.stmts, ScopeKind::Block)?;
        let catch = match &stmt.handler {
            Some(handler) => Some(self.catch_clause(handler)?),
            None => None,
        };
        let finally = match &stmt.finalizer {
            Some(finalizer) => Some(self.lower_block(&finalizer.stmts, ScopeKind::Block)?),
            None => None,
        };
        Ok(boxed(StmtKind::Try { block, catch, finally }, span))
    }

    /// The catch parameter's bindings live in the catch body's scope.
    fn catch_clause(&mut self, handler: &ast::CatchClause) -> LowerResult<CatchClause> {
        self.func.scopes.push(Scope::new(ScopeKind::Block));
        if let Some(param) = &handler.param {
            for ident in collect::binding_idents(param) {
                self.declare_lexical(ident, VarKind::CatchParam)?;
            }
        }
        for declared in collect::lexical_declarations(&handler.body.stmts) {
            self.declare_lexical(declared.ident, declared.kind)?;
        }
        let param = match &handler.param {
            Some(param) => Some(self.lower_binding_pattern(param)?),
            None => None,
        };
        let using = self.begin_using(&handler.body.stmts, handler.body.span);
        let mut body = Vec::new();
        self.hoist_functions(&handler.body.stmts, &mut body)?;
        self.lower_stmts(&handler.body.stmts, &mut body)?;
        let body = self.end_using(using, body);
        let scope = self.close_scope();
        Ok(CatchClause { param, body: Block { scope, body } })
    }
}

/// For `b: c: loop` (the body of a label `a`), the label the loop itself will carry (`c`).
fn innermost_loop_label(stmt: &Stmt) -> Option<String> {
    let mut stmt = stmt;
    let mut label = None;
    while let Stmt::Labeled(labeled) = stmt {
        label = Some(labeled.label.sym.to_string());
        stmt = &labeled.body;
    }
    let is_loop =
        matches!(stmt, Stmt::While(_) | Stmt::DoWhile(_) | Stmt::For(_) | Stmt::ForIn(_) | Stmt::ForOf(_));
    if is_loop { label } else { None }
}

fn boxed(kind: StmtKind, span: ir::Span) -> Box<ir::Stmt> {
    Box::new(ir::Stmt { kind, span })
}

/// One statement as is; several (`let a = 1, b = 2`) in a block without a scope of its own.
fn single_or_block(mut stmts: Vec<ir::Stmt>) -> StmtKind {
    match stmts.len() {
        0 => StmtKind::Empty,
        1 => stmts.pop().map_or(StmtKind::Empty, |stmt| stmt.kind),
        _ => StmtKind::Block(Block { scope: Vec::new(), body: stmts }),
    }
}
