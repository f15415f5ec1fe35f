//! The `tools` object as programs see it. The host declares every tool path once per catalog
//! ([`ToolPaths`], shared by every run) and hands it to each run ([`Vm::declare_tools`]). Each
//! namespace is an object whose enumerable own properties are exactly its children (namespaces and
//! tools), sorted by name, so `Object.keys`, `for…in`, `in` and `Reflect.ownKeys` answer discovery
//! questions truthfully, and `tools.a === tools.a`. Those children are made when something first
//! looks at the namespace's own properties (a read, `in`, a key listing, a descriptor, a write:
//! [`Vm::list_tool_children`]), so a run pays for the namespaces it touches, not for the whole
//! catalog. A member nobody declared (`tools.orders.nope`) is still a callable object — calling it
//! reaches the host, which answers `UnknownTool` with a suggestion — but it is made afresh on
//! each read and never becomes a property, and `typeof` calls it `"undefined"`. `tools.search`,
//! unless the host has something of that name, is the `search(...)` built-in's host call. An
//! argument that cannot cross the boundary (a cycle, nesting past 32 levels) rejects the call with
//! `InvalidToolInput` before anything reaches the host.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::call::Throw;
use crate::host::FailureKind;
use crate::object::integrity::OWN_FUNCTION_PROPS;
use crate::object::{Callable, HIDDEN, ObjKind};
use crate::props::Key;
use crate::value::{Atom, ObjId, Value};

/// `path.name`, or `name` below the root.
fn tool_path(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_string() } else { format!("{path}.{name}") }
}

/// Every declared tool path (`orders.lookup`), sorted as strings and deduplicated: built once for
/// a catalog, shared by every run that declares it (cloning is a reference count).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolPaths(Arc<[String]>);

impl ToolPaths {
    pub fn new<S: AsRef<str>>(paths: impl IntoIterator<Item = S>) -> Self {
        let mut sorted: Vec<String> = paths.into_iter().map(|p| p.as_ref().to_string()).collect();
        sorted.sort_unstable();
        sorted.dedup();
        Self(sorted.into())
    }

    /// The bytes a run keeps for them (charged to each run that declares them).
    fn retained_bytes(&self) -> usize {
        self.0.iter().map(|p| p.len() + std::mem::size_of::<String>()).sum()
    }

    /// The names directly below the namespace `path` (`""`: the root), in name order.
    fn children(&self, path: &str) -> Vec<&str> {
        let prefix = if path.is_empty() { String::new() } else { format!("{path}.") };
        // Paths below `path.` sort together, right after everything smaller than the prefix.
        let at = self.0.partition_point(|p| p.as_str() < prefix.as_str());
        let below = self.0.get(at..).unwrap_or_default().iter().take_while(|p| p.starts_with(&prefix));
        let mut names: Vec<&str> = below
            .filter_map(|p| p.get(prefix.len()..)?.split('.').next())
            .filter(|n| !n.is_empty())
            .collect();
        // By name, not by whole path: `b` before `b-x`, which path order would swap (`-` < `.`).
        names.sort_unstable();
        names.dedup();
        names
    }
}

/// The tool paths the host declared, kept to build namespaces when they are first looked at and
/// to answer what the objects cannot: whether a member that was read but is not a property names
/// anything (`typeof`), and whether `tools.search` is the host's or the built-in. Plain data,
/// checked on restore.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(crate) struct DeclaredTools {
    /// Whether the host declared its tools at all; without that every member is callable and
    /// kept, as a VM used without a catalog needs.
    declared: bool,
    paths: ToolPaths,
}

impl DeclaredTools {
    /// Whether `path` is a declared tool or a namespace above one.
    pub(crate) fn knows(&self, path: &str) -> bool {
        let paths = &self.paths.0;
        if paths.binary_search_by(|p| p.as_str().cmp(path)).is_ok() {
            return true;
        }
        let prefix = format!("{path}.");
        let at = paths.partition_point(|p| p.as_str() < prefix.as_str());
        paths.get(at).is_some_and(|p| p.starts_with(&prefix))
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
        if self.paths.0.windows(2).any(|w| w.first() >= w.last()) {
            return Err("the declared tool paths are not sorted".into());
        }
        Ok(())
    }
}

