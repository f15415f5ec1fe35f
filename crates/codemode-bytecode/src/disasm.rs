//! A stable textual disassembly of compiled modules, for snapshot tests and debugging.
//!
//! Format: one block per function (`fn #i name (params, registers, flags)`), its constants, its
//! capture sources and handlers, then one instruction per line: `pc  Op operands`, with the source
//! line of each new position as a trailing comment.

use std::fmt::Write;

use crate::op::{CaptureSource, Constant, FunctionCode, Module, Op};
use crate::table::Operand;

/// Disassembles every function of `module`.
pub fn module(module: &Module) -> String {
    let mut out = String::new();
    for (i, f) in module.functions.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        function(&mut out, i, f);
    }
    out
}

fn function(out: &mut String, index: usize, f: &FunctionCode) {
    let mut flags = Vec::new();
    if f.is_async {
        flags.push("async");
    }
    if f.is_generator {
        flags.push("generator");
    }
    if f.is_arrow {
        flags.push("arrow");
    }
    let _ = writeln!(
        out,
        "fn #{index} {} (params {}, registers {}{}{}{})",
        f.name.as_deref().unwrap_or("<anonymous>"),
        f.param_count,
        f.register_count,
        f.rest.map(|r| format!(", rest r{r}")).unwrap_or_default(),
        f.arguments.map(|r| format!(", arguments r{r}")).unwrap_or_default(),
        if flags.is_empty() { String::new() } else { format!(", {}", flags.join(" ")) },
    );
    for (k, c) in f.constants.iter().enumerate() {
        let text = match c {
            Constant::Number(n) => format!("{n:?}"),
            Constant::String(s) => format!("{s:?}"),
            Constant::Regex { pattern, flags } => format!("/{pattern}/{flags}"),
            Constant::BigInt(digits) => format!("{digits}n"),
        };
        let _ = writeln!(out, "  k{k} = {text}");
    }
    for (i, c) in f.captures.iter().enumerate() {
        let text = match c {
            CaptureSource::Register(r) => format!("parent r{r}"),
            CaptureSource::Capture(c) => format!("parent capture c{c}"),
        };
        let _ = writeln!(out, "  c{i} <- {text}");
    }
    for h in &f.handlers {
        let _ = writeln!(out, "  try {}..{} -> {} (exception r{})", h.start, h.end, h.target, h.exception);
    }
    let mut line = 0;
    for (pc, op) in f.code.iter().enumerate() {
        let span = f.span_at(pc);
        let text = instruction(op);
        if span.line != line {
            line = span.line;
            let _ = writeln!(out, "  {pc:>4}  {text:<40} ; line {line}");
        } else {
            let _ = writeln!(out, "  {pc:>4}  {text}");
        }
    }
}

/// One instruction as text: `Name field=value ...`, registers as `rN`, register ranges as
/// `rN+count`, constants as `kN`, functions as `#N`, jump targets as `->N`, read from the opcode table.
pub fn instruction(op: &Op) -> String {
    let mut text = op.name().to_string();
    for (name, operand) in op.operands() {
        text.push(' ');
        let _ = match operand {
            Operand::Reg(r) => write!(text, "{name}=r{r}"),
            Operand::Regs { start, count } => write!(text, "{name}=r{start}+{count}"),
            Operand::Const(k) | Operand::Str(k) if name == "k" => write!(text, "k{k}"),
            Operand::Const(k) | Operand::Str(k) => write!(text, "{name}=k{k}"),
            Operand::Target(t) => write!(text, "->{t}"),
            Operand::Func(f) => write!(text, "{name}=#{f}"),
            Operand::Capture(c) => write!(text, "{name}=c{c}"),
            Operand::Int(n) => write!(text, "{name}={n}"),
            Operand::Bin(o) => write!(text, "{name}={o:?}"),
            Operand::Un(o) => write!(text, "{name}={o:?}"),
            Operand::Error(k) => write!(text, "{name}={k:?}"),
        };
    }
    text
}
