//! The one JSON Schema → TypeScript renderer, used for signatures, declarations and messages.
//!
//! It covers objects (required/optional, `additionalProperties`, `patternProperties`), arrays,
//! `prefixItems` and draft-4 array tuples, `oneOf`/`anyOf` unions, `allOf` intersections, `enum`,
//! `const`, `type` arrays, `nullable`, boolean schemas and local `$ref`s (`$defs`, `definitions`,
//! any JSON pointer). A `$ref` cycle renders as `unknown` at the point it closes; anything it
//! cannot resolve renders as `unknown`, never as an invented name.
//!
//! Two guards make it total: nesting deeper than [`MAX_SCHEMA_DEPTH`] renders `unknown`, and a
//! node budget stops `$ref` DAGs that would expand exponentially (each definition used twice by
//! the next one), and a text budget stops a big definition (a long enum, a long description)
//! from being copied into the output thousands of times — past either budget every remaining
//! node renders `unknown`.
//!
//! Pretty mode adds JSDoc (descriptions and constraint tags) above properties and breaks an object
//! over lines only when something inside it carries documentation, so undocumented schemas stay
//! on one line in both modes.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::{MAX_SCHEMA_DEPTH, resolve_ref, str_keyword, types};
use crate::names::is_identifier;

/// Compact (one line, no comments) or pretty (JSDoc, multi-line where documented).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// One line, no documentation.
    #[default]
    Compact,
    /// JSDoc from descriptions and constraints; documented objects span lines.
    Pretty,
}

/// Which side of a call the schema describes. Inputs omit `readOnly` properties and outputs
/// omit `writeOnly` ones (the OpenAPI convention); `Neutral` keeps both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Arguments sent to a tool.
    Input,
    /// Values a tool returns.
    Output,
    /// Neither: keep every property.
    #[default]
    Neutral,
}

/// Rendering options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderOptions {
    /// Compact or pretty.
    pub mode: Mode,
    /// Input, output or neutral.
    pub direction: Direction,
    /// Indentation level (two spaces each) the rendered text starts at, for pretty mode.
    pub indent: usize,
}

impl RenderOptions {
    /// Compact, neutral.
    pub fn compact() -> Self {
        Self::default()
    }

    /// Pretty, neutral.
    pub fn pretty() -> Self {
        Self { mode: Mode::Pretty, ..Self::default() }
    }

    /// The same options for another direction.
    #[must_use]
    pub fn direction(mut self, direction: Direction) -> Self {
        self.direction = direction;
        self
    }

    /// The same options at another indentation level.
    #[must_use]
    pub fn indent(mut self, indent: usize) -> Self {
        self.indent = indent;
        self
    }
}

/// How many schema nodes one rendering may visit before the rest renders `unknown`.
const NODE_BUDGET: usize = 20_000;
/// How many bytes of literals, property keys and documentation one rendering may emit.
const TEXT_BUDGET: usize = 1 << 20;

/// Renders `schema` (which is also the root its `$ref`s resolve against).
pub fn render(schema: &Value, options: RenderOptions) -> String {
    render_in(schema, schema, options)
}

/// Renders `schema`, resolving `$ref`s against `root`.
pub fn render_in(schema: &Value, root: &Value, options: RenderOptions) -> String {
    // The root is being expanded from the start: `{"$ref": "#"}` inside it closes a cycle.
    let mut renderer =
        Renderer { root, options, refs: vec!["#"], budget: NODE_BUDGET, text_budget: TEXT_BUDGET };
    renderer.ty(schema, 0, options.indent).text
}

/// Compact rendering against a root, for error messages.
pub fn render_compact(schema: &Value, root: &Value) -> String {
    render_in(schema, root, RenderOptions::compact())
}

/// Operator precedence of a rendered type, to know when it needs parentheses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Union,
    Intersection,
    Atom,
}

struct Ty {
    text: String,
    prec: Prec,
}

impl Ty {
    fn atom(text: impl Into<String>) -> Self {
        Self { text: text.into(), prec: Prec::Atom }
    }

    fn unknown() -> Self {
        Self::atom("unknown")
    }

