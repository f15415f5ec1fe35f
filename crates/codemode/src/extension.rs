//! Extensions: host functions a program calls directly as globals (`fetch(url)`,
//! `fs.promises.readFile(path)`), as the reference's `Extension.make`.
//!
//! Unlike tools they are not in the catalog, not counted against `max_tool_calls`, not in the
//! result's `toolCalls`, and not described to the model. Every argument is copied in as JSON (the
//! function gets them as an array) and the result is copied out; a result may carry host
//! functions ([`HostValue`]), which the program gets as functions that call back to the host.
//! [`Extension::module`] maps Node module names (`fs`, `node:fs`) to an extension's value for
//! `require`/`import`. An asynchronous global returns a
//! promise at once; a synchronous one stops the program until it returns. A dotted path makes an
//! object of functions (`fs.readFile` and `fs.promises.readFile` share the `fs` global); hooks see
//! every call with the path as its name (`CallKind::Extension`). A denied synchronous call throws,
//! a denied asynchronous one rejects.
//!
//! A global that shadows a built-in (`Math`, `tools`, `search`, ...) or another extension's global
//! is a [`crate::BuildError`].

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use codemode_tools::{CallContext, ToolError};
use serde_json::Value as Json;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// An asynchronous host function: arguments in, a value out.
pub(crate) type AsyncFn =
    Arc<dyn Fn(Vec<Json>, CallContext) -> BoxFuture<Result<HostValue, ToolError>> + Send + Sync>;
/// A synchronous host function.
pub(crate) type SyncFn = Arc<dyn Fn(Vec<Json>, CallContext) -> Result<HostValue, ToolError> + Send + Sync>;

#[derive(Clone)]
pub(crate) enum HostFunction {
    Async(AsyncFn),
    Sync(SyncFn),
}

impl HostFunction {
    fn make_async<F, Fut, R>(f: F) -> HostFunction
    where
        F: Fn(Vec<Json>, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        R: Into<HostValue>,
    {
        let f: AsyncFn = Arc::new(move |args, ctx| {
            let future = f(args, ctx);
            Box::pin(async move { future.await.map(Into::into) })
        });
        HostFunction::Async(f)
    }

    fn make_sync<F, R>(f: F) -> HostFunction
    where
        F: Fn(Vec<Json>, CallContext) -> Result<R, ToolError> + Send + Sync + 'static,
        R: Into<HostValue>,
    {
        HostFunction::Sync(Arc::new(move |args, ctx| f(args, ctx).map(Into::into)))
    }
}

impl std::fmt::Debug for HostFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HostFunction::Async(_) => "HostFunction::Async",
            HostFunction::Sync(_) => "HostFunction::Sync",
        })
    }
}

/// What an extension function returns: JSON in which host functions may stand, so that a result
/// can be an object with methods (a client from `db.connect()` with `query(sql)`). The program
/// gets the data as a copy and each function as a function it can call: such a call goes back to
/// the host like a call of an extension global (sync or async as made, seen by hooks as
/// `CallKind::Extension` under the name `db.connect().query`, outside `max_tool_calls`). The
/// functions live as long as the run. Plain JSON converts with `.into()`.
#[derive(Clone, Debug)]
pub struct HostValue(Repr, Option<Json>);

#[derive(Clone, Debug)]
enum Repr {
    Json(Json),
    Array(Vec<HostValue>),
    Object(Vec<(String, HostValue)>),
    Function(HostFunction),
}

impl From<Json> for HostValue {
    fn from(json: Json) -> Self {
        HostValue(Repr::Json(json), None)
    }
}

impl HostValue {
    /// An object with these members, in this order (a later member of the same name replaces an
    /// earlier one, as in JSON).
    pub fn object<K: Into<String>, V: Into<HostValue>>(members: impl IntoIterator<Item = (K, V)>) -> Self {
        HostValue(Repr::Object(members.into_iter().map(|(k, v)| (k.into(), v.into())).collect()), None)
    }

    /// An array of these items.
    pub fn array<V: Into<HostValue>>(items: impl IntoIterator<Item = V>) -> Self {
        HostValue(Repr::Array(items.into_iter().map(Into::into).collect()), None)
    }

