//! Bindings: reading and writing variables, and binding patterns (declarations, parameters,
//! destructuring assignment, for-of heads, catch parameters).

use codemode_ir::{self as ir, Pattern, PropKey, VarRef};

use super::{CompileError, FnCompiler};
use crate::bytecode::{ErrorKind, Op, Reg};

impl<'a> FnCompiler<'a> {
    /// Whether `e` reads the running closure itself: a declared function's own name when only its
    /// declaration writes it (`self_capture`, see `load_var`), or a named function expression's.
    pub(super) fn is_self_reference(&self, e: &ir::Expr) -> bool {
        match &e.kind {
            ir::ExprKind::CurrentFunction => true,
            ir::ExprKind::Var { var: VarRef::Capture(i), check_tdz: false } => {
                self.func.self_capture == Some(*i)
            }
            _ => false,
        }
    }

    /// Loads variable `var` into `dst`, with a TDZ check when asked.
    pub(super) fn load_var(&mut self, var: &VarRef, check_tdz: bool, dst: Reg) -> Result<(), CompileError> {
        match var {
            VarRef::Local(id) => {
                let reg = self.var_reg(*id);
                if self.is_captured(*id) {
                    self.emit(Op::LoadCell { dst, cell: reg })?;
                } else if reg != dst {
                    self.emit(Op::Move { dst, src: reg })?;
                }
            }
            VarRef::Capture(i) if self.func.self_capture == Some(*i) => {
                self.emit(Op::LoadCallee { dst })?;
            }
            VarRef::Capture(i) => {
                let capture = u16::try_from(*i).map_err(|_| self.error("too many captures"))?;
                self.emit(Op::LoadCapture { dst, capture })?;
            }
            VarRef::Global(name) => {
                let k = self.string_const(name);
                self.emit(Op::GetGlobal { dst, k })?;
                return Ok(());
            }
        }
        if check_tdz {
            let name = self.var_name(var);
            let k = self.string_const(&name);
            self.emit(Op::CheckTdz { src: dst, k })?;
        }
        Ok(())
    }

    fn var_name(&self, var: &VarRef) -> String {
        match var {
            VarRef::Local(id) => self.var_info(*id).map_or_else(String::new, |v| v.name.clone()),
            VarRef::Capture(i) => self.capture_names.get(*i as usize).cloned().unwrap_or_default(),
            VarRef::Global(name) => name.clone(),
        }
    }

    /// Stores `src` into variable `var`. `declare` initializes (allowed for `const`).
    pub(super) fn store_var(&mut self, var: &VarRef, src: Reg, declare: bool) -> Result<(), CompileError> {
        let _ = declare;
        match var {
            VarRef::Local(id) => {
                let reg = self.var_reg(*id);
                if self.is_captured(*id) {
                    self.emit(Op::StoreCell { cell: reg, src })?;
                } else if reg != src {
                    self.emit(Op::Move { dst: reg, src })?;
                }
            }
            VarRef::Capture(i) => {
                let capture = u16::try_from(*i).map_err(|_| self.error("too many captures"))?;
                self.emit(Op::StoreCapture { capture, src })?;
            }
            VarRef::Global(name) => {
                // Strict-mode semantics: assigning an undeclared name is a ReferenceError.
                let msg = format!("{name} is not defined");
                let k = self.string_const(&msg);
                self.emit(Op::ThrowError { kind: ErrorKind::ReferenceError, k })?;
            }
        }
        Ok(())
    }

    /// Binds `pattern` to the value in `src`.
    pub(super) fn bind_pattern(
        &mut self,
        pattern: &'a Pattern,
        src: Reg,
        declare: bool,
    ) -> Result<(), CompileError> {
        self.enter()?;
        let mark = self.temp_mark();
        let result = self.bind_pattern_inner(pattern, src, declare);
        self.free_to(mark);
        self.leave();
        result
    }

