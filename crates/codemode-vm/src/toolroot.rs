//! The `tools` object as programs see it. The host declares every tool path
//! ([`Vm::declare_tools`]) and the whole tree is built then: each namespace is an object whose
//! enumerable own properties are exactly its children (namespaces and tools), sorted by name, so
//! `Object.keys`, `for…in`, `in` and `Reflect.ownKeys` answer discovery questions truthfully, and
//! `tools.a === tools.a`. A member nobody declared (`tools.orders.nope`) is still a callable
//! object — calling it reaches the host, which answers `UnknownTool` with a suggestion — but it is
//! made afresh on each read and never becomes a property, and `typeof` calls it `"undefined"`.
//! `tools.search`, unless the host has something of that name, is the `search(...)` built-in's
//! host call. An argument that cannot cross the boundary (a cycle, nesting past 32 levels)
//! rejects the call with `InvalidToolInput` before anything reaches the host.

use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::call::Throw;
use crate::host::FailureKind;
use crate::object::HIDDEN;
use crate::props::Key;
use crate::value::{Atom, ObjId, Value};

/// The tool paths the host declared, sorted as strings, kept to answer what the tree of objects
/// cannot: whether a member that was read but is not a property names anything (`typeof`), and
/// whether `tools.search` is the host's or the built-in. Plain data, checked on restore.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct DeclaredTools {
    /// Whether the host declared its tools at all; without that every member is callable and
    /// kept, as a VM used without a catalog needs.
    declared: bool,
    paths: Vec<String>,
}

impl DeclaredTools {
    /// Whether `path` is a declared tool or a namespace above one.
    fn knows(&self, path: &str) -> bool {
        if self.paths.binary_search_by(|p| p.as_str().cmp(path)).is_ok() {
            return true;
        }
        // Paths below `path.` sort together, right after everything smaller than the prefix.
        let prefix = format!("{path}.");
        let at = self.paths.partition_point(|p| p.as_str() < prefix.as_str());
        self.paths.get(at).is_some_and(|p| p.starts_with(&prefix))
    }

    /// Whether `tools.search` is the `search(...)` built-in: the host declared its tools and
    /// none of them is (or is under) `search`.
    pub(crate) fn search_alias(&self) -> bool {
        self.declared && !self.knows("search")
    }

    /// Whether a `tools` member at `path` names nothing the host declared (`typeof` says
    /// `"undefined"`). Never for the root, nor for `search` when it is the built-in.
    pub(crate) fn is_unknown(&self, path: &str) -> bool {
        // `search` is either the host's (known) or the built-in: never unknown.
        self.declared && !path.is_empty() && path != "search" && !self.knows(path)
    }

    /// Checks restored state: the binary searches above need the paths strictly sorted.
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.paths.windows(2).any(|w| w.first() >= w.last()) {
            return Err("the declared tool paths are not sorted".into());
        }
        Ok(())
    }
}

impl Vm {
    /// Declares every tool by its dotted path (`orders.lookup`): builds the namespace objects
    /// and tool functions under `tools`, each level's names sorted. Call once, before the first
    /// [`Vm::run`]. Fails only when the memory limit cannot hold them.
    pub fn declare_tools<S: AsRef<str>>(&mut self, paths: &[S]) -> Result<(), String> {
        let global = Value::Obj(self.realm.global);
        let Ok(Value::Obj(root)) = self.get_named(global, "tools") else {
            return Err("the global environment has no tools object".into());
        };
        let mut paths: Vec<&str> = paths.iter().map(AsRef::as_ref).collect();
        // By segments, so that each namespace's children are defined in name order
        // (`b` before `b-x`, which plain string order would swap: `-` sorts before `.`).
        paths.sort_unstable_by(|a, b| a.split('.').cmp(b.split('.')));
        paths.dedup();
        self.build_tool_tree(root, &paths)
            .map_err(|_| "memory limit too small for the tool names".to_string())
    }

    fn build_tool_tree(&mut self, root: ObjId, paths: &[&str]) -> Result<(), Throw> {
        let kept: usize = paths.iter().map(|p| p.len() + std::mem::size_of::<String>()).sum();
        self.charge_retained(kept)?;
        for path in paths {
            let mut parent = root;
            let mut end = 0;
            for segment in path.split('.') {
                end += segment.len();
                let prefix = path.get(..end).unwrap_or(path);
                end += 1;
                let atom = self.intern(segment)?;
                let existing = self.heap.obj(parent).props.get(atom).map(|slot| slot.value());
                parent = match existing {
                    Some(Value::Obj(child)) => child,
                    _ => {
                        let child = self.tool_value(prefix)?;
                        self.define(Value::Obj(parent), Key::Atom(atom), child)?;
                        match child {
                            Value::Obj(id) => id,
                            _ => break,
                        }
                    }
                };
            }
        }
        let mut sorted: Vec<String> = paths.iter().map(|p| (*p).to_string()).collect();
        sorted.sort_unstable();
        self.host.tools = DeclaredTools { declared: true, paths: sorted };
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

    /// `parent.name` on a `tools` namespace object, for a name that is not a property: with
    /// declared tools, a callable made afresh (an unknown member, or `tools.search`), so that
    /// reading it does not make it a property; without, the child for `path`, made once and
    /// kept.
    pub(crate) fn tool_child(&mut self, parent: ObjId, name: Atom, path: &str) -> Result<Value, Throw> {
        let child = self.tool_value(path)?;
        if !self.host.tools.declared {
            self.define_hidden_charged(parent, name, child)?;
        }
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

#[cfg(test)]
mod tests {
    use super::DeclaredTools;

    fn declared(paths: &[&str]) -> DeclaredTools {
        DeclaredTools { declared: true, paths: paths.iter().map(|p| (*p).to_string()).collect() }
    }

    #[test]
    fn knows_tools_and_the_namespaces_above_them() {
        let tools = declared(&["a.b-x", "a.b.c", "orders.lookup", "ordersx"]);
        assert!(!tools.is_unknown("a") && !tools.is_unknown("a.b") && !tools.is_unknown("a.b.c"));
        assert!(!tools.is_unknown("orders") && !tools.is_unknown("ordersx"));
        assert!(tools.is_unknown("a.b.c.d") && tools.is_unknown("order") && tools.is_unknown("a.b-"));
        assert!(tools.search_alias() && !tools.is_unknown("search") && tools.is_unknown("search.x"));
        assert!(!declared(&["search.docs"]).search_alias());
        assert!(!DeclaredTools::default().is_unknown("nope") && !DeclaredTools::default().search_alias());
    }

    #[test]
    fn restored_paths_must_be_sorted() {
        assert!(declared(&["a", "b"]).check().is_ok());
        assert!(declared(&["b", "a"]).check().is_err());
        assert!(declared(&["a", "a"]).check().is_err());
    }
}