    fn is_unknown(&self) -> bool {
        self.text == "unknown"
    }

    /// The text, parenthesized if its precedence is below `min`.
    fn at(&self, min: Prec) -> String {
        if self.prec < min { format!("({})", self.text) } else { self.text.clone() }
    }
}

struct Renderer<'a> {
    root: &'a Value,
    options: RenderOptions,
    /// `$ref`s being expanded right now: meeting one again closes a cycle.
    refs: Vec<&'a str>,
    budget: usize,
    /// Bytes of literals, keys and documentation left to emit.
    text_budget: usize,
}

fn pad(indent: usize) -> String {
    "  ".repeat(indent)
}

/// A TypeScript literal type for a JSON value (`"a"`, `1`, `true`, `null`, tuples, objects).
fn literal(value: &Value, depth: usize) -> String {
    if depth > MAX_SCHEMA_DEPTH {
        return "unknown".to_owned();
    }
    match value {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|v| literal(v, depth + 1)).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        Value::Object(map) => {
            let parts: Vec<String> =
                map.iter().map(|(k, v)| format!("{}: {}", property_key(k), literal(v, depth + 1))).collect();
            format!("{{ {} }}", parts.join(", "))
        }
        other => other.to_string(),
    }
}

/// A property name as TypeScript spells it: bare when an identifier, quoted otherwise.
pub fn property_key(name: &str) -> String {
    if is_identifier(name) { name.to_owned() } else { Value::String(name.to_owned()).to_string() }
}

/// Makes text safe inside a `/** … */` comment: `*/` would close it early.
pub fn neutralize_comment(text: &str) -> String {
    text.replace("*/", "*\\/")
}

/// The `format` values JSON Schema defines; others are not shown.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The JSDoc lines for a schema: its description (or title), then constraint tags.
pub fn doc_lines(schema: &Value) -> Vec<String> {
    let Some(object) = schema.as_object() else { return Vec::new() };
    let mut lines: Vec<String> = Vec::new();
    let text = str_keyword(schema, "description").or_else(|| str_keyword(schema, "title"));
    if let Some(text) = text {
        lines.extend(text.lines().map(|l| l.trim_end().to_owned()));
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
    }
    const TAGS: &[&str] = &[
        "default",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
    ];
    let tuple = object.contains_key("prefixItems") || object.get("items").is_some_and(Value::is_array);
    for tag in TAGS {
        if let Some(value) = object.get(*tag) {
            // A tuple's length is in its type already; a non-standard format (schemars'
            // `uint8`, `double`) is a Rust detail, not something a caller can act on.
            if (tuple && tag.ends_with("Items"))
                || (*tag == "format" && !value.as_str().is_some_and(|f| STANDARD_FORMATS.contains(&f)))
            {
                continue;
            }
            // Booleans bounds (draft-4 exclusiveMinimum: true) and `uniqueItems: false` say nothing.
            if matches!(value, Value::Bool(false)) || (tag.starts_with("exclusive") && value.is_boolean()) {
                continue;
            }
            let shown = match value {
                Value::String(s) if *tag != "default" => s.clone(),
                Value::Bool(true) if *tag == "uniqueItems" => String::new(),
                other => other.to_string(),
            };
            lines.push(if shown.is_empty() { format!("@{tag}") } else { format!("@{tag} {shown}") });
        }
    }
    if let Some(Value::Array(examples)) = object.get("examples")
        && let Some(first) = examples.first()
    {
        lines.push(format!("@example {first}"));
    }
    if object.get("deprecated") == Some(&Value::Bool(true)) {
        lines.push("@deprecated".to_owned());
    }
    lines.into_iter().map(|l| neutralize_comment(&l)).collect()
}

/// A JSDoc block at `indent`, one line when short, or `None` when there is nothing to say.
pub fn jsdoc(lines: &[String], indent: usize) -> Option<String> {
    if lines.is_empty() {
        return None;
    }
    let pad = pad(indent);
    if lines.len() == 1 && lines[0].len() <= 80 {
        return Some(format!("{pad}/** {} */\n", lines[0]));
    }
    let mut out = format!("{pad}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{pad} *\n"));
        } else {
            out.push_str(&format!("{pad} * {line}\n"));
        }
    }
    out.push_str(&format!("{pad} */\n"));
    Some(out)
}

