//! The public entry point: [`CodeMode`] and its [`Builder`].

use std::future::Future;
use std::sync::Arc;

use codemode_tools::{Namespace, Tool, ToolSet};

use crate::driver::Code;
use crate::execution::Execution;
use crate::extension::{Extension, Extensions};
use crate::hooks::{CallEnd, CallStart, Deny, Hooks};
use crate::limits::LimitName;
use crate::options::{ExecuteOptions, Program};
use crate::snapshot::{Snapshot, SnapshotError};
use crate::{Diagnostic, Limits};

/// Configures a [`CodeMode`] runtime.
#[derive(Default)]
pub struct Builder {
    limits: Limits,
    root: Namespace,
    tools: Option<ToolSet>,
    hooks: Hooks,
    extensions: Vec<Extension>,
    root_name: Option<String>,
    suspend_max_bytes: Option<usize>,
    semantic: Option<Arc<codemode_tools::search::SemanticRanker>>,
}

impl Builder {
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Adds a tool at a dotted path (`"orders.lookup"` is `tools.orders.lookup`).
    pub fn tool(mut self, path: impl Into<String>, tool: Tool) -> Self {
        self.root.add_tool(path, tool);
        self
    }

    /// Adds a namespace (with its description and tools) at `name`.
    pub fn namespace(mut self, name: impl Into<String>, namespace: Namespace) -> Self {
        self.root.add_namespace(name, namespace);
        self
    }

    /// Adds a hook that runs before every call the program makes into the host (tools and
    /// `search`), with the decoded input and the call's key; returning [`Deny`] denies the call
    /// (the host function is not called; the program catches the denial). See `hooks.rs`.
    pub fn before_call<F, Fut>(mut self, hook: F) -> Self
    where
        F: Fn(CallStart) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), Deny>> + Send + 'static,
    {
        self.hooks.before.push(Arc::new(move |start| Box::pin(hook(start))));
        self
    }

    /// Adds a hook that runs after every call the program makes into the host ended: with its
    /// outcome (value, error or interrupted) and duration. It cannot fail the run.
    pub fn after_call<F, Fut>(mut self, hook: F) -> Self
    where
        F: Fn(CallEnd) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.hooks.after.push(Arc::new(move |end| Box::pin(hook(end))));
        self
    }

    /// The name programs call tools by (default `tools`; `tools` stays defined too). Use the
    /// same name in the declarations the model sees: [`CodeMode::declaration_options`].
    pub fn root_name(mut self, name: impl Into<String>) -> Self {
        self.root_name = Some(name.into());
        self
    }

    /// Adds an extension: host functions programs call as globals (see [`Extension`]).
    pub fn extension(mut self, extension: Extension) -> Self {
        self.extensions.push(extension);
        self
    }

    /// The largest state a suspend may save, in bytes; a larger one fails the suspend (and the
    /// run goes on).
    pub fn suspend_max_bytes(mut self, bytes: usize) -> Self {
        self.suspend_max_bytes = Some(bytes);
        self
    }

    /// Uses a ready-made tool set (replaces tools added with [`Builder::tool`]).
    pub fn tools(mut self, tools: ToolSet) -> Self {
        self.tools = Some(tools);
        self
    }

    /// Fuses `search` with `ranker`'s semantic ranking (see
    /// [`codemode_tools::search::SemanticRanker`]; with the `embeddings` feature of
    /// `codemode-tools`, a sentence-embedding model). Search is lexical without one.
    pub fn semantic_ranker(mut self, ranker: Arc<codemode_tools::search::SemanticRanker>) -> Self {
        self.semantic = Some(ranker);
        self
    }

    /// Checks the configuration: limits (see [`Limits::check`]) and tool names.
    pub fn build(self) -> Result<CodeMode, BuildError> {
        self.limits.check()?;
        let mut tools = match self.tools {
            Some(tools) => tools,
            None => ToolSet::new(self.root).map_err(BuildError::Tools)?,
        };
        if let Some(ranker) = self.semantic {
            tools = tools.with_semantic_ranker(ranker);
        }
        let extensions = Extensions::new(self.extensions)?;
        let root_name = self.root_name.unwrap_or_else(|| "tools".to_string());
        let identifier = root_name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            && root_name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
        let builtin = root_name != "tools" && codemode_vm::builtin_global_names().contains(&root_name);
        let extension =
            extensions.functions.iter().any(|(p, _)| p.split('.').next() == Some(root_name.as_str()));
        if !identifier || builtin || extension {
            return Err(BuildError::InvalidRootName { name: root_name });
        }
        let tool_paths = codemode_vm::ToolPaths::new(tools.iter().map(|(path, _)| path));
        Ok(CodeMode {
            inner: Arc::new(Inner {
                limits: self.limits,
                tools,
                tool_paths,
                hooks: self.hooks,
                extensions,
                root_name,
                suspend_max_bytes: self.suspend_max_bytes,
            }),
        })
    }
}

