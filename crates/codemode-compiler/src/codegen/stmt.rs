//! Statements: blocks, control flow, loops, `switch`, labels, `break`/`continue`/`return`,
//! `throw` and `try`/`catch`/`finally`.

use codemode_ir::{self as ir, Block, Stmt, StmtKind, VarId};

use super::{CompileError, FnCompiler, JumpScope, TryScope};
use crate::bytecode::{BinOp, Handler, Op, Reg};

impl<'a> FnCompiler<'a> {
    pub(super) fn stmt(&mut self, stmt: &'a Stmt) -> Result<(), CompileError> {
        self.enter()?;
        self.mark(stmt.span);
        let mark = self.temp_mark();
        let result = self.stmt_inner(stmt, None);
        self.free_to(mark);
        self.leave();
        result
    }

    fn block(&mut self, block: &'a Block) -> Result<(), CompileError> {
        self.enter_scope(&block.scope)?;
        for s in &block.body {
            self.stmt(s)?;
        }
        Ok(())
    }

    /// `label` is the label of an enclosing `Labeled` statement that names this one.
    fn stmt_inner(&mut self, stmt: &'a Stmt, label: Option<&str>) -> Result<(), CompileError> {
        match &stmt.kind {
            StmtKind::Expr(e) => self.expr_discard(e),
            StmtKind::Bind { pattern, init } => {
                let mark = self.temp_mark();
                // Simple bindings evaluate straight into their register when the initializer
                // cannot observe the binding.
                if let ir::Pattern::Var(ir::VarRef::Local(id)) = pattern
                    && !self.is_captured(*id)
                    && !mentions_var(init, *id, 0)
                {
                    let reg = self.var_reg(*id);
                    self.expr(init, reg)?;
                    return Ok(());
                }
                let r = self.alloc_reg()?;
                self.expr(init, r)?;
                self.bind_pattern(pattern, r, true)?;
                self.free_to(mark);
                Ok(())
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::If { test, then, otherwise } => {
                let mark = self.temp_mark();
                let to_else = self.jump_unless(test)?;
                self.free_to(mark);
                self.stmt(then)?;
                match otherwise {
                    Some(other) => {
                        let to_end = self.emit(Op::Jump { target: 0 })?;
                        self.patch_here(to_else);
                        self.stmt(other)?;
                        self.patch_here(to_end);
                    }
                    None => self.patch_here(to_else),
                }
                Ok(())
            }
            StmtKind::While { test, body, do_while, label: own } => {
                let label = own.as_deref().or(label);
                self.push_loop(label);
                if *do_while {
                    let top = self.pc();
                    self.stmt(body)?;
                    let cont = self.pc();
                    let mark = self.temp_mark();
                    let t = self.expr_any(test)?;
                    self.emit(Op::JumpIfTrue { src: t, target: top })?;
                    self.free_to(mark);
                    self.pop_loop(cont);
                } else {
                    let top = self.pc();
                    let mark = self.temp_mark();
                    let exit = self.jump_unless(test)?;
                    self.free_to(mark);
                    self.stmt(body)?;
                    self.emit(Op::Jump { target: top })?;
                    self.patch_here(exit);
                    self.pop_loop(top);
                }
                Ok(())
            }
            StmtKind::For { init, test, update, body, scope, per_iteration, label: own } => {
                let label = own.as_deref().or(label);
                self.enter_scope(scope)?;
                if let Some(init) = init {
                    self.stmt(init)?;
                }
                self.push_loop(label);
                let top = self.pc();
                let mut exit = None;
                if let Some(test) = test {
                    let mark = self.temp_mark();
                    exit = Some(self.jump_unless(test)?);
                    self.free_to(mark);
                }
                self.stmt(body)?;
                let cont = self.pc();
                self.copy_per_iteration(per_iteration)?;
                if let Some(update) = update {
                    let mark = self.temp_mark();
                    self.expr_discard(update)?;
                    self.free_to(mark);
                }
                self.emit(Op::Jump { target: top })?;
                if let Some(exit) = exit {
                    self.patch_here(exit);
                }
                self.pop_loop(cont);
                Ok(())
            }
            StmtKind::ForOf { pattern, declare, iterable, body, scope, label: own, .. }
            | StmtKind::ForIn { pattern, declare, object: iterable, body, scope, label: own } => {
                let label = own.as_deref().or(label);
                let is_of = matches!(stmt.kind, StmtKind::ForOf { .. });
                let is_await = matches!(stmt.kind, StmtKind::ForOf { is_await: true, .. });
                let iter = self.alloc_reg()?;
                let value = self.alloc_reg()?;
                // The head's bindings are in TDZ while the iterable is evaluated.
                self.enter_scope(scope)?;
                let src = self.expr_any(iterable)?;
                if is_await {
                    self.emit(Op::GetAsyncIterator { dst: iter, src })?;
                } else if is_of {
                    self.emit(Op::GetIterator { dst: iter, src })?;
                } else {
                    self.emit(Op::ForInKeys { dst: iter, src })?;
                }
                // A for-of's iterator is closed when the loop is left early: `break` lands on
                // an `IterClose`; `return` and jumps to outer statements meet it in `try_stack`;
                // a throw out of the loop goes through a handler that closes it and rethrows.
                if is_of {
                    let pc = self.pc();
                    let close_iter = Some(iter);
                    self.try_stack.push(TryScope {
                        segments: Vec::new(),
                        open: Some(pc),
                        finally: None,
                        close_iter,
                    });
                }
                self.push_loop(label);
                let top = self.pc();
                let next = if is_await {
                    self.for_await_step(iter, value)?
                } else {
                    self.emit(Op::IterNext { dst: value, iter, target: 0 })?
                };
                self.enter_scope(scope)?;
                self.bind_pattern(pattern, value, *declare)?;
                self.stmt(body)?;
                self.emit(Op::Jump { target: top })?;
                let has_breaks = self.jump_scopes.last().is_some_and(|s| !s.breaks.is_empty());
                let segments = if is_of { self.close_try() } else { Vec::new() };
                self.pop_loop(top);
                if is_of {
                    if has_breaks {
                        self.emit(Op::IterClose { iter })?;
                    }
                    let done = self.emit(Op::Jump { target: 0 })?;
                    let handler = self.pc();
                    self.add_handlers(&segments, handler, value);
                    self.emit(Op::IterClose { iter })?;
                    self.emit(Op::Throw { src: value })?;
                    self.patch_here(done);
                }
                self.patch_here(next);
                Ok(())
            }
            StmtKind::Switch { discriminant, cases, scope, label: own } => {
                let label = own.as_deref().or(label);
                let d = self.alloc_reg()?;
                self.expr(discriminant, d)?;
                self.enter_scope(scope)?;
                let t = self.alloc_reg()?;
                let mut to_case = Vec::with_capacity(cases.len());
                for case in cases {
                    match &case.test {
                        Some(test) => {
                            self.expr(test, t)?;
                            self.emit(Op::Binary { op: BinOp::StrictEq, dst: t, a: d, b: t })?;
                            to_case.push(Some(self.emit(Op::JumpIfTrue { src: t, target: 0 })?));
                        }
                        None => to_case.push(None),
                    }
                }
                let to_default = self.emit(Op::Jump { target: 0 })?;
                self.jump_scopes.push(JumpScope {
                    label: label.map(str::to_string),
                    is_loop: false,
                    breakable_unlabelled: true,
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    try_depth: self.try_stack.len(),
                });
                let mut default_target = None;
                for (case, jump) in cases.iter().zip(to_case) {
                    match jump {
                        Some(j) => self.patch_here(j),
                        None => default_target = Some(self.pc()),
                    }
                    for s in &case.body {
                        self.stmt(s)?;
                    }
                }
                let end = self.pc();
                self.patch(to_default, default_target.unwrap_or(end));
                self.pop_jump_scope(end, end);
                Ok(())
            }
            StmtKind::Labeled { label: name, body } => {
                if is_labelable_loop(&body.kind) {
                    // The loop itself takes the label, so `continue name` works.
                    self.mark(body.span);
                    return self.stmt_inner(body, Some(name));
                }
                self.jump_scopes.push(JumpScope {
                    label: Some(name.clone()),
                    is_loop: false,
                    breakable_unlabelled: false,
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    try_depth: self.try_stack.len(),
                });
                self.stmt(body)?;
                let end = self.pc();
                self.pop_jump_scope(end, end);
                Ok(())
            }
            StmtKind::Break(label) => self.jump_out(label.as_deref(), false),
            StmtKind::Continue(label) => self.jump_out(label.as_deref(), true),
            StmtKind::Return(value) => {
                let r = self.alloc_reg()?;
                match value {
                    Some(e) => self.expr(e, r)?,
                    None => {
                        self.emit(Op::LoadUndef { dst: r })?;
                    }
                }
                if self.func.is_async && self.func.is_generator {
                    // An async generator's `return v` gives the settled value of `v`.
                    self.emit(Op::Await { dst: r, src: r })?;
                }
                self.return_reg(r)
            }
            StmtKind::Throw(e) => {
                let r = self.expr_any(e)?;
                self.mark(stmt.span);
                self.emit(Op::Throw { src: r })?;
                Ok(())
            }
            StmtKind::Try { block, catch, finally } => self.try_stmt(block, catch.as_ref(), finally.as_ref()),
            StmtKind::Empty => Ok(()),
        }
    }

    /// Gives every captured per-iteration binding a fresh cell holding its current value.
    fn copy_per_iteration(&mut self, vars: &[VarId]) -> Result<(), CompileError> {
        for &id in vars {
            if !self.is_captured(id) {
                continue;
            }
            let reg = self.var_reg(id);
            let t = self.alloc_reg()?;
            self.emit(Op::LoadCell { dst: t, cell: reg })?;
            self.emit(Op::NewCell { dst: reg })?;
            self.emit(Op::StoreCell { cell: reg, src: t })?;
            self.free_to(t as usize);
        }
        Ok(())
    }

    fn push_loop(&mut self, label: Option<&str>) {
        self.jump_scopes.push(JumpScope {
            label: label.map(str::to_string),
            is_loop: true,
            breakable_unlabelled: true,
            breaks: Vec::new(),
            continues: Vec::new(),
            try_depth: self.try_stack.len(),
        });
    }

    fn pop_loop(&mut self, continue_target: u32) {
        let end = self.pc();
        self.pop_jump_scope(end, continue_target);
    }

    fn pop_jump_scope(&mut self, break_target: u32, continue_target: u32) {
        if let Some(scope) = self.jump_scopes.pop() {
            for j in scope.breaks {
                self.patch(j, break_target);
            }
            for j in scope.continues {
                self.patch(j, continue_target);
            }
        }
    }

    /// `break`/`continue`: runs the `finally` blocks being left, then jumps.
    fn jump_out(&mut self, label: Option<&str>, is_continue: bool) -> Result<(), CompileError> {
        let index = self.jump_scopes.iter().rposition(|s| match label {
            Some(l) => s.label.as_deref() == Some(l) && (!is_continue || s.is_loop),
            None => {
                if is_continue {
                    s.is_loop
                } else {
                    s.breakable_unlabelled
                }
            }
        });
        let Some(index) = index else {
            // The parser rejects these; keep the compiler total anyway.
            return Err(self.error("break or continue outside of a loop"));
        };
        let try_depth = self.jump_scopes[index].try_depth;
        self.run_finally_blocks(try_depth)?;
        let j = self.emit(Op::Jump { target: 0 })?;
        let scope = &mut self.jump_scopes[index];
        if is_continue {
            scope.continues.push(j);
        } else {
            scope.breaks.push(j);
        }
        Ok(())
    }

    /// Emits inline copies of the `finally` blocks of `try_stack[depth..]`, innermost first,
    /// each outside the protected ranges it leaves.
    pub(super) fn run_finally_blocks(&mut self, depth: usize) -> Result<(), CompileError> {
        let n = self.try_stack.len();
        if depth >= n {
            return Ok(());
        }
        let pc = self.pc();
        for t in &mut self.try_stack[depth..] {
            if let Some(start) = t.open.take() {
                t.segments.push((start, pc));
            }
        }
        for i in (depth..n).rev() {
            if let Some(iter) = self.try_stack[i].close_iter {
                self.emit(Op::IterClose { iter })?;
                continue;
            }
            let Some(finally) = self.try_stack[i].finally else { continue };
            // While the copy runs, the tries from `i` inward are gone, and so are the jump
            // scopes inside them.
            let saved_tries: Vec<TryScope<'a>> = self.try_stack.drain(i..).collect();
            let keep =
                self.jump_scopes.iter().position(|s| s.try_depth > i).unwrap_or(self.jump_scopes.len());
            let saved_scopes: Vec<JumpScope> = self.jump_scopes.drain(keep..).collect();
            let result = self.block(finally);
            self.jump_scopes.extend(saved_scopes);
            self.try_stack.extend(saved_tries);
            result?;
        }
        let pc = self.pc();
        for t in &mut self.try_stack[depth..] {
            t.open = Some(pc);
        }
        Ok(())
    }

    fn open_try(&mut self, finally: Option<&'a Block>) {
        let pc = self.pc();
        self.try_stack.push(TryScope { segments: Vec::new(), open: Some(pc), finally, close_iter: None });
    }

    /// Closes the innermost try's range and returns its segments.
    fn close_try(&mut self) -> Vec<(u32, u32)> {
        let pc = self.pc();
        match self.try_stack.pop() {
            Some(mut t) => {
                if let Some(start) = t.open.take() {
                    t.segments.push((start, pc));
                }
                t.segments.retain(|(s, e)| s < e);
                t.segments
            }
            None => Vec::new(),
        }
    }

    fn add_handlers(&mut self, segments: &[(u32, u32)], target: u32, exception: Reg) {
        for &(start, end) in segments {
            self.handlers.push(Handler { start, end, target, exception });
        }
    }

    fn try_stmt(
        &mut self,
        block: &'a Block,
        catch: Option<&'a ir::CatchClause>,
        finally: Option<&'a Block>,
    ) -> Result<(), CompileError> {
        let exception = self.alloc_reg()?;
        let mut to_end = Vec::new();
        if finally.is_some() {
            self.open_try(finally);
        }
        if let Some(clause) = catch {
            self.open_try(None);
            self.block(block)?;
            let segments = self.close_try();
            // Normal completion skips the catch.
            to_end.push(self.emit(Op::Jump { target: 0 })?);
            let handler = self.pc();
            // Catch-only handlers are inner to the finally handler: added first.
            self.add_handlers(&segments, handler, exception);
            self.enter_scope(&clause.body.scope)?;
            if let Some(param) = &clause.param {
                self.bind_pattern(param, exception, true)?;
            }
            for s in &clause.body.body {
                self.stmt(s)?;
            }
        } else {
            self.block(block)?;
        }
        if let Some(finally_block) = finally {
            let segments = self.close_try();
            // Normal completion (of the block or the catch): run finally, go on.
            let skip_catch_end: Vec<usize> = std::mem::take(&mut to_end);
            let normal_from_block = skip_catch_end;
            let after_catch = self.pc();
            self.block(finally_block)?;
            to_end.push(self.emit(Op::Jump { target: 0 })?);
            for j in normal_from_block {
                self.patch(j, after_catch);
            }
            // Exceptional completion: run finally, rethrow.
            let handler = self.pc();
            let saved = self.alloc_reg()?;
            self.emit(Op::Move { dst: saved, src: exception })?;
            self.block(finally_block)?;
            self.emit(Op::Throw { src: saved })?;
            self.add_handlers(&segments, handler, exception);
        }
        for j in to_end {
            self.patch_here(j);
        }
        Ok(())
    }
}

fn is_labelable_loop(kind: &StmtKind) -> bool {
    matches!(
        kind,
        StmtKind::While { .. } | StmtKind::For { .. } | StmtKind::ForOf { .. } | StmtKind::ForIn { .. }
    )
}

/// Whether `e` reads or writes the local `id` (conservatively true when deep).
pub(super) fn mentions_var(e: &ir::Expr, id: VarId, depth: usize) -> bool {
    use ir::ExprKind as K;
    if depth > 64 {
        return true;
    }
    let m = |x: &ir::Expr| mentions_var(x, id, depth + 1);
    match &e.kind {
        K::Undefined | K::Null | K::Bool(_) | K::Number(_) | K::String(_) | K::Regex { .. } | K::This => {
            false
        }
        K::Function(_) | K::TypeofGlobal(_) | K::ThrowConstAssign { .. } | K::CurrentFunction => false,
        K::Var { var, .. } => matches!(var, ir::VarRef::Local(v) if *v == id),
        K::Template { exprs, .. } | K::Sequence(exprs) => exprs.iter().any(m),
        K::Unary { arg, .. } | K::Await(arg) | K::OptionalChain(arg) => m(arg),
        K::Yield { arg, .. } => arg.as_deref().is_some_and(m),
        K::Binary { left, right, .. } | K::Logical { left, right, .. } => m(left) || m(right),
        K::Conditional { test, then, otherwise } => m(test) || m(then) || m(otherwise),
        K::Member { object, property, .. } | K::Delete { object, property } => {
            m(object) || matches!(&**property, ir::Property::Computed(p) if m(p))
        }
        K::Call { callee, args, .. } | K::New { callee, args } => {
            m(callee)
                || args.iter().any(|a| match a {
                    ir::ArrayElem::Item(x) | ir::ArrayElem::Spread(x) => m(x),
                    ir::ArrayElem::Hole => false,
                })
        }
        K::Array(items) => items.iter().any(|a| match a {
            ir::ArrayElem::Item(x) | ir::ArrayElem::Spread(x) => m(x),
            ir::ArrayElem::Hole => false,
        }),
        // Anything else (objects, assignments, updates): assume it may.
        _ => true,
    }
}
