//! The `tools` object as programs see it: `Object.keys(tools)` lists the top-level namespaces
//! and tools the host declared ([`Vm::declare_tools`]), every `tools.a.b` read gives the same
//! object each time (`tools.a === tools.a`: a child is made once and kept on its parent, hidden),
//! and an argument that cannot cross the boundary (a cycle, nesting past 32 levels) rejects the
//! call with `InvalidToolInput` before anything reaches the host.

use crate::Vm;
use crate::call::Throw;
use crate::host::FailureKind;
use crate::object::HIDDEN;
use crate::props::Key;
use crate::value::{Atom, ObjId, Value};

impl Vm {
    /// Declares the names at the top of `tools` (namespaces and tools), which become its
    /// enumerable own properties. Call before the first [`Vm::run`]. Fails only when the memory
    /// limit cannot hold them.
    pub fn declare_tools<S: AsRef<str>>(&mut self, names: &[S]) -> Result<(), String> {
        let global = Value::Obj(self.realm.global);
        let Ok(Value::Obj(root)) = self.get_named(global, "tools") else {
            return Err("the global environment has no tools object".into());
        };
        for name in names {
            let name = name.as_ref();
            let declared = self.tool_value(name).and_then(|child| {
                let key = Key::Atom(self.intern(name)?);
                self.define(Value::Obj(root), key, child)
            });
            if declared.is_err() {
                return Err("memory limit too small for the tool names".into());
            }
        }
        Ok(())
    }

    /// Makes the `tools` object reachable as the global `name` too (the root the host's
    /// declarations name). Refused when `name` is already a global.
    pub fn alias_tools_root(&mut self, name: &str) -> Result<(), String> {
        let global = self.realm.global;
        if let Some(atom) = self.heap.atoms.lookup(name)
            && self.heap.obj(global).props.get(atom).is_some()
        {
            return Err(format!("'{name}' is a global already"));
        }
        let Ok(root) = self.get_named(Value::Obj(global), "tools") else {
            return Err("the global environment has no tools object".into());
        };
        let atom = self.intern(name).map_err(|_| "out of memory".to_string())?;
        self.define_hidden_charged(global, atom, root).map_err(|_| "out of memory".to_string())
    }

    /// `parent.name` on a `tools` namespace object: the child for `path`, made once and kept.
    pub(crate) fn tool_child(&mut self, parent: ObjId, name: Atom, path: &str) -> Result<Value, Throw> {
        let child = self.tool_value(path)?;
        self.define_hidden_charged(parent, name, child)?;
        Ok(child)
    }

    /// Defines a hidden (non-enumerable) property, charging the property map's growth.
    pub(crate) fn define_hidden_charged(&mut self, id: ObjId, name: Atom, v: Value) -> Result<(), Throw> {
        self.define(Value::Obj(id), Key::Atom(name), v)?;
        self.heap.obj_mut(id).props.set(name, v, HIDDEN);
        Ok(())
    }

    /// A tool argument that could not be converted: a cycle or too deep a nesting rejects the call
    /// with `InvalidToolInput` (returned as the call's promise); anything else (out of memory)
    /// is thrown as it is.
    pub(crate) fn reject_tool_input(&mut self, path: &str, thrown: Throw) -> Result<Value, Throw> {
        let message = match self.get_named(thrown, "message") {
            Ok(Value::Str(s)) => self.heap.str(s).to_string(),
            _ => return Err(thrown),
        };
        // A BigInt cannot cross as JSON: a TypeError at the call, naming the tool.
        if message.starts_with("Do not know how to serialize a BigInt") {
            let text = format!("Invalid input for tool '{path}': {message}");
            return Err(self.make_error(codemode_bytecode::ErrorKind::TypeError, &text));
        }
        let copying = message.starts_with("Converting circular structure")
            || message.starts_with("Value exceeds the maximum depth")
            || message.contains("cannot cross the boundary")
            || message.contains("was still pending when the value crossed the boundary");
        if !copying {
            return Err(thrown);
        }
        let text = format!("Invalid input for tool '{path}': {message}");
        let error = self.make_tagged_error(FailureKind::InvalidToolInput, &text);
        let promise = self.new_promise()?;
        self.reject_promise(promise, error)?;
        Ok(Value::Obj(promise))
    }
}
