//! Tools from an OpenAPI 3.x document: one tool per operation whose transport semantics are
//! supported, a precise `skipped` reason for every other one, and a host-supplied function that
//! performs the HTTP request (this crate does no I/O). Dotted `operationId`s create namespaces.
//!
//! What is supported, deliberately narrow (the reference's rule: never guess serialization):
//! path parameters (`style: simple`, primitive values), query parameters (`style: form`,
//! primitives or arrays of primitives, `explode` either way), header parameters (primitives),
//! JSON request bodies (`application/json` or `+json`), and JSON, text or empty responses. Cookie
//! parameters, `deepObject`/`spaceDelimited`/`pipeDelimited` styles, object-valued query
//! parameters, parameters described by `content`, non-JSON request bodies, event streams and
//! binary responses are skipped with a reason, as are operations whose security requirements name
//! schemes the document does not define (fail closed).
//!
//! Input signatures take parameters as top-level properties and the request body as `body`;
//! request signatures omit `readOnly` properties and response signatures omit `writeOnly` ones.
//! Schemas shape signatures only: values pass through unfiltered.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::context::CallContext;
use crate::error::ToolError;
use crate::names::sanitize_identifier;
use crate::namespace::Namespace;
use crate::schema::{MAX_SCHEMA_DEPTH, resolve_ref, str_keyword};
use crate::tool::Tool;

/// The HTTP request a tool call becomes; the host adds the base URL and authentication.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpRequest {
    /// The operation's `operationId` (or the generated name).
    pub operation_id: String,
    /// Upper-case method (`GET`).
    pub method: String,
    /// The path template (`/pets/{petId}`).
    pub path_template: String,
    /// The path with parameters substituted and percent-encoded (`/pets/42`).
    pub path: String,
    /// Query parameters in order, values already serialized (arrays exploded or comma-joined).
    pub query: Vec<(String, String)>,
    /// Header parameters.
    pub headers: Vec<(String, String)>,
    /// The JSON body, if the operation has one and the call passed it.
    pub body: Option<Value>,
    /// The security requirements that apply (alternatives; each lists scheme names), for the
    /// host to resolve. Empty when the operation needs none.
    pub security: Vec<Vec<String>>,
}

/// An operation that was not turned into a tool, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// `METHOD /path` (and the operationId when there is one).
    pub operation: String,
    /// Why it is not supported.
    pub reason: String,
}

/// The result of [`from_spec`].
#[derive(Debug, Clone)]
pub struct OpenApiImport {
    /// One tool per supported operation; mount it with [`Namespace::namespace`].
    pub namespace: Namespace,
    /// Every operation left out, with its reason.
    pub skipped: Vec<Skipped>,
}

/// Why a document could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenApiError(pub String);

impl std::fmt::Display for OpenApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid OpenAPI document: {}", self.0)
    }
}

impl std::error::Error for OpenApiError {}

const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// How many `$ref` hops a parameter, body or response may take before it counts as unresolvable.
const MAX_REF_HOPS: usize = 16;

/// Follows `$ref`s (within the document) to a non-reference object.
fn deref<'a>(spec: &'a Value, mut value: &'a Value) -> Option<&'a Value> {
    for _ in 0..MAX_REF_HOPS {
        match str_keyword(value, "$ref") {
            Some(reference) => value = resolve_ref(spec, reference)?,
            None => return Some(value),
        }
    }
    None
}

