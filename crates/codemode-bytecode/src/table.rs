//! The opcode table as data: each instruction's name, operands (with their kinds) and fuel class.
//! The verifier checks operands by kind and the disassembler prints them by kind, so neither can
//! forget an operand of a new instruction; a test checks that the documentation table in
//! [`crate::op`] lists every opcode.

use smallvec::SmallVec;

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
            Op::CallPlain { .. } => "CallPlain",
            Op::CallSelf { .. } => "CallSelf",
            Op::CallSpread { .. } => "CallSpread",
            Op::New { .. } => "New",
            Op::NewSpread { .. } => "NewSpread",
            Op::Return { .. } => "Return",
            Op::Await { .. } => "Await",
            Op::GeneratorStart => "GeneratorStart",
            Op::Yield { .. } => "Yield",
            Op::IterClose { .. } => "IterClose",
            Op::Throw { .. } => "Throw",
            Op::ThrowError { .. } => "ThrowError",
            Op::GetIterator { .. } => "GetIterator",
            Op::GetIteratorObject { .. } => "GetIteratorObject",
            Op::GetAsyncIterator { .. } => "GetAsyncIterator",
            Op::IterNext { .. } => "IterNext",
            Op::ForInKeys { .. } => "ForInKeys",
            Op::IterRest { .. } => "IterRest",
            Op::ObjectRest { .. } => "ObjectRest",
            Op::LoadThis { .. } => "LoadThis",
            Op::LoadCallee { .. } => "LoadCallee",
            Op::Regex { .. } => "Regex",
            Op::TemplateToString { .. } => "TemplateToString",
            Op::Concat { .. } => "Concat",
            Op::Class { .. } => "Class",
            Op::DefineMethod { .. } => "DefineMethod",
            Op::SuperCall { .. } => "SuperCall",
            Op::SuperCallSpread { .. } => "SuperCallSpread",
            Op::GetSuper { .. } => "GetSuper",
            Op::GetPrivate { .. } => "GetPrivate",
            Op::SetPrivate { .. } => "SetPrivate",
            Op::DefinePrivate { .. } => "DefinePrivate",
            Op::HasPrivate { .. } => "HasPrivate",
            Op::NewTarget { .. } => "NewTarget",
            Op::SetProto { .. } => "SetProto",
            Op::Nop => "Nop",
            Op::LoadInternal { .. } => "LoadInternal",
        }
    }

    /// Calls `f` with every operand and its kind, in field order (no allocation: the verifier
    /// runs this on every instruction of every module).
    #[inline]
    pub fn visit_operands(&self, mut f: impl FnMut(&'static str, Operand)) {
        match *self {
            Op::LoadUndef { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::LoadNull { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::LoadTrue { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::LoadFalse { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::LoadUninit { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::LoadInt { dst, value } => {
                f("dst", Operand::Reg(dst));
                f("value", Operand::Int(value));
            }
            Op::LoadConst { dst, k } => {
                f("dst", Operand::Reg(dst));
                f("k", Operand::Const(k));
            }
            Op::Move { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::CheckTdz { src, k } => {
                f("src", Operand::Reg(src));
                f("k", Operand::Str(k));
            }
            Op::GetGlobal { dst, k } => {
                f("dst", Operand::Reg(dst));
                f("k", Operand::Str(k));
            }
            Op::TypeofGlobal { dst, k } => {
                f("dst", Operand::Reg(dst));
                f("k", Operand::Str(k));
            }
            Op::NewCell { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::LoadCell { dst, cell } => {
                f("dst", Operand::Reg(dst));
                f("cell", Operand::Reg(cell));
            }
            Op::StoreCell { cell, src } => {
                f("cell", Operand::Reg(cell));
                f("src", Operand::Reg(src));
            }
            Op::LoadCapture { dst, capture } => {
                f("dst", Operand::Reg(dst));
                f("capture", Operand::Capture(capture));
            }
            Op::StoreCapture { capture, src } => {
                f("capture", Operand::Capture(capture));
                f("src", Operand::Reg(src));
            }
            Op::Closure { dst, func } => {
                f("dst", Operand::Reg(dst));
                f("func", Operand::Func(func));
            }
            Op::Binary { op, dst, a, b } => {
                f("op", Operand::Bin(op));
                f("dst", Operand::Reg(dst));
                f("a", Operand::Reg(a));
                f("b", Operand::Reg(b));
            }
            Op::BinaryInt { op, dst, a, int } => {
                f("op", Operand::Bin(op));
                f("dst", Operand::Reg(dst));
                f("a", Operand::Reg(a));
                f("int", Operand::Int(int));
            }
            Op::Unary { op, dst, src } => {
                f("op", Operand::Un(op));
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::Inc { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::Dec { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::ToNumeric { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::ToPropertyKey { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::Jump { target } => {
                f("target", Operand::Target(target));
            }
            Op::JumpIfTrue { src, target } => {
                f("src", Operand::Reg(src));
                f("target", Operand::Target(target));
            }
            Op::JumpIfFalse { src, target } => {
                f("src", Operand::Reg(src));
                f("target", Operand::Target(target));
            }
            Op::JumpIfNullish { src, target } => {
                f("src", Operand::Reg(src));
                f("target", Operand::Target(target));
            }
            Op::JumpIfNotNullish { src, target } => {
                f("src", Operand::Reg(src));
                f("target", Operand::Target(target));
            }
            Op::JumpIfNotUndefined { src, target } => {
                f("src", Operand::Reg(src));
                f("target", Operand::Target(target));
            }
            Op::JumpUnlessCompare { op, a, b, target } => {
                f("op", Operand::Bin(op));
                f("a", Operand::Reg(a));
                f("b", Operand::Reg(b));
                f("target", Operand::Target(target));
            }
            Op::JumpUnlessCompareInt { op, a, int, target } => {
                f("op", Operand::Bin(op));
                f("a", Operand::Reg(a));
                f("int", Operand::Int(int));
                f("target", Operand::Target(target));
            }
            Op::NewObject { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::NewArray { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::ArrayPush { arr, src } => {
                f("arr", Operand::Reg(arr));
                f("src", Operand::Reg(src));
            }
            Op::ArrayHole { arr } => {
                f("arr", Operand::Reg(arr));
            }
            Op::ArraySpread { arr, src } => {
                f("arr", Operand::Reg(arr));
                f("src", Operand::Reg(src));
            }
            Op::ObjectSpread { obj, src } => {
                f("obj", Operand::Reg(obj));
                f("src", Operand::Reg(src));
            }
            Op::GetNamed { dst, obj, k } => {
                f("dst", Operand::Reg(dst));
                f("obj", Operand::Reg(obj));
                f("k", Operand::Str(k));
            }
            Op::SetNamed { obj, k, src } => {
                f("obj", Operand::Reg(obj));
                f("k", Operand::Str(k));
                f("src", Operand::Reg(src));
            }
            Op::GetIndex { dst, obj, key } => {
                f("dst", Operand::Reg(dst));
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
            }
            Op::SetIndex { obj, key, src } => {
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
                f("src", Operand::Reg(src));
            }
            Op::DefineNamed { obj, k, src } => {
                f("obj", Operand::Reg(obj));
                f("k", Operand::Str(k));
                f("src", Operand::Reg(src));
            }
            Op::DefineIndex { obj, key, src } => {
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
                f("src", Operand::Reg(src));
            }
            Op::DefineGetter { obj, key, func } => {
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
                f("func", Operand::Reg(func));
            }
            Op::DefineSetter { obj, key, func } => {
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
                f("func", Operand::Reg(func));
            }
            Op::Delete { dst, obj, key } => {
                f("dst", Operand::Reg(dst));
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
            }
            Op::Call { dst, callee, this, args, argc } => {
                f("dst", Operand::Reg(dst));
                f("callee", Operand::Reg(callee));
                f("this", Operand::Reg(this));
                f("args", Operand::Regs { start: args, count: argc });
            }
            Op::CallPlain { dst, callee, args, argc } => {
                f("dst", Operand::Reg(dst));
                f("callee", Operand::Reg(callee));
                f("args", Operand::Regs { start: args, count: argc });
            }
            Op::CallSelf { dst, args, argc } => {
                f("dst", Operand::Reg(dst));
                f("args", Operand::Regs { start: args, count: argc });
            }
            Op::CallSpread { dst, callee, this, arr } => {
                f("dst", Operand::Reg(dst));
                f("callee", Operand::Reg(callee));
                f("this", Operand::Reg(this));
                f("arr", Operand::Reg(arr));
            }
            Op::New { dst, callee, args, argc } => {
                f("dst", Operand::Reg(dst));
                f("callee", Operand::Reg(callee));
                f("args", Operand::Regs { start: args, count: argc });
            }
            Op::NewSpread { dst, callee, arr } => {
                f("dst", Operand::Reg(dst));
                f("callee", Operand::Reg(callee));
                f("arr", Operand::Reg(arr));
            }
            Op::Return { src } => {
                f("src", Operand::Reg(src));
            }
            Op::Await { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::GeneratorStart => {}
            Op::Yield { dst, mode, src } => {
                f("dst", Operand::Reg(dst));
                f("mode", Operand::Reg(mode));
                f("src", Operand::Reg(src));
            }
            Op::IterClose { iter } => {
                f("iter", Operand::Reg(iter));
            }
            Op::Throw { src } => {
                f("src", Operand::Reg(src));
            }
            Op::ThrowError { kind, k } => {
                f("kind", Operand::Error(kind));
                f("k", Operand::Str(k));
            }
            Op::GetIterator { dst, src }
            | Op::GetIteratorObject { dst, src }
            | Op::GetAsyncIterator { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::IterNext { dst, iter, target } => {
                f("dst", Operand::Reg(dst));
                f("iter", Operand::Reg(iter));
                f("target", Operand::Target(target));
            }
            Op::ForInKeys { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::IterRest { dst, iter } => {
                f("dst", Operand::Reg(dst));
                f("iter", Operand::Reg(iter));
            }
            Op::ObjectRest { dst, src, excluded, count } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
                f("excluded", Operand::Regs { start: excluded, count });
            }
            Op::LoadThis { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::LoadCallee { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::Regex { dst, k } => {
                f("dst", Operand::Reg(dst));
                f("k", Operand::Const(k));
            }
            Op::TemplateToString { dst, src } => {
                f("dst", Operand::Reg(dst));
                f("src", Operand::Reg(src));
            }
            Op::Concat { dst, start, count } => {
                f("dst", Operand::Reg(dst));
                f("pieces", Operand::Regs { start, count });
            }
            Op::Class { dst, func, parent, fields } => {
                f("dst", Operand::Reg(dst));
                f("func", Operand::Func(func));
                f("parent", Operand::Reg(parent));
                f("fields", Operand::Reg(fields));
            }
            Op::DefineMethod { obj, key, func, kind } => {
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
                f("func", Operand::Reg(func));
                f("kind", Operand::Int(i32::from(kind)));
            }
            Op::SuperCall { dst, args, argc } => {
                f("dst", Operand::Reg(dst));
                f("args", Operand::Regs { start: args, count: argc });
            }
            Op::SuperCallSpread { dst, arr } => {
                f("dst", Operand::Reg(dst));
                f("arr", Operand::Reg(arr));
            }
            Op::GetSuper { dst, home, key } => {
                f("dst", Operand::Reg(dst));
                f("home", Operand::Reg(home));
                f("key", Operand::Reg(key));
            }
            Op::GetPrivate { dst, obj, key } | Op::HasPrivate { dst, obj, key } => {
                f("dst", Operand::Reg(dst));
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
            }
            Op::SetPrivate { obj, key, src } | Op::DefinePrivate { obj, key, src } => {
                f("obj", Operand::Reg(obj));
                f("key", Operand::Reg(key));
                f("src", Operand::Reg(src));
            }
            Op::NewTarget { dst } => {
                f("dst", Operand::Reg(dst));
            }
            Op::SetProto { obj, src } => {
                f("obj", Operand::Reg(obj));
                f("src", Operand::Reg(src));
            }
            Op::Nop => {}
            Op::LoadInternal { dst, k } => {
                f("dst", Operand::Reg(dst));
                f("k", Operand::Const(k));
            }
        }
    }

    /// Every operand with its kind, in field order.
    pub fn operands(&self) -> Operands {
        let mut out = Operands::new();
        self.visit_operands(|name, operand| out.push((name, operand)));
        out
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
            Op::Call { .. } | Op::CallPlain { .. } | Op::CallSelf { .. } => Fuel::Call,
            Op::CallSpread { .. } => Fuel::CallPerElement,
            Op::New { .. } => Fuel::Call,
            Op::NewSpread { .. } => Fuel::CallPerElement,
            Op::Return { .. } => Fuel::Free,
            Op::Await { .. } => Fuel::Free,
            Op::GeneratorStart => Fuel::Free,
            Op::Yield { .. } | Op::IterClose { .. } => Fuel::Call,
            Op::Throw { .. } => Fuel::Free,
            Op::ThrowError { .. } => Fuel::Free,
            Op::GetIterator { .. } | Op::GetIteratorObject { .. } | Op::GetAsyncIterator { .. } => Fuel::Free,
            Op::IterNext { .. } => Fuel::Free,
            Op::ForInKeys { .. } => Fuel::PerElement,
            Op::IterRest { .. } => Fuel::PerElement,
            Op::ObjectRest { .. } => Fuel::PerElement,
            Op::LoadThis { .. } => Fuel::Free,
            Op::LoadCallee { .. } => Fuel::Free,
            Op::Regex { .. } => Fuel::Free,
            Op::TemplateToString { .. } => Fuel::Free,
            Op::Concat { .. } => Fuel::PerElement,
            Op::Class { .. } | Op::DefineMethod { .. } | Op::GetSuper { .. } => Fuel::Free,
            Op::GetPrivate { .. } | Op::SetPrivate { .. } | Op::DefinePrivate { .. } => Fuel::Free,
            Op::HasPrivate { .. } | Op::NewTarget { .. } | Op::SetProto { .. } => Fuel::Free,
            Op::SuperCall { .. } => Fuel::Call,
            Op::SuperCallSpread { .. } => Fuel::CallPerElement,
            Op::Nop => Fuel::Free,
            Op::LoadInternal { .. } => Fuel::Free,
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
    "CallPlain",
    "CallSelf",
    "CallSpread",
    "New",
    "NewSpread",
    "Return",
    "Await",
    "GeneratorStart",
    "Yield",
    "IterClose",
    "Throw",
    "ThrowError",
    "GetIterator",
    "GetIteratorObject",
    "GetAsyncIterator",
    "IterNext",
    "ForInKeys",
    "IterRest",
    "ObjectRest",
    "LoadThis",
    "LoadCallee",
    "Regex",
    "TemplateToString",
    "Concat",
    "Class",
    "DefineMethod",
    "SuperCall",
    "SuperCallSpread",
    "GetSuper",
    "GetPrivate",
    "SetPrivate",
    "DefinePrivate",
    "HasPrivate",
    "NewTarget",
    "SetProto",
    "Nop",
    "LoadInternal",
];
