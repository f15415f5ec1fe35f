//! Host bindings: values the host gives one run as top-level constants (read-only globals).

use serde_json::Value as Json;

use crate::Vm;
use crate::props::Key;
use crate::value::Value;

impl Vm {
    /// Defines the global `name` as a copy of `value` for this run. Programs read it like any
    /// global and cannot assign it (assigning a global is a `ReferenceError`); a top-level
    /// declaration of the same name shadows it. Refused when `name` is already a global (a
    /// built-in, `tools`, `search`, an earlier binding), when `value` nests deeper than the
    /// boundary allows, or when the memory limit cannot hold it.
    pub fn define_binding(&mut self, name: &str, value: &Json) -> Result<(), String> {
        let global = self.realm.global;
        if let Some(atom) = self.heap.atoms.lookup(name)
            && self.heap.obj(global).props.get(atom).is_some()
        {
            return Err(format!("binding '{name}' would shadow the global of that name"));
        }
        let v = self.from_json(value, 0)?;
        let atom = self.intern(name).map_err(|_| "out of memory".to_string())?;
        self.define(Value::Obj(global), Key::Atom(atom), v).map_err(|_| "out of memory".to_string())?;
        self.heap.obj_mut(global).props.set(atom, v, crate::object::HIDDEN);
        Ok(())
    }
}