impl Vm {
    /// Declares every tool by its dotted path (`orders.lookup`). Call once, before the first
    /// [`Vm::run`]. The namespace objects are made when first looked at. Fails only when the
    /// memory limit cannot hold the paths.
    pub fn declare_tools(&mut self, paths: &ToolPaths) -> Result<(), String> {
        self.charge_retained(paths.retained_bytes())
            .map_err(|_| "memory limit too small for the tool names".to_string())?;
        self.host.tools = DeclaredTools { declared: true, paths: paths.clone() };
        Ok(())
    }

    /// Makes the children of the `tools` namespace `id` its properties, in name order, once,
    /// before anything looks at its own properties (every such path calls this: key listings and
    /// `in` in `props.rs` and `convert.rs`, writes in [`Vm::set`], the rest through
    /// [`Vm::own_function_props`]). Until then the only properties it has are declared children
    /// a program read ([`Vm::read_tool_member`]); they keep their identity and move to their
    /// place. Not a namespace, or listed already: nothing to do.
    pub(crate) fn list_tool_children(&mut self, id: ObjId) -> Result<(), Throw> {
        let obj = self.heap.obj(id);
        let ObjKind::Function(Callable::Tool { path }) = &obj.kind else { return Ok(()) };
        if !self.host.tools.declared || obj.props.integrity & OWN_FUNCTION_PROPS != 0 {
            return Ok(());
        }
        let path = path.clone();
        let read_before: Vec<(Atom, Value)> = obj.props.iter().map(|slot| (slot.key, slot.value())).collect();
        let props = &mut self.heap.obj_mut(id).props;
        props.integrity |= OWN_FUNCTION_PROPS;
        for (atom, _) in &read_before {
            props.remove(*atom);
        }
        // No collection runs inside a built-in step, so the values taken out stay alive here.
        let paths = self.host.tools.paths.clone();
        for name in paths.children(&path) {
            let atom = self.intern(name)?;
            let child = match read_before.iter().find(|(key, _)| *key == atom) {
                Some(&(_, value)) => value,
                None => self.tool_value(&tool_path(&path, name))?,
            };
            self.define(Value::Obj(id), Key::Atom(atom), child)?;
        }
        Ok(())
    }

    /// `parent.name` on a `tools` namespace object, for a name that is not a property. A
    /// declared child of a namespace not listed yet is made and kept (reading `tools.orders`
    /// lists nothing: most runs touch a few tools of a large catalog). Otherwise, with declared
    /// tools, a callable made afresh (an unknown member, or `tools.search`), so that reading it
    /// does not make it a property; without, the child, made once and kept.
    pub(crate) fn read_tool_member(&mut self, parent: ObjId, name: Atom) -> Result<Value, Throw> {
        let obj = self.heap.obj(parent);
        let ObjKind::Function(Callable::Tool { path }) = &obj.kind else { return Ok(Value::Undefined) };
        let listed = obj.props.integrity & OWN_FUNCTION_PROPS != 0;
        let path = tool_path(path, self.heap.atoms.name(name));
        let child = self.tool_value(&path)?;
        let tools = &self.host.tools;
        if !tools.declared {
            self.define_hidden_charged(parent, name, child)?;
        } else if !listed && tools.knows(&path) {
            self.define(Value::Obj(parent), Key::Atom(name), child)?;
        }
        Ok(child)
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
    use super::{DeclaredTools, ToolPaths};

    /// As restored from a state: in the order given, not sorted.
    fn declared(paths: &[&str]) -> DeclaredTools {
        DeclaredTools { declared: true, paths: ToolPaths(paths.iter().map(|p| (*p).to_string()).collect()) }
    }

    #[test]
    fn a_namespace_lists_its_children_by_name() {
        let paths = ToolPaths::new(["b.z", "a.b-x.y", "a.b.c", "a.b.d", "orders.lookup", "ordersx", "a.b.c"]);
        assert_eq!(paths.children(""), ["a", "b", "orders", "ordersx"]);
        assert_eq!(paths.children("a"), ["b", "b-x"]);
        assert_eq!(paths.children("a.b"), ["c", "d"]);
        assert!(paths.children("a.b.c").is_empty() && paths.children("order").is_empty());
        assert_eq!(paths.children("orders"), ["lookup"]);
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
