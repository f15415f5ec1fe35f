//! Building tools from MCP `tools/list` entries: names sanitized to callable paths, the
//! mapping back to original names kept (each tool routes calls to the host's call function
//! under its original name), schemas, title and annotations carried over.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crate::context::CallContext;
use crate::error::ToolError;
use crate::names::sanitize_identifier;
use crate::namespace::Namespace;
use crate::tool::Tool;

/// One entry of an MCP `tools/list` result.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpTool {
    /// The server's name for the tool (any characters).
    pub name: String,
    /// Optional human title.
    #[serde(default)]
    pub title: Option<String>,
    /// Optional description.
    #[serde(default)]
    pub description: Option<String>,
    /// The input JSON Schema (MCP requires an object schema).
    #[serde(default)]
    pub input_schema: Option<Value>,
    /// The optional output JSON Schema (describes `structuredContent`).
    #[serde(default)]
    pub output_schema: Option<Value>,
    /// Optional annotations (`readOnlyHint`, `destructiveHint`, …).
    #[serde(default)]
    pub annotations: Option<Value>,
}

/// How imported names become paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct McpImportOptions {
    /// Treat dots in names as namespace separators (`github.create_issue` →
    /// `tools.github.create_issue`) instead of replacing them with `_`.
    pub split_dots: bool,
    /// Keep names that are not identifiers as they are (reached with brackets,
    /// `tools["resolve-library-id"]`) instead of sanitizing them (`resolve_library_id`).
    pub keep_names: bool,
    /// Check arguments against each tool's input schema before calling the server.
    pub validate_input: bool,
}

/// The result of an import: a namespace to mount, and the name mapping.
#[derive(Debug, Clone)]
pub struct McpImport {
    /// The tools, keyed by their callable names; mount it with [`Namespace::namespace`] or
    /// build it directly.
    pub namespace: Namespace,
    /// Callable path (relative to the namespace) → the server's original name.
    pub names: BTreeMap<String, String>,
}

impl McpImport {
    /// The server's name for a callable path, to route a result or a log line back.
    pub fn original_name(&self, path: &str) -> Option<&str> {
        self.names.get(path).map(String::as_str)
    }
}

/// Why an import failed: the index of the bad entry and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpImportError {
    /// Position in the `tools/list` array.
    pub index: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for McpImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MCP tool #{}: {}", self.index, self.reason)
    }
}

impl std::error::Error for McpImportError {}

/// Parses the `tools` array of a `tools/list` result (or the result object itself).
pub fn parse_tools_list(value: &Value) -> Result<Vec<McpTool>, McpImportError> {
    let list = match value {
        Value::Object(object) => object.get("tools").unwrap_or(&Value::Null),
        other => other,
    };
    let Value::Array(entries) = list else {
        return Err(McpImportError { index: 0, reason: "expected an array of tools".to_owned() });
    };
    entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            McpTool::deserialize(entry).map_err(|e| McpImportError { index, reason: e.to_string() })
        })
        .collect()
}

/// One segment as a callable name, per the options.
fn callable_segment(segment: &str, options: McpImportOptions) -> String {
    if options.keep_names && !segment.is_empty() && segment != "__proto__" {
        segment.to_owned()
    } else {
        sanitize_identifier(segment)
    }
}

/// The callable path of an MCP name.
fn callable_path(name: &str, options: McpImportOptions) -> String {
    if options.split_dots {
        name.split('.').map(|s| callable_segment(s, options)).collect::<Vec<_>>().join(".")
    } else if options.keep_names {
        callable_segment(&name.replace('.', "_"), options)
    } else {
        sanitize_identifier(name)
    }
}

/// Builds tools from MCP entries. `call(original_name, arguments, ctx)` performs `tools/call`
/// on the server; its value is what the program receives (see [`call_result_value`] to turn a
/// raw `CallToolResult` into that value). Names that collide after sanitizing get `_2`, `_3`, …
/// suffixes in list order; an entry that would make a path both a tool and a namespace (with
/// `split_dots`) is an error.
pub fn import_tools<F, Fut>(
    tools: Vec<McpTool>,
    options: McpImportOptions,
    call: F,
) -> Result<McpImport, McpImportError>
where
    F: Fn(String, Value, CallContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
{
    let call = Arc::new(call);
    let mut namespace = Namespace::new();
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    for (index, entry) in tools.into_iter().enumerate() {
        if entry.name.is_empty() {
            return Err(McpImportError { index, reason: "the tool name is empty".to_owned() });
        }
        let base = callable_path(&entry.name, options);
        let mut path = base.clone();
        let mut n = 2;
        while names.contains_key(&path) {
            path = format!("{base}_{n}");
            n += 1;
        }
        if options.split_dots {
            let clash = names.keys().any(|existing| {
                existing.starts_with(&format!("{path}.")) || path.starts_with(&format!("{existing}."))
            });
            if clash {
                return Err(McpImportError {
                    index,
                    reason: format!("'{}' makes '{path}' both a tool and a namespace", entry.name),
                });
            }
        }
        let original = entry.name.clone();
        let route = Arc::clone(&call);
        let routed = original.clone();
        // MCP servers without an output schema still return content: render it as `unknown`,
        // not `void`.
        let output = Some(entry.output_schema.clone().unwrap_or(Value::Bool(true)));
        let mut tool = Tool::from_json(
            entry.description.clone().unwrap_or_default(),
            entry.input_schema.clone(),
            output,
            move |args, ctx| route(routed.clone(), args, ctx),
        )
        .validate_input(options.validate_input);
        if let Some(title) = entry.title {
            tool = tool.with_title(title);
        }
        if let Some(annotations) = entry.annotations {
            tool = tool.with_annotations(annotations);
        }
        namespace.add_tool(path.clone(), tool);
        names.insert(path, original);
    }
    Ok(McpImport { namespace, names })
}

/// Turns an MCP `CallToolResult` into the value a program sees: `structuredContent` when
/// present; otherwise the text of a single text block (parsed as JSON when it is JSON), or an
/// array of the blocks. `isError: true` becomes a [`ToolError::failure`] with the text.
pub fn call_result_value(result: Value) -> Result<Value, ToolError> {
    let Value::Object(mut object) = result else { return Ok(result) };
    let is_error = object.get("isError").and_then(Value::as_bool).unwrap_or(false);
    let content = match object.remove("content") {
        Some(Value::Array(blocks)) => blocks,
        _ => Vec::new(),
    };
    let texts: Vec<&str> = content
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    if is_error {
        let message =
            if texts.is_empty() { "The tool reported an error.".to_owned() } else { texts.join("\n") };
        return Err(ToolError::failure(message));
    }
    if let Some(structured) = object.remove("structuredContent") {
        return Ok(structured);
    }
    if content.len() == 1 && texts.len() == 1 {
        let text = texts[0];
        return Ok(serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned())));
    }
    Ok(Value::Array(
        content
            .into_iter()
            .map(|block| match block.get("text").and_then(Value::as_str) {
                Some(text) if block.get("type").and_then(Value::as_str) == Some("text") => {
                    Value::String(text.to_owned())
                }
                _ => block,
            })
            .collect(),
    ))
}
