//! `console`: captured into the run's logs. `log`/`info` unprefixed; `warn`, `error`, `debug`
//! prefixed `[warn] `, `[error] `, `[debug] `. Strings print as they are, other values as
//! JSON-like text. Lines are indented by the open `console.group`s; the other console
//! methods are in `console_more.rs` and `console_table.rs`.

use super::{NativeDef, Step};
use crate::Vm;
use crate::call::Throw;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("console", "log", 0, log),
    NativeDef::new("console", "info", 0, log),
    NativeDef::new("console", "warn", 0, warn),
    NativeDef::new("console", "error", 0, error),
    NativeDef::new("console", "debug", 0, debug),
];

fn emit(vm: &mut Vm, prefix: &str, args: &[Value]) -> Result<Step, Throw> {
    let text = vm.display_all(args)?;
    vm.push_console(prefix, text)?;
    Ok(Step::Return(Value::Undefined))
}

fn log(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    emit(vm, "", args)
}

fn warn(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    emit(vm, "[warn] ", args)
}

fn error(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    emit(vm, "[error] ", args)
}

fn debug(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    emit(vm, "[debug] ", args)
}

impl Vm {
    /// The arguments of a console call as one text: each shown by [`Vm::display`], space separated.
    pub(crate) fn display_all(&mut self, args: &[Value]) -> Result<String, Throw> {
        let mut text = String::new();
        for (i, v) in args.iter().enumerate() {
            let piece = self.display(*v)?;
            // The line is Rust's until the log takes it: it must fit as it grows.
            self.ensure_fits(text.len() + 1 + piece.len())?;
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&piece);
        }
        Ok(text)
    }

    /// Prints `text` after `prefix`, each of its lines indented by the open `console.group`s
    /// (two spaces each, as Node). Kept or dropped by the log budget (`output.rs`).
    pub(crate) fn push_console(&mut self, prefix: &str, text: String) -> Result<(), Throw> {
        let width = 2 * self.console.group_depth as usize;
        if prefix.is_empty() && width == 0 {
            // Kept as it is: a second copy of a long line would be held uncounted.
            return self.push_log_line(text);
        }
        let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
        self.ensure_fits(prefix.len() + text.len() + width.saturating_mul(lines))?;
        let indent = " ".repeat(width);
        let mut line = String::with_capacity(prefix.len() + indent.len() + text.len());
        line.push_str(prefix);
        for (i, part) in text.split('\n').enumerate() {
            if i > 0 {
                line.push('\n');
            }
            line.push_str(&indent);
            line.push_str(part);
        }
        self.push_log_line(line)
    }

    /// How console shows a value: strings raw, `undefined` as such, Errors as `Name: message`,
    /// everything else as its JSON text.
    pub(crate) fn display(&mut self, v: Value) -> Result<String, Throw> {
        match v {
            Value::Str(s) => Ok(self.heap.str(s).to_string()),
            Value::Undefined => Ok("undefined".into()),
            Value::Number(_) | Value::Bool(_) | Value::Null => self.to_rust_string(v),
            Value::Symbol(symbol) => Ok(self.symbol_descriptive_string(symbol)),
            Value::BigInt(_) => Ok(format!("{}n", self.to_rust_string(v)?)),
            Value::Obj(id) => {
                if matches!(self.heap.obj(id).kind, crate::object::ObjKind::Error(_)) {
                    return self.to_rust_string(v);
                }
                if self.heap.obj(id).is_callable() {
                    return Ok("[Function]".into());
                }
                match self.to_json(v) {
                    Ok(Some(j)) => Ok(j.to_string()),
                    Ok(None) => Ok("undefined".into()),
                    Err(_) => Ok("[object]".into()),
                }
            }
            _ => Ok(String::new()),
        }
    }
}