/// One parameter the handler must place.
#[derive(Debug, Clone)]
struct Param {
    name: String,
    location: Location,
    explode: bool,
    required: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Location {
    Path,
    Query,
    Header,
}

/// Everything the handler needs about one operation.
#[derive(Debug, Clone)]
struct Operation {
    operation_id: String,
    method: String,
    path_template: String,
    params: Vec<Param>,
    has_body: bool,
    security: Vec<Vec<String>>,
}

/// Converts a document into tools. `call(request, ctx)` performs the HTTP request and returns
/// the decoded JSON (or text) the program receives; map transport failures to model-safe
/// [`ToolError`]s there. Errors only when the document has no `paths` object.
pub fn from_spec<F, Fut>(spec: &Value, call: F) -> Result<OpenApiImport, OpenApiError>
where
    F: Fn(HttpRequest, CallContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
{
    let Some(paths) = spec.get("paths").and_then(Value::as_object) else {
        return Err(OpenApiError("the document has no `paths` object".to_owned()));
    };
    let call = Arc::new(call);
    let schemes: BTreeSet<&str> = spec
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object)
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let mut namespace = Namespace::new();
    let mut skipped = Vec::new();
    let mut used: BTreeSet<String> = BTreeSet::new();
    for (path, item) in paths {
        let Some(item) = deref(spec, item).and_then(Value::as_object) else {
            skipped.push(Skipped {
                operation: path.clone(),
                reason: "the path item is not an object".to_owned(),
            });
            continue;
        };
        for method in METHODS {
            let Some(op) = item.get(*method).and_then(Value::as_object) else { continue };
            let label = match op.get("operationId").and_then(Value::as_str) {
                Some(id) => format!("{} {path} ({id})", method.to_uppercase()),
                None => format!("{} {path}", method.to_uppercase()),
            };
            match operation(spec, path, method, item, op, &schemes) {
                Err(reason) => skipped.push(Skipped { operation: label, reason }),
                Ok((operation, input, output, description)) => {
                    let mut name = operation.operation_id.clone();
                    if !used.insert(name.clone()) {
                        skipped.push(Skipped {
                            operation: label,
                            reason: format!("duplicate operationId '{name}'"),
                        });
                        continue;
                    }
                    if name.split('.').any(|s| s.is_empty() || s == "__proto__") {
                        name = sanitize_identifier(&name);
                    }
                    let route = Arc::clone(&call);
                    let operation = Arc::new(operation);
                    let tool = Tool::from_json(description, Some(input), output, move |args, ctx| {
                        let request = build_request(&operation, &args);
                        let route = Arc::clone(&route);
                        async move {
                            let request = request?;
                            route(request, ctx).await
                        }
                    });
                    namespace.add_tool(name, tool);
                }
            }
        }
    }
    Ok(OpenApiImport { namespace, skipped })
}

type Converted = (Operation, Value, Option<Value>, String);

/// Converts one operation, or says why it cannot be.
fn operation(
    spec: &Value,
    path: &str,
    method: &str,
    item: &Map<String, Value>,
    op: &Map<String, Value>,
    schemes: &BTreeSet<&str>,
) -> Result<Converted, String> {
    let operation_id = match op.get("operationId").and_then(Value::as_str) {
        Some(id) if !id.is_empty() => id.to_owned(),
        _ => sanitize_identifier(&format!("{method}_{path}")),
    };
    // Security: the operation's own list, else the document's; unknown schemes fail closed.
    let security_value = op.get("security").or_else(|| spec.get("security"));
    let mut security = Vec::new();
    if let Some(requirements) = security_value {
        let Some(requirements) = requirements.as_array() else {
            return Err("malformed security requirements".to_owned());
        };
        for requirement in requirements {
            let Some(requirement) = requirement.as_object() else {
                return Err("malformed security requirement".to_owned());
            };
            for name in requirement.keys() {
                if !schemes.contains(name.as_str()) {
                    return Err(format!("security scheme '{name}' is not defined"));
                }
            }
            security.push(requirement.keys().cloned().collect());
        }
    }
    // Parameters: path-item level, overridden by operation level (same name and location).
    let mut by_key: BTreeMap<(String, String), &Value> = BTreeMap::new();
    let mut order: Vec<(String, String)> = Vec::new();
    for list in [item.get("parameters"), op.get("parameters")].into_iter().flatten() {
        let Some(list) = list.as_array() else { return Err("malformed parameters".to_owned()) };
        for parameter in list {
            let Some(parameter) = deref(spec, parameter) else {
                return Err("a parameter $ref does not resolve".to_owned());
            };
            let name = str_keyword(parameter, "name").unwrap_or_default().to_owned();
            let location = str_keyword(parameter, "in").unwrap_or_default().to_owned();
            let key = (name, location);
            if !by_key.contains_key(&key) {
                order.push(key.clone());
            }
            by_key.insert(key, parameter);
        }
    }
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    let mut params = Vec::new();
    let mut refs = BTreeSet::new();
    for key in &order {
        let Some(parameter) = by_key.get(key) else { continue };
        let (name, location) = key;
        if name.is_empty() {
            return Err("a parameter has no name".to_owned());
        }
        let location = match location.as_str() {
            "path" => Location::Path,
            "query" => Location::Query,
            "header" => Location::Header,
            "cookie" => return Err(format!("cookie parameter '{name}' is not supported")),
            other => return Err(format!("parameter '{name}' has an unknown location '{other}'")),
        };
        if parameter.get("content").is_some() {
            return Err(format!("parameter '{name}' is described by `content`, which is not supported"));
        }
        let style = str_keyword(parameter, "style");
        let supported_style = match location {
            Location::Path | Location::Header => style.is_none_or(|s| s == "simple"),
            Location::Query => style.is_none_or(|s| s == "form"),
        };
        if !supported_style {
            return Err(format!(
                "parameter '{name}' uses style '{}', which is not supported",
                style.unwrap_or("")
            ));
        }
        let schema = parameter.get("schema").cloned().unwrap_or(Value::Bool(true));
        let shape = deref(spec, &schema).map(crate::schema::types).unwrap_or_default();
        let is_array = shape.contains(&"array");
        if shape.contains(&"object") || (is_array && location != Location::Query) {
            return Err(format!(
                "parameter '{name}' has a structured value, whose serialization is not supported"
            ));
        }
        collect_refs(spec, &schema, 0, &mut refs);
        let mut property = schema;
        if let (Some(description), Some(object)) = (parameter.get("description"), property.as_object_mut()) {
            object.entry("description").or_insert_with(|| description.clone());
        }
        let is_required = location == Location::Path || parameter.get("required") == Some(&Value::Bool(true));
        if is_required {
            required.push(json!(name));
        }
        properties.insert(name.clone(), property);
        let explode =
            parameter.get("explode").and_then(Value::as_bool).unwrap_or(location == Location::Query);
        params.push(Param { name: name.clone(), location, explode, required: is_required });
    }
    for param in params.iter().filter(|p| p.location == Location::Path) {
        if !path.contains(&format!("{{{}}}", param.name)) {
            return Err(format!("path parameter '{}' does not appear in the path", param.name));
        }
    }
    // Request body: JSON only.
    let mut has_body = false;
    if let Some(body) = op.get("requestBody") {
        let body = deref(spec, body).ok_or("the request body $ref does not resolve")?;
        let content =
            body.get("content").and_then(Value::as_object).ok_or("the request body has no content")?;
        let Some((_, media)) = content.iter().find(|(media, _)| is_json(media)) else {
            return Err("the request body has no JSON content".to_owned());
        };
        if properties.contains_key("body") {
            return Err("a parameter named 'body' collides with the request body".to_owned());
        }
        let schema = media.get("schema").cloned().unwrap_or(Value::Bool(true));
        collect_refs(spec, &schema, 0, &mut refs);
        properties.insert("body".to_owned(), schema);
        if body.get("required") == Some(&Value::Bool(true)) {
            required.push(json!("body"));
        }
        has_body = true;
    }
    let mut input = json!({ "type": "object", "properties": properties, "required": required });
    attach_components(spec, &refs, &mut input);
    let output = response_schema(spec, op)?;
    let description = [op.get("summary"), op.get("description")]
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    let operation = Operation {
        operation_id,
        method: method.to_uppercase(),
        path_template: path.to_owned(),
        params,
        has_body,
        security,
    };
    Ok((operation, input, output, description))
}

fn is_json(media: &str) -> bool {
    let media = media.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    media == "application/json" || media.ends_with("+json")
}

/// The output schema: the first 2xx response (then `2XX`, then `default`); JSON content gives
/// its schema, no content gives `None` (`void`), text gives `string`; anything else is skipped.
fn response_schema(spec: &Value, op: &Map<String, Value>) -> Result<Option<Value>, String> {
    let Some(responses) = op.get("responses").and_then(Value::as_object) else {
        return Ok(Some(Value::Bool(true)));
    };
    let mut codes: Vec<&String> = responses.keys().filter(|c| c.len() == 3 && c.starts_with('2')).collect();
    codes.sort();
    let pick = codes.first().copied().or_else(|| responses.keys().find(|c| *c == "2XX" || *c == "default"));
    let Some(code) = pick else { return Ok(Some(Value::Bool(true))) };
    let response =
        responses.get(code).and_then(|r| deref(spec, r)).ok_or("the response $ref does not resolve")?;
    let Some(content) = response.get("content").and_then(Value::as_object).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    if let Some((_, media)) = content.iter().find(|(media, _)| is_json(media)) {
        let mut schema = media.get("schema").cloned().unwrap_or(Value::Bool(true));
        let mut refs = BTreeSet::new();
        collect_refs(spec, &schema, 0, &mut refs);
        attach_components(spec, &refs, &mut schema);
        return Ok(Some(schema));
    }
    if content.keys().any(|m| m.starts_with("text/event-stream")) {
        return Err("the response is an event stream (SSE), which is not supported".to_owned());
    }
    if content.keys().any(|m| m.starts_with("text/")) {
        return Ok(Some(json!({ "type": "string" })));
    }
    Err(format!(
        "the response is binary ({}), which is not supported",
        content.keys().cloned().collect::<Vec<_>>().join(", ")
    ))
}

/// Collects the `#/components/...` references a schema needs, transitively (bounded).
fn collect_refs(spec: &Value, schema: &Value, depth: usize, refs: &mut BTreeSet<String>) {
    if depth > MAX_SCHEMA_DEPTH || refs.len() > 10_000 {
        return;
    }
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "$ref"
                    && let Value::String(reference) = value
                {
                    if reference.starts_with("#/")
                        && refs.insert(reference.clone())
                        && let Some(target) = resolve_ref(spec, reference)
                    {
                        collect_refs(spec, target, depth + 1, refs);
                    }
                } else {
                    collect_refs(spec, value, depth + 1, refs);
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                collect_refs(spec, item, depth + 1, refs);
            }
        }
        _ => {}
    }
}

