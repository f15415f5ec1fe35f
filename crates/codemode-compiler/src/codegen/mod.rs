//! IR → bytecode, one function at a time.
//!
//! **Registers.** A function's window is: its parameters (`0..param_count`, as the caller passed
//! them), then one register per binding the function declares (a captured binding's register
//! holds its cell), then temporaries, allocated and freed like a stack while expressions compile.
//!
//! **Closures.** The IR gives each function its captures relative to the enclosing function. The
//! enclosing function knows which register holds each captured cell, so it fills in the child's
//! [`CaptureSource`] list when it compiles the child's `Function` expression.
//!
//! **try/finally.** A `finally` block is compiled inline at every exit of its `try` (normal end,
//! after `catch`, `break`/`continue`/`return` through it, and the exception path). While an inline
//! copy is emitted, the protected ranges of the `try`s being left are suspended, so an exception
//! in the copy goes to the right handler.
//!
//! Submodules: `expr` (expressions), `stmt` (statements, loops, try), `pattern` (bindings and
//! destructuring).

mod expr;
mod generator;
mod pattern;
mod peephole;
mod stmt;
mod template;

use codemode_ir::FastMap;

use codemode_ir::Span;
use codemode_ir::{self as ir, FuncId, Program, VarId, VarKind};

use crate::bytecode::{
    CaptureSource, Constant, FunctionCode, Handler, Module, Op, Reg, Target, VerifiedModule,
};

/// A compile-time failure: the program is too large for the bytecode's limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub message: String,
    pub span: Span,
}

/// Registers per function (operands are 16-bit).
const MAX_REGISTERS: usize = 60_000;
/// Instructions per module (all functions together). Models write programs of a few hundred
/// lines; this bound keeps compilation (which runs before the VM's fuel and memory limits apply)
/// to milliseconds and megabytes whatever the source does, e.g. nested `try`/`finally` blocks,
/// whose inline copies grow exponentially with nesting.
pub const MAX_MODULE_CODE: usize = 1_000_000;
/// Nesting the compiler recurses through (the IR is already bounded by the parser's guard).
const MAX_DEPTH: usize = 2_000;

/// Compiles a lowered program.
pub fn compile(program: &Program) -> Result<VerifiedModule, CompileError> {
    codemode_ir::stack::with_stack_for(program.nesting.max(1) * 2, || compile_program(program))
}

fn compile_program(program: &Program) -> Result<VerifiedModule, CompileError> {
    let n = program.functions.len();
    let mut functions = Vec::with_capacity(n);
    let mut capture_sources: Vec<Option<Vec<CaptureSource>>> = vec![None; n];
    // Names of each function's captures, known once its parent has been compiled (parents come
    // first in the IR); used for TDZ messages.
    let mut capture_names: Vec<Vec<String>> = vec![Vec::new(); n];
    let mut code_used = 0usize;
    for (i, func) in program.functions.iter().enumerate() {
        let names = std::mem::take(&mut capture_names[i]);
        let mut c = FnCompiler::new(program, func, names)?;
        c.code_budget = MAX_MODULE_CODE.saturating_sub(code_used);
        c.compile_body()?;
        code_used += c.code.len();
        for (child, (sources, names)) in c.child_captures.drain() {
            if let Some(slot) = capture_sources.get_mut(child as usize) {
                *slot = Some(sources);
            }
            if let Some(slot) = capture_names.get_mut(child as usize) {
                *slot = names;
            }
        }
        functions.push(c.finish());
    }
    for (f, sources) in functions.iter_mut().zip(capture_sources) {
        f.captures = sources.unwrap_or_default();
    }
    // A function whose closure was never created keeps an empty capture list; pad it so the
    // verifier and the VM see as many captures as the function uses.
    for (f, ir) in functions.iter_mut().zip(&program.functions) {
        while f.captures.len() < ir.captures.len() {
            f.captures.push(CaptureSource::Capture(0));
        }
    }
    VerifiedModule::new(Module { functions })
        .map_err(|message| CompileError { message, span: Span::default() })
}

/// A loop, switch or labelled statement that `break`/`continue` can target.
struct JumpScope {
    label: Option<String>,
    /// Labels of enclosing labelled statements that name this loop too (`a: b: for ..`).
    is_loop: bool,
    /// Whether unlabelled `break` targets it (loops and switch).
    breakable_unlabelled: bool,
    breaks: Vec<usize>,
    continues: Vec<usize>,
    /// `try_stack.len()` when the scope was entered.
    try_depth: usize,
}

