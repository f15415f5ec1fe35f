//! Thenable host results: `search(...)` answers synchronously, yet programs written for an
//! asynchronous tool `await` it or chain `.then`/`.catch`/`.finally` on it. Its result object gets
//! those three as hidden methods; each one settles a promise with a plain copy of the result (no
//! `then` on it, so awaiting does not loop) and continues with the real promise method.

use super::{Native, NativeDef, Step};
use crate::Vm;
use crate::call::Throw;
use crate::object::ObjKind;
use crate::value::Value;

pub const DEFS: &[NativeDef] = &[
    NativeDef::new("#internal", "thenableThen", 2, |vm, _t, a, d| chain(vm, a, d, "then")),
    NativeDef::new("#internal", "thenableCatch", 1, |vm, _t, a, d| chain(vm, a, d, "catch")),
    NativeDef::new("#internal", "thenableFinally", 1, |vm, _t, a, d| chain(vm, a, d, "finally")),
];

/// `result.then(...)` and the like: data = [the plain copy].
fn chain(vm: &mut Vm, args: &[Value], data: &[Value], method: &str) -> Result<Step, Throw> {
    let p = Value::Obj(vm.promise_resolve(super::arg(data, 0))?);
    let callee = vm.get_named(p, method)?;
    Ok(Step::TailCall { callee, this: p, args: args.to_vec() })
}

impl Vm {
    /// Makes a plain object result thenable (see the module docs); other values stay as they are.
    pub(crate) fn make_thenable(&mut self, v: Value) -> Result<Value, Throw> {
        let Value::Obj(id) = v else { return Ok(v) };
        if !matches!(self.heap.obj(id).kind, ObjKind::Plain) {
            return Ok(v);
        }
        // The plain copy: the same own properties, shallowly.
        let plain = self.new_object()?;
        for key in self.own_keys(id)? {
            let value = self.get_value(v, key)?;
            self.define(plain, key, value)?;
        }
        for (name, method) in
            [("then", "thenableThen"), ("catch", "thenableCatch"), ("finally", "thenableFinally")]
        {
            let Some(native) = Native::by_stable_name(&format!("#internal.{method}")) else { continue };
            let f = self.alloc_native(native, vec![plain])?;
            let atom = self.intern(name)?;
            self.define_hidden_charged(id, atom, f)?;
        }
        Ok(v)
    }
}
