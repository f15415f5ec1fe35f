//! Lowering: swc's AST → [`ir::Program`].
//!
//! One walk over the AST, in source order, that resolves names as it goes. The pieces:
//! - [`scope`]: the function/scope stacks, name resolution, captures and TDZ decisions;
//! - [`collect`]: the declarations a block or function hoists, listed before its code is lowered;
//! - `stmt`, `expr`, `pattern`: one lowering function per AST node kind;
//! - this module: the [`Lowerer`] itself, functions and blocks (where scopes open and close),
//!   the depth guard, and diagnostics.
//!
//! Every recursive lowering function enters through [`Lowerer::enter`], which fails with a
//! `ParseError` past [`MAX_NESTING`] levels, so no AST can overflow the stack here.

mod class;
mod collect;
mod early_errors;
mod expr;
mod pattern;
mod scope;
mod stmt;
mod ts_enum;
mod using;

use swc_common::Spanned;
use swc_ecma_ast::{self as ast, Pat, Stmt};

use crate::ir::{self, Block, FuncId, Pattern, StmtKind, VarKind, VarRef};
use crate::parse::Locator;
use crate::{MAX_NESTING, SyntaxError, SyntaxErrorKind};
pub use expr::js_number_to_string;
use scope::{Access, Chain, FunctionState, Init, ScopeKind};

/// Errors are boxed: lowering results travel up every level of recursion, and in debug builds
/// each level's stack frame holds copies of them, so they are kept pointer-sized.
pub(crate) type LowerError = Box<SyntaxError>;
pub(crate) type LowerResult<T> = Result<T, LowerError>;

/// How many nesting levels a nested function counts for (see [`Lowerer::enter_weighted`]).
const FUNCTION_WEIGHT: usize = 4;

/// Lowers the statements of a parsed (and unwrapped) script body.
pub fn lower_program(stmts: &[Stmt], locator: &Locator<'_>) -> Result<ir::Program, SyntaxError> {
    let mut lowerer = Lowerer {
        locator,
        functions: Vec::new(),
        func: FunctionState::new(false, false, None, 0),
        outer: Vec::new(),
        depth: 0,
        clock: 0,
        continue_aliases: Vec::new(),
        next_method: None,
        classes: Vec::new(),
        class_count: 0,
    };
    let span =
        stmts.first().map(|stmt| locator.start(stmt.span())).unwrap_or(ir::Span { line: 1, column: 1 });
    lowerer.functions.push(placeholder_function(span));
    lowerer.func.early = early_errors::FunctionRules::program(stmts);
    let body = lowerer.lower_function_body(stmts, true).map_err(|error| *error)?;
    let main = lowerer.finish_function(None, true, false, Vec::new(), None, body, span);
    if let Some(slot) = lowerer.functions.first_mut() {
        *slot = main;
    }
    Ok(ir::Program { functions: lowerer.functions, nesting: 0, uncalled_functions: Vec::new() })
}

fn placeholder_function(span: ir::Span) -> ir::Function {
    ir::Function {
        name: None,
        is_async: false,
        is_generator: false,
        is_arrow: false,
        params: Vec::new(),
        rest: None,
        vars: Vec::new(),
        captures: Vec::new(),
        body: Block::default(),
        uses_this: false,
        arguments_var: None,
        span,
        class_kind: ir::ClassKind::None,
        self_capture: None,
    }
}

/// The parts of a function the lowering needs, whatever syntax declared it.
pub(crate) struct FunctionSource<'a> {
    pub name: Option<String>,
    /// A named function expression's name, bound inside it to the function itself.
    pub self_name: Option<String>,
    pub is_arrow: bool,
    pub is_async: bool,
    pub is_generator: bool,
    pub params: Vec<&'a Pat>,
    /// An object literal's method, getter or setter (`super.x` is valid there; class members
    /// are marked by `Lowerer::next_method` instead).
    pub is_method: bool,
    /// Whether a parameter has decorators (TypeScript), which are not supported.
    pub has_param_decorators: bool,
    pub body: FunctionBodySource<'a>,
    pub span: swc_common::Span,
}

