//! Scope resolution: which binding an identifier names, and how a function reaches it.
//!
//! While the lowering walks the AST it keeps a stack of [`FunctionState`]s (the function being
//! lowered and every function around it), each with a stack of [`Scope`]s (its function scope and
//! the blocks open at this point). Declarations are entered into scopes *before* the statements
//! of their block are lowered (see `collect`), so a name resolves to a binding declared later in
//! the same block, as JavaScript's hoisting demands.
//!
//! A name found in an enclosing function becomes a capture, Lua-style: each function between the
//! owner and the reader gets one entry in [`FunctionState::captures`], the first pointing at the
//! owner's local ([`Capture::ParentLocal`]), the next ones at the previous capture
//! ([`Capture::ParentCapture`]). The owner's local is marked `captured`.
//!
//! This module also decides TDZ checks. A read of a `let`/`const` is checked when it may run
//! before the declaration has run:
//! - in the declaring function, when the read comes textually before the declaration's end, or
//!   the binding belongs to a `switch` (a jump to a later case skips declarations);
//! - from a nested function, when that function's closure may be created before the declaration
//!   has run: the outermost function between the binding and the read was created (its
//!   expression lowered, or its declaration hoisted) before the declaration was lowered, or the
//!   binding belongs to a `switch`. Closures created after the declaration in the same scope can
//!   only run after it (control flow never jumps backwards into the middle of a block, and every
//!   new run of a block re-creates both), so their reads need no check.
//!
//! "Before" is measured with a clock that ticks at every declaration and function creation.

use codemode_ir::FastMap;

use crate::ir::{Capture, ClassKind, FuncId, VarId, VarInfo, VarKind, VarRef};

/// What kind of region a scope belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// The function's own scope: parameters, `var`s, top-level lexical declarations.
    Function,
    Block,
    /// A `switch` body: a jump to a later case may skip a declaration, so reads are TDZ-checked.
    Switch,
}

#[derive(Debug)]
pub struct Scope {
    pub kind: ScopeKind,
    names: FastMap<String, VarId>,
    /// The bindings declared here, in declaration order: the IR block's `scope`.
    pub vars: Vec<VarId>,
}

impl Scope {
    pub fn new(kind: ScopeKind) -> Self {
        Scope { kind, names: FastMap::default(), vars: Vec::new() }
    }
}

/// Whether a binding can be read before it is initialized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// No temporal dead zone (`var`, parameters, functions, catch parameters, synthetic bindings).
    Always,
    /// A `let`/`const` whose declaration has not been lowered yet.
    Pending,
    /// A `let`/`const` whose declaration has been lowered, at clock time `at`.
    Done { at: u64 },
}

#[derive(Debug)]
pub struct VarMeta {
    pub init: Init,
    pub in_switch: bool,
    /// How many places may write the binding (declarations with a value, assignments, a
    /// function declaration's hoisted closure), counted as names resolve for writing.
    pub writes: u32,
}

/// Why a name is resolved. Every resolution that is not a plain read counts as a write: a
/// binding written once, by its function declaration, holds that function for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// The resolution state of one function being lowered.
#[derive(Debug)]
pub struct FunctionState {
    pub is_arrow: bool,
    pub vars: Vec<VarInfo>,
    pub meta: Vec<VarMeta>,
    pub captures: Vec<Capture>,
    pub scopes: Vec<Scope>,
    pub uses_this: bool,
    pub arguments_var: Option<VarId>,
    /// A synthetic binding holding `this`, created when an arrow inside reads `this`.
    pub this_var: Option<VarId>,
    /// A named function expression's own name, visible inside it (created on first use).
    pub self_name: Option<String>,
    pub self_var: Option<VarId>,
    /// Clock time at which this function's closure creation was lowered.
    pub created_at: u64,
    /// Whether `arguments` refers to an implicit arguments object here (non-arrow functions
    /// other than the top-level script).
    pub has_arguments_object: bool,
    /// In class methods (and arrows inside them): the object `super.x` searches from.
    pub home: Option<Home>,
    /// Whether this function is a class constructor, and which kind.
    pub class_kind: ClassKind,
    /// A constructor's TypeScript parameter properties (`constructor(private x: T)`).
    pub param_props: Vec<String>,
    /// What the early errors need to know here (strictness, labels, what `super` may do).
    pub early: super::early_errors::FunctionRules,
    /// The hidden disposal scopes of the enclosing blocks that declare `using` bindings
    /// (`using.rs`), innermost last.
    pub using_scopes: Vec<VarId>,
    /// The function declarations made here and the binding each initializes; when this
    /// function is finished, those bindings nothing else wrote become the functions'
    /// `self_capture`.
    pub declared_functions: Vec<(FuncId, VarId)>,
}