/// Copies what `refs` point at into `schema` at the same JSON pointers, so the tool's schema is
/// self-contained and `#/components/schemas/X` resolves against it as it did in the document.
fn attach_components(spec: &Value, refs: &BTreeSet<String>, schema: &mut Value) {
    let Value::Object(root) = schema else { return };
    for reference in refs {
        let Some(target) = resolve_ref(spec, reference) else { continue };
        let Some(pointer) = reference.strip_prefix("#/") else { continue };
        let segments: Vec<String> =
            pointer.split('/').map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
        // Never overwrite the schema's own keywords (`properties`, `type`, …).
        if segments.len() < 2 || matches!(segments[0].as_str(), "properties" | "type" | "required" | "items")
        {
            continue;
        }
        let last = segments.len() - 1;
        if let Some(node) = descend(root, &segments[..last]) {
            node.entry(segments[last].clone()).or_insert_with(|| target.clone());
        }
    }
}

/// The object at `segments` below `node`, creating empty objects on the way; `None` when a
/// non-object is in the way.
fn descend<'a>(
    mut node: &'a mut Map<String, Value>,
    segments: &[String],
) -> Option<&'a mut Map<String, Value>> {
    for segment in segments {
        node = node.entry(segment.clone()).or_insert_with(|| Value::Object(Map::new())).as_object_mut()?;
    }
    Some(node)
}