pub(crate) enum FunctionBodySource<'a> {
    Block(&'a [Stmt]),
    /// An arrow's expression body: `x => x + 1`.
    Expr(&'a ast::Expr),
}

pub(crate) struct Lowerer<'a> {
    locator: &'a Locator<'a>,
    functions: Vec<ir::Function>,
    /// The function whose code is being lowered.
    func: FunctionState,
    /// The functions around it, outermost first.
    outer: Vec<FunctionState>,
    depth: usize,
    /// Ticks at every declaration and closure creation, to order them for TDZ decisions.
    clock: u64,
    /// Outer labels of a multiply-labelled loop → the label the loop carries (see
    /// `Lowerer::labeled`).
    continue_aliases: Vec<(String, String)>,
    /// Set by the class lowering for the function it lowers next: a method's `super` home and
    /// class-constructor kind.
    next_method: Option<class::MethodSetup>,
    /// The classes being lowered, innermost last: their private names.
    classes: Vec<class::ClassScope>,
    /// Classes seen so far, numbering private names apart.
    class_count: u32,
}

impl<'a> Lowerer<'a> {
    pub(crate) fn span(&self, span: swc_common::Span) -> ir::Span {
        self.locator.start(span)
    }

    /// An `UnsupportedSyntax` error; `what` completes "Unsupported syntax: ..", e.g. "class
    /// declarations are not supported".
    pub(crate) fn unsupported(&self, what: &str, span: swc_common::Span) -> LowerError {
        Box::new(SyntaxError {
            kind: SyntaxErrorKind::UnsupportedSyntax,
            message: format!("Unsupported syntax: {what}"),
            span: self.span(span),
        })
    }

    pub(crate) fn parse_error(&self, message: impl Into<String>, span: swc_common::Span) -> LowerError {
        Box::new(SyntaxError {
            kind: SyntaxErrorKind::ParseError,
            message: message.into(),
            span: self.span(span),
        })
    }

    /// Counts one level of recursion; past [`MAX_NESTING`] the lowering fails. Callers pair it
    /// with [`Lowerer::leave`] on success; on failure the whole lowering is abandoned, so the
    /// count no longer matters.
    pub(crate) fn enter(&mut self, span: swc_common::Span) -> LowerResult<()> {
        self.enter_weighted(span, 1)
    }

    /// [`Lowerer::enter`] for constructs whose lowering takes several times the stack of one
    /// expression level (a nested function goes through a handful of large frames): they count
    /// `weight` levels, so that `MAX_NESTING` levels of anything fit a 2 MiB stack.
    pub(crate) fn enter_weighted(&mut self, span: swc_common::Span, weight: usize) -> LowerResult<()> {
        self.depth += weight;
        if self.depth > MAX_NESTING {
            return Err(self.parse_error(crate::nesting_too_deep_message(), span));
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.leave_weighted(1);
    }

    pub(crate) fn leave_weighted(&mut self, weight: usize) {
        self.depth = self.depth.saturating_sub(weight);
    }

    pub(crate) fn chain(&mut self) -> Chain<'_> {
        Chain { outer: &mut self.outer, current: &mut self.func }
    }

    // ----- declarations -----

    /// Declares a lexical binding (`let`, `const`, function, catch parameter) in the innermost
    /// scope. Redeclaring a name in the same scope is the early error JavaScript reports at parse
    /// time, except for repeated function declarations at a function's top level, which rebind
    /// (in a block a function declaration is lexical: strict mode, which codemode follows).
    pub(crate) fn declare_lexical(&mut self, ident: &ast::Ident, kind: VarKind) -> LowerResult<ir::VarId> {
        if kind == VarKind::Param {
            self.check_binding(ident)?;
        } else {
            self.check_declared_name(ident)?;
        }
        let scope = self.func.scopes.len().saturating_sub(1);
        let name = ident.sym.as_str();
        if let Some(existing) = self.func.lookup_in(scope, name) {
            let existing_kind = self.func.kind_of(existing);
            let top_level = self.func.scopes.get(scope).is_some_and(|s| s.kind == ScopeKind::Function);
            let rebinds = kind == VarKind::Function
                && top_level
                && matches!(existing_kind, Some(VarKind::Function | VarKind::Var | VarKind::Param))
                || kind == VarKind::Param && existing_kind == Some(VarKind::Param);
            if rebinds {
                return Ok(existing);
            }
            return Err(self.redeclared(name, ident.span));
        }
        Ok(self.func.add_var(scope, name, kind, true))
    }

