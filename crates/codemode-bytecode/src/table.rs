//! The opcode table as data: each instruction's name, operands (with their kinds) and fuel class.
//! The verifier checks operands by kind and the disassembler prints them by kind, so neither can
//! forget an operand of a new instruction; a test checks that the documentation table in
//! [`crate::op`] lists every opcode.

use smallvec::{SmallVec, smallvec};

use crate::op::{BinOp, ConstIdx, ErrorKind, Op, Reg, Target, UnOp};

/// One operand, by kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// A register of the current window.
    Reg(Reg),
    /// `count` consecutive registers from `start` (call arguments, excluded keys).
    Regs {
        start: Reg,
        count: u16,
    },
    /// Any constant-pool entry.
    Const(ConstIdx),
    /// A constant-pool entry that must be a string (names, messages).
    Str(ConstIdx),
    /// An instruction index of the current function.
    Target(Target),
    /// A function of the module.
    Func(u32),
    /// A capture of the running closure.
    Capture(u16),
    /// An immediate integer.
    Int(i32),
    Bin(BinOp),
    Un(UnOp),
    Error(ErrorKind),
}

/// What an instruction costs in fuel (see the table in [`crate::op`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fuel {
    /// Nothing: straight-line code is bounded by the program's size.
    Free,
    /// 1 when the jump goes backward (a loop).
    BackwardJump,
    /// 1 per call, plus the callee's own work.
    Call,
    /// A call plus its spread arguments.
    CallPerElement,
    /// In proportion to the elements or properties it visits.
    PerElement,
}

