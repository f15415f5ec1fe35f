//! The bytecode: one opcode table ([`Op`]) and the compiled units that carry it.
//!
//! The machine is a register machine. Each function activation has a window of `register_count`
//! registers; arguments arrive in registers `0..param_count`. Every instruction names its operands
//! directly (registers `r`, constant-pool indices `k`, capture indices `c`, jump targets as
//! absolute instruction indices).
//!
//! **Fuel.** Straight-line code is bounded by program size, so only what can repeat charges fuel:
//! a backward jump costs 1, every call costs 1, and built-ins doing O(n) work charge in proportion
//! to n. The VM stops a slice when its fuel runs out, at an instruction boundary.
//!
//! | op | operands | effect | fuel |
//! | --- | --- | --- | --- |
//! | `LoadUndef` / `LoadNull` / `LoadTrue` / `LoadFalse` / `LoadUninit` | dst | dst = constant | 0 |
//! | `LoadInt` | dst, i32 | dst = number | 0 |
//! | `LoadConst` | dst, k | dst = pool[k] (number or string) | 0 |
//! | `Move` | dst, src | dst = src | 0 |
//! | `CheckTdz` | src, k | throw ReferenceError "Cannot access 'pool[k]' before initialization" if src is uninit | 0 |
//! | `GetGlobal` | dst, k | dst = global named pool[k], ReferenceError if missing | 0 |
//! | `TypeofGlobal` | dst, k | dst = typeof global pool[k] ("undefined" if missing) | 0 |
//! | `NewCell` | dst | dst = fresh cell holding uninit | 0 |
//! | `LoadCell` / `StoreCell` | dst, cell / cell, src | read / write the cell in register `cell` | 0 |
//! | `LoadCapture` / `StoreCapture` | dst, c / c, src | read / write the closure's c-th captured cell | 0 |
//! | `Closure` | dst, f | dst = new closure of function f capturing per its capture list | 0 |
//! | `Binary` | op, dst, a, b | dst = a op b (arithmetic, comparison, equality, `in`, `instanceof`) | 0 |
//! | `BinaryInt` | op, dst, a, int | dst = a op int (a small integer right operand: `i < 10`, `n % 2`) | 0 |
//! | `Unary` | op, dst, src | dst = op src (`-`, `+`, `!`, `~`, `typeof`, `void`) | 0 |
//! | `Inc` / `Dec` | dst, src | dst = ToNumeric(src) ± 1 | 0 |
//! | `ToNumeric` | dst, src | dst = ToNumeric(src) (postfix update's old value) | 0 |
//! | `ToPropertyKey` | dst, src | dst = ToPropertyKey(src) | 0 |
//! | `Jump` | t | pc = t | 1 if backward |
//! | `JumpIfTrue` / `JumpIfFalse` | src, t | jump on ToBoolean(src) | 1 if backward |
//! | `JumpIfNullish` / `JumpIfNotNullish` / `JumpIfNotUndefined` | src, t | jump on src's kind | 0 |
//! | `JumpUnlessCompare` | op, a, b, t | jump when `a op b` is false (comparisons; `if`/loop tests) | 1 if backward |
//! | `JumpUnlessCompareInt` | op, a, int, t | jump when `a op int` is false | 1 if backward |
//! | `NewObject` / `NewArray` | dst | dst = {} / [] | 0 |
//! | `ArrayPush` | arr, src | append src (literal element) | 0 |
//! | `ArrayHole` | arr | append a hole (`undefined`) | 0 |
//! | `ArraySpread` | arr, src | append every element of iterable src | n |
//! | `ObjectSpread` | obj, src | copy src's own enumerable properties | n |
//! | `GetNamed` | dst, obj, k | dst = obj.pool[k] (getters run as calls) | 0 |
//! | `SetNamed` | obj, k, src | obj.pool[k] = src (setters run as calls) | 0 |
//! | `GetIndex` | dst, obj, key | dst = obj[key] | 0 |
//! | `SetIndex` | obj, key, src | obj[key] = src | 0 |
//! | `DefineNamed` / `DefineIndex` | obj, k / key, src | define own data property (object literals) | 0 |
//! | `DefineGetter` / `DefineSetter` | obj, key, func | define accessor half on obj | 0 |
//! | `Delete` | dst, obj, key | dst = delete obj[key] | 0 |
//! | `Call` | dst, callee, this, args, argc | dst = callee.call(this, r[args..args+argc]) | 1 |
//! | `CallPlain` | dst, callee, args, argc | `Call` with `this` undefined (`f(x)`: no register to load) | 1 |
//! | `CallSelf` | dst, args, argc | `CallPlain` of the closure being run (a recursive function calling itself by its own name: no callee register to load or check) | 1 |
//! | `CallSpread` | dst, callee, this, arr | like `Call` with the elements of array arr as arguments | 1 + n |
//! | `New` / `NewSpread` | dst, callee, args, argc / arr | dst = new callee(...) | 1 (+ n) |
//! | `Return` | src | return src to the caller | 0 |
//! | `Await` | dst, src | suspend the async function until src settles; dst = value or throw | 0 |
//! | `GeneratorStart` | | end of a generator function's prologue (parameters bound): the frame is saved in a new generator object, which goes to the caller | 0 |
//! | `Yield` | dst, mode, src | suspend the generator, giving src to its caller; on resumption dst = the value sent and mode = whether `return()` resumed it (`throw()` throws at the yield) | 1 |
//! | `IterClose` | iter | close iter when leaving a for-of early: a suspended generator runs its `return()` (finally blocks), an async one has it queued; other iterators: nothing | 1 when it resumes a generator |
//! | `Throw` | src | throw src | 0 |
//! | `ThrowError` | kind, k | throw a new kind Error with message pool[k] | 0 |
//! | `GetIterator` | dst, src | dst = iterator over src for for-of and destructuring: over a plain array, an allocation-free iterator value that only `IterNext`, `IterRest` and `IterClose` read | 0 |
//! | `GetIteratorObject` | dst, src | dst = iterator object over src (`yield*`, which reads its `next`, `throw` and `return` as properties) | 0 |
//! | `GetAsyncIterator` | dst, src | dst = iterator of `for await` over src: its `[Symbol.asyncIterator]()`, else as `GetIterator` | 0 |
//! | `IterNext` | dst, iter, t | dst = next value, or jump to t when done | 0 |
//! | `ForInKeys` | dst, src | dst = iterator over src's enumerable string keys | n |
//! | `IterRest` | dst, iter | dst = array of the remaining values | n |
//! | `ObjectRest` | dst, src, excl, n | dst = copy of src without keys r[excl..excl+n] | n |
//! | `LoadThis` | dst | dst = this | 0 |
//! | `LoadCallee` | dst | dst = the closure being run (named function expressions, a declared function's own name) | 0 |
//! | `Regex` | dst, k | dst = new RegExp(pool[k]) | 0 |
//! | `TemplateToString` | dst, src | dst = src made ready for the template literal's string `+` that always follows: ToString(src) for an object (may run user code) or a symbol (TypeError); any other primitive is left for the `+` to convert | 0 |
//! | `Concat` | dst, start, count | dst = the strings of r[start..start+count] joined (each a string or a primitive printed as ToString does: a template literal's pieces) | n + bytes |
//! | `Class` | dst, f, parent, fields | dst = new class with constructor f, extending parent (uninit: none), instance field initializer fields (undefined: none) | 0 |
//! | `DefineMethod` | obj, key, func, kind | define a non-enumerable method (kind 0), getter (1) or setter (2) on obj, or half of private accessor key (3 getter, 4 setter) | 0 |
//! | `SuperCall` / `SuperCallSpread` | dst, args, argc / arr | construct the parent class with this `new.target`; binds `this`; dst = this | 1 (+ n) |
//! | `GetSuper` | dst, home, key | dst = property key of home's prototype, getters called with `this` | 0 |
//! | `GetPrivate` / `SetPrivate` / `DefinePrivate` | dst, obj, key / obj, key, src | read / write / add obj's private name key (TypeError if absent / present) | 0 |
//! | `HasPrivate` | dst, obj, key | dst = whether obj has private name key (`#x in obj`) | 0 |
//! | `NewTarget` | dst | dst = `new.target` | 0 |
//! | `SetProto` | obj, src | obj's prototype = src when src is an object or null (`__proto__: v` in a literal) | 0 |
//! | `Nop` | | nothing (patched-out code) | 0 |
//! | `LoadInternal` | dst, k | dst = the VM's internal helper named pool[k] (`#internal.*`, e.g. what `using` declarations are lowered to; no program can name one), or the symbol `Symbol.asyncIterator` for the name `ASYNC_ITERATOR_SYMBOL` | 0 |
//!
//! Exceptions use a handler table per function ([`Handler`]): a throw inside `start..end` jumps to
//! `target` with the exception in `exception`; innermost handlers come first.

