//! Names and paths: which names are plain identifiers, how a path becomes a callable
//! expression (`tools.context7["resolve-library-id"]`), and how foreign names (MCP, OpenAPI)
//! are sanitized into identifiers without shadowing runtime globals.

use serde_json::Value;

/// The object programs reach tools through.
pub const ROOT: &str = "tools";

/// Whether `name` can follow a `.` in JavaScript: `[A-Za-z_$][A-Za-z0-9_$]*`. Reserved words are
/// fine after a dot (`tools.delete`), so they are identifiers here.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// One path segment as it follows an object expression: `.name` or `["name"]`.
pub fn segment_accessor(segment: &str) -> String {
    if is_identifier(segment) {
        format!(".{segment}")
    } else {
        format!("[{}]", Value::String(segment.to_owned()))
    }
}

/// The exact callable expression of a dotted tool path: `tools.orders.lookup`,
/// `tools.context7["resolve-library-id"]`.
pub fn tool_expression(path: &str) -> String {
    expression_with_root(ROOT, path)
}

/// Like [`tool_expression`] with another root object name.
pub fn expression_with_root(root: &str, path: &str) -> String {
    let mut out = String::from(root);
    if path.is_empty() {
        return out;
    }
    for segment in path.split('.') {
        out.push_str(&segment_accessor(segment));
    }
    out
}

/// Strips a leading `tools.` or the bracket form back to a dotted path, for lookups that accept
/// what a model copied from a signature. Returns `None` when the text is not a tool expression.
pub fn parse_expression(text: &str) -> Option<String> {
    let rest = text.trim().strip_prefix(ROOT)?;
    let mut segments = Vec::new();
    let mut rest = rest;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            segments.push(after[..end].to_owned());
            rest = &after[end..];
        } else if rest.starts_with("[\"") {
            let close = rest.find("\"]")?;
            let literal = &rest[1..close + 1];
            let segment: String = serde_json::from_str(literal).ok()?;
            segments.push(segment);
            rest = &rest[close + 2..];
        } else {
            return None;
        }
    }
    (!segments.is_empty()).then(|| segments.join("."))
}

/// Globals of the runtime (JavaScript built-ins and codemode's own) that a generated name must
/// not shadow when hosts expose namespaces as globals, as the Go runtime does. Sorted.
pub const RUNTIME_GLOBALS: &[&str] = &[
    "Array",
    "BigInt",
    "Boolean",
    "Date",
    "Error",
    "EvalError",
    "Infinity",
    "Intl",
    "JSON",
    "Map",
    "Math",
    "NaN",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "RangeError",
    "ReferenceError",
    "Reflect",
    "RegExp",
    "Set",
    "String",
    "Symbol",
    "SyntaxError",
    "TypeError",
    "URIError",
    "URL",
    "WeakMap",
    "WeakSet",
    "__proto__",
    "arguments",
    "atob",
    "btoa",
    "console",
    "constructor",
    "crypto",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "eval",
    "fetch",
    "globalThis",
    "hasOwnProperty",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "process",
    "prototype",
    "queueMicrotask",
    "require",
    "search",
    "setInterval",
    "setTimeout",
    "structuredClone",
    "toString",
    "tools",
    "undefined",
    "valueOf",
];

/// JavaScript reserved words: not usable as bare identifiers (binding names, globals).
const RESERVED_WORDS: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// Whether `name` would shadow a runtime global or is a reserved word.
pub fn is_reserved(name: &str) -> bool {
    RUNTIME_GLOBALS.binary_search(&name).is_ok() || RESERVED_WORDS.contains(&name)
}

/// Turns any name into an identifier: characters outside `[A-Za-z0-9_$]` become `_` (runs
/// collapse), a leading digit gets a `_` prefix, an empty result becomes `_`, and a name that is
/// reserved or would shadow a runtime global gets a trailing `_` (`console` → `console_`), the
/// Go runtime's rule.
pub fn sanitize_identifier(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    let mut out = if trimmed.is_empty() { String::from("_") } else { trimmed.to_owned() };
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if is_reserved(&out) {
        out.push('_');
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn globals_are_sorted_for_binary_search() {
        let mut sorted = RUNTIME_GLOBALS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, RUNTIME_GLOBALS);
    }

    #[test]
    fn expressions() {
        assert_eq!(tool_expression("orders.lookup"), "tools.orders.lookup");
        assert_eq!(tool_expression("context7.resolve-library-id"), "tools.context7[\"resolve-library-id\"]");
        assert_eq!(
            parse_expression("tools.context7[\"resolve-library-id\"]").as_deref(),
            Some("context7.resolve-library-id")
        );
        assert_eq!(parse_expression("tools.a.b").as_deref(), Some("a.b"));
        assert_eq!(parse_expression("a.b"), None);
    }

    #[test]
    fn sanitizing() {
        assert_eq!(sanitize_identifier("get-weather"), "get_weather");
        assert_eq!(sanitize_identifier("console"), "console_");
        assert_eq!(sanitize_identifier("9lives"), "_9lives");
        assert_eq!(sanitize_identifier("--"), "_");
        assert_eq!(sanitize_identifier("delete"), "delete_");
    }
}
