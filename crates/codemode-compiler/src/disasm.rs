//! A stable textual disassembly of compiled modules, for snapshot tests and debugging.
//!
//! Format: one block per function (`fn #i name (params, registers, flags)`), its constants, its
//! capture sources and handlers, then one instruction per line: `pc  Op operands`, with the source
//! line of each new position as a trailing comment.

use std::fmt::Write;

use crate::bytecode::{CaptureSource, Constant, FunctionCode, Module, Op};

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

/// One instruction as text: `Name field=value ...` with registers as `rN`.
pub fn instruction(op: &Op) -> String {
    // The derived Debug form (`Move { dst: 3, src: 1 }`) is stable and complete; make registers
    // and targets easier to read.
    let debug = format!("{op:?}");
    let (name, rest) = match debug.split_once(" { ") {
        Some((name, rest)) => (name.to_string(), rest.trim_end_matches(" }").to_string()),
        None => return debug,
    };
    let fields: Vec<String> = rest
        .split(", ")
        .map(|field| match field.split_once(": ") {
            Some((k, v)) => match k {
                "dst" | "src" | "a" | "b" | "obj" | "key" | "arr" | "cell" | "callee" | "this" | "args"
                | "iter" | "func"
                    if k != "func" =>
                {
                    format!("{k}=r{v}")
                }
                "target" => format!("->{v}"),
                _ => format!("{k}={v}"),
            },
            None => field.to_string(),
        })
        .collect();
    format!("{name} {}", fields.join(" "))
}