    fn bind_pattern_inner(
        &mut self,
        pattern: &'a Pattern,
        src: Reg,
        declare: bool,
    ) -> Result<(), CompileError> {
        match pattern {
            Pattern::Var(var) => self.store_var(var, src, declare),
            Pattern::Member { object, property } => {
                let obj = self.expr_any(object)?;
                match &**property {
                    ir::Property::Named(name) => {
                        let k = self.string_const(name);
                        self.emit(Op::SetNamed { obj, k, src })?;
                    }
                    ir::Property::Computed(key) => {
                        let key = self.expr_any(key)?;
                        self.emit(Op::SetIndex { obj, key, src })?;
                    }
                    ir::Property::Private(name) => {
                        let key = self.alloc_reg()?;
                        let k = self.string_const(name);
                        self.emit(Op::LoadConst { dst: key, k })?;
                        self.emit(Op::SetPrivate { obj, key, src })?;
                    }
                }
                Ok(())
            }
            Pattern::Default { target, default } => {
                let t = self.alloc_reg()?;
                self.emit(Op::Move { dst: t, src })?;
                let skip = self.emit(Op::JumpIfNotUndefined { src: t, target: 0 })?;
                self.expr(default, t)?;
                self.patch_here(skip);
                self.bind_pattern(target, t, declare)
            }
            Pattern::Object { props, rest } => {
                // Destructuring null/undefined is a TypeError: reading any property throws it,
                // and an empty pattern checks explicitly.
                if props.is_empty() && rest.is_none() {
                    let t = self.alloc_reg()?;
                    let k = self.string_const("constructor");
                    self.emit(Op::GetNamed { dst: t, obj: src, k })?;
                    return Ok(());
                }
                let mut keys = Vec::new();
                for prop in props {
                    let value = self.alloc_reg()?;
                    match &prop.key {
                        PropKey::Named(name) => {
                            let k = self.string_const(name);
                            self.emit(Op::GetNamed { dst: value, obj: src, k })?;
                            if rest.is_some() {
                                keys.push(KeyOf::Named(k));
                            }
                        }
                        PropKey::Computed(e) => {
                            let key = self.alloc_reg()?;
                            self.expr(e, key)?;
                            self.emit(Op::ToPropertyKey { dst: key, src: key })?;
                            self.emit(Op::GetIndex { dst: value, obj: src, key })?;
                            if rest.is_some() {
                                keys.push(KeyOf::Reg(key));
                            }
                        }
                    }
                    self.bind_pattern(&prop.value, value, declare)?;
                }
                if let Some(rest) = rest {
                    // The excluded keys in consecutive registers.
                    let count = u16::try_from(keys.len()).map_err(|_| self.error("pattern too large"))?;
                    let first = self.next_reg as Reg;
                    for key in &keys {
                        let r = self.alloc_reg()?;
                        match *key {
                            KeyOf::Named(k) => self.emit(Op::LoadConst { dst: r, k })?,
                            KeyOf::Reg(src_key) => self.emit(Op::Move { dst: r, src: src_key })?,
                        };
                    }
                    let out = self.alloc_reg()?;
                    self.emit(Op::ObjectRest { dst: out, src, excluded: first, count })?;
                    self.bind_pattern(rest, out, declare)?;
                }
                Ok(())
            }
            Pattern::Array { elems, rest } => {
                let iter = self.alloc_reg()?;
                self.emit(Op::GetIterator { dst: iter, src })?;
                let value = self.alloc_reg()?;
                for elem in elems {
                    self.emit(Op::LoadUndef { dst: value })?;
                    let next = self.pc() + 1;
                    self.emit(Op::IterNext { dst: value, iter, target: next })?;
                    if let Some(p) = elem {
                        self.bind_pattern(p, value, declare)?;
                    }
                }
                match rest {
                    Some(rest) => {
                        self.emit(Op::IterRest { dst: value, iter })?;
                        self.bind_pattern(rest, value, declare)?;
                    }
                    // A generator not run to its end is closed (its `finally` blocks run).
                    None => {
                        self.emit(Op::IterClose { iter })?;
                    }
                }
                Ok(())
            }
        }
    }
}

enum KeyOf {
    Named(u32),
    Reg(Reg),
}