/// A `try` whose protected range is being emitted.
struct TryScope<'a> {
    /// Closed segments `[start, end)` of the protected range.
    segments: Vec<(u32, u32)>,
    /// Start of the open segment, if open.
    open: Option<u32>,
    /// The inline `finally` to run when leaving through this try (`None` for catch-only tries).
    finally: Option<&'a ir::Block>,
    /// Not a `try` but a for-of loop's iterator, closed (`IterClose`) when a `return` or a
    /// `break`/`continue` to an outer statement leaves the loop.
    close_iter: Option<Reg>,
}

struct FnCompiler<'a> {
    program: &'a Program,
    func: &'a ir::Function,
    code: Vec<Op>,
    /// Instructions this function may still emit (what the module's budget has left).
    code_budget: usize,
    constants: Vec<Constant>,
    string_consts: FastMap<String, u32>,
    handlers: Vec<Handler>,
    lines: Vec<(u32, Span)>,
    callee_names: Vec<(u32, u32)>,
    /// Register of every binding (`VarId` index).
    var_regs: Vec<Reg>,
    /// The first free temporary, and the high-water mark.
    next_reg: usize,
    max_reg: usize,
    param_count: u16,
    /// Whether parameters are bound in order from uninitialized registers (`params_have_tdz`).
    params_in_tdz: bool,
    rest: Option<Reg>,
    arguments: Option<Reg>,
    jump_scopes: Vec<JumpScope>,
    try_stack: Vec<TryScope<'a>>,
    /// Pending `null`/`undefined` exits of the optional chains being compiled.
    optional_exits: Vec<Vec<usize>>,
    /// Capture sources and names of the child functions created here.
    child_captures: FastMap<u32, (Vec<CaptureSource>, Vec<String>)>,
    /// Names of this function's own captures (empty when unknown).
    capture_names: Vec<String>,
    depth: usize,
    span: Span,
}

impl<'a> FnCompiler<'a> {
    fn new(
        program: &'a Program,
        func: &'a ir::Function,
        capture_names: Vec<String>,
    ) -> Result<Self, CompileError> {
        let param_count = func.params.len();
        let mut c = FnCompiler {
            program,
            func,
            code: Vec::new(),
            code_budget: MAX_MODULE_CODE,
            constants: Vec::new(),
            string_consts: FastMap::default(),
            handlers: Vec::new(),
            lines: Vec::new(),
            callee_names: Vec::new(),
            var_regs: Vec::with_capacity(func.vars.len()),
            next_reg: param_count,
            max_reg: param_count,
            param_count: 0,
            params_in_tdz: params_have_tdz(func),
            rest: None,
            arguments: None,
            jump_scopes: Vec::new(),
            try_stack: Vec::new(),
            optional_exits: Vec::new(),
            child_captures: FastMap::default(),
            capture_names,
            depth: 0,
            span: func.span,
        };
        c.param_count = u16::try_from(param_count).map_err(|_| c.error("too many parameters"))?;
        // A simple, uncaptured parameter lives in its argument register, unless the list's
        // parameters have a TDZ (see `params_have_tdz`), which an argument register cannot show;
        // every other binding gets a register of its own.
        let mut direct: Vec<Option<Reg>> = vec![None; func.vars.len()];
        let direct_params = !c.params_in_tdz;
        for (i, p) in func.params.iter().enumerate().filter(|_| direct_params) {
            if let ir::Pattern::Var(ir::VarRef::Local(id)) = p
                && func.vars.get(id.0 as usize).is_some_and(|v| !v.captured)
                && let Some(slot) = direct.get_mut(id.0 as usize)
            {
                *slot = Some(i as Reg);
            }
        }
        for d in direct {
            let r = match d {
                Some(r) => r,
                None => c.alloc_reg()?,
            };
            c.var_regs.push(r);
        }
        if func.rest.is_some() {
            c.rest = Some(c.alloc_reg()?);
        }
        if func.arguments_var.is_some() {
            c.arguments = Some(c.alloc_reg()?);
        }
        Ok(c)
    }

    fn error(&self, message: &str) -> CompileError {
        CompileError { message: message.to_string(), span: self.span }
    }

    // ---- registers ----

    fn alloc_reg(&mut self) -> Result<Reg, CompileError> {
        let r = self.next_reg;
        if r >= MAX_REGISTERS {
            return Err(self.error("function too large: too many registers"));
        }
        self.next_reg += 1;
        self.max_reg = self.max_reg.max(self.next_reg);
        Ok(r as Reg)
    }

    /// `n` consecutive fresh registers (call arguments, a template literal's pieces).
    fn alloc_regs(&mut self, n: u16) -> Result<std::ops::Range<Reg>, CompileError> {
        let first = self.next_reg as Reg;
        for _ in 0..n {
            self.alloc_reg()?;
        }
        // Every register allocated is below `MAX_REGISTERS`, which is below `Reg::MAX`.
        Ok(first..first + n)
    }