    /// Declares a hoisted `var` in the function scope (a no-op if the name is already a `var`,
    /// parameter or function there).
    fn declare_var(&mut self, ident: &ast::Ident) -> LowerResult<()> {
        self.check_declared_name(ident)?;
        let name = ident.sym.as_str();
        match self.func.lookup_in(0, name).and_then(|var| self.func.kind_of(var)) {
            None => {
                self.func.add_var(0, name, VarKind::Var, true);
                Ok(())
            }
            Some(VarKind::Let | VarKind::Const) => Err(self.redeclared(name, ident.span)),
            Some(_) => Ok(()),
        }
    }

    pub(crate) fn redeclared(&self, name: &str, span: swc_common::Span) -> LowerError {
        self.parse_error(format!("Identifier '{name}' has already been declared"), span)
    }

    /// Marks a `let`/`const` as initialized: later reads in this function need no TDZ check.
    pub(crate) fn mark_initialized(&mut self, var: &VarRef) {
        if let VarRef::Local(id) = var
            && let Some(meta) = self.func.meta_mut(*id)
            && meta.init == Init::Pending
        {
            self.clock += 1;
            meta.init = Init::Done { at: self.clock };
        }
    }

    /// Marks every binding of a declaration pattern initialized.
    pub(crate) fn mark_pattern_initialized(&mut self, pat: &Pat) {
        for ident in collect::binding_idents(pat) {
            if let Some(var) = self.func.lookup(ident.sym.as_str()) {
                self.mark_initialized(&VarRef::Local(var));
            }
        }
    }

    // ----- blocks -----

