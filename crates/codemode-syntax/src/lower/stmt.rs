//! Lowering statements: control flow, declarations, loops with their head scopes, `try`,
//! `switch`, labels. TypeScript-only declarations (`interface`, `type`, `declare ..`) vanish.

use swc_common::Spanned;
use swc_ecma_ast::{self as ast, Decl, ForHead, Stmt, VarDeclKind, VarDeclOrExpr};

use super::scope::{Scope, ScopeKind};
use super::{LowerResult, Lowerer, collect};
use crate::ir::{self, Block, CatchClause, ExprKind, Pattern, StmtKind, SwitchCase, VarKind};

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
            Stmt::Decl(Decl::Fn(_)) => Ok(()),
            Stmt::Empty(_) => Ok(()),
            _ => {
                out.push(self.lower_stmt(stmt)?);
                Ok(())
            }
        }
    }

    /// Lowers a statement in a position that holds exactly one (a loop or `if` body, a label's
    /// body).
    pub(crate) fn lower_stmt(&mut self, stmt: &Stmt) -> LowerResult<ir::Stmt> {
        self.lower_labeled_stmt(stmt, None)
    }

    /// Lowers a statement; `label` is the label directly in front of it, which a loop or
    /// `switch` carries itself.
    fn lower_labeled_stmt(&mut self, stmt: &Stmt, label: Option<String>) -> LowerResult<ir::Stmt> {
        self.enter(stmt.span())?;
        let span = self.span(stmt.span());
        let kind = self.lower_stmt_kind(stmt, label)?;
        self.leave();
        Ok(ir::Stmt { kind, span })
    }

    fn lower_stmt_kind(&mut self, stmt: &Stmt, label: Option<String>) -> LowerResult<StmtKind> {
        if let Some(label) = &label
            && !matches!(
                stmt,
                Stmt::While(_)
                    | Stmt::DoWhile(_)
                    | Stmt::For(_)
                    | Stmt::ForIn(_)
                    | Stmt::ForOf(_)
                    | Stmt::Switch(_)
            )
        {
            let body = self.lower_stmt(stmt)?;
            return Ok(StmtKind::Labeled { label: label.clone(), body: Box::new(body) });
        }
        Ok(match stmt {
            Stmt::Block(block) => StmtKind::Block(self.lower_block(&block.stmts, ScopeKind::Block)?),
            Stmt::Empty(_) | Stmt::Debugger(_) => StmtKind::Empty,
            Stmt::With(with) => {
                return Err(self.unsupported("`with` statements are not supported", with.span));
            }
            Stmt::Return(ret) => StmtKind::Return(match &ret.arg {
                Some(arg) => Some(self.lower_expr(arg)?),
                None => None,
            }),
            Stmt::Labeled(labeled) => {
                let body = self.lower_labeled_stmt(&labeled.body, Some(labeled.label.sym.to_string()))?;
                // The label went onto the loop or switch itself, or became a `Labeled` wrapper.
                return Ok(body.kind);
            }
            Stmt::Break(brk) => StmtKind::Break(brk.label.as_ref().map(|label| label.sym.to_string())),
            Stmt::Continue(cont) => {
                StmtKind::Continue(cont.label.as_ref().map(|label| label.sym.to_string()))
            }
            Stmt::If(stmt) => StmtKind::If {
                test: self.lower_expr(&stmt.test)?,
                then: Box::new(self.nested_stmt(&stmt.cons)?),
                otherwise: match &stmt.alt {
                    Some(alt) => Some(Box::new(self.nested_stmt(alt)?)),
                    None => None,
                },
            },
            Stmt::Switch(switch) => self.switch(switch, label)?,
            Stmt::Throw(throw) => StmtKind::Throw(self.lower_expr(&throw.arg)?),
            Stmt::Try(try_stmt) => self.try_stmt(try_stmt)?,
            Stmt::While(stmt) => StmtKind::While {
                test: self.lower_expr(&stmt.test)?,
                body: Box::new(self.nested_stmt(&stmt.body)?),
                do_while: false,
                label,
            },
            Stmt::DoWhile(stmt) => {
                let body = Box::new(self.nested_stmt(&stmt.body)?);
                StmtKind::While { test: self.lower_expr(&stmt.test)?, body, do_while: true, label }
            }
            Stmt::For(stmt) => self.for_stmt(stmt, label)?,
            Stmt::ForIn(stmt) => {
                let (pattern, declare, object, body, scope) =
                    self.for_in_of(&stmt.left, &stmt.right, &stmt.body)?;
                StmtKind::ForIn { pattern, declare, object, body, scope, label }
            }
            Stmt::ForOf(stmt) => {
                if stmt.is_await {
                    return Err(self.unsupported("`for await` loops are not supported", stmt.span));
                }
                let (pattern, declare, iterable, body, scope) =
                    self.for_in_of(&stmt.left, &stmt.right, &stmt.body)?;
                StmtKind::ForOf { pattern, declare, iterable, body, scope, label }
            }
            Stmt::Decl(decl) => self.decl_stmt(decl)?,
            Stmt::Expr(expr) => StmtKind::Expr(self.lower_expr(&expr.expr)?),
        })
    }

    /// The body of an `if` or loop. A declaration there gets a block of its own (JavaScript
    /// allows only function declarations, in sloppy mode; `let` is a syntax error swc reports).
    fn nested_stmt(&mut self, stmt: &Stmt) -> LowerResult<ir::Stmt> {
        match stmt {
            Stmt::Decl(_) => {
                let block = self.lower_block(std::slice::from_ref(stmt), ScopeKind::Block)?;
                Ok(ir::Stmt { kind: StmtKind::Block(block), span: self.span(stmt.span()) })
            }
            _ => self.lower_stmt(stmt),
        }
    }

    fn decl_stmt(&mut self, decl: &Decl) -> LowerResult<StmtKind> {
        Ok(match decl {
            Decl::Var(var) => {
                let mut binds = Vec::new();
                self.var_decl(var, &mut binds)?;
                single_or_block(binds)
            }
            // Hoisted to the top of the block by `hoist_functions`.
            Decl::Fn(_) => StmtKind::Empty,
            Decl::Class(class) => {
                return Err(self.unsupported("class declarations are not supported", class.class.span));
            }
            Decl::Using(using) => {
                return Err(self.unsupported("`using` declarations are not supported", using.span));
            }
            Decl::TsInterface(_) | Decl::TsTypeAlias(_) => StmtKind::Empty,
            Decl::TsEnum(ts_enum) if ts_enum.declare => StmtKind::Empty,
            Decl::TsEnum(ts_enum) => {
                return Err(self.unsupported("TypeScript enums are not supported", ts_enum.span));
            }
            Decl::TsModule(module) if module.declare => StmtKind::Empty,
            Decl::TsModule(module) => {
                return Err(self.unsupported("TypeScript namespaces are not supported", module.span));
            }
        })
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

    /// A `var` inside a block whose name a `let`/`const` of an enclosing block (of the same
    /// function) already declares is an early error.
    fn check_var_redeclaration(&self, pat: &ast::Pat) -> LowerResult<()> {
        for ident in collect::binding_idents(pat) {
            let name = ident.sym.as_str();
            if let Some(var) = self.func.lookup(name)
                && matches!(self.func.kind_of(var), Some(VarKind::Let | VarKind::Const))
            {
                return Err(self.redeclared(name, ident.span));
            }
        }
        Ok(())
    }

    fn for_stmt(&mut self, stmt: &ast::ForStmt, label: Option<String>) -> LowerResult<StmtKind> {
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
        let body = Box::new(self.nested_stmt(&stmt.body)?);
        let scope = if head_scope { self.close_scope() } else { Vec::new() };
        // Closures capture the loop variables of their own iteration.
        let per_iteration = scope
            .iter()
            .copied()
            .filter(|var| self.func.vars.get(var.0 as usize).is_some_and(|info| info.captured))
            .collect();
        Ok(StmtKind::For { init, test, update, body, scope, per_iteration, label })
    }

    /// The parts of a `for (.. in ..)`/`for (.. of ..)` loop. The object/iterable is lowered
    /// outside the head's scope: it is evaluated once, before the first iteration's bindings
    /// exist.
    #[allow(clippy::type_complexity)]
    fn for_in_of(
        &mut self,
        head: &ForHead,
        right: &ast::Expr,
        body: &Stmt,
    ) -> LowerResult<(Pattern, bool, ir::Expr, Box<ir::Stmt>, Vec<ir::VarId>)> {
        let right = self.lower_expr(right)?;
        match head {
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
                let body = Box::new(self.nested_stmt(body)?);
                let scope = if lexical { self.close_scope() } else { Vec::new() };
                Ok((pattern, true, right, body, scope))
            }
            ForHead::Pat(pat) => {
                let pattern = self.lower_assign_pattern(pat)?;
                let body = Box::new(self.nested_stmt(body)?);
                Ok((pattern, false, right, body, Vec::new()))
            }
            ForHead::UsingDecl(using) => {
                Err(self.unsupported("`using` declarations are not supported", using.span))
            }
        }
    }

    /// One scope for all cases; the discriminant is evaluated outside it.
    fn switch(&mut self, switch: &ast::SwitchStmt, label: Option<String>) -> LowerResult<StmtKind> {
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
        Ok(StmtKind::Switch { discriminant, cases, scope, label })
    }

    fn try_stmt(&mut self, stmt: &ast::TryStmt) -> LowerResult<StmtKind> {
        let block = self.lower_block(&stmt.block.stmts, ScopeKind::Block)?;
        let catch = match &stmt.handler {
            Some(handler) => Some(self.catch_clause(handler)?),
            None => None,
        };
        let finally = match &stmt.finalizer {
            Some(finalizer) => Some(self.lower_block(&finalizer.stmts, ScopeKind::Block)?),
            None => None,
        };
        Ok(StmtKind::Try { block, catch, finally })
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
        let mut body = Vec::new();
        self.hoist_functions(&handler.body.stmts, &mut body)?;
        self.lower_stmts(&handler.body.stmts, &mut body)?;
        let scope = self.close_scope();
        Ok(CatchClause { param, body: Block { scope, body } })
    }
}

/// One statement as is; several (`let a = 1, b = 2`) in a block without a scope of its own.
fn single_or_block(mut stmts: Vec<ir::Stmt>) -> StmtKind {
    match stmts.len() {
        0 => StmtKind::Empty,
        1 => stmts.pop().map_or(StmtKind::Empty, |stmt| stmt.kind),
        _ => StmtKind::Block(Block { scope: Vec::new(), body: stmts }),
    }
}