impl<'a> Renderer<'a> {
    /// Charges emitted text; once the text budget is spent, no further node is rendered.
    fn charge(&mut self, bytes: usize) {
        self.text_budget = self.text_budget.saturating_sub(bytes);
        if self.text_budget == 0 {
            self.budget = 0;
        }
    }

    fn pretty(&self) -> bool {
        self.options.mode == Mode::Pretty
    }

    fn ty(&mut self, schema: &'a Value, depth: usize, indent: usize) -> Ty {
        if depth > MAX_SCHEMA_DEPTH || self.budget == 0 {
            return Ty::unknown();
        }
        self.budget -= 1;
        let object = match schema {
            Value::Bool(false) => return Ty::atom("never"),
            Value::Object(object) => object,
            _ => return Ty::unknown(),
        };
        let base = self.base(schema, object, depth, indent);
        if object.get("nullable") == Some(&Value::Bool(true)) && base.text != "null" && !base.is_unknown() {
            return union(vec![base, Ty::atom("null")]);
        }
        base
    }

    fn base(&mut self, schema: &'a Value, object: &'a Map<String, Value>, depth: usize, indent: usize) -> Ty {
        if let Some(reference) = str_keyword(schema, "$ref") {
            return self.reference(reference, depth, indent);
        }
        if let Some(value) = object.get("const") {
            let text = literal(value, depth);
            self.charge(text.len());
            return Ty::atom(text);
        }
        if let Some(Value::Array(options)) = object.get("enum") {
            let ty = union(options.iter().map(|v| Ty::atom(literal(v, depth))).collect());
            self.charge(ty.text.len());
            return ty;
        }
        let mut parts: Vec<Ty> = Vec::new();
        let structural = self.structural(schema, object, depth, indent);
        if let Some(ty) = structural {
            parts.push(ty);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = object.get(key) {
                let members: Vec<Ty> = branches.iter().map(|b| self.ty(b, depth + 1, indent)).collect();
                let u = union(members);
                // A union that says nothing about shape (branches that only list `required`)
                // adds nothing to the structural part.
                if !u.is_unknown() || parts.is_empty() {
                    parts.push(u);
                }
            }
        }
        if let Some(Value::Array(all)) = object.get("allOf") {
            for member in all {
                let ty = self.ty(member, depth + 1, indent);
                if !ty.is_unknown() {
                    parts.push(ty);
                }
            }
        }
        intersection(parts)
    }

    /// The part described by `type`, `properties`, `items` (inferred when `type` is absent).
    fn structural(
        &mut self,
        schema: &'a Value,
        object: &'a Map<String, Value>,
        depth: usize,
        indent: usize,
    ) -> Option<Ty> {
        let listed = types(schema);
        let has_object_words = ["properties", "additionalProperties", "patternProperties"]
            .iter()
            .any(|k| object.contains_key(*k));
        let has_array_words = ["items", "prefixItems"].iter().any(|k| object.contains_key(*k));
        let names: Vec<&str> = if !listed.is_empty() {
            listed
        } else if has_object_words {
            vec!["object"]
        } else if has_array_words {
            vec!["array"]
        } else {
            return None;
        };
        let members: Vec<Ty> = names.iter().map(|name| self.of_type(name, object, depth, indent)).collect();
        Some(union(members))
    }

    fn of_type(&mut self, name: &str, object: &'a Map<String, Value>, depth: usize, indent: usize) -> Ty {
        match name {
            "string" => Ty::atom("string"),
            "number" | "integer" => Ty::atom("number"),
            "boolean" => Ty::atom("boolean"),
            "null" => Ty::atom("null"),
            "object" => self.object(object, depth, indent),
            "array" => self.array(object, depth, indent),
            _ => Ty::unknown(),
        }
    }

