//! The built-in behind every extension global (see `host/extension.rs`), and module loading:
//! `require(name)` and the hidden `__codemode_import__(name, sync)` that `import(name)` and
//! static `import` declarations are lowered to. Both give the extension value the host mapped to
//! the module name, or throw (reject, for `import()`) an `Error` naming what is available.

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("#internal", "extensionCall", 0, |vm, _this, args, data| vm.call_extension(args, data)),
    NativeDef::new("", "require", 1, require),
    NativeDef::new("", "__codemode_import__", 2, import),
];

/// The built-in extension functions are bound to.
pub(crate) fn extension_call() -> Option<super::Native> {
    super::Native::by_stable_name("#internal.extensionCall")
}

fn require(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    vm.load_module(arg(args, 0)).map(Step::Return)
}

/// `import(name)` (a promise of the module) or, with `sync` true, a static import (the module).
fn import(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    if matches!(arg(args, 1), Value::Bool(true)) {
        return require(vm, Value::Undefined, args, &[]);
    }
    let promise = vm.new_promise()?;
    match vm.load_module(arg(args, 0)) {
        Ok(v) => vm.resolve_promise(promise, v)?,
        Err(e) => vm.reject_promise(promise, e)?,
    }
    Ok(Step::Return(Value::Obj(promise)))
}
