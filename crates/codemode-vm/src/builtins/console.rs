//! `console`: captured into the run's logs. `log`/`info` unprefixed; `warn`, `error`, `debug`
//! prefixed `[warn] `, `[error] `, `[debug] `. Strings print as they are, other values as
//! JSON-like text.

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
    let mut line = String::from(prefix);
    for (i, v) in args.iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        line.push_str(&vm.display(*v)?);
    }
    // Kept or dropped by the log budget (`output.rs`).
    vm.push_log_line(line)?;
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
