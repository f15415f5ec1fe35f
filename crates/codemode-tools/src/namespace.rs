//! [`Namespace`]: the tree a host builds its tools in, before [`crate::ToolSet`] checks it.

use crate::tool::Tool;

/// One entry of a namespace: a tool or a nested namespace.
#[derive(Debug, Clone)]
pub(crate) enum Entry {
    Tool(Tool),
    Namespace(Namespace),
}

/// A group of tools and namespaces with an optional description.
///
/// Names come from the keys given to [`Namespace::tool`] / [`Namespace::namespace`]; dots in a
/// key create nested paths (`"orders.lookup"`). The description takes part in search for every
/// descendant tool. Checking (empty names, duplicates, conflicts) happens in
/// [`crate::ToolSet::new`], which reports the offending path.
#[derive(Debug, Clone, Default)]
pub struct Namespace {
    pub(crate) description: Option<String>,
    pub(crate) entries: Vec<(String, Entry)>,
}

impl Namespace {
    /// An empty namespace without a description.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty namespace with a description.
    pub fn with_description(description: impl Into<String>) -> Self {
        Self { description: Some(description.into()), entries: Vec::new() }
    }

    /// Sets the description.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Adds a tool under `name` (dots create nested namespaces).
    #[must_use]
    pub fn tool(mut self, name: impl Into<String>, tool: Tool) -> Self {
        self.add_tool(name, tool);
        self
    }

    /// Adds a nested namespace under `name` (dots create nested namespaces).
    #[must_use]
    pub fn namespace(mut self, name: impl Into<String>, namespace: Namespace) -> Self {
        self.add_namespace(name, namespace);
        self
    }

    /// Adds a tool in place.
    pub fn add_tool(&mut self, name: impl Into<String>, tool: Tool) -> &mut Self {
        self.entries.push((name.into(), Entry::Tool(tool)));
        self
    }

    /// Adds a nested namespace in place.
    pub fn add_namespace(&mut self, name: impl Into<String>, namespace: Namespace) -> &mut Self {
        self.entries.push((name.into(), Entry::Namespace(namespace)));
        self
    }

    /// Checks the tree and builds the registry (see [`crate::ToolSet::new`]).
    pub fn build(self) -> Result<crate::ToolSet, crate::BuildError> {
        crate::ToolSet::new(self)
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}