use serde::{Deserialize, Serialize};

pub use codemode_ir::{ClassKind, Span};

/// A register index within the current function's window.
pub type Reg = u16;
/// An index into the current function's constant pool.
pub type ConstIdx = u32;
/// An absolute instruction index within the current function.
pub type Target = u32;

/// Binary and unary operators are the IR's own (one definition for both layers).
pub use codemode_ir::{BinaryOp as BinOp, UnaryOp as UnOp};

/// The error constructors `ThrowError` can raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ErrorKind {
    Error,
    TypeError,
    ReferenceError,
    RangeError,
    SyntaxError,
}

/// One instruction. See the module docs for the table of operands, effects and fuel.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Op {
    LoadUndef { dst: Reg },
    LoadNull { dst: Reg },
    LoadTrue { dst: Reg },
    LoadFalse { dst: Reg },
    LoadUninit { dst: Reg },
    LoadInt { dst: Reg, value: i32 },
    LoadConst { dst: Reg, k: ConstIdx },
    Move { dst: Reg, src: Reg },
    CheckTdz { src: Reg, k: ConstIdx },
    GetGlobal { dst: Reg, k: ConstIdx },
    TypeofGlobal { dst: Reg, k: ConstIdx },
    NewCell { dst: Reg },
    LoadCell { dst: Reg, cell: Reg },
    StoreCell { cell: Reg, src: Reg },
    LoadCapture { dst: Reg, capture: u16 },
    StoreCapture { capture: u16, src: Reg },
    Closure { dst: Reg, func: u32 },
    Binary { op: BinOp, dst: Reg, a: Reg, b: Reg },
    BinaryInt { op: BinOp, dst: Reg, a: Reg, int: i32 },
    Unary { op: UnOp, dst: Reg, src: Reg },
    Inc { dst: Reg, src: Reg },
    Dec { dst: Reg, src: Reg },
    ToNumeric { dst: Reg, src: Reg },
    ToPropertyKey { dst: Reg, src: Reg },
    Jump { target: Target },
    JumpIfTrue { src: Reg, target: Target },
    JumpIfFalse { src: Reg, target: Target },
    JumpIfNullish { src: Reg, target: Target },
    JumpIfNotNullish { src: Reg, target: Target },
    JumpIfNotUndefined { src: Reg, target: Target },
    JumpUnlessCompare { op: BinOp, a: Reg, b: Reg, target: Target },
    JumpUnlessCompareInt { op: BinOp, a: Reg, int: i32, target: Target },
    NewObject { dst: Reg },
    NewArray { dst: Reg },
    ArrayPush { arr: Reg, src: Reg },
    ArrayHole { arr: Reg },
    ArraySpread { arr: Reg, src: Reg },
    ObjectSpread { obj: Reg, src: Reg },
    GetNamed { dst: Reg, obj: Reg, k: ConstIdx },
    SetNamed { obj: Reg, k: ConstIdx, src: Reg },
    GetIndex { dst: Reg, obj: Reg, key: Reg },
    SetIndex { obj: Reg, key: Reg, src: Reg },
    DefineNamed { obj: Reg, k: ConstIdx, src: Reg },
    DefineIndex { obj: Reg, key: Reg, src: Reg },
    DefineGetter { obj: Reg, key: Reg, func: Reg },
    DefineSetter { obj: Reg, key: Reg, func: Reg },
    Delete { dst: Reg, obj: Reg, key: Reg },
    Call { dst: Reg, callee: Reg, this: Reg, args: Reg, argc: u16 },
    CallPlain { dst: Reg, callee: Reg, args: Reg, argc: u16 },
    CallSelf { dst: Reg, args: Reg, argc: u16 },
    CallSpread { dst: Reg, callee: Reg, this: Reg, arr: Reg },
    New { dst: Reg, callee: Reg, args: Reg, argc: u16 },
    NewSpread { dst: Reg, callee: Reg, arr: Reg },
    Return { src: Reg },
    Await { dst: Reg, src: Reg },
    GeneratorStart,
    Yield { dst: Reg, mode: Reg, src: Reg },
    IterClose { iter: Reg },
    Throw { src: Reg },
    ThrowError { kind: ErrorKind, k: ConstIdx },
    GetIterator { dst: Reg, src: Reg },
    GetIteratorObject { dst: Reg, src: Reg },
    GetAsyncIterator { dst: Reg, src: Reg },
    IterNext { dst: Reg, iter: Reg, target: Target },
    ForInKeys { dst: Reg, src: Reg },
    IterRest { dst: Reg, iter: Reg },
    ObjectRest { dst: Reg, src: Reg, excluded: Reg, count: u16 },
    LoadThis { dst: Reg },
    LoadCallee { dst: Reg },
    Regex { dst: Reg, k: ConstIdx },
    TemplateToString { dst: Reg, src: Reg },
    Concat { dst: Reg, start: Reg, count: u16 },
    Class { dst: Reg, func: u32, parent: Reg, fields: Reg },
    DefineMethod { obj: Reg, key: Reg, func: Reg, kind: u8 },
    SuperCall { dst: Reg, args: Reg, argc: u16 },
    SuperCallSpread { dst: Reg, arr: Reg },
    GetSuper { dst: Reg, home: Reg, key: Reg },
    GetPrivate { dst: Reg, obj: Reg, key: Reg },
    SetPrivate { obj: Reg, key: Reg, src: Reg },
    DefinePrivate { obj: Reg, key: Reg, src: Reg },
    HasPrivate { dst: Reg, obj: Reg, key: Reg },
    NewTarget { dst: Reg },
    SetProto { obj: Reg, src: Reg },
    Nop,
    LoadInternal { dst: Reg, k: ConstIdx },
}

