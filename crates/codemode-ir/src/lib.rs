//! `codemode-ir`: the intermediate representation between swc's AST and the bytecode compiler.
//!
//! A crate of its own so that the compiler (and through it the VM, which uses the compiler's
//! bytecode types) never depends on swc.
//!
//! The IR is a tree, like the AST, but with the questions a compiler should not have to ask
//! answered already:
//! - **every identifier is resolved**: a [`VarRef`] is a local of the current function, a capture
//!   (an upvalue, Lua-style, listed in [`Function::captures`]) or a global by name;
//! - **every function is flattened** into [`Program::functions`] and referred to by [`FuncId`];
//! - **hoisting is explicit**: `var` bindings are listed in the function's top [`Block`] scope,
//!   function declarations become [`Stmt::Bind`] at the top of their block, `let`/`const` are listed
//!   in the scope of the block that declares them;
//! - **TDZ checks are decided**: [`ExprKind::Var`] says whether a read must check for an
//!   uninitialized `let`/`const`;
//! - **sugar is gone**: template literals, shorthand properties, TypeScript-only syntax (types,
//!   `as`, `!`, `satisfies`) do not appear;
//! - **spans are kept**: every expression and statement carries a 1-based line and column.
//!
//! The IR holds no swc types, so the compiler never sees swc. [`Program::dump`] renders a stable
//! text form used by snapshot tests.

use serde::{Deserialize, Serialize};

mod number;
pub mod regex;
pub mod stack;
pub use number::{IntegerDigits, number_to_string};

/// A deterministic, fast hash map (ahash with fixed keys: iteration order never leaks into
/// program behaviour, and runs stay reproducible). The one map type of the compiler and the VM.
pub type FastMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<ahash::AHasher>>;
/// The set counterpart of [`FastMap`].
pub type FastSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<ahash::AHasher>>;

/// A 1-based source position: line, and column counted in characters of the normalized source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Span {
    pub line: u32,
    pub column: u32,
}

/// Index into [`Program::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FuncId(pub u32);

/// Index into [`Function::vars`] of the function that owns the binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VarId(pub u32);

/// A whole program. `functions[0]` is the top-level script, an async function with no parameters
/// whose `return` gives the program's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Program {
    pub functions: Vec<Function>,
    /// How deeply the source nests (the pre-scan's measure): the code generator's recursion is
    /// proportional to it (see [`stack`]).
    #[serde(default)]
    pub nesting: usize,
    /// The functions the program declares when declaring them is all its top level does (two or
    /// more: a lone one is called, see `codemode_syntax::normalize::apply_program_shape`). Nothing
    /// runs, so the host warns that they were never called.
    #[serde(default)]
    pub uncalled_functions: Vec<String>,
}

impl Program {
    /// The top-level script function.
    pub const MAIN: FuncId = FuncId(0);
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Function {
    /// The function's name for stack traces and `.name` (`None` for anonymous functions).
    pub name: Option<String>,
    pub is_async: bool,
    /// `function*`: calling it makes a generator object; its body runs on `next()`.
    #[serde(default)]
    pub is_generator: bool,
    /// Arrow functions take `this` and `arguments` from the enclosing function.
    pub is_arrow: bool,
    /// Parameters in order. Each is a pattern binding locals of this function; simple parameters are
    /// `Pattern::Var(VarRef::Local(..))`. Defaults are `Pattern::Default`.
    pub params: Vec<Pattern>,
    /// A `...rest` parameter, bound to an array of the remaining arguments.
    pub rest: Option<Pattern>,
    /// Every binding this function declares, in declaration order: parameters, `var`s, `let`/
    /// `const`s of every nested block, function declarations, catch parameters.
    pub vars: Vec<VarInfo>,
    /// Bindings of enclosing functions this function uses, in first-use order. A closure created
    /// for this function captures each of them when it is created.
    pub captures: Vec<Capture>,
    /// The function body. Its scope lists parameters and `var`s (initialized to `undefined` on
    /// entry, parameters to their argument) and the body's top-level `let`/`const`/functions.
    pub body: Block,
    /// Whether the body reads `this` (non-arrow functions only).
    pub uses_this: bool,
    /// Whether the body reads `arguments` (non-arrow functions only). When true, the VarId of the
    /// `arguments` binding is given and must be initialized on entry with an array-like object.
    pub arguments_var: Option<VarId>,
    pub span: Span,
    /// Whether this function is a class constructor (callable only with `new`), and whether its
    /// class extends another (then `this` starts uninitialized until `super(...)` returns).
    #[serde(default)]
    pub class_kind: ClassKind,
    /// The capture that always holds this very function's closure: a function declaration's
    /// binding that nothing else writes (`function fib(n) { .. fib(n - 1) .. }`). Reading it
    /// is reading the callee, which needs no trip through the closure's captures.
    #[serde(default)]
    pub self_capture: Option<u32>,
}

/// What kind of class constructor a function is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClassKind {
    /// An ordinary function.
    #[default]
    None,
    /// The constructor of a class without `extends`.
    Base,
    /// The constructor of a class with `extends`: `this` is bound by `super(...)`.
    Derived,
}

