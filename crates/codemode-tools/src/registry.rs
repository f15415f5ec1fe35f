//! [`ToolSet`]: the checked, indexed registry of a host's tools: lookup by path, "did you mean"
//! suggestions, the catalog, the namespace list and the search index, all computed once.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use ahash::AHashMap;
use serde::Serialize;

use crate::error::BuildError;
use crate::names::tool_expression;
use crate::namespace::{Entry, Namespace};
use crate::schema::render::Mode;
use crate::search::SearchIndex;
use crate::signature::signature;
use crate::suggest::nearest;
use crate::tool::Tool;

/// The deepest tool path (in segments) a host may register.
pub const MAX_PATH_DEPTH: usize = 32;

/// One catalog entry: a visible tool's exact path, description and TypeScript signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolDescription {
    /// Canonical dotted path (`orders.lookup`).
    pub path: String,
    /// The tool's description.
    pub description: String,
    /// `tools.orders.lookup({ id: string }): Promise<…>`.
    pub signature: String,
}

/// One namespace that has at least one descendant tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NamespaceDescription {
    /// Canonical dotted path.
    pub path: String,
    /// The description given with [`Namespace::description`], if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A registered tool with what search needs about where it lives.
#[derive(Debug, Clone)]
pub(crate) struct Registered {
    pub(crate) path: String,
    pub(crate) tool: Tool,
    /// Descriptions of the enclosing namespaces, outermost first.
    pub(crate) namespace_descriptions: Vec<String>,
}

/// What a path names.
#[derive(Debug, Clone, Copy)]
pub enum Lookup<'a> {
    /// A tool.
    Tool(&'a Tool),
    /// A namespace (not callable).
    Namespace,
    /// Nothing; `suggestion` is the closest tool path, if one is close.
    Unknown { suggestion: Option<&'a str> },
}

struct Inner {
    /// Sorted by path.
    tools: Vec<Registered>,
    /// The host's tool paths (the program only looks up): a fast hash, looked up on every call.
    by_path: AHashMap<String, usize>,
    /// Namespace path → sorted child names ("" is the root).
    children: BTreeMap<String, Vec<String>>,
    catalog: Vec<ToolDescription>,
    namespaces: Vec<NamespaceDescription>,
    /// Built by the first search, not with the tool set: a program that never searches (most
    /// of them) does not pay for it, and neither does the process (building it reads the
    /// whole ~600 KB thesaurus: resident memory, not just time).
    index: std::sync::OnceLock<SearchIndex>,
}

/// The checked registry of tools. Cheap to clone (an `Arc` inside), `Send + Sync`.
#[derive(Clone)]
pub struct ToolSet {
    inner: Arc<Inner>,
    /// The semantic ranker search fuses with BM25, if the host attached one.
    semantic: Option<Arc<crate::search::SemanticRanker>>,
}

impl std::fmt::Debug for ToolSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolSet").field("tools", &self.inner.by_path.len()).finish_non_exhaustive()
    }
}

impl Default for ToolSet {
    fn default() -> Self {
        Self::empty()
    }
}

/// What the builder records per path while walking the tree.
enum Node {
    Tool,
    Namespace,
}

struct Builder {
    nodes: BTreeMap<String, Node>,
    descriptions: BTreeMap<String, String>,
    tools: Vec<(String, Tool)>,
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() { name.to_owned() } else { format!("{prefix}.{name}") }
}

impl Builder {
    fn mark_namespace(&mut self, path: &str) -> Result<(), BuildError> {
        match self.nodes.get(path) {
            Some(Node::Tool) => Err(BuildError::ToolAndNamespace { path: path.to_owned() }),
            Some(Node::Namespace) => Ok(()),
            None => {
                self.nodes.insert(path.to_owned(), Node::Namespace);
                Ok(())
            }
        }
    }