/// Percent-encodes a path segment value (RFC 3986 unreserved characters stay).
fn encode_segment(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// A primitive argument as text; structured values are refused (never guessed).
fn primitive(name: &str, value: &Value) -> Result<String, ToolError> {
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(ToolError::invalid_input(format!("at input.{name}: expected a string, number or boolean"))),
    }
}

fn build_request(operation: &Operation, args: &Value) -> Result<HttpRequest, ToolError> {
    let empty = Map::new();
    let args = match args {
        Value::Object(map) => map,
        Value::Null => &empty,
        _ => return Err(ToolError::invalid_input("at input: expected an object")),
    };
    let mut path = operation.path_template.clone();
    let mut query = Vec::new();
    let mut headers = Vec::new();
    for param in &operation.params {
        let Some(value) = args.get(&param.name).filter(|v| !v.is_null()) else {
            if param.required {
                return Err(ToolError::invalid_input(format!(
                    "at input.{}: expected a value (required), got undefined",
                    param.name
                )));
            }
            continue;
        };
        match param.location {
            Location::Path => {
                let text = encode_segment(&primitive(&param.name, value)?);
                path = path.replace(&format!("{{{}}}", param.name), &text);
            }
            Location::Header => headers.push((param.name.clone(), primitive(&param.name, value)?)),
            Location::Query => match value {
                Value::Array(items) => {
                    let texts =
                        items.iter().map(|v| primitive(&param.name, v)).collect::<Result<Vec<_>, _>>()?;
                    if param.explode {
                        query.extend(texts.into_iter().map(|t| (param.name.clone(), t)));
                    } else {
                        query.push((param.name.clone(), texts.join(",")));
                    }
                }
                other => query.push((param.name.clone(), primitive(&param.name, other)?)),
            },
        }
    }
    let body = if operation.has_body { args.get("body").cloned() } else { None };
    Ok(HttpRequest {
        operation_id: operation.operation_id.clone(),
        method: operation.method.clone(),
        path_template: operation.path_template.clone(),
        path,
        query,
        headers,
        body,
        security: operation.security.clone(),
    })
}