/// Where `super.x` looks: the class binding (owned by the function at `level` of the chain), its
/// `prototype` for instance methods, the class itself for static ones.
#[derive(Clone, Copy, Debug)]
pub struct Home {
    pub level: usize,
    pub var: VarId,
    pub is_static: bool,
}

impl FunctionState {
    pub fn new(
        is_arrow: bool,
        has_arguments_object: bool,
        self_name: Option<String>,
        created_at: u64,
    ) -> Self {
        FunctionState {
            is_arrow,
            vars: Vec::new(),
            meta: Vec::new(),
            captures: Vec::new(),
            scopes: vec![Scope::new(ScopeKind::Function)],
            uses_this: false,
            arguments_var: None,
            this_var: None,
            self_name,
            self_var: None,
            created_at,
            has_arguments_object,
            home: None,
            class_kind: ClassKind::None,
            param_props: Vec::new(),
            early: Default::default(),
            using_scopes: Vec::new(),
            declared_functions: Vec::new(),
        }
    }

    /// Adds a binding to the scope at `scope_index`; `named` makes it resolvable by its name.
    pub fn add_var(&mut self, scope_index: usize, name: &str, kind: VarKind, named: bool) -> VarId {
        let id = VarId(u32::try_from(self.vars.len()).unwrap_or(u32::MAX));
        self.vars.push(VarInfo { name: name.to_owned(), kind, captured: false });
        let in_switch = self.scopes.get(scope_index).is_some_and(|scope| scope.kind == ScopeKind::Switch);
        let init = if kind.has_tdz() { Init::Pending } else { Init::Always };
        self.meta.push(VarMeta { init, in_switch, writes: 0 });
        if let Some(scope) = self.scopes.get_mut(scope_index) {
            scope.vars.push(id);
            if named {
                scope.names.insert(name.to_owned(), id);
            }
        }
        id
    }

    pub fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes.iter().rev().find_map(|scope| scope.names.get(name).copied())
    }

    /// The binding `name` has in the scope at `scope_index` itself, if any.
    pub fn lookup_in(&self, scope_index: usize, name: &str) -> Option<VarId> {
        self.scopes.get(scope_index).and_then(|scope| scope.names.get(name).copied())
    }

    pub fn kind_of(&self, var: VarId) -> Option<VarKind> {
        self.vars.get(var.0 as usize).map(|info| info.kind)
    }

    pub fn meta_mut(&mut self, var: VarId) -> Option<&mut VarMeta> {
        self.meta.get_mut(var.0 as usize)
    }

    fn add_capture(&mut self, capture: Capture) -> u32 {
        let index = match self.captures.iter().position(|existing| *existing == capture) {
            Some(index) => index,
            None => {
                self.captures.push(capture);
                self.captures.len() - 1
            }
        };
        u32::try_from(index).unwrap_or(u32::MAX)
    }
}

/// A resolved identifier, with what the caller needs to decide on TDZ checks and `const`
/// assignments.
#[derive(Debug)]
pub struct Resolved {
    pub var: VarRef,
    pub check_tdz: bool,
    /// The binding's kind (`None` for globals).
    pub kind: Option<VarKind>,
}

/// The functions being lowered: `outer` are the enclosing ones (outermost first), `current` the
/// innermost, whose code is being lowered. Level `outer.len()` is `current`.
#[derive(Debug)]
pub struct Chain<'s> {
    pub outer: &'s mut [FunctionState],
    pub current: &'s mut FunctionState,
}