    fn walk(&mut self, namespace: Namespace, prefix: &str, depth: usize) -> Result<(), BuildError> {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        for (name, entry) in namespace.entries {
            let written = join(prefix, &name);
            if !seen.insert(name.clone()) {
                return Err(BuildError::Duplicate { path: written });
            }
            if name.is_empty() || name.split('.').any(str::is_empty) {
                return Err(BuildError::EmptyName { path: written });
            }
            let mut path = prefix.to_owned();
            let segments: Vec<&str> = name.split('.').collect();
            let last = segments.len() - 1;
            for (i, segment) in segments.iter().enumerate() {
                if *segment == "__proto__" {
                    return Err(BuildError::ReservedName { path: join(&path, segment) });
                }
                path = join(&path, segment);
                if path.split('.').count() > MAX_PATH_DEPTH {
                    return Err(BuildError::TooDeep { path });
                }
                if i < last {
                    self.mark_namespace(&path)?;
                }
            }
            match entry {
                Entry::Tool(tool) => match self.nodes.get(&path) {
                    Some(Node::Tool) => return Err(BuildError::Duplicate { path }),
                    Some(Node::Namespace) => return Err(BuildError::ToolAndNamespace { path }),
                    None => {
                        self.nodes.insert(path.clone(), Node::Tool);
                        self.tools.push((path, tool));
                    }
                },
                Entry::Namespace(inner) => {
                    self.mark_namespace(&path)?;
                    if let Some(description) = &inner.description {
                        match self.descriptions.get(&path) {
                            Some(existing) if existing != description => {
                                return Err(BuildError::ConflictingDescription { path });
                            }
                            _ => {
                                self.descriptions.insert(path.clone(), description.clone());
                            }
                        }
                    }
                    if depth + 1 > MAX_PATH_DEPTH {
                        return Err(BuildError::TooDeep { path });
                    }
                    self.walk(inner, &path, depth + 1)?;
                }
            }
        }
        Ok(())
    }
}

impl ToolSet {
    /// A registry without tools.
    pub fn empty() -> Self {
        Self::from_tools(Vec::new(), BTreeMap::new())
    }

    /// A fresh root namespace to add tools to; finish with [`Namespace::build`].
    pub fn builder() -> Namespace {
        Namespace::new()
    }

    /// Checks `root` and builds the registry. Errors name the offending path: empty names or
    /// segments, the same name twice at one level, a tool registered twice under one path
    /// (through dotted names), a path that is both a tool and a namespace, two different
    /// descriptions for one namespace, `__proto__`, and paths deeper than [`MAX_PATH_DEPTH`].
    pub fn new(root: Namespace) -> Result<Self, BuildError> {
        let mut builder =
            Builder { nodes: BTreeMap::new(), descriptions: BTreeMap::new(), tools: Vec::new() };
        builder.walk(root, "", 0)?;
        Ok(Self::from_tools(builder.tools, builder.descriptions))
    }

    fn from_tools(mut tools: Vec<(String, Tool)>, descriptions: BTreeMap<String, String>) -> Self {
        // Discovery text goes into prompts, so order is by path alone, never insertion order.
        tools.sort_by(|a, b| a.0.cmp(&b.0));
        let mut children: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut registered = Vec::with_capacity(tools.len());
        for (path, tool) in tools {
            let segments: Vec<&str> = path.split('.').collect();
            let mut prefix = String::new();
            let mut namespace_descriptions = Vec::new();
            for segment in &segments {
                children.entry(prefix.clone()).or_default().insert((*segment).to_owned());
                prefix = join(&prefix, segment);
                if prefix != path
                    && let Some(d) = descriptions.get(&prefix)
                {
                    namespace_descriptions.push(d.clone());
                }
            }
            registered.push(Registered { path, tool, namespace_descriptions });
        }
        let catalog: Vec<ToolDescription> = registered
            .iter()
            .map(|r| ToolDescription {
                path: r.path.clone(),
                description: r.tool.description().to_owned(),
                signature: signature(&r.path, &r.tool, Mode::Pretty),
            })
            .collect();
        let namespaces = children
            .keys()
            .filter(|p| !p.is_empty())
            .map(|p| NamespaceDescription { path: p.clone(), description: descriptions.get(p).cloned() })
            .collect();
        let by_path = registered.iter().enumerate().map(|(i, r)| (r.path.clone(), i)).collect();
        Self {
            semantic: None,
            inner: Arc::new(Inner {
                tools: registered,
                by_path,
                children: children.into_iter().map(|(k, v)| (k, v.into_iter().collect())).collect(),
                catalog,
                namespaces,
                index: std::sync::OnceLock::new(),
            }),
        }
    }

    /// The tool at a canonical dotted path.
    pub fn get(&self, path: &str) -> Option<&Tool> {
        self.inner.by_path.get(path).map(|&i| &self.inner.tools[i].tool)
    }

