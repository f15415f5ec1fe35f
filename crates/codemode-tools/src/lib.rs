//! # codemode-tools
//!
//! How a host describes its world to the model, and how the model finds its way in it: tool
//! definitions with typed or JSON Schema contracts, namespaces, the catalog, TypeScript
//! signatures and declarations, search, and MCP and OpenAPI import. It depends on neither the VM
//! nor swc (nor tokio), so hosts can use it alone (for example to render a `.d.ts` for a prompt).
//!
//! ## Facade-facing API
//!
//! These items are stable; the `codemode` facade builds on them.
//!
//! - [`Tool`] — `Clone` (an `Arc` inside), `Send + Sync`, callable concurrently.
//!   - [`Tool::from_json`]`(description, input: Option<Value>, output: Option<Value>, handler)`
//!     with `handler: F`, `F: Fn(Value, CallContext) -> Fut + Send + Sync + 'static`,
//!     `Fut: Future<Output = Result<Value, ToolError>> + Send + 'static`;
//!     opt-in checks [`Tool::validate_input`] / [`Tool::validate_output`].
//!   - [`Tool::typed`]`::<I, O, _, _>(description, handler)` with
//!     `F: Fn(I, CallContext) -> Fut + Send + Sync + 'static`, `Fut: Future<Output = Result<O, ToolError>> + Send + 'static`,
//!     `I: DeserializeOwned + JsonSchema + 'static`, `O: Serialize + JsonSchema + 'static`
//!     (`O = ()` renders `Promise<void>`, `I = ()` takes no arguments).
//!   - [`Tool::with_extension`] / [`Tool::extension`]: attach host data by type (for example
//!     durable-call handlers the facade defines) without this crate knowing its type.
//!   - [`Tool::invoke`]`(&self, input: Value, ctx: CallContext) -> BoxFuture<Result<Value, ToolError>>`
//!     (`BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>`): decodes/validates,
//!     runs the handler, encodes/validates the output. Std futures only.
//! - [`CallContext`] `{ key: String /* "<runId>:<id>" */, path: String }` — build with [`CallContext::new`].
//! - [`ToolError`] — [`ToolError::kind`] ([`ToolErrorKind`]: `InvalidInput`, `InvalidOutput`,
//!   `Refused`, `Failure`, `Internal`), [`ToolError::message`] (model-visible),
//!   [`ToolError::cause`] (private), [`ToolError::model_message`]`(path)` (the reference's
//!   `Invalid input for tool 'x': …` framing). Constructors [`ToolError::failure`], [`ToolError::refused`],
//!   [`ToolError::invalid_input`], [`ToolError::invalid_output`], [`ToolError::internal`],
//!   [`ToolError::with_cause`]. Any `std::error::Error` converts (via `?`) into a sanitized
//!   `Internal` error whose message is [`INTERNAL_MESSAGE`].
//! - [`Namespace`] — `Namespace::new().description(..).tool("a.b", tool).namespace("x", ns)`.
//! - [`ToolSet`] — `Clone` (`Arc`), built by [`ToolSet::new`]`(root: Namespace) -> Result<ToolSet, BuildError>`
//!   (or `Namespace::build`). Lookup: [`ToolSet::get`]`(path) -> Option<&Tool>`,
//!   [`ToolSet::is_namespace`], [`ToolSet::children`], [`ToolSet::lookup`] → [`Lookup`],
//!   [`ToolSet::suggest`], [`ToolSet::unknown_tool_message`]
//!   (`Unknown tool 'x.y'. Did you mean tools.x.z?`), [`ToolSet::not_callable_message`]
//!   (`Tool 'a' is not callable.`). Discovery: [`ToolSet::catalog`], [`ToolSet::namespaces`],
//!   [`ToolSet::search`]`(&SearchRequest) -> SearchResponse`, [`ToolSet::search_json`]`(&Value) -> Result<Value, ToolError>`
//!   (the program's synchronous built-in), [`ToolSet::rank`].
//! - [`tool_expression`]`(path) -> String` and [`search_signature`]`() -> &'static str`.
//!
//! ## Beyond the facade
//!
//! - [`ToolSet::declarations`] with [`DeclarationOptions`]: a whole-API `.d.ts`.
//! - [`ToolSet::search_regex`]: deterministic regex filtering (linear time).
//! - [`mcp`]: tools from MCP `tools/list` entries, with the name mapping kept.
//! - [`openapi`]: tools from an OpenAPI 3.x document, with `skipped` reasons; the host performs HTTP.
//! - [`schema::render`]: the JSON Schema → TypeScript renderer on its own; [`validate`]: the checker.
//!
//! `docs/tools.md` in the repository explains all of it with examples, and records the
//! search-quality figures.
//!
//! ## Example
//!
//! ```
//! use codemode_tools::{CallContext, Namespace, SearchRequest, Tool, ToolError};
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Deserialize, JsonSchema)]
//! struct LookupInput {
//!     id: String,
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! struct Order {
//!     id: String,
//!     status: String,
//! }
//!
//! let lookup = Tool::typed("Look up an order by ID", |input: LookupInput, _ctx: CallContext| async move {
//!     Ok::<_, ToolError>(Order { id: input.id, status: "open".into() })
//! });
//! let tools = Namespace::new()
//!     .namespace("orders", Namespace::with_description("Purchases and shipments").tool("lookup", lookup))
//!     .build()?;
//!
//! assert_eq!(
//!     tools.catalog()[0].signature,
//!     "tools.orders.lookup({ id: string }): Promise<{ id: string, status: string }>"
//! );
//! let page = tools.search(&SearchRequest::query("find an order"));
//! assert_eq!(page.items[0].path, "tools.orders.lookup");
//! assert_eq!(
//!     tools.unknown_tool_message("orders.lokup"),
//!     "Unknown tool 'orders.lokup'. Did you mean tools.orders.lookup?"
//! );
//! # Ok::<(), codemode_tools::BuildError>(())
//! ```
//!
//! Paths are canonical dotted strings (`orders.lookup`); dots in registered names always create
//! namespaces, so a dotted string is unambiguous.

mod context;
mod declarations;
mod durable;
mod error;
pub mod mcp;
pub mod names;
mod namespace;
pub mod openapi;
mod registry;
pub mod schema;
pub mod search;
mod signature;
mod suggest;
mod tool;
pub mod validate;

pub use context::{CallContext, RunContext};
pub use declarations::DeclarationOptions;
pub use durable::{BlockingCall, Durable, SuspendError, Suspender};
pub use error::{BuildError, Cause, INTERNAL_MESSAGE, ToolError, ToolErrorKind};
pub use names::{sanitize_identifier, tool_expression};
pub use namespace::Namespace;
pub use registry::{Lookup, MAX_PATH_DEPTH, NamespaceDescription, ToolDescription, ToolSet};
pub use schema::render::{Direction, Mode, RenderOptions};
pub use search::regex::RegexSearchError;
pub use search::{DEFAULT_LIMIT, Matches, NextPage, ScoredHit, SearchItem, SearchRequest, SearchResponse};
pub use signature::{is_empty_input, search_signature, signature};
pub use tool::{BoxFuture, Tool};
pub use validate::ValidationError;