/// A class: the constructor, the prototype's and the class's own members, and the instance
/// fields' initializer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassDef {
    /// The `extends` expression.
    pub parent: Option<Expr>,
    /// The constructor (synthesized when the class has none), with a [`ClassKind`].
    pub constructor: FuncId,
    /// A method run with the new instance as `this` before the constructor body (base classes)
    /// or right after `super(...)` returns (derived classes): it defines the instance fields
    /// (and installs private methods) in order.
    pub fields: Option<FuncId>,
    /// Methods and accessors, in source order (defined non-enumerable).
    pub members: Vec<ClassMember>,
    /// Bindings set to the class as soon as it exists, before static initializers run (the
    /// class's inner name, the home object `super` needs).
    pub bindings: Vec<VarRef>,
    /// Run in order with the class as `this` after the members are defined: static fields and
    /// static blocks, in source order.
    pub static_init: Vec<FuncId>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassMember {
    pub key: PropKey,
    pub function: FuncId,
    pub is_static: bool,
    pub kind: MethodKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MethodKind {
    Method,
    Getter,
    Setter,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VarInfo {
    pub name: String,
    pub kind: VarKind,
    /// Captured by an inner function: the compiler keeps it in a heap cell, not a register.
    pub captured: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VarKind {
    Var,
    Let,
    Const,
    Param,
    /// A function declaration's binding (behaves like `var` in function scope, `let` in blocks).
    Function,
    CatchParam,
    /// A synthetic binding the lowering introduced (e.g. a saved iterator), never TDZ-checked.
    Temp,
}

impl VarKind {
    /// Whether the binding starts uninitialized (temporal dead zone) when its scope is entered.
    pub fn has_tdz(self) -> bool {
        matches!(self, VarKind::Let | VarKind::Const)
    }
}

/// Where a capture comes from, seen from the function immediately enclosing the capturing one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Capture {
    /// A local of the enclosing function (which then has `captured: true` on that var).
    ParentLocal(VarId),
    /// One of the enclosing function's own captures.
    ParentCapture(u32),
}

/// A resolved identifier.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum VarRef {
    Local(VarId),
    /// Index into the current function's [`Function::captures`].
    Capture(u32),
    /// Not declared anywhere in the program: a global (`tools`, `console`, `Math`, ...).
    Global(String),
}

/// A lexical block: the bindings it declares (entered fresh each time the block runs) and its body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// Bindings declared by this block (for a function body, also params and `var`s). On entry,
    /// `let`/`const` bindings become uninitialized, others `undefined`; captured ones get a fresh cell.
    pub scope: Vec<VarId>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum StmtKind {
    Expr(Expr),
    /// A declaration's initialization (`let`, `const`, `var x = ..`, hoisted function declarations,
    /// catch parameters). Initializes bindings (ends their TDZ) even for `const`. A `let x;` without
    /// initializer binds `undefined`; a `var x;` without initializer produces no statement.
    Bind {
        pattern: Pattern,
        init: Expr,
    },
    Block(Block),
    If {
        test: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    /// `while (test) body`; `do body while (test)` has `do_while: true`.
    While {
        test: Expr,
        body: Box<Stmt>,
        do_while: bool,
        label: Option<String>,
    },
    /// `for (init; test; update) body`. `per_iteration` lists the loop-head `let` bindings that are
    /// captured by closures: each iteration gets a fresh copy of them (the compiler copies the cells
    /// before running `update`).
    For {
        init: Option<Box<Stmt>>,
        test: Option<Expr>,
        update: Option<Expr>,
        body: Box<Stmt>,
        /// Bindings declared in the head (`let i`); fresh per loop entry.
        scope: Vec<VarId>,
        per_iteration: Vec<VarId>,
        label: Option<String>,
    },
    /// `for (<decl> of iterable) body` / `for (<decl> in object) body`. `scope` lists the head's
    /// `let`/`const` bindings, fresh for every iteration. `declare` says whether `pattern` is
    /// initialized as a declaration (`let`/`const`/`var`) or assigned (`for (x of xs)`).
    ForOf {
        pattern: Pattern,
        declare: bool,
        iterable: Expr,
        body: Box<Stmt>,
        scope: Vec<VarId>,
        label: Option<String>,
        /// `for await (.. of ..)`: each step's result and value are awaited.
        #[serde(default)]
        is_await: bool,
    },
    ForIn {
        pattern: Pattern,
        declare: bool,
        object: Expr,
        body: Box<Stmt>,
        scope: Vec<VarId>,
        label: Option<String>,
    },
    /// `switch (discriminant) { case test: body ... default: body }`, cases in source order;
    /// `test: None` is `default`. One block scope for all cases.
    Switch {
        discriminant: Expr,
        cases: Vec<SwitchCase>,
        scope: Vec<VarId>,
        label: Option<String>,
    },
    /// A labelled statement that is not a loop or switch (`label: { ... break label; }`).
    Labeled {
        label: String,
        body: Box<Stmt>,
    },
    Break(Option<String>),
    Continue(Option<String>),
    Return(Option<Expr>),
    Throw(Expr),
    Try {
        block: Block,
        catch: Option<CatchClause>,
        finally: Option<Block>,
    },
    Empty,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwitchCase {
    pub test: Option<Expr>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatchClause {
    /// The caught value's pattern (`catch (e)`, `catch ({ message })`), `None` for `catch {}`.
    /// Its bindings are in `body.scope`.
    pub param: Option<Pattern>,
    pub body: Block,
}

/// A binding or assignment target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Pattern {
    Var(VarRef),
    /// Assignment targets only (`o.x = ..`, `[a.b] = ..`, `for (o.k of ..)`).
    Member {
        object: Box<Expr>,
        property: Box<Property>,
    },
    Object {
        props: Vec<PatternProp>,
        rest: Option<Box<Pattern>>,
    },
    /// `None` elements are holes (`[, b]`).
    Array {
        elems: Vec<Option<Pattern>>,
        rest: Option<Box<Pattern>>,
    },
    /// `target = default`: the default is evaluated when the value is `undefined`.
    Default {
        target: Box<Pattern>,
        default: Box<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternProp {
    pub key: PropKey,
    pub value: Pattern,
}

/// A member access's property: `.name`, `[expr]`, or a class's private name `.#name`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Property {
    Named(String),
    Computed(Expr),
    /// A private name, unique to the class that declares it: `#name` followed by a NUL and the
    /// class's number (two classes' `#x` are different properties). Only the class's own code
    /// reaches it; reflection never lists it.
    Private(String),
}

/// An object literal's or pattern's key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PropKey {
    /// Identifier, string and numeric keys, as the property name string (`1` → `"1"`).
    Named(String),
    Computed(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ExprKind {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    /// A BigInt literal, as its decimal text (`-` never: negation is an operator).
    BigInt(String),
    String(String),
    Regex {
        pattern: String,
        flags: String,
    },
    /// A template literal: `quasis.len() == exprs.len() + 1`, cooked strings.
    Template {
        quasis: Vec<String>,
        exprs: Vec<Expr>,
    },
    /// Read a binding. `check_tdz` is true when the read may happen before a `let`/`const` is
    /// initialized (the compiler then emits a check that throws a ReferenceError).
    ///
    /// (Syntax crate note: assignment targets carry no such flag. When an assignment or update
    /// may write an uninitialized `let`, the lowering puts a checked read of it first:
    /// `Sequence([Var { x, check_tdz: true }, Assign { x, .. }])`. Targets inside destructuring
    /// patterns are not checked.)
    Var {
        var: VarRef,
        check_tdz: bool,
    },
    This,
    Array(Vec<ArrayElem>),
    Object(Vec<ObjectProp>),
    /// A function or arrow expression (also a hoisted function declaration's value).
    Function(FuncId),
    Unary {
        op: UnaryOp,
        arg: Box<Expr>,
    },
    /// `typeof x` where `x` is a global that may not exist: never throws.
    TypeofGlobal(String),
    /// `++x`, `x--`, ...; the target is `Pattern::Var` or `Pattern::Member`.
    Update {
        op: UpdateOp,
        prefix: bool,
        target: Box<Pattern>,
    },
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Logical {
        op: LogicalOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Conditional {
        test: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `target = value` (`op: None`), `target op= value`. Logical assignments (`&&=`, `||=`, `??=`)
    /// are [`ExprKind::LogicalAssign`]. Destructuring assignment has an Object/Array pattern.
    Assign {
        op: Option<BinaryOp>,
        target: Box<Pattern>,
        value: Box<Expr>,
    },
    /// `target &&= value` etc.: assigns only when the logical operator would evaluate `value`.
    LogicalAssign {
        op: LogicalOp,
        target: Box<Pattern>,
        value: Box<Expr>,
    },
    /// `object.property` / `object[property]`; `optional` for `?.` (short-circuits to the end of the
    /// enclosing [`ExprKind::OptionalChain`]).
    Member {
        object: Box<Expr>,
        property: Box<Property>,
        optional: bool,
    },
    /// A call. When `callee` is a `Member`, `this` is the member's object. `optional` for `f?.()`.
    Call {
        callee: Box<Expr>,
        args: Vec<ArrayElem>,
        optional: bool,
    },
    New {
        callee: Box<Expr>,
        args: Vec<ArrayElem>,
    },
    /// The extent of an optional chain `a?.b.c()`: any `optional` link inside that meets
    /// `null`/`undefined` makes the whole chain `undefined`.
    OptionalChain(Box<Expr>),
    Sequence(Vec<Expr>),
    Await(Box<Expr>),
    /// `yield arg` (`arg` absent: `undefined`), or `yield* arg` when `delegate`. Only inside
    /// generator functions.
    Yield {
        arg: Option<Box<Expr>>,
        delegate: bool,
    },
    /// `delete object.property`.
    Delete {
        object: Box<Expr>,
        property: Box<Property>,
    },
    /// Throws `TypeError: Assignment to constant variable.`; `name` is the `const` binding's name,
    /// for the message. JavaScript accepts an assignment to a `const` when parsing and throws when
    /// it runs, so the lowering keeps what runs before the throw:
    /// - `c = v` → `Sequence([v, ThrowConstAssign])` (with a TDZ-checked read of `c` before the
    ///   throw when `c` may be uninitialized, since that error wins);
    /// - `c += v` → `Sequence([c, v, ThrowConstAssign])`, `c++` → `Sequence([c, ThrowConstAssign])`;
    /// - `c &&= v` → `Logical(&&, c, Sequence([v, ThrowConstAssign]))` (no throw when it
    ///   short-circuits);
    /// - as a destructuring or `for (c of ..)` target: `Pattern::Member { object:
    ///   ThrowConstAssign, property: Named(c) }`, which throws when the target is evaluated.
    ///
    /// (Added by the syntax crate: the IR had no way to express this run-time error.)
    ThrowConstAssign {
        name: String,
    },
    /// The closure currently running. A named function expression's own name is a binding of
    /// that function, initialized on entry with `Bind { name, CurrentFunction }`, so that
    /// `function fact(n) { return n && n * fact(n - 1) }` works as an expression.
    ///
    /// (Added by the syntax crate: the IR had no way to name the running closure.)
    CurrentFunction,
    /// `class { .. }` (declarations bind it with [`StmtKind::Bind`]).
    Class(Box<ClassDef>),
    /// `super(...args)` in a derived constructor: constructs the parent class with this
    /// constructor's `new.target`, binds `this` to the result (and runs the instance field
    /// initializer). Its value is `this`.
    SuperCall(Vec<ArrayElem>),
    /// `super.property` / `super[key]`: the property looked up from the prototype of `home` (the
    /// class's prototype object in instance methods, the class in static ones), getters run with
    /// the current `this`. As a callee, `this` is passed on.
    SuperMember {
        home: Box<Expr>,
        property: Box<Property>,
    },
    /// `#name in object`: whether `object` has the private name (see [`Property::Private`]).
    PrivateIn {
        name: String,
        object: Box<Expr>,
    },
    /// Defines an own property of `this` (a class field): `key` named or computed, or a
    /// private name. `kind` is `Method` for a field or private method, `Getter`/`Setter` for
    /// half of a private accessor (`get #x() {}`).
    DefineField {
        key: Box<Property>,
        value: Box<Expr>,
        kind: MethodKind,
    },
    /// `new.target`: the constructor `new` was applied to, `undefined` in a plain call.
    NewTarget,
    /// One of the VM's internal helper functions, by its stable name (`#internal.usingAdd`):
    /// what the lowering calls for constructs it expresses with helpers (`using` declarations).
    /// No program can name one.
    ///
    /// (Added by the syntax crate: the IR had no way to reach a helper no program can shadow.)
    Internal(String),
    /// ToPropertyKey(value): a symbol stays a symbol, anything else becomes its string (a class
    /// field's computed name, evaluated once when the class is made).
    PropertyKey(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ArrayElem {
    Item(Expr),
    Spread(Expr),
    Hole,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ObjectProp {
    /// `key: value`, shorthand `key`, methods `key() {}` (value is a Function).
    KeyValue {
        key: PropKey,
        value: Expr,
    },
    Spread(Expr),
    /// `__proto__: value` (not computed, not shorthand): sets the new object's prototype when
    /// the value is an object or `null`.
    Proto(Expr),
    Getter {
        key: PropKey,
        function: FuncId,
    },
    Setter {
        key: PropKey,
        function: FuncId,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnaryOp {
    Minus,
    Plus,
    Not,
    BitNot,
    Typeof,
    Void,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UpdateOp {
    Increment,
    Decrement,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Exp,
    Eq,
    NotEq,
    StrictEq,
    StrictNotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    UShr,
    In,
    InstanceOf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogicalOp {
    And,
    Or,
    Nullish,
}