    /// A mark to free temporaries back to.
    fn temp_mark(&self) -> usize {
        self.next_reg
    }

    fn free_to(&mut self, mark: usize) {
        self.next_reg = mark;
    }

    fn var_reg(&self, id: VarId) -> Reg {
        self.var_regs.get(id.0 as usize).copied().unwrap_or(0)
    }

    fn var_info(&self, id: VarId) -> Option<&'a ir::VarInfo> {
        self.func.vars.get(id.0 as usize)
    }

    fn is_captured(&self, id: VarId) -> bool {
        self.var_info(id).is_some_and(|v| v.captured)
    }

    // ---- emission ----

    fn pc(&self) -> u32 {
        self.code.len() as u32
    }

    fn emit(&mut self, op: Op) -> Result<usize, CompileError> {
        if self.code.len() >= self.code_budget {
            let msg = format!(
                "program too large: it compiles to more than {MAX_MODULE_CODE} instructions \
                 (deeply nested try/finally blocks are copied at every exit)"
            );
            return Err(self.error(&msg));
        }
        self.code.push(op);
        Ok(self.code.len() - 1)
    }

    /// Records that the instructions from here on come from `span`.
    fn mark(&mut self, span: Span) {
        if span.line == 0 {
            return;
        }
        self.span = span;
        let pc = self.pc();
        match self.lines.last_mut() {
            Some((last_pc, last_span)) if *last_pc == pc => *last_span = span,
            Some((_, last_span)) if *last_span == span => {}
            _ => self.lines.push((pc, span)),
        }
    }

    /// Points the jump at `at` to `target`.
    fn patch(&mut self, at: usize, target: Target) {
        if let Some(
            Op::Jump { target: t }
            | Op::JumpIfTrue { target: t, .. }
            | Op::JumpIfFalse { target: t, .. }
            | Op::JumpIfNullish { target: t, .. }
            | Op::JumpIfNotNullish { target: t, .. }
            | Op::JumpIfNotUndefined { target: t, .. }
            | Op::JumpUnlessCompare { target: t, .. }
            | Op::JumpUnlessCompareInt { target: t, .. }
            | Op::IterNext { target: t, .. },
        ) = self.code.get_mut(at)
        {
            *t = target;
        }
    }

    fn patch_here(&mut self, at: usize) {
        let pc = self.pc();
        self.patch(at, pc);
    }

    fn string_const(&mut self, s: &str) -> u32 {
        if let Some(&k) = self.string_consts.get(s) {
            return k;
        }
        let k = self.constants.len() as u32;
        self.constants.push(Constant::String(s.to_string()));
        self.string_consts.insert(s.to_string(), k);
        k
    }

    fn number_const(&mut self, n: f64) -> u32 {
        if let Some(k) =
            self.constants.iter().position(|c| matches!(c, Constant::Number(m) if m.to_bits() == n.to_bits()))
        {
            return k as u32;
        }
        self.constants.push(Constant::Number(n));
        (self.constants.len() - 1) as u32
    }

    fn enter(&mut self) -> Result<(), CompileError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error("program nested too deeply"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- function body ----

    fn compile_body(&mut self) -> Result<(), CompileError> {
        let func = self.func;
        self.mark(func.span);
        self.enter_scope(&func.body.scope)?;
        let direct_params = !self.params_in_tdz;
        for (i, p) in func.params.iter().enumerate() {
            match p {
                ir::Pattern::Var(ir::VarRef::Local(_)) if direct_params => {}
                pattern => self.bind_pattern(pattern, i as Reg, true)?,
            }
        }
        if let (Some(pattern), Some(rest)) = (&func.rest, self.rest) {
            self.bind_pattern(pattern, rest, true)?;
        }
        if let (Some(var), Some(reg)) = (func.arguments_var, self.arguments) {
            self.store_var(&ir::VarRef::Local(var), reg, true)?;
        }
        if func.is_generator {
            // Parameters are bound (and their defaults run) by the call; the body by `next()`.
            self.emit(Op::GeneratorStart)?;
        }
        for stmt in &func.body.body {
            self.stmt(stmt)?;
        }
        let r = self.alloc_reg()?;
        self.emit(Op::LoadUndef { dst: r })?;
        self.emit(Op::Return { src: r })?;
        Ok(())
    }

    /// Initializes the bindings a scope declares: fresh cells for captured ones, TDZ for
    /// `let`/`const`. A captured simple parameter's cell receives its argument.
    fn enter_scope(&mut self, scope: &[VarId]) -> Result<(), CompileError> {
        for &id in scope {
            let Some(info) = self.var_info(id) else { continue };
            let reg = self.var_reg(id);
            if info.kind == VarKind::Param {
                if info.captured {
                    self.emit(Op::NewCell { dst: reg })?;
                    if let Some(i) = self.simple_param_index(id) {
                        self.emit(Op::StoreCell { cell: reg, src: i })?;
                    }
                } else if self.params_in_tdz {
                    self.emit(Op::LoadUninit { dst: reg })?;
                }
                continue;
            }
            if info.captured {
                self.emit(Op::NewCell { dst: reg })?;
                if !info.kind.has_tdz() {
                    let t = self.alloc_reg()?;
                    self.emit(Op::LoadUndef { dst: t })?;
                    self.emit(Op::StoreCell { cell: reg, src: t })?;
                    self.free_to(t as usize);
                }
            } else if info.kind.has_tdz() {
                self.emit(Op::LoadUninit { dst: reg })?;
            } else {
                self.emit(Op::LoadUndef { dst: reg })?;
            }
        }
        Ok(())
    }

    /// The argument register of a parameter declared as a plain identifier in a simple list
    /// (in any other list, parameters are bound in order by `compile_body`).
    fn simple_param_index(&self, id: VarId) -> Option<Reg> {
        if self.params_in_tdz {
            return None;
        }
        self.func
            .params
            .iter()
            .position(|p| matches!(p, ir::Pattern::Var(ir::VarRef::Local(v)) if *v == id))
            .map(|i| i as Reg)
    }

    /// Records the capture list of child function `fid`, resolved against this function.
    fn note_child(&mut self, fid: FuncId) -> Result<(), CompileError> {
        let Some(child) = self.program.functions.get(fid.0 as usize) else {
            return Err(self.error("reference to an unknown function"));
        };
        let mut sources = Vec::with_capacity(child.captures.len());
        let mut names = Vec::with_capacity(child.captures.len());
        for cap in &child.captures {
            let (source, name) = match *cap {
                ir::Capture::ParentLocal(id) => {
                    (CaptureSource::Register(self.var_reg(id)), self.var_info(id).map(|v| v.name.clone()))
                }
                ir::Capture::ParentCapture(i) => (
                    CaptureSource::Capture(u16::try_from(i).map_err(|_| self.error("too many captures"))?),
                    self.capture_names.get(i as usize).cloned(),
                ),
            };
            sources.push(source);
            names.push(name.unwrap_or_default());
        }
        self.child_captures.insert(fid.0, (sources, names));
        Ok(())
    }

    fn finish(mut self) -> FunctionCode {
        peephole::run(&mut self.code, &self.handlers);
        let func = self.func;
        FunctionCode {
            name: func.name.clone(),
            param_count: self.param_count,
            rest: self.rest,
            arguments: self.arguments,
            register_count: self.max_reg.max(1) as u16,
            is_async: func.is_async,
            is_generator: func.is_generator,
            is_arrow: func.is_arrow,
            class_kind: func.class_kind,
            length: u16::try_from(
                func.params.iter().take_while(|p| !matches!(p, ir::Pattern::Default { .. })).count(),
            )
            .unwrap_or(u16::MAX),
            code: self.code,
            constants: self.constants,
            handlers: self.handlers,
            captures: Vec::new(),
            lines: self.lines,
            callee_names: self.callee_names,
            span: func.span,
        }
    }
}

