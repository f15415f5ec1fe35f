//! Bytecode verification: every register, constant, capture, function and jump target an
//! instruction names is in range, checked operand by operand from the opcode table
//! ([`crate::table`]). [`VerifiedModule`](crate::VerifiedModule) is the only way to hand a module
//! to the VM, so the interpreter's indexing cannot go out of bounds on any module, compiled or
//! decoded.

use crate::op::{Constant, FunctionCode, Module};
use crate::table::Operand;

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
    let reg = |r: u16| if (r as u32) < regs { Ok(()) } else { Err(format!("register r{r} out of range")) };
    let string_k = |i: u32| match f.constants.get(i as usize) {
        Some(Constant::String(_)) => Ok(()),
        _ => Err(format!("constant k{i} is not a string")),
    };
    let target = |t: u32| if t <= code_len { Ok(()) } else { Err(format!("jump target {t} out of range")) };
    // BigInt constants are decimal digits, so the VM's parse cannot fail.
    for c in &f.constants {
        if let Constant::BigInt(digits) = c
            && (digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()))
        {
            return Err(format!("BigInt constant {digits:?} is not decimal digits"));
        }
    }
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
        let mut result = Ok(());
        op.visit_operands(|name, operand| {
            if result.is_err() {
                return;
            }
            let checked = match operand {
                Operand::Reg(r) => reg(r),
                Operand::Regs { start, count } => {
                    if start as u32 + count as u32 <= regs {
                        Ok(())
                    } else {
                        Err(format!("register range r{start}+{count} out of range"))
                    }
                }
                Operand::Const(i) => {
                    if (i as usize) < f.constants.len() {
                        Ok(())
                    } else {
                        Err(format!("constant k{i} out of range"))
                    }
                }
                Operand::Str(i) => string_k(i),
                Operand::Target(t) => target(t),
                Operand::Func(func) => {
                    if (func as usize) < module.functions.len() {
                        Ok(())
                    } else {
                        Err(format!("function {func} out of range"))
                    }
                }
                // Read through a bounds-checked lookup of the running closure's captures.
                Operand::Capture(_) => Ok(()),
                Operand::Int(_) | Operand::Bin(_) | Operand::Un(_) | Operand::Error(_) => Ok(()),
            };
            result = checked.map_err(|e| format!("instruction {pc} ({} {name}): {e}", op.name()));
        });
        result?;
    }
    Ok(())
}