impl Chain<'_> {
    fn innermost(&self) -> usize {
        self.outer.len()
    }

    fn level(&mut self, level: usize) -> Option<&mut FunctionState> {
        if level == self.outer.len() { Some(&mut *self.current) } else { self.outer.get_mut(level) }
    }

    /// Resolves `name` as seen from the current function, for `access`.
    pub fn resolve(&mut self, name: &str, access: Access) -> Resolved {
        let Some((level, var)) = self.find_binding(name) else {
            return Resolved { var: VarRef::Global(name.to_owned()), check_tdz: false, kind: None };
        };
        if access == Access::Write
            && let Some(meta) = self.level(level).and_then(|owner| owner.meta_mut(var))
        {
            meta.writes = meta.writes.saturating_add(1);
        }
        let innermost = self.innermost();
        // When the closure of the outermost function between the owner and the read was made.
        let closure_created_at =
            if level < innermost { self.level(level + 1).map(|f| f.created_at) } else { None };
        let (kind, check_tdz) = match self.level(level) {
            Some(owner) => {
                let kind = owner.kind_of(var);
                let check_tdz = match owner.meta.get(var.0 as usize) {
                    Some(meta) => match (meta.init, closure_created_at) {
                        (Init::Always, _) => false,
                        (Init::Pending, _) => true,
                        (Init::Done { .. }, None) => meta.in_switch,
                        (Init::Done { at }, Some(created_at)) => meta.in_switch || at >= created_at,
                    },
                    None => false,
                };
                (kind, check_tdz)
            }
            None => (None, false),
        };
        Resolved { var: self.reference_from(level, var), check_tdz, kind }
    }

    /// Builds the capture chain from the function at `level`, which owns `var`, to the current
    /// function, and returns how the current function refers to it.
    pub fn reference_from(&mut self, level: usize, var: VarId) -> VarRef {
        if level >= self.innermost() {
            return VarRef::Local(var);
        }
        if let Some(info) = self.level(level).and_then(|owner| owner.vars.get_mut(var.0 as usize)) {
            info.captured = true;
        }
        let mut capture = Capture::ParentLocal(var);
        for function in self.outer.iter_mut().skip(level + 1) {
            capture = Capture::ParentCapture(function.add_capture(capture));
        }
        VarRef::Capture(self.current.add_capture(capture))
    }

    /// Finds the function level and binding `name` refers to, creating implicit bindings
    /// (`arguments`, a function expression's own name) on first use.
    fn find_binding(&mut self, name: &str) -> Option<(usize, VarId)> {
        for level in (0..=self.innermost()).rev() {
            let function = self.level(level)?;
            if let Some(var) = function.lookup(name) {
                return Some((level, var));
            }
            if name == "arguments" && function.has_arguments_object {
                let var = function.add_var(0, "arguments", VarKind::Var, true);
                function.arguments_var = Some(var);
                return Some((level, var));
            }
            if function.self_name.as_deref() == Some(name) {
                let var = match function.self_var {
                    Some(var) => var,
                    None => {
                        // Not entered by name: a parameter or `var` of the same name shadows
                        // it, and is found first by `lookup`.
                        let var = function.add_var(0, name, VarKind::Const, false);
                        if let Some(meta) = function.meta_mut(var) {
                            meta.init = Init::Always;
                        }
                        function.self_var = Some(var);
                        var
                    }
                };
                return Some((level, var));
            }
        }
        None
    }

    /// The level whose `this` the current function reads: the nearest non-arrow function (the
    /// top-level script counts as one).
    pub fn this_level(&self) -> usize {
        if !self.current.is_arrow {
            return self.outer.len();
        }
        self.outer.iter().rposition(|function| !function.is_arrow).unwrap_or(0)
    }

    /// A reference to the `this` of the function at `level`: `None` when that is the current
    /// function (read `this` directly), else a capture of that function's synthetic `this`
    /// binding, created on first use.
    pub fn captured_this(&mut self, level: usize) -> Option<VarRef> {
        let innermost = self.innermost();
        let owner = self.level(level)?;
        owner.uses_this = true;
        if level == innermost {
            return None;
        }
        let var = match owner.this_var {
            Some(var) => var,
            None => {
                let var = owner.add_var(0, "this", VarKind::Temp, false);
                owner.this_var = Some(var);
                var
            }
        };
        Some(self.reference_from(level, var))
    }
}