/// Whether a parameter can be read before it is bound: the list is not simple (a default, a
/// pattern or a rest parameter; then the syntax crate's lowering puts every parameter in its TDZ
/// until bound, the specification's rule) and holds an expression (a default or a computed key)
/// that runs while the parameters are bound. Such a function binds all its parameters in order
/// from registers that start uninitialized.
fn params_have_tdz(func: &ir::Function) -> bool {
    let simple = func.rest.is_none()
        && func.params.iter().all(|p| matches!(p, ir::Pattern::Var(ir::VarRef::Local(_))));
    if simple {
        return false;
    }
    // Patterns nest as deep as the parser allows: walked with a stack, not recursion.
    let mut stack: Vec<&ir::Pattern> = func.params.iter().chain(func.rest.iter()).collect();
    while let Some(p) = stack.pop() {
        match p {
            ir::Pattern::Default { .. } => return true,
            ir::Pattern::Var(_) | ir::Pattern::Member { .. } => {}
            ir::Pattern::Object { props, rest } => {
                for prop in props {
                    if matches!(prop.key, ir::PropKey::Computed(_)) {
                        return true;
                    }
                    stack.push(&prop.value);
                }
                stack.extend(rest.as_deref());
            }
            ir::Pattern::Array { elems, rest } => {
                stack.extend(elems.iter().flatten());
                stack.extend(rest.as_deref());
            }
        }
    }
    false
}