/// Operands of one instruction, named as the instruction's fields.
pub type Operands = SmallVec<[(&'static str, Operand); 5]>;

impl Op {
    /// The instruction's name as written in the table and the disassembly.
    pub fn name(&self) -> &'static str {
        match self {
            Op::LoadUndef { .. } => "LoadUndef",
            Op::LoadNull { .. } => "LoadNull",
            Op::LoadTrue { .. } => "LoadTrue",
            Op::LoadFalse { .. } => "LoadFalse",
            Op::LoadUninit { .. } => "LoadUninit",
            Op::LoadInt { .. } => "LoadInt",
            Op::LoadConst { .. } => "LoadConst",
            Op::Move { .. } => "Move",
            Op::CheckTdz { .. } => "CheckTdz",
            Op::GetGlobal { .. } => "GetGlobal",
            Op::TypeofGlobal { .. } => "TypeofGlobal",
            Op::NewCell { .. } => "NewCell",
            Op::LoadCell { .. } => "LoadCell",
            Op::StoreCell { .. } => "StoreCell",
            Op::LoadCapture { .. } => "LoadCapture",
            Op::StoreCapture { .. } => "StoreCapture",
            Op::Closure { .. } => "Closure",
            Op::Binary { .. } => "Binary",
            Op::BinaryInt { .. } => "BinaryInt",
            Op::Unary { .. } => "Unary",
            Op::Inc { .. } => "Inc",
            Op::Dec { .. } => "Dec",
            Op::ToNumeric { .. } => "ToNumeric",
            Op::ToPropertyKey { .. } => "ToPropertyKey",
            Op::Jump { .. } => "Jump",
            Op::JumpIfTrue { .. } => "JumpIfTrue",
            Op::JumpIfFalse { .. } => "JumpIfFalse",
            Op::JumpIfNullish { .. } => "JumpIfNullish",
            Op::JumpIfNotNullish { .. } => "JumpIfNotNullish",
            Op::JumpIfNotUndefined { .. } => "JumpIfNotUndefined",
            Op::JumpUnlessCompare { .. } => "JumpUnlessCompare",
            Op::JumpUnlessCompareInt { .. } => "JumpUnlessCompareInt",
            Op::NewObject { .. } => "NewObject",
            Op::NewArray { .. } => "NewArray",
            Op::ArrayPush { .. } => "ArrayPush",
            Op::ArrayHole { .. } => "ArrayHole",
            Op::ArraySpread { .. } => "ArraySpread",
            Op::ObjectSpread { .. } => "ObjectSpread",
            Op::GetNamed { .. } => "GetNamed",
            Op::SetNamed { .. } => "SetNamed",
            Op::GetIndex { .. } => "GetIndex",
            Op::SetIndex { .. } => "SetIndex",
            Op::DefineNamed { .. } => "DefineNamed",
            Op::DefineIndex { .. } => "DefineIndex",
            Op::DefineGetter { .. } => "DefineGetter",
            Op::DefineSetter { .. } => "DefineSetter",
            Op::Delete { .. } => "Delete",
            Op::Call { .. } => "Call",
            Op::CallSpread { .. } => "CallSpread",
            Op::New { .. } => "New",
            Op::NewSpread { .. } => "NewSpread",
            Op::Return { .. } => "Return",
            Op::Await { .. } => "Await",
            Op::Throw { .. } => "Throw",
            Op::ThrowError { .. } => "ThrowError",
            Op::GetIterator { .. } => "GetIterator",
            Op::IterNext { .. } => "IterNext",
            Op::ForInKeys { .. } => "ForInKeys",
            Op::IterRest { .. } => "IterRest",
            Op::ObjectRest { .. } => "ObjectRest",
            Op::LoadThis { .. } => "LoadThis",
            Op::LoadCallee { .. } => "LoadCallee",
            Op::Regex { .. } => "Regex",
            Op::TemplateToString { .. } => "TemplateToString",
            Op::Nop => "Nop",
        }
    }

    /// Every operand with its kind, in field order.
    pub fn operands(&self) -> Operands {
        match *self {
            Op::LoadUndef { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::LoadNull { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::LoadTrue { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::LoadFalse { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::LoadUninit { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::LoadInt { dst, value } => {
                smallvec![("dst", Operand::Reg(dst)), ("value", Operand::Int(value))]
            }
            Op::LoadConst { dst, k } => smallvec![("dst", Operand::Reg(dst)), ("k", Operand::Const(k))],
            Op::Move { dst, src } => smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))],
            Op::CheckTdz { src, k } => smallvec![("src", Operand::Reg(src)), ("k", Operand::Str(k))],
            Op::GetGlobal { dst, k } => smallvec![("dst", Operand::Reg(dst)), ("k", Operand::Str(k))],
            Op::TypeofGlobal { dst, k } => smallvec![("dst", Operand::Reg(dst)), ("k", Operand::Str(k))],
            Op::NewCell { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::LoadCell { dst, cell } => smallvec![("dst", Operand::Reg(dst)), ("cell", Operand::Reg(cell))],
            Op::StoreCell { cell, src } => {
                smallvec![("cell", Operand::Reg(cell)), ("src", Operand::Reg(src))]
            }
            Op::LoadCapture { dst, capture } => {
                smallvec![("dst", Operand::Reg(dst)), ("capture", Operand::Capture(capture))]
            }
            Op::StoreCapture { capture, src } => {
                smallvec![("capture", Operand::Capture(capture)), ("src", Operand::Reg(src))]
            }
            Op::Closure { dst, func } => smallvec![("dst", Operand::Reg(dst)), ("func", Operand::Func(func))],
            Op::Binary { op, dst, a, b } => smallvec![
                ("op", Operand::Bin(op)),
                ("dst", Operand::Reg(dst)),
                ("a", Operand::Reg(a)),
                ("b", Operand::Reg(b))
            ],
            Op::BinaryInt { op, dst, a, int } => smallvec![
                ("op", Operand::Bin(op)),
                ("dst", Operand::Reg(dst)),
                ("a", Operand::Reg(a)),
                ("int", Operand::Int(int))
            ],
            Op::Unary { op, dst, src } => {
                smallvec![("op", Operand::Un(op)), ("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))]
            }
            Op::Inc { dst, src } => smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))],
            Op::Dec { dst, src } => smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))],
            Op::ToNumeric { dst, src } => smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))],
            Op::ToPropertyKey { dst, src } => {
                smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))]
            }
            Op::Jump { target } => smallvec![("target", Operand::Target(target))],
            Op::JumpIfTrue { src, target } => {
                smallvec![("src", Operand::Reg(src)), ("target", Operand::Target(target))]
            }
            Op::JumpIfFalse { src, target } => {
                smallvec![("src", Operand::Reg(src)), ("target", Operand::Target(target))]
            }
            Op::JumpIfNullish { src, target } => {
                smallvec![("src", Operand::Reg(src)), ("target", Operand::Target(target))]
            }
            Op::JumpIfNotNullish { src, target } => {
                smallvec![("src", Operand::Reg(src)), ("target", Operand::Target(target))]
            }
            Op::JumpIfNotUndefined { src, target } => {
                smallvec![("src", Operand::Reg(src)), ("target", Operand::Target(target))]
            }
            Op::JumpUnlessCompare { op, a, b, target } => smallvec![
                ("op", Operand::Bin(op)),
                ("a", Operand::Reg(a)),
                ("b", Operand::Reg(b)),
                ("target", Operand::Target(target))
            ],
            Op::JumpUnlessCompareInt { op, a, int, target } => smallvec![
                ("op", Operand::Bin(op)),
                ("a", Operand::Reg(a)),
                ("int", Operand::Int(int)),
                ("target", Operand::Target(target))
            ],
            Op::NewObject { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::NewArray { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::ArrayPush { arr, src } => smallvec![("arr", Operand::Reg(arr)), ("src", Operand::Reg(src))],
            Op::ArrayHole { arr } => smallvec![("arr", Operand::Reg(arr))],
            Op::ArraySpread { arr, src } => smallvec![("arr", Operand::Reg(arr)), ("src", Operand::Reg(src))],
            Op::ObjectSpread { obj, src } => {
                smallvec![("obj", Operand::Reg(obj)), ("src", Operand::Reg(src))]
            }
            Op::GetNamed { dst, obj, k } => {
                smallvec![("dst", Operand::Reg(dst)), ("obj", Operand::Reg(obj)), ("k", Operand::Str(k))]
            }
            Op::SetNamed { obj, k, src } => {
                smallvec![("obj", Operand::Reg(obj)), ("k", Operand::Str(k)), ("src", Operand::Reg(src))]
            }
            Op::GetIndex { dst, obj, key } => {
                smallvec![("dst", Operand::Reg(dst)), ("obj", Operand::Reg(obj)), ("key", Operand::Reg(key))]
            }
            Op::SetIndex { obj, key, src } => {
                smallvec![("obj", Operand::Reg(obj)), ("key", Operand::Reg(key)), ("src", Operand::Reg(src))]
            }
            Op::DefineNamed { obj, k, src } => {
                smallvec![("obj", Operand::Reg(obj)), ("k", Operand::Str(k)), ("src", Operand::Reg(src))]
            }
            Op::DefineIndex { obj, key, src } => {
                smallvec![("obj", Operand::Reg(obj)), ("key", Operand::Reg(key)), ("src", Operand::Reg(src))]
            }
            Op::DefineGetter { obj, key, func } => smallvec![
                ("obj", Operand::Reg(obj)),
                ("key", Operand::Reg(key)),
                ("func", Operand::Reg(func))
            ],
            Op::DefineSetter { obj, key, func } => smallvec![
                ("obj", Operand::Reg(obj)),
                ("key", Operand::Reg(key)),
                ("func", Operand::Reg(func))
            ],
            Op::Delete { dst, obj, key } => {
                smallvec![("dst", Operand::Reg(dst)), ("obj", Operand::Reg(obj)), ("key", Operand::Reg(key))]
            }
            Op::Call { dst, callee, this, args, argc } => smallvec![
                ("dst", Operand::Reg(dst)),
                ("callee", Operand::Reg(callee)),
                ("this", Operand::Reg(this)),
                ("args", Operand::Regs { start: args, count: argc })
            ],
            Op::CallSpread { dst, callee, this, arr } => smallvec![
                ("dst", Operand::Reg(dst)),
                ("callee", Operand::Reg(callee)),
                ("this", Operand::Reg(this)),
                ("arr", Operand::Reg(arr))
            ],
            Op::New { dst, callee, args, argc } => smallvec![
                ("dst", Operand::Reg(dst)),
                ("callee", Operand::Reg(callee)),
                ("args", Operand::Regs { start: args, count: argc })
            ],
            Op::NewSpread { dst, callee, arr } => smallvec![
                ("dst", Operand::Reg(dst)),
                ("callee", Operand::Reg(callee)),
                ("arr", Operand::Reg(arr))
            ],
            Op::Return { src } => smallvec![("src", Operand::Reg(src))],
            Op::Await { dst, src } => smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))],
            Op::Throw { src } => smallvec![("src", Operand::Reg(src))],
            Op::ThrowError { kind, k } => smallvec![("kind", Operand::Error(kind)), ("k", Operand::Str(k))],
            Op::GetIterator { dst, src } => smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))],
            Op::IterNext { dst, iter, target } => smallvec![
                ("dst", Operand::Reg(dst)),
                ("iter", Operand::Reg(iter)),
                ("target", Operand::Target(target))
            ],
            Op::ForInKeys { dst, src } => smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))],
            Op::IterRest { dst, iter } => smallvec![("dst", Operand::Reg(dst)), ("iter", Operand::Reg(iter))],
            Op::ObjectRest { dst, src, excluded, count } => smallvec![
                ("dst", Operand::Reg(dst)),
                ("src", Operand::Reg(src)),
                ("excluded", Operand::Regs { start: excluded, count })
            ],
            Op::LoadThis { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::LoadCallee { dst } => smallvec![("dst", Operand::Reg(dst))],
            Op::Regex { dst, k } => smallvec![("dst", Operand::Reg(dst)), ("k", Operand::Const(k))],
            Op::TemplateToString { dst, src } => {
                smallvec![("dst", Operand::Reg(dst)), ("src", Operand::Reg(src))]
            }
            Op::Nop => SmallVec::new(),
        }
    }

    /// The instruction's fuel class.
    pub fn fuel(&self) -> Fuel {
        match self {
            Op::LoadUndef { .. } => Fuel::Free,
            Op::LoadNull { .. } => Fuel::Free,
            Op::LoadTrue { .. } => Fuel::Free,
            Op::LoadFalse { .. } => Fuel::Free,
            Op::LoadUninit { .. } => Fuel::Free,
            Op::LoadInt { .. } => Fuel::Free,
            Op::LoadConst { .. } => Fuel::Free,
            Op::Move { .. } => Fuel::Free,
            Op::CheckTdz { .. } => Fuel::Free,
            Op::GetGlobal { .. } => Fuel::Free,
            Op::TypeofGlobal { .. } => Fuel::Free,
            Op::NewCell { .. } => Fuel::Free,
            Op::LoadCell { .. } => Fuel::Free,
            Op::StoreCell { .. } => Fuel::Free,
            Op::LoadCapture { .. } => Fuel::Free,
            Op::StoreCapture { .. } => Fuel::Free,
            Op::Closure { .. } => Fuel::Free,
            Op::Binary { .. } => Fuel::Free,
            Op::BinaryInt { .. } => Fuel::Free,
            Op::Unary { .. } => Fuel::Free,
            Op::Inc { .. } => Fuel::Free,
            Op::Dec { .. } => Fuel::Free,
            Op::ToNumeric { .. } => Fuel::Free,
            Op::ToPropertyKey { .. } => Fuel::Free,
            Op::Jump { .. } => Fuel::BackwardJump,
            Op::JumpIfTrue { .. } => Fuel::BackwardJump,
            Op::JumpIfFalse { .. } => Fuel::BackwardJump,
            Op::JumpIfNullish { .. } => Fuel::Free,
            Op::JumpIfNotNullish { .. } => Fuel::Free,
            Op::JumpIfNotUndefined { .. } => Fuel::Free,
            Op::JumpUnlessCompare { .. } => Fuel::BackwardJump,
            Op::JumpUnlessCompareInt { .. } => Fuel::BackwardJump,
            Op::NewObject { .. } => Fuel::Free,
            Op::NewArray { .. } => Fuel::Free,
            Op::ArrayPush { .. } => Fuel::Free,
            Op::ArrayHole { .. } => Fuel::Free,
            Op::ArraySpread { .. } => Fuel::PerElement,
            Op::ObjectSpread { .. } => Fuel::PerElement,
            Op::GetNamed { .. } => Fuel::Free,
            Op::SetNamed { .. } => Fuel::Free,
            Op::GetIndex { .. } => Fuel::Free,
            Op::SetIndex { .. } => Fuel::Free,
            Op::DefineNamed { .. } => Fuel::Free,
            Op::DefineIndex { .. } => Fuel::Free,
            Op::DefineGetter { .. } => Fuel::Free,
            Op::DefineSetter { .. } => Fuel::Free,
            Op::Delete { .. } => Fuel::Free,
            Op::Call { .. } => Fuel::Call,
            Op::CallSpread { .. } => Fuel::CallPerElement,
            Op::New { .. } => Fuel::Call,
            Op::NewSpread { .. } => Fuel::CallPerElement,
            Op::Return { .. } => Fuel::Free,
            Op::Await { .. } => Fuel::Free,
            Op::Throw { .. } => Fuel::Free,
            Op::ThrowError { .. } => Fuel::Free,
            Op::GetIterator { .. } => Fuel::Free,
            Op::IterNext { .. } => Fuel::Free,
            Op::ForInKeys { .. } => Fuel::PerElement,
            Op::IterRest { .. } => Fuel::PerElement,
            Op::ObjectRest { .. } => Fuel::PerElement,
            Op::LoadThis { .. } => Fuel::Free,
            Op::LoadCallee { .. } => Fuel::Free,
            Op::Regex { .. } => Fuel::Free,
            Op::TemplateToString { .. } => Fuel::Free,
            Op::Nop => Fuel::Free,
        }
    }
}