/// A configuration error found by [`Builder::build`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// A limit is below the smallest value a run can work with (`value < minimum`; a timeout in
    /// milliseconds).
    InvalidLimit { limit: LimitName, value: u64, minimum: u64 },
    /// The tools do not form a valid tool set (duplicate or empty names, ...).
    Tools(codemode_tools::BuildError),
    /// An extension's global `name` would shadow a built-in global (`by: None`) or the global of
    /// the extension `by`.
    ShadowedGlobal { extension: String, name: String, by: Option<String> },
    /// The tools root name is not an identifier or would shadow a global.
    InvalidRootName { name: String },
    /// An extension function's path is not a dotted list of identifiers, is given twice, or is
    /// both a function and an object of functions.
    InvalidExtensionGlobal { extension: String, path: String },
    /// An extension maps a module name that is empty or mapped already (`fs` and `node:fs` are
    /// the same name), or maps it to a path that is none of its functions or objects.
    InvalidModule { extension: String, module: String },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::InvalidLimit { limit, value, minimum } => {
                let unit = match limit {
                    LimitName::Timeout => " ms",
                    LimitName::MaxOutputBytes | LimitName::MemoryLimit | LimitName::MaxSourceBytes => {
                        " bytes"
                    }
                    _ => "",
                };
                write!(f, "{} must be at least {minimum}{unit} (got {value}{unit})", limit.as_str())
            }
            BuildError::Tools(e) => write!(f, "invalid tool set: {e}"),
            BuildError::ShadowedGlobal { extension, name, by: None } => {
                write!(f, "extension '{extension}': global '{name}' would shadow the built-in global")
            }
            BuildError::ShadowedGlobal { extension, name, by: Some(other) } => {
                write!(
                    f,
                    "extension '{extension}': global '{name}' is defined by extension '{other}' already"
                )
            }
            BuildError::InvalidRootName { name } => {
                write!(f, "root name '{name}' is not an identifier, or would shadow a global")
            }
            BuildError::InvalidModule { extension, module } => write!(
                f,
                "extension '{extension}': module '{module}' is empty, mapped already, or not mapped to one of its globals"
            ),
            BuildError::InvalidExtensionGlobal { extension, path } => write!(
                f,
                "extension '{extension}': '{path}' is not a dotted path of identifiers, or clashes with another of its paths"
            ),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Tools(e) => Some(e),
            _ => None,
        }
    }
}

pub(crate) struct Inner {
    pub(crate) limits: Limits,
    pub(crate) tools: ToolSet,
    /// Every tool's path, sorted once here and shared by every run's `tools` object.
    pub(crate) tool_paths: codemode_vm::ToolPaths,
    pub(crate) hooks: Hooks,
    pub(crate) extensions: Extensions,
    /// The program-side name of the tools root (`tools` unless the host chose another).
    pub(crate) root_name: String,
    pub(crate) suspend_max_bytes: Option<usize>,
}

/// A reusable runtime: tools and limits; each [`CodeMode::execute`] is one independent run.
/// Cheap to clone.
#[derive(Clone)]
pub struct CodeMode {
    pub(crate) inner: Arc<Inner>,
}

impl CodeMode {
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// Declaration options naming the program-side root this runtime uses
    /// ([`Builder::root_name`]), for `tools().declarations(...)`.
    pub fn declaration_options(&self) -> codemode_tools::DeclarationOptions {
        codemode_tools::DeclarationOptions::default().root(self.inner.root_name.clone())
    }

    /// The tools this runtime offers (catalog, search, signatures).
    pub fn tools(&self) -> &ToolSet {
        &self.inner.tools
    }

    /// Starts running `source`. Await the [`Execution`] for the run's [`ExecResult`], or call
    /// [`Execution::result`] (which also gives a suspended run's state) and
    /// [`Execution::suspend`]. Never panics.
    pub fn execute(&self, source: &str) -> Execution {
        self.execute_with(source, ExecuteOptions::default())
    }

    /// [`CodeMode::execute`] with per-run options: run id, bindings, context, cancellation, seed.
    pub fn execute_with(&self, source: &str, options: ExecuteOptions) -> Execution {
        Execution::start(&self.inner, Code::Source(source), options)
    }

    /// Goes on with a suspended run: `outcomes` gives each pending durable call's outcome by its
    /// key (`Ok(value)`, or `Err(error)`, which rejects the call's promise with a tool error the
    /// program can catch). The run keeps the limits it was saved with (its time limit counts
    /// the active time before the suspend). Fails when an outcome is missing or not for a
    /// pending call, or the state is not this build's or was saved with other extensions.
    pub fn resume(
        &self,
        state: Snapshot,
        outcomes: impl IntoIterator<Item = (String, Result<serde_json::Value, codemode_tools::ToolError>)>,
    ) -> Result<Execution, SnapshotError> {
        self.resume_with(state, outcomes, ExecuteOptions::default())
    }

    /// [`CodeMode::resume`] with the resumed run's context and cancellation token (the other
    /// options were fixed when the run started).
    pub fn resume_with(
        &self,
        state: Snapshot,
        outcomes: impl IntoIterator<Item = (String, Result<serde_json::Value, codemode_tools::ToolError>)>,
        options: ExecuteOptions,
    ) -> Result<Execution, SnapshotError> {
        Execution::resume(&self.inner, state, outcomes.into_iter().collect(), options)
    }

    /// Compiles `source` once, for [`CodeMode::run`] to run as often as needed. The diagnostic is
    /// the one `execute` would report (`ParseError`, `UnsupportedSyntax`).
    pub fn compile(&self, source: &str) -> Result<Program, Diagnostic> {
        crate::driver::compile(source, &self.inner.limits)
    }

    /// Starts a compiled program with per-run options (its time limit starts now; compiling
    /// is not counted again). Await it like [`CodeMode::execute`].
    pub fn run(&self, program: &Program, options: ExecuteOptions) -> Execution {
        Execution::start(&self.inner, Code::Program(program), options)
    }
}
