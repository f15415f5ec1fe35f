//! Whole-API TypeScript declarations (`declare const tools: { … }`) for hosts that put a
//! `.d.ts` in the prompt instead of (or besides) search.

use crate::names::{ROOT, is_identifier, is_reserved, sanitize_identifier};
use crate::registry::ToolSet;
use crate::schema::properties;
use crate::schema::render::{
    Direction, Mode, RenderOptions, jsdoc, neutralize_comment, property_key, render,
};
use crate::signature::{is_empty_input, search_input_schema, search_output_schema};
use crate::tool::Tool;

/// Options for [`ToolSet::declarations`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclarationOptions {
    /// The name of the declared object (`tools`). A name that is not an identifier is
    /// sanitized (`my-tools` → `my_tools`).
    pub root: String,
    /// Pretty (JSDoc, the default) or compact.
    pub mode: Mode,
    /// Also declare the `search` built-in.
    pub include_search: bool,
}

impl Default for DeclarationOptions {
    fn default() -> Self {
        Self { root: ROOT.to_owned(), mode: Mode::Pretty, include_search: false }
    }
}

impl DeclarationOptions {
    /// Declares the object under another name.
    #[must_use]
    pub fn root(mut self, root: impl Into<String>) -> Self {
        self.root = root.into();
        self
    }

    /// Compact or pretty.
    #[must_use]
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Whether to declare `search` too.
    #[must_use]
    pub fn with_search(mut self, include: bool) -> Self {
        self.include_search = include;
        self
    }
}

fn pad(indent: usize) -> String {
    "  ".repeat(indent)
}

/// Doc lines from free text: its lines, comment terminators neutralized.
fn text_lines(text: &str) -> Vec<String> {
    text.lines().map(|l| neutralize_comment(l.trim_end())).collect()
}

impl ToolSet {
    /// Declarations for every tool: `declare const tools: { orders: { lookup(input: …): Promise<…>; }; };`
    /// Namespace and tool descriptions become JSDoc (pretty mode), an input object without
    /// required properties becomes an optional parameter, and tools without input properties
    /// take no parameter. The text type-checks under `tsc --strict`.
    pub fn declarations(&self, options: &DeclarationOptions) -> String {
        // The Go runtime's rule: a root that is not an identifier, or would shadow a runtime
        // global (`console`), is sanitized (`console_`). `tools` itself is the intended name.
        let root = if options.root == ROOT || (is_identifier(&options.root) && !is_reserved(&options.root)) {
            options.root.clone()
        } else {
            sanitize_identifier(&options.root)
        };
        let mut out = String::new();
        out.push_str(&format!("declare const {root}: "));
        self.namespace_body("", 0, options, &mut out);
        out.push_str(";\n");
        if options.include_search {
            let input = render(&search_input_schema(), RenderOptions::compact());
            let output = render(&search_output_schema(), RenderOptions::compact());
            out.push_str(&format!("declare function search(input?: {input}): {output};\n"));
        }
        out
    }

    fn namespace_body(&self, path: &str, indent: usize, options: &DeclarationOptions, out: &mut String) {
        let Some(children) = self.children(path) else {
            out.push_str("{}");
            return;
        };
        out.push_str("{\n");
        for name in children {
            let child = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
            let key = property_key(name);
            if let Some(tool) = self.get(&child) {
                if options.mode == Mode::Pretty
                    && let Some(doc) = jsdoc(&text_lines(tool.description()), indent + 1)
                {
                    out.push_str(&doc);
                }
                out.push_str(&format!(
                    "{}{key}{};\n",
                    pad(indent + 1),
                    method(tool, indent + 1, options.mode)
                ));
            } else if self.is_namespace(&child) {
                if options.mode == Mode::Pretty
                    && let Some(description) = self.namespace_description(&child)
                    && let Some(doc) = jsdoc(&text_lines(description), indent + 1)
                {
                    out.push_str(&doc);
                }
                out.push_str(&format!("{}{key}: ", pad(indent + 1)));
                self.namespace_body(&child, indent + 1, options, out);
                out.push_str(";\n");
            }
        }
        out.push_str(&pad(indent));
        out.push('}');
    }

    fn namespace_description(&self, path: &str) -> Option<&str> {
        self.namespaces().iter().find(|n| n.path == path).and_then(|n| n.description.as_deref())
    }
}

/// `(input: T): Promise<O>` for one tool, at the given indentation.
fn method(tool: &Tool, indent: usize, mode: Mode) -> String {
    let options = |direction| RenderOptions { mode, direction, indent };
    let output = match tool.output_schema() {
        None => "void".to_owned(),
        Some(schema) => render(schema, options(Direction::Output)),
    };
    match tool.input_schema() {
        Some(schema) if !is_empty_input(Some(schema)) => {
            let input = render(schema, options(Direction::Input));
            let optional = properties(schema).iter().all(|p| !p.required) && input.starts_with('{');
            let mark = if optional { "?" } else { "" };
            format!("(input{mark}: {input}): Promise<{output}>")
        }
        _ => format!("(): Promise<{output}>"),
    }
}