    /// Opens a block scope and declares the block's lexical declarations in it.
    pub(crate) fn open_scope<'s>(
        &mut self,
        kind: ScopeKind,
        stmts: impl IntoIterator<Item = &'s Stmt>,
    ) -> LowerResult<()> {
        self.func.scopes.push(scope::Scope::new(kind));
        for declared in collect::lexical_declarations(stmts) {
            self.declare_lexical(declared.ident, declared.kind)?;
        }
        Ok(())
    }

    /// Closes the innermost scope, returning its bindings (the IR block's `scope`).
    pub(crate) fn close_scope(&mut self) -> Vec<ir::VarId> {
        self.func.scopes.pop().map(|scope| scope.vars).unwrap_or_default()
    }

    /// Lowers the function declarations of a statement list into `Bind`s, which go first in the
    /// block: a function declaration is callable from anywhere in its block.
    pub(crate) fn hoist_functions(&mut self, stmts: &[Stmt], out: &mut Vec<ir::Stmt>) -> LowerResult<()> {
        for stmt in stmts {
            // Without a body it is a TypeScript overload signature: types only.
            if let Stmt::Decl(ast::Decl::Fn(decl)) = stmt
                && !decl.declare
                && decl.function.body.is_some()
            {
                out.push(self.function_declaration(decl)?);
            }
        }
        Ok(())
    }

    /// `function f() {}` as `Bind { f, Function }`.
    pub(crate) fn function_declaration(&mut self, decl: &ast::FnDecl) -> LowerResult<ir::Stmt> {
        let span = self.span(decl.function.span);
        let name = decl.ident.sym.to_string();
        let target = self.chain().resolve(&name, Access::Write).var;
        let id = self.lower_function(FunctionSource::from_function(Some(name), None, &decl.function))?;
        if let VarRef::Local(var) = target {
            self.func.declared_functions.push((id, var));
        }
        Ok(ir::Stmt {
            kind: StmtKind::Bind {
                pattern: Pattern::Var(target),
                init: ir::Expr { kind: ir::ExprKind::Function(id), span },
            },
            span,
        })
    }

    /// A `{ .. }` block statement: its own scope, hoisted functions first.
    pub(crate) fn lower_block(&mut self, stmts: &[Stmt], kind: ScopeKind) -> LowerResult<Block> {
        self.open_scope(kind, stmts)?;
        let using = self.begin_using(stmts, stmts_span(stmts));
        let mut body = Vec::new();
        self.hoist_functions(stmts, &mut body)?;
        self.lower_stmts(stmts, &mut body)?;
        let body = self.end_using(using, body);
        let scope = self.close_scope();
        Ok(Block { scope, body })
    }

    // ----- functions -----

    /// Lowers a nested function and returns its id. The function is lowered right where it
    /// appears, so the scopes open around it are exactly its lexical environment.
    pub(crate) fn lower_function(&mut self, source: FunctionSource<'_>) -> LowerResult<FuncId> {
        self.lower_function_with(source, |lowerer, source| {
            let (params, rest, mut body) = lowerer.lower_function_parts(source)?;
            // TypeScript parameter properties of a base class: assigned first (a derived
            // class assigns them when `super()` returns).
            if lowerer.func.class_kind == ir::ClassKind::Base && !lowerer.func.param_props.is_empty() {
                let span = lowerer.span(source.span);
                let mut assigns = lowerer.param_prop_assignments(span);
                assigns.append(&mut body);
                body = assigns;
            }
            Ok((params, rest, body))
        })
    }

    /// [`Lowerer::lower_function`] with the parameters and body made by `build`, inside the new
    /// function's scope (synthetic functions give their own).
    #[allow(clippy::type_complexity)]
    pub(crate) fn lower_function_with(
        &mut self,
        source: FunctionSource<'_>,
        build: impl FnOnce(
            &mut Self,
            &FunctionSource<'_>,
        ) -> LowerResult<(Vec<Pattern>, Option<Pattern>, Vec<ir::Stmt>)>,
    ) -> LowerResult<FuncId> {
        if source.has_param_decorators {
            return Err(self.unsupported("decorators are not supported", source.span));
        }
        self.enter_weighted(source.span, FUNCTION_WEIGHT)?;
        let id = FuncId(u32::try_from(self.functions.len()).unwrap_or(u32::MAX));
        let span = self.span(source.span);
        self.functions.push(placeholder_function(span));
        self.clock += 1;
        let mut state =
            FunctionState::new(source.is_arrow, !source.is_arrow, source.self_name.clone(), self.clock);
        let method = self.next_method.take();
        let derived = method.as_ref().is_some_and(|m| m.class_kind == ir::ClassKind::Derived);
        state.early =
            early_errors::FunctionRules::nested(&self.func.early, &source, method.is_some(), derived);
        if source.is_arrow {
            state.home = self.func.home;
        } else if let Some(method) = method {
            let class_kind = method.class_kind;
            state.home = method.home;
            state.class_kind = class_kind;
            state.param_props = method.param_props;
            if class_kind == ir::ClassKind::Derived {
                // `this` is bound by `super()`; arrows read it from this binding, which each
                // `super()` call sets.
                state.this_var = Some(state.add_var(0, "this", VarKind::Temp, false));
            }
        }
        let parent = std::mem::replace(&mut self.func, state);
        self.outer.push(parent);

        let result = self.check_params(&source).and_then(|()| build(self, &source));

        let Some(parent) = self.outer.pop() else {
            return Err(self.parse_error("internal error: function stack underflow", source.span));
        };
        let (params, rest, body) = result?;
        let mut function =
            self.finish_function(source.name, source.is_async, source.is_arrow, params, rest, body, span);
        function.is_generator = source.is_generator;
        self.func = parent;
        if let Some(slot) = self.functions.get_mut(id.0 as usize) {
            *slot = function;
        }
        self.leave_weighted(FUNCTION_WEIGHT);
        Ok(id)
    }

    #[allow(clippy::type_complexity)]
    fn lower_function_parts(
        &mut self,
        source: &FunctionSource<'_>,
    ) -> LowerResult<(Vec<Pattern>, Option<Pattern>, Vec<ir::Stmt>)> {
        // Parameters, then hoisted `var`s, then the body's lexical declarations, all in the
        // function scope, before any code is lowered.
        let mut rest_param = None;
        let mut simple_params = Vec::new();
        for (index, param) in source.params.iter().enumerate() {
            let pat = match param {
                Pat::Rest(rest) => {
                    if index + 1 != source.params.len() {
                        return Err(
                            self.parse_error("Rest parameter must be last formal parameter", rest.span)
                        );
                    }
                    rest_param = Some(&*rest.arg);
                    &*rest.arg
                }
                pat => {
                    simple_params.push(*pat);
                    pat
                }
            };
            for ident in collect::binding_idents(pat) {
                self.declare_lexical(ident, VarKind::Param)?;
            }
        }
        if let FunctionBodySource::Block(stmts) = source.body {
            self.declare_function_scope(stmts)?;
        }
        // A list with defaults, patterns or a rest parameter binds its parameters in order, each
        // in its TDZ until then: `(a = b, b) => ..` throws a ReferenceError when `a`'s default
        // runs (the compiler keeps such parameters out of their argument registers).
        let tdz_params = source.params.iter().any(|p| !matches!(p, Pat::Ident(_)));
        if tdz_params {
            for param in &source.params {
                for ident in collect::binding_idents(param) {
                    if let Some(var) = self.func.lookup(ident.sym.as_str())
                        && let Some(meta) = self.func.meta_mut(var)
                    {
                        meta.init = Init::Pending;
                    }
                }
            }
        }
        let mut params = Vec::with_capacity(simple_params.len());
        self.func.early.in_params = true;
        for pat in simple_params {
            params.push(self.lower_binding_pattern(pat)?);
            self.mark_pattern_initialized(pat);
        }
        let rest = match rest_param {
            Some(pat) => {
                let lowered = self.lower_binding_pattern(pat)?;
                self.mark_pattern_initialized(pat);
                Some(lowered)
            }
            None => None,
        };
        self.func.early.in_params = false;
        let body = match source.body {
            FunctionBodySource::Block(stmts) => self.lower_function_body(stmts, false)?,
            FunctionBodySource::Expr(expr) => {
                let value = self.lower_expr(expr)?;
                vec![ir::Stmt { span: value.span, kind: StmtKind::Return(Some(value)) }]
            }
        };
        Ok((params, rest, body))
    }

    /// The statements of a function body (declarations already entered for nested functions;
    /// for the top-level script, entered here). `is_script` applies the REPL rule: a final
    /// expression statement is the program's result.
    fn lower_function_body(&mut self, stmts: &[Stmt], is_script: bool) -> LowerResult<Vec<ir::Stmt>> {
        if is_script {
            self.declare_function_scope(stmts)?;
        }
        let using = self.begin_using(stmts, stmts_span(stmts));
        let mut body = Vec::new();
        self.hoist_functions(stmts, &mut body)?;
        let result_index = if is_script { repl_result_index(stmts) } else { None };
        for (index, stmt) in stmts.iter().enumerate() {
            match (result_index == Some(index), stmt) {
                (true, Stmt::Expr(expr_stmt)) => {
                    let value = self.lower_expr(&expr_stmt.expr)?;
                    body.push(ir::Stmt {
                        span: self.span(expr_stmt.span),
                        kind: StmtKind::Return(Some(value)),
                    });
                }
                _ => self.lower_stmt_into(stmt, &mut body)?,
            }
        }
        Ok(self.end_using(using, body))
    }

    /// Declares a function body's top-level lexical declarations, then its hoisted `var`s, in the
    /// function scope. (Lexical ones first, so that a `var` clashing with a `let` is the one
    /// reported, as JavaScript engines do for the usual `let x; { var x; }`.)
    fn declare_function_scope(&mut self, stmts: &[Stmt]) -> LowerResult<()> {
        for declared in collect::lexical_declarations(stmts) {
            self.declare_lexical(declared.ident, declared.kind)?;
        }
        for declared in collect::hoisted_vars(stmts) {
            self.declare_var(declared.ident)?;
        }
        Ok(())
    }

    /// Assembles the finished current function: its prologue (synthetic bindings) and scope.
    #[allow(clippy::too_many_arguments)]
    fn finish_function(
        &mut self,
        name: Option<String>,
        is_async: bool,
        is_arrow: bool,
        params: Vec<Pattern>,
        rest: Option<Pattern>,
        body: Vec<ir::Stmt>,
        span: ir::Span,
    ) -> ir::Function {
        let state = &mut self.func;
        let mut prologue = Vec::new();
        // `this` for arrows inside, and a function expression's own name, are bound on entry.
        if let Some(var) = state.this_var
            && state.class_kind != ir::ClassKind::Derived
        {
            prologue.push(bind(VarRef::Local(var), ir::ExprKind::This, span));
        }
        if let Some(var) = state.self_var {
            prologue.push(bind(VarRef::Local(var), ir::ExprKind::CurrentFunction, span));
        }
        prologue.extend(body);
        // Every write of this function's bindings has been lowered by now (they are all inside
        // it): a declared function whose binding only its declaration writes reads itself as
        // its callee.
        for (child, var) in std::mem::take(&mut state.declared_functions) {
            let written_once = state.meta.get(var.0 as usize).is_some_and(|meta| meta.writes == 1);
            if written_once && let Some(function) = self.functions.get_mut(child.0 as usize) {
                function.self_capture = function
                    .captures
                    .iter()
                    .position(|capture| *capture == ir::Capture::ParentLocal(var))
                    .and_then(|index| u32::try_from(index).ok());
            }
        }
        let scope = state.scopes.first_mut().map(|scope| std::mem::take(&mut scope.vars)).unwrap_or_default();
        ir::Function {
            name,
            is_async,
            is_generator: false,
            is_arrow,
            params,
            rest,
            vars: std::mem::take(&mut state.vars),
            captures: std::mem::take(&mut state.captures),
            body: Block { scope, body: prologue },
            uses_this: state.uses_this && !is_arrow,
            arguments_var: state.arguments_var,
            span,
            class_kind: state.class_kind,
            self_capture: None,
        }
    }
}