    /// An asynchronous function: the program gets a promise of its result.
    pub fn function<F, Fut, R>(f: F) -> Self
    where
        F: Fn(Vec<Json>, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        R: Into<HostValue>,
    {
        HostValue(Repr::Function(HostFunction::make_async(f)), None)
    }

    /// A synchronous function: the program stops until it returns.
    pub fn sync_function<F, R>(f: F) -> Self
    where
        F: Fn(Vec<Json>, CallContext) -> Result<R, ToolError> + Send + Sync + 'static,
        R: Into<HostValue>,
    {
        HostValue(Repr::Function(HostFunction::make_sync(f)), None)
    }

    /// The same value carrying `data`, plain JSON the program never sees, from which the
    /// extension can make the value again: what its snapshot `encode` usually returns (see
    /// [`Extension::snapshot`]).
    #[must_use]
    pub fn with_data(mut self, data: Json) -> Self {
        self.1 = Some(data);
        self
    }

    /// Whether a function stands anywhere in the value.
    pub(crate) fn has_functions(&self) -> bool {
        match &self.0 {
            Repr::Json(_) => false,
            Repr::Function(_) => true,
            Repr::Array(items) => items.iter().any(HostValue::has_functions),
            Repr::Object(members) => members.iter().any(|(_, v)| v.has_functions()),
        }
    }

    /// The data given to [`HostValue::with_data`].
    pub fn data(&self) -> Option<&Json> {
        self.1.as_ref()
    }

    /// The JSON the program's copy is made from (`null` where a function stands, so members keep
    /// their order), and each function with its path from the root.
    pub(crate) fn split(self) -> (Json, Vec<(Vec<String>, HostFunction)>) {
        let mut functions = Vec::new();
        let json = self.split_into(&mut Vec::new(), &mut functions);
        (json, functions)
    }

    fn split_into(self, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, HostFunction)>) -> Json {
        match self.0 {
            Repr::Json(json) => json,
            Repr::Function(f) => {
                out.push((path.clone(), f));
                Json::Null
            }
            Repr::Array(items) => Json::Array(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, item)| {
                        path.push(i.to_string());
                        let json = item.split_into(path, out);
                        path.pop();
                        json
                    })
                    .collect(),
            ),
            Repr::Object(members) => {
                let mut map = serde_json::Map::new();
                for (k, v) in members {
                    path.push(k.clone());
                    // A later member of the same name replaces the earlier one and its functions.
                    out.retain(|(p, _)| !p.starts_with(path));
                    let json = v.split_into(path, out);
                    path.pop();
                    map.insert(k, json);
                }
                Json::Object(map)
            }
        }
    }
}

/// A named set of globals the host adds to every run.
#[derive(Clone)]
pub struct Extension {
    pub(crate) name: String,
    pub(crate) functions: Vec<(String, HostFunction)>,
    /// (module name, path of the value it gives).
    pub(crate) modules: Vec<(String, String)>,
    pub(crate) snapshot: Option<SnapshotHooks>,
}

type EncodeFn = dyn Fn(&HostValue) -> Result<Json, String> + Send + Sync;
type DecodeFn = dyn Fn(Json) -> Result<HostValue, String> + Send + Sync;

/// How an extension keeps the functions in its values across a suspend (see
/// [`Extension::snapshot`]).
#[derive(Clone)]
pub(crate) struct SnapshotHooks {
    pub(crate) encode: Arc<EncodeFn>,
    pub(crate) decode: Arc<DecodeFn>,
}

impl std::fmt::Debug for Extension {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let paths: Vec<&str> = self.functions.iter().map(|(p, _)| p.as_str()).collect();
        f.debug_struct("Extension")
            .field("name", &self.name)
            .field("globals", &paths)
            .field("modules", &self.modules)
            .finish()
    }
}

impl Extension {
    pub fn new(name: impl Into<String>) -> Self {
        Extension { name: name.into(), functions: Vec::new(), modules: Vec::new(), snapshot: None }
    }