/// The `LoadInternal` name that loads the well-known symbol `Symbol.asyncIterator` (for
/// `yield*` in an async generator, which looks the method up itself).
pub const ASYNC_ITERATOR_SYMBOL: &str = "#internal.Symbol.asyncIterator";

/// `DefineMethod`'s kinds.
pub mod method_kind {
    pub const METHOD: u8 = 0;
    pub const GETTER: u8 = 1;
    pub const SETTER: u8 = 2;
    /// Half of a private accessor (`get #x() {}`), defined on the instance being initialized.
    pub const PRIVATE_GETTER: u8 = 3;
    pub const PRIVATE_SETTER: u8 = 4;
}

/// A constant-pool entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Constant {
    /// Serialized as its IEEE-754 bits (exact for NaN and -0).
    Number(#[serde(with = "f64_bits")] f64),
    String(String),
    Regex {
        pattern: String,
        flags: String,
    },
    /// A BigInt literal as decimal digits (the verifier checks them).
    BigInt(String),
}

/// Where a closure's i-th capture comes from when the closure is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CaptureSource {
    /// The cell held in this register of the creating function.
    Register(Reg),
    /// The creating function's own capture.
    Capture(u16),
}

/// An exception handler: a throw while `start <= pc < end` jumps to `target`, storing the
/// thrown value in `exception`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handler {
    pub start: Target,
    pub end: Target,
    pub target: Target,
    pub exception: Reg,
}