/// The name of every opcode, in declaration order (for the documentation test).
pub const OPCODE_NAMES: &[&str] = &[
    "LoadUndef",
    "LoadNull",
    "LoadTrue",
    "LoadFalse",
    "LoadUninit",
    "LoadInt",
    "LoadConst",
    "Move",
    "CheckTdz",
    "GetGlobal",
    "TypeofGlobal",
    "NewCell",
    "LoadCell",
    "StoreCell",
    "LoadCapture",
    "StoreCapture",
    "Closure",
    "Binary",
    "BinaryInt",
    "Unary",
    "Inc",
    "Dec",
    "ToNumeric",
    "ToPropertyKey",
    "Jump",
    "JumpIfTrue",
    "JumpIfFalse",
    "JumpIfNullish",
    "JumpIfNotNullish",
    "JumpIfNotUndefined",
    "JumpUnlessCompare",
    "JumpUnlessCompareInt",
    "NewObject",
    "NewArray",
    "ArrayPush",
    "ArrayHole",
    "ArraySpread",
    "ObjectSpread",
    "GetNamed",
    "SetNamed",
    "GetIndex",
    "SetIndex",
    "DefineNamed",
    "DefineIndex",
    "DefineGetter",
    "DefineSetter",
    "Delete",
    "Call",
    "CallSpread",
    "New",
    "NewSpread",
    "Return",
    "Await",
    "Throw",
    "ThrowError",
    "GetIterator",
    "IterNext",
    "ForInKeys",
    "IterRest",
    "ObjectRest",
    "LoadThis",
    "LoadCallee",
    "Regex",
    "TemplateToString",
    "Nop",
];