    /// An asynchronous global at `path` (`fetch`, or `fs.promises.readFile` in an object): the
    /// program gets a promise. The handler gets the arguments as JSON and the call's context
    /// (its key, `path`, and the run's context value).
    ///
    /// The result is JSON, or a [`HostValue`] with functions in it that the program can call.
    pub fn global<F, Fut, R>(mut self, path: impl Into<String>, f: F) -> Self
    where
        F: Fn(Vec<Json>, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
        R: Into<HostValue>,
    {
        self.functions.push((path.into(), HostFunction::make_async(f)));
        self
    }

    /// A synchronous global at `path`: the program stops until it returns, and its error is
    /// thrown where it was called.
    pub fn sync_global<F, R>(mut self, path: impl Into<String>, f: F) -> Self
    where
        F: Fn(Vec<Json>, CallContext) -> Result<R, ToolError> + Send + Sync + 'static,
        R: Into<HostValue>,
    {
        self.functions.push((path.into(), HostFunction::make_sync(f)));
        self
    }

    /// Maps the Node module `name` to this extension's value at `path` (a function, or an object
    /// of functions such as `fs` or `fs.promises`): `require(name)`, `await import(name)` and
    /// static `import ... from name` give the program that value. A `node:` prefix on either
    /// side is ignored (`.module("fs", "fs")` also answers `require("node:fs")`). Importing a
    /// module no extension maps throws an `Error` that lists the mapped ones.
    pub fn module(mut self, name: impl Into<String>, path: impl Into<String>) -> Self {
        self.modules.push((name.into(), path.into()));
        self
    }

    /// Keeps the functions in this extension's values across a suspend. Functions have no data
    /// form, so without this a resumed run loses them (calling one throws a `TypeError`).
    /// `encode` gets a value one of the extension's functions returned, as it returned it, and
    /// gives plain JSON (usually [`HostValue::data`]); `decode` gets that JSON back on resume,
    /// once per value, and gives a value of the same shape, whose functions the program's copies
    /// call from then on. A suspend fails (and the run goes on) when `encode` fails. A state
    /// saved with hooks resumes only with an extension of the same name that has hooks too.
    #[must_use]
    pub fn snapshot<E, D>(mut self, encode: E, decode: D) -> Self
    where
        E: Fn(&HostValue) -> Result<Json, String> + Send + Sync + 'static,
        D: Fn(Json) -> Result<HostValue, String> + Send + Sync + 'static,
    {
        self.snapshot = Some(SnapshotHooks { encode: Arc::new(encode), decode: Arc::new(decode) });
        self
    }

    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Every extension function of a runtime, checked.
#[derive(Clone, Default)]
pub(crate) struct Extensions {
    /// (path, function), in definition order.
    pub(crate) functions: Vec<(String, HostFunction)>,
    /// (module name without `node:`, path of its value), in definition order.
    pub(crate) modules: Vec<(String, String)>,
    /// The extensions' names, in order (a saved run resumes only with the same ones).
    pub(crate) names: Vec<String>,
    /// Each extension's snapshot hooks, by the index of its name.
    pub(crate) hooks: Vec<Option<SnapshotHooks>>,
    /// The extension (index of its name) of each of `functions`.
    pub(crate) owners: Vec<usize>,
}

impl Extensions {
    /// The extensions as a saved state names them: `web`, or `web+snapshot` with hooks.
    pub(crate) fn names(&self) -> Vec<String> {
        self.names
            .iter()
            .zip(&self.hooks)
            .map(|(name, hooks)| if hooks.is_some() { format!("{name}+snapshot") } else { name.clone() })
            .collect()
    }

    pub(crate) fn get(&self, path: &str) -> Option<&HostFunction> {
        self.functions.iter().find(|(p, _)| p == path).map(|(_, f)| f)
    }

    /// The extension (index) that defines the global function at `path`.
    pub(crate) fn owner(&self, path: &str) -> Option<usize> {
        let at = self.functions.iter().position(|(p, _)| p == path)?;
        self.owners.get(at).copied()
    }

    /// Checks and merges extensions: names are identifiers, no global shadows a built-in or
    /// another extension's, no path is both a function and an object.
    pub(crate) fn new(extensions: Vec<Extension>) -> Result<Extensions, crate::BuildError> {
        use crate::BuildError;
        let builtins = codemode_vm::builtin_global_names();
        let mut roots: Vec<(String, String)> = Vec::new(); // global → extension
        let mut functions: Vec<(String, HostFunction)> = Vec::new();
        let mut modules: Vec<(String, String)> = Vec::new();
        let mut names = Vec::new();
        let mut hooks = Vec::new();
        let mut owners = Vec::new();
        for ext in extensions {
            names.push(ext.name.clone());
            hooks.push(ext.snapshot.clone());
            for (module, path) in &ext.modules {
                let key = module.strip_prefix("node:").unwrap_or(module);
                let own = ext.functions.iter().any(|(p, _)| {
                    p == path || p.strip_prefix(path.as_str()).is_some_and(|r| r.starts_with('.'))
                });
                if key.is_empty() || !own || modules.iter().any(|(m, _)| m == key) {
                    return Err(BuildError::InvalidModule {
                        extension: ext.name.clone(),
                        module: module.clone(),
                    });
                }
                modules.push((key.to_string(), path.clone()));
            }
            for (path, f) in ext.functions {
                let segments: Vec<&str> = path.split('.').collect();
                let invalid =
                    || BuildError::InvalidExtensionGlobal { extension: ext.name.clone(), path: path.clone() };
                if segments.iter().any(|s| !is_identifier(s)) {
                    return Err(invalid());
                }
                let root = segments.first().copied().unwrap_or_default().to_string();
                // The built-in `crypto` object takes extension functions (`crypto.subtle.digest`)
                // beside its own; a path naming one of those fails when it is defined.
                if builtins.contains(&root) && !(root == "crypto" && segments.len() > 1) {
                    return Err(BuildError::ShadowedGlobal {
                        extension: ext.name.clone(),
                        name: root,
                        by: None,
                    });
                }
                match roots.iter().find(|(r, _)| *r == root) {
                    Some((_, owner)) if *owner != ext.name => {
                        return Err(BuildError::ShadowedGlobal {
                            extension: ext.name.clone(),
                            name: root,
                            by: Some(owner.clone()),
                        });
                    }
                    Some(_) => {}
                    None => roots.push((root, ext.name.clone())),
                }
                // Neither the same path twice nor a function on the way to another one.
                let clash = functions.iter().any(|(p, _)| {
                    *p == path || path.starts_with(&format!("{p}.")) || p.starts_with(&format!("{path}."))
                });
                if clash {
                    return Err(invalid());
                }
                functions.push((path, f));
                owners.push(names.len() - 1);
            }
        }
        Ok(Extensions { functions, modules, names, hooks, owners })
    }
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}