    fn reference(&mut self, reference: &'a str, depth: usize, indent: usize) -> Ty {
        if self.refs.contains(&reference) {
            return Ty::unknown();
        }
        let Some(target) = resolve_ref(self.root, reference) else { return Ty::unknown() };
        self.refs.push(reference);
        let ty = self.ty(target, depth + 1, indent);
        self.refs.pop();
        ty
    }

    fn keep(&self, schema: &Value) -> bool {
        let flag = |key: &str| schema.get(key) == Some(&Value::Bool(true));
        match self.options.direction {
            Direction::Input => !flag("readOnly"),
            Direction::Output => !flag("writeOnly"),
            Direction::Neutral => true,
        }
    }

    fn object(&mut self, object: &'a Map<String, Value>, depth: usize, indent: usize) -> Ty {
        let required: BTreeSet<&str> = match object.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => BTreeSet::new(),
        };
        struct Entry {
            doc: Option<String>,
            key: String,
            optional: bool,
            ty: String,
        }
        let mut entries: Vec<Entry> = Vec::new();
        if let Some(Value::Object(props)) = object.get("properties") {
            for (name, sub) in props {
                if !self.keep(sub) {
                    continue;
                }
                let ty = self.ty(sub, depth + 1, indent + 1);
                let doc = if self.pretty() { jsdoc(&self.property_doc(sub), indent + 1) } else { None };
                self.charge(name.len() + doc.as_ref().map_or(0, String::len));
                entries.push(Entry {
                    doc,
                    key: property_key(name),
                    optional: !required.contains(name.as_str()),
                    ty: ty.text,
                });
            }
        }
        // Values of keys not listed: `additionalProperties` and `patternProperties` schemas.
        let mut extra: Vec<Ty> = Vec::new();
        let mut closed = false;
        match object.get("additionalProperties") {
            Some(Value::Bool(false)) => closed = true,
            Some(sub @ Value::Object(_)) => extra.push(self.ty(sub, depth + 1, indent + 1)),
            _ => {}
        }
        if let Some(Value::Object(patterns)) = object.get("patternProperties") {
            for sub in patterns.values() {
                extra.push(self.ty(sub, depth + 1, indent + 1));
            }
        }
        let index = if extra.is_empty() { None } else { Some(union(extra)) };
        if entries.is_empty() {
            return match index {
                Some(ty) => Ty::atom(format!("Record<string, {}>", ty.text)),
                None if closed => Ty::atom("{}"),
                None => Ty::atom("Record<string, unknown>"),
            };
        }
        let multiline = self.pretty() && entries.iter().any(|e| e.doc.is_some() || e.ty.contains('\n'));
        let body = if multiline {
            let mut out = String::from("{\n");
            for entry in &entries {
                if let Some(doc) = &entry.doc {
                    out.push_str(doc);
                }
                let mark = if entry.optional { "?" } else { "" };
                out.push_str(&format!("{}{}{mark}: {};\n", pad(indent + 1), entry.key, entry.ty));
            }
            out.push_str(&pad(indent));
            out.push('}');
            out
        } else {
            let parts: Vec<String> = entries
                .iter()
                .map(|e| format!("{}{}: {}", e.key, if e.optional { "?" } else { "" }, e.ty))
                .collect();
            format!("{{ {} }}", parts.join(", "))
        };
        match index {
            // A typed index signature must admit every listed property's type under
            // `--strict`, so the extra keys go into a separate intersected record.
            Some(ty) if !ty.is_unknown() => {
                Ty { text: format!("{body} & Record<string, {}>", ty.text), prec: Prec::Intersection }
            }
            _ => Ty::atom(body),
        }
    }

    /// A property's documentation: its own keywords, or those of the definition it refers to.
    fn property_doc(&self, schema: &'a Value) -> Vec<String> {
        let own = doc_lines(schema);
        if !own.is_empty() {
            return own;
        }
        match str_keyword(schema, "$ref").and_then(|r| resolve_ref(self.root, r)) {
            Some(target) => doc_lines(target).into_iter().take_while(|l| !l.starts_with('@')).collect(),
            None => own,
        }
    }

    fn array(&mut self, object: &'a Map<String, Value>, depth: usize, indent: usize) -> Ty {
        let (prefix, rest) = match (object.get("prefixItems"), object.get("items")) {
            (Some(Value::Array(prefix)), rest) => (Some(prefix), rest),
            (None, Some(Value::Array(prefix))) => (Some(prefix), object.get("additionalItems")),
            (_, rest) => (None, rest),
        };
        let Some(prefix) = prefix else {
            return match rest {
                None | Some(Value::Bool(true)) => Ty::atom("unknown[]"),
                Some(Value::Bool(false)) => Ty::atom("[]"),
                Some(schema) => array_of(&self.ty(schema, depth + 1, indent)),
            };
        };
        let min = object.get("minItems").and_then(Value::as_u64).map_or(prefix.len(), |m| m as usize);
        let mut parts: Vec<String> = prefix
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let ty = self.ty(item, depth + 1, indent);
                // Tuple elements past `minItems` may be absent.
                if i >= min { format!("{}?", ty.at(Prec::Atom)) } else { ty.text }
            })
            .collect();
        if let Some(schema @ Value::Object(_)) = rest {
            parts.push(format!("...{}", array_of(&self.ty(schema, depth + 1, indent)).text));
        }
        Ty::atom(format!("[{}]", parts.join(", ")))
    }
}

