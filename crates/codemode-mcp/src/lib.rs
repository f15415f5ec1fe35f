//! # codemode-mcp
//!
//! Code mode for MCP hosts, with the official Rust SDK (`rmcp`):
//!
//! - **Client** ([`upstream`]): MCP servers reached by command line (stdio) or URL (streamable
//!   HTTP) are listed (every page, again after `notifications/tools/list_changed`) and mounted as
//!   namespaces of `tools` through `codemode_tools::mcp` (names mapped, originals kept); calls
//!   go out as `tools/call`, answers come back as values or tool failures.
//! - **OpenAPI** ([`openapi`]): documents whose operations are called over HTTP (`reqwest`,
//!   rustls, timeouts, bounded bodies).
//! - **Hub** ([`hub`]): all sources together, and the [`codemode::CodeMode`] runtimes over them.
//! - **Server** ([`server`]): `codemode mcp`, an MCP server (stdio or streamable HTTP) with two
//!   tools, `search` and `execute`, in front of all of it.
//!
//! `docs/mcp.md` in the repository shows how to put it in front of an agent's servers.

pub mod http_client;
pub mod hub;
pub mod openapi;
pub mod server;
pub mod source;
pub mod upstream;
pub mod wire;

pub use hub::{CallObserver, Hub, HubOptions};
pub use openapi::HttpOptions;
pub use rmcp;
pub use server::{CodeModeServer, HttpAccess, ServerOptions};
pub use source::{Source, SourceError};
pub use upstream::ClientOptions;

/// Makes `ring` rustls's process-wide crypto provider (reqwest is built without one, to keep
/// the build light). Idempotent; an already installed provider stays.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