    /// Whether `path` is a namespace with at least one descendant tool (`""` is the root).
    pub fn is_namespace(&self, path: &str) -> bool {
        self.inner.children.contains_key(path)
    }

    /// The child names of a namespace, sorted (`""` is the root), or `None` if `path` is not one.
    pub fn children(&self, path: &str) -> Option<&[String]> {
        self.inner.children.get(path).map(Vec::as_slice)
    }

    /// What `path` names: a tool, a namespace, or nothing (with a suggestion).
    pub fn lookup(&self, path: &str) -> Lookup<'_> {
        if let Some(tool) = self.get(path) {
            return Lookup::Tool(tool);
        }
        if self.is_namespace(path) {
            return Lookup::Namespace;
        }
        Lookup::Unknown { suggestion: self.suggest(path) }
    }

    /// The tool path closest to an unknown `path`: a near-typo of the whole path, else a tool
    /// whose last segment is the same or a near-typo of it.
    pub fn suggest(&self, path: &str) -> Option<&str> {
        let paths = || self.inner.tools.iter().map(|r| r.path.as_str());
        if let Some(found) = nearest(path, paths()) {
            return Some(found);
        }
        let last = path.rsplit('.').next().unwrap_or(path);
        let last_of = |p: &str| p.rsplit('.').next().unwrap_or(p).to_owned();
        if let Some(found) = paths().find(|p| last_of(p).eq_ignore_ascii_case(last)) {
            return Some(found);
        }
        // Namespaced typos: compare last segments, preferring tools under the same parent.
        let parent = path.rsplit_once('.').map(|(p, _)| p);
        let siblings: Vec<&str> = paths().filter(|p| p.rsplit_once('.').map(|(q, _)| q) == parent).collect();
        let pick = |candidates: Vec<&'_ str>| -> Option<usize> {
            let lasts: Vec<String> = candidates.iter().map(|p| last_of(p)).collect();
            nearest(last, lasts.iter().map(String::as_str)).and_then(|l| lasts.iter().position(|x| x == l))
        };
        if let Some(i) = pick(siblings.clone()) {
            return Some(siblings[i]);
        }
        let all: Vec<&str> = paths().collect();
        pick(all.clone()).map(|i| all[i])
    }

    /// The model-facing message for an unknown path: `Unknown tool 'x.y'. Did you mean
    /// tools.x.z?` when a tool is a near-typo of it (the reference's message, exactly).
    /// Otherwise it names what exists nearby, so that a slip is guidance and not a dead end:
    /// the closest tool in the deepest namespace the path does reach, and that namespace's
    /// children (`Unknown tool 'orders.nope'. Did you mean tools.orders.lookup? tools.orders
    /// has: lookup.`), or, at the top, the top-level names and the `search(...)` built-in. A
    /// path ending in `search` is pointed at that built-in.
    pub fn unknown_tool_message(&self, path: &str) -> String {
        let (namespace, rest) = self.deepest_namespace(path);
        let asks_search = path.rsplit('.').next() == Some("search");
        let typo = self.suggest(path);
        let closest = match typo {
            Some(found) => Some(found),
            None if !namespace.is_empty() && !asks_search => self.closest_under(namespace, rest),
            None => None,
        };
        let mut message = match closest {
            Some(found) => format!("Unknown tool '{path}'. Did you mean {}?", tool_expression(found)),
            None => format!("Unknown tool '{path}'."),
        };
        if typo.is_none() && !self.is_empty() {
            message.push(' ');
            message.push_str(&self.children_sentence(namespace));
        }
        if asks_search {
            let scope =
                if namespace.is_empty() { String::new() } else { format!(", namespace: \"{namespace}\"") };
            message.push_str(&format!(
                " search is a global function, not a tool: call search({{ query{scope} }})."
            ));
        } else if closest.is_none() {
            message.push_str(" Call search({ query }) to find tools by what they do.");
        }
        message
    }

    /// The longest namespace (`""` at the least) that `path` starts with, and the rest of it.
    fn deepest_namespace<'p>(&self, path: &'p str) -> (&'p str, &'p str) {
        let mut at = path.len();
        while let Some(dot) = path.get(..at).and_then(|p| p.rfind('.')) {
            let (namespace, rest) = (path.get(..dot).unwrap_or(""), path.get(dot + 1..).unwrap_or(""));
            if self.is_namespace(namespace) {
                return (namespace, rest);
            }
            at = dot;
        }
        ("", path)
    }

    /// The tool under `namespace` whose path below it is closest to `rest` by edit distance
    /// (ties by path).
    fn closest_under(&self, namespace: &str, rest: &str) -> Option<&str> {
        let prefix = format!("{namespace}.");
        let wanted = rest.to_lowercase();
        self.inner
            .tools
            .iter()
            .filter_map(|r| r.path.strip_prefix(&prefix).map(|below| (r.path.as_str(), below)))
            .min_by_key(|(path, below)| {
                (crate::suggest::edit_distance(&wanted, &below.to_lowercase(), 64), *path)
            })
            .map(|(path, _)| path)
    }

    /// `tools.orders has: lookup, refunds.`: a namespace's children, at most 20 of them named.
    fn children_sentence(&self, namespace: &str) -> String {
        const SHOWN: usize = 20;
        let children = self.children(namespace).unwrap_or_default();
        let mut names = children.iter().take(SHOWN).map(String::as_str).collect::<Vec<_>>().join(", ");
        if children.len() > SHOWN {
            names.push_str(&format!(" and {} more", children.len() - SHOWN));
        }
        let holder = if namespace.is_empty() { "tools".to_string() } else { tool_expression(namespace) };
        format!("{holder} has: {names}.")
    }

    /// The model-facing message for calling a namespace: `Tool 'a' is not callable.`
    pub fn not_callable_message(path: &str) -> String {
        format!("Tool '{path}' is not callable.")
    }

    /// [`ToolSet::not_callable_message`] followed by what the namespace holds:
    /// `Tool 'orders' is not callable. tools.orders has: lookup.`
    pub fn namespace_call_message(&self, path: &str) -> String {
        format!("{} {}", Self::not_callable_message(path), self.children_sentence(path))
    }

    /// Every tool as `{ path, description, signature }`, sorted by path.
    pub fn catalog(&self) -> &[ToolDescription] {
        &self.inner.catalog
    }

    /// Every namespace with at least one descendant tool, as `{ path, description? }`, sorted.
    pub fn namespaces(&self) -> &[NamespaceDescription] {
        &self.inner.namespaces
    }

    /// `(path, tool)` pairs, sorted by path.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Tool)> {
        self.inner.tools.iter().map(|r| (r.path.as_str(), &r.tool))
    }

    /// How many tools are registered.
    pub fn len(&self) -> usize {
        self.inner.tools.len()
    }

    /// Whether no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.inner.tools.is_empty()
    }

    /// The exact callable expression of a path (`tools.context7["resolve-library-id"]`).
    pub fn tool_expression(path: &str) -> String {
        tool_expression(path)
    }

    /// The exact signature of the `search` built-in.
    pub fn search_signature() -> &'static str {
        crate::signature::search_signature()
    }

    /// The search index, built on first use (see [`ToolSet::prepare_search`]).
    pub(crate) fn index(&self) -> &SearchIndex {
        self.inner.index.get_or_init(|| self.build_search_index())
    }

    /// Builds the search index now if no search has yet (about 7 ms for 869 tools), for a
    /// host that would rather pay at start-up than in its first `search`. Idempotent.
    pub fn prepare_search(&self) {
        self.index();
    }

    /// Builds this tool set's search index once more, as the first search does: what the
    /// search benchmark measures (`benches/benches/search.rs`).
    #[doc(hidden)]
    pub fn build_search_index(&self) -> SearchIndex {
        SearchIndex::new(&self.inner.tools, &self.inner.catalog)
    }

    /// This tool set with `search` and [`ToolSet::rank`] fusing the lexical ranking with
    /// `ranker`'s semantic one (see [`crate::search::SemanticRanker`]). The ranker's vector
    /// cache is shared by every tool set it is attached to.
    #[must_use]
    pub fn with_semantic_ranker(mut self, ranker: Arc<crate::search::SemanticRanker>) -> Self {
        self.semantic = Some(ranker);
        self
    }

    /// The attached semantic ranker, if any.
    pub fn semantic_ranker(&self) -> Option<&Arc<crate::search::SemanticRanker>> {
        self.semantic.as_ref()
    }
}
