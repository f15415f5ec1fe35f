//! Bytecode verification: every register, constant, capture, function and jump target an
//! instruction names is in range. The VM verifies a module once before running it, so the
//! interpreter's indexing cannot go out of bounds on any module, compiled or decoded.

use crate::bytecode::{Constant, FunctionCode, Module, Op};

/// Checks `module`; the error names the function and instruction at fault.
pub fn verify(module: &Module) -> Result<(), String> {
    if module.functions.is_empty() {
        return Err("module has no functions".into());
    }
    for (fi, f) in module.functions.iter().enumerate() {
        verify_function(module, f).map_err(|e| format!("function {fi}: {e}"))?;
    }
    Ok(())
}

fn verify_function(module: &Module, f: &FunctionCode) -> Result<(), String> {
    let regs = f.register_count as u32;
    let code_len = f.code.len() as u32;
    let consts = f.constants.len() as u32;
    let reg = |r: u16| if (r as u32) < regs { Ok(()) } else { Err(format!("register r{r} out of range")) };
    let range = |start: u16, n: u16| {
        if start as u32 + n as u32 <= regs {
            Ok(())
        } else {
            Err(format!("register range r{start}+{n} out of range"))
        }
    };
    let k = |i: u32| if i < consts { Ok(()) } else { Err(format!("constant k{i} out of range")) };
    let string_k = |i: u32| match f.constants.get(i as usize) {
        Some(Constant::String(_)) => Ok(()),
        _ => Err(format!("constant k{i} is not a string")),
    };
    let target = |t: u32| if t <= code_len { Ok(()) } else { Err(format!("jump target {t} out of range")) };
    if f.param_count as u32 > regs {
        return Err("more parameters than registers".into());
    }
    for r in [f.rest, f.arguments].into_iter().flatten() {
        reg(r)?;
    }
    // Capture sources name registers of the *creating* function; the VM reads them with a
    // bounds check, so they are not verified here.
    for &(_, k) in &f.callee_names {
        string_k(k)?;
    }
    for h in &f.handlers {
        reg(h.exception)?;
        target(h.target)?;
        target(h.end)?;
    }
    for (pc, op) in f.code.iter().enumerate() {
        let r = match *op {
            Op::LoadUndef { dst }
            | Op::LoadNull { dst }
            | Op::LoadTrue { dst }
            | Op::LoadFalse { dst }
            | Op::LoadUninit { dst }
            | Op::LoadInt { dst, .. }
            | Op::NewCell { dst }
            | Op::NewObject { dst }
            | Op::NewArray { dst }
            | Op::LoadThis { dst }
            | Op::LoadCallee { dst } => reg(dst),
            Op::LoadConst { dst, k: i } => reg(dst).and(k(i)),
            Op::Move { dst, src }
            | Op::LoadCell { dst, cell: src }
            | Op::Unary { dst, src, .. }
            | Op::Inc { dst, src }
            | Op::Dec { dst, src }
            | Op::ToNumeric { dst, src }
            | Op::ToPropertyKey { dst, src }
            | Op::Await { dst, src }
            | Op::GetIterator { dst, src }
            | Op::ForInKeys { dst, src }
            | Op::IterRest { dst, iter: src }
            | Op::TemplateToString { dst, src } => reg(dst).and(reg(src)),
            Op::StoreCell { cell, src } => reg(cell).and(reg(src)),
            Op::CheckTdz { src, k: i } => reg(src).and(string_k(i)),
            Op::GetGlobal { dst, k: i } | Op::TypeofGlobal { dst, k: i } => reg(dst).and(string_k(i)),
            Op::LoadCapture { dst, .. } => reg(dst),
            Op::StoreCapture { src, .. } => reg(src),
            Op::Closure { dst, func } => {
                reg(dst)?;
                if (func as usize) < module.functions.len() {
                    Ok(())
                } else {
                    Err(format!("function {func} out of range"))
                }
            }
            Op::Binary { dst, a, b, .. } => reg(dst).and(reg(a)).and(reg(b)),
            Op::BinaryInt { dst, a, .. } => reg(dst).and(reg(a)),
            Op::Jump { target: t } => target(t),
            Op::JumpIfTrue { src, target: t }
            | Op::JumpIfFalse { src, target: t }
            | Op::JumpIfNullish { src, target: t }
            | Op::JumpIfNotNullish { src, target: t }
            | Op::JumpIfNotUndefined { src, target: t } => reg(src).and(target(t)),
            Op::JumpUnlessCompare { a, b, target: t, .. } => reg(a).and(reg(b)).and(target(t)),
            Op::JumpUnlessCompareInt { a, target: t, .. } => reg(a).and(target(t)),
            Op::ArrayPush { arr, src }
            | Op::ArraySpread { arr, src }
            | Op::ObjectSpread { obj: arr, src } => reg(arr).and(reg(src)),
            Op::ArrayHole { arr } => reg(arr),
            Op::GetNamed { dst, obj, k: i } => reg(dst).and(reg(obj)).and(string_k(i)),
            Op::SetNamed { obj, k: i, src } | Op::DefineNamed { obj, k: i, src } => {
                reg(obj).and(reg(src)).and(string_k(i))
            }
            Op::GetIndex { dst, obj, key } | Op::Delete { dst, obj, key } => {
                reg(dst).and(reg(obj)).and(reg(key))
            }
            Op::SetIndex { obj, key, src } | Op::DefineIndex { obj, key, src } => {
                reg(obj).and(reg(key)).and(reg(src))
            }
            Op::DefineGetter { obj, key, func } | Op::DefineSetter { obj, key, func } => {
                reg(obj).and(reg(key)).and(reg(func))
            }
            Op::Call { dst, callee, this, args, argc } => {
                reg(dst).and(reg(callee)).and(reg(this)).and(range(args, argc))
            }
            Op::CallSpread { dst, callee, this, arr } => {
                reg(dst).and(reg(callee)).and(reg(this)).and(reg(arr))
            }
            Op::New { dst, callee, args, argc } => reg(dst).and(reg(callee)).and(range(args, argc)),
            Op::NewSpread { dst, callee, arr } => reg(dst).and(reg(callee)).and(reg(arr)),
            Op::Return { src } | Op::Throw { src } => reg(src),
            Op::ThrowError { k: i, .. } => string_k(i),
            Op::IterNext { dst, iter, target: t } => reg(dst).and(reg(iter)).and(target(t)),
            Op::ObjectRest { dst, src, excluded, count } => {
                reg(dst).and(reg(src)).and(range(excluded, count))
            }
            Op::Regex { dst, k: i } => reg(dst).and(k(i)),
            Op::Nop => Ok(()),
        };
        r.map_err(|e| format!("instruction {pc}: {e}"))?;
    }
    Ok(())
}