/// One compiled function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionCode {
    pub name: Option<String>,
    pub param_count: u16,
    /// The function's `length`: the parameters before the first one with a default.
    #[serde(default)]
    pub length: u16,
    /// The register that receives an array of the arguments beyond `param_count`.
    pub rest: Option<Reg>,
    /// The register that receives an array of all arguments (functions that read `arguments`).
    pub arguments: Option<Reg>,
    pub register_count: u16,
    pub is_async: bool,
    /// `function*`: a call makes a generator object instead of running the body.
    #[serde(default)]
    pub is_generator: bool,
    pub is_arrow: bool,
    /// Class constructors can only be called with `new`; derived ones bind `this` in `super()`.
    #[serde(default)]
    pub class_kind: ClassKind,
    pub code: Vec<Op>,
    pub constants: Vec<Constant>,
    pub handlers: Vec<Handler>,
    pub captures: Vec<CaptureSource>,
    /// `(first instruction, span)` pairs in increasing instruction order.
    pub lines: Vec<(u32, Span)>,
    /// `(instruction, constant)` pairs naming the callee of a `Call`/`CallPlain`/`CallSpread`/`New` as written
    /// (`obj.method`), for `TypeError: obj.method is not a function`; increasing instruction order.
    #[serde(default)]
    pub callee_names: Vec<(u32, ConstIdx)>,
    pub span: Span,
}

impl FunctionCode {
    /// The callee name recorded for the call instruction at `pc`.
    pub fn callee_name(&self, pc: usize) -> Option<&str> {
        let i = self.callee_names.binary_search_by_key(&(pc as u32), |(p, _)| *p).ok()?;
        match self.constants.get(self.callee_names.get(i)?.1 as usize)? {
            Constant::String(s) => Some(s),
            _ => None,
        }
    }

    /// The source position of the instruction at `pc`.
    pub fn span_at(&self, pc: usize) -> Span {
        let i = self.lines.partition_point(|(start, _)| (*start as usize) <= pc);
        if i == 0 { self.span } else { self.lines[i - 1].1 }
    }
}

/// A compiled program: `functions[0]` is the top-level async script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Module {
    pub functions: Vec<FunctionCode>,
}

/// Serde adapter storing an `f64` as its bit pattern (exact for NaN and -0, which JSON cannot
/// carry); the VM's state uses it too.
pub mod f64_bits {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(n: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(n.to_bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(f64::from_bits(u64::deserialize(d)?))
    }
}