/// Where a statement list starts (a `using` scope's span).
fn stmts_span(stmts: &[Stmt]) -> swc_common::Span {
    stmts.first().map(Spanned::span).unwrap_or_default()
}

fn bind(var: VarRef, init: ir::ExprKind, span: ir::Span) -> ir::Stmt {
    ir::Stmt {
        kind: StmtKind::Bind { pattern: Pattern::Var(var), init: ir::Expr { kind: init, span } },
        span,
    }
}

/// The index of the statement whose value is the script's result under the REPL rule: the last
/// statement that runs code, if it is an expression statement. What may follow it without
/// changing the completion value or running anything: empty statements, `debugger`, function
/// declarations (hoisted), TypeScript-only declarations, and `var x;` without initializer.
/// (`let`/`const` declarations after it run their initializers, so they end the search.)
pub(crate) fn repl_result_index(stmts: &[Stmt]) -> Option<usize> {
    let index = stmts.iter().rposition(|stmt| !runs_nothing(stmt))?;
    matches!(stmts.get(index), Some(Stmt::Expr(_))).then_some(index)
}

/// Whether a top-level statement runs no code where it stands (see [`repl_result_index`]).
pub(crate) fn runs_nothing(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Empty(_) | Stmt::Debugger(_) => true,
        Stmt::Decl(decl) => match decl {
            ast::Decl::Fn(_) | ast::Decl::TsInterface(_) | ast::Decl::TsTypeAlias(_) => true,
            ast::Decl::TsModule(module) => module.declare,
            ast::Decl::TsEnum(ts_enum) => ts_enum.declare,
            ast::Decl::Class(class) => class.declare,
            ast::Decl::Var(var) => {
                var.declare || var.kind == ast::VarDeclKind::Var && var.decls.iter().all(|d| d.init.is_none())
            }
            ast::Decl::Using(_) => false,
        },
        _ => false,
    }
}

impl<'a> FunctionSource<'a> {
    pub(crate) fn from_function(
        name: Option<String>,
        self_name: Option<String>,
        function: &'a ast::Function,
    ) -> Self {
        FunctionSource {
            name,
            self_name,
            is_arrow: false,
            is_async: function.is_async,
            is_generator: function.is_generator,
            params: function.params.iter().map(|param| &param.pat).collect(),
            is_method: false,
            has_param_decorators: function.params.iter().any(|param| !param.decorators.is_empty()),
            body: FunctionBodySource::Block(function.body.as_ref().map_or(&[], |body| body.stmts.as_slice())),
            span: function.span,
        }
    }
}