fn array_of(element: &Ty) -> Ty {
    if element.prec == Prec::Atom && !element.text.contains('\n') {
        Ty::atom(format!("{}[]", element.text))
    } else {
        Ty::atom(format!("Array<{}>", element.text))
    }
}

/// A union of members: flattened, deduplicated, `never` dropped; any `unknown` member makes the
/// whole union `unknown` (TypeScript would collapse it the same way).
fn union(members: Vec<Ty>) -> Ty {
    // Deduplicated through a set: a 100,000-value enum must not take quadratic time.
    let mut seen: Vec<String> = Vec::new();
    let mut known: std::collections::HashSet<String> = std::collections::HashSet::new();
    for member in members {
        if member.is_unknown() {
            return Ty::unknown();
        }
        if member.text == "never" {
            continue;
        }
        // Nested unions flatten; intersections bind tighter, so no member needs parentheses.
        let text = member.text;
        if known.insert(text.clone()) {
            seen.push(text);
        }
    }
    match seen.len() {
        0 => Ty::atom("never"),
        1 => {
            let text = seen.remove(0);
            // A single member keeps its own precedence.
            let prec = if text.starts_with('(') { Prec::Atom } else { precedence_of(&text) };
            Ty { text, prec }
        }
        _ => Ty { text: seen.join(" | "), prec: Prec::Union },
    }
}

/// An intersection of members; no members means no constraint (`unknown`).
fn intersection(members: Vec<Ty>) -> Ty {
    let mut parts: Vec<String> = Vec::new();
    let mut known: std::collections::HashSet<String> = std::collections::HashSet::new();
    for member in &members {
        if member.text == "never" {
            return Ty::atom("never");
        }
        let text = member.at(Prec::Intersection);
        if known.insert(text.clone()) {
            parts.push(text);
        }
    }
    match members.len() {
        0 => Ty::unknown(),
        1 => members.into_iter().next().unwrap_or_else(Ty::unknown),
        _ if parts.len() == 1 => Ty { prec: precedence_of(&parts[0]), text: parts.remove(0) },
        _ => Ty { text: parts.join(" & "), prec: Prec::Intersection },
    }
}

/// Precedence of already-rendered text, by looking for top-level operators.
fn precedence_of(text: &str) -> Prec {
    let mut depth = 0i32;
    let mut in_string = false;
    let mut escaped = false;
    let mut prec = Prec::Atom;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' | b'(' | b'<' => depth += 1,
            b'}' | b']' | b')' | b'>' => depth -= 1,
            b'|' if depth == 0 && i > 0 && bytes[i - 1] == b' ' => return Prec::Union,
            b'&' if depth == 0 => prec = Prec::Intersection,
            _ => {}
        }
    }
    prec
}
