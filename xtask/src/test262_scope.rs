//! Which test262 tests are out of scope for codemode, and why: directories, features and flags
//! (modules, agents, Intl, Annex B, stage-3 proposals, `$262` host hooks), and tests whose source
//! text calls `eval` or the `Function` constructor with source text (codemode compiles one
//! program ahead of time and has neither). Such tests are excluded, as the language issue's
//! measure does, instead of counted as failures — or, worse, as passes: a test that expects
//! `eval("…")` to throw a `ReferenceError` "passes" only because `eval` is not defined.
//!
//! The source-text check is lexical and deliberately narrow: a call `eval(` or `Function(…)` with
//! at least one argument, outside comments, that is not a declaration or method named `eval`
//! (`function eval()`, `{ eval() {} }`, `get eval()`). Negative (expected-error) tests are never
//! excluded by it: their `eval` is usually the syntax under test.

use crate::test262::Meta;

/// The exclusion reason of tests that call `eval` or `Function` with source text.
pub(crate) const SOURCE_TEXT_EVAL: &str = "calls `eval` or `Function` with source text";

/// Features whose tests are out of scope, besides the proposals listed in the "Proposed language
/// features" section of the checkout's `features.txt` (stage-3 proposals), which are read from it.
pub(crate) const EXCLUDED_FEATURES: &[(&str, &str)] = &[
    ("cross-realm", "needs `$262.createRealm` (a second realm)"),
    ("IsHTMLDDA", "needs the host's `document.all`-like object"),
    ("host-gc-required", "needs a host hook to force garbage collection"),
    ("Atomics", "shared memory and agents are out of scope"),
    ("Atomics.pause", "shared memory and agents are out of scope"),
    ("Atomics.waitAsync", "shared memory and agents are out of scope"),
    ("SharedArrayBuffer", "shared memory and agents are out of scope"),
    ("tail-call-optimization", "proper tail calls (only Safari ships them)"),
    ("import-assertions", "modules are out of scope"),
    ("import-attributes", "modules are out of scope"),
    ("json-modules", "modules are out of scope"),
    ("dynamic-import", "modules are out of scope (`import()` needs a module loader)"),
    ("ShadowRealm", "stage-3 proposal"),
    ("decorators", "stage-3 proposal"),
    ("source-phase-imports", "stage-3 proposal, modules"),
    ("Temporal", "a large API of its own, not a goal"),
];

/// Path components (or `test/`-relative prefixes) whose tests are out of scope.
pub(crate) const EXCLUDED_DIRS: &[(&str, &str)] = &[
    ("annexB", "web-legacy Annex B semantics"),
    ("intl402", "ECMA-402 (Intl)"),
    ("language/eval-code", "direct and indirect `eval` semantics (codemode has no `eval`)"),
];

/// Why a test is not run, or `None` when it is.
pub(crate) fn exclusion(
    rel: &str,
    meta: &Meta,
    source: &str,
    text_uses_262: bool,
    proposals: &[String],
) -> Option<String> {
    for (dir, _) in EXCLUDED_DIRS {
        if rel.split('/').any(|c| c == *dir) || rel.starts_with(&format!("{dir}/")) {
            return Some(format!("directory {dir}"));
        }
    }
    if meta.flag("module") {
        return Some("flag module".into());
    }
    if meta.flag("CanBlockIsTrue") {
        return Some("flag CanBlockIsTrue".into());
    }
    if meta.flag("noStrict") {
        return Some("flag noStrict".into());
    }
    for feature in &meta.features {
        if EXCLUDED_FEATURES.iter().any(|(f, _)| f == feature) {
            return Some(format!("feature {feature}"));
        }
        if proposals.iter().any(|p| p == feature) {
            return Some("stage-3 proposal feature".into());
        }
    }
    if text_uses_262 {
        return Some("uses $262 host hooks".into());
    }
    if meta.negative.is_none() && calls_source_text_eval(source) {
        return Some(SOURCE_TEXT_EVAL.into());
    }
    None
}

/// `true` when `source` calls `eval`, or `Function` with source text.
pub(crate) fn calls_source_text_eval(source: &str) -> bool {
    let code = strip_comments(source);
    let bytes = code.as_bytes();
    for name in ["eval", "Function"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(name) {
            let start = from + found;
            let end = start + name.len();
            from = end;
            if start > 0 && bytes.get(start - 1).is_some_and(|&b| is_ident_byte(b) || b == b'.' || b == b'#')
            {
                continue;
            }
            let rest = code[end..].trim_start();
            let Some(args) = rest.strip_prefix('(') else { continue };
            if bytes.get(end).is_some_and(|&b| is_ident_byte(b)) {
                continue;
            }
            if name == "Function" && args.trim_start().starts_with(')') {
                continue; // `Function()` makes an empty function: no source text
            }
            if declares_the_name(&code[..start], args) {
                continue;
            }
            return true;
        }
    }
    false
}

/// `function eval(`, `get eval(`, `async eval(`, `*eval(`, and method shorthand `{ eval() {`.
fn declares_the_name(before: &str, args: &str) -> bool {
    let before = before.trim_end();
    let keyword = ["function", "function*", "get", "set", "async", "static", "*"]
        .iter()
        .any(|k| before.ends_with(k) && !before[..before.len() - k.len()].ends_with(is_ident_char));
    if keyword {
        return true;
    }
    let method_position = before.ends_with('{') || before.ends_with(',');
    // A parameter list holds no string: `{ eval("(function () {…})") }` is a call.
    let body_follows = args.find(')').is_some_and(|close| {
        !args[..close].contains(['"', '\'', '`']) && args[close + 1..].trim_start().starts_with('{')
    });
    method_position && body_follows
}

/// The text with `/* … */` comments and whole-line `//` comments removed (a `//` inside a line
/// may be in a string or a regular expression, so it is left alone).
fn strip_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(open) = rest.find("/*") {
        out.push_str(&rest[..open]);
        match rest[open + 2..].find("*/") {
            Some(close) => rest = &rest[open + 2 + close + 2..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Harness files that build code from source text, and the replacement codemode runs instead:
/// `(file, exact text in the file, replacement)`. A replacement does what the text does, written
/// out for the values the harness passes; when the file no longer contains the text, nothing is
/// replaced (the tests then fail visibly, as before). Listed in `docs/conformance.md`.
pub(crate) const HARNESS_REPLACEMENTS: &[(&str, &str, &str)] = &[(
    "resizableArrayBufferUtils.js",
    "return new Function('return class My' + type + ' extends ' + type + ' {}')();",
    "return { Uint8Array: class MyUint8Array extends Uint8Array {}, \
     Float32Array: class MyFloat32Array extends Float32Array {}, \
     BigInt64Array: class MyBigInt64Array extends BigInt64Array {} }[type];",
)];

/// `text` of harness file `name` with its [`HARNESS_REPLACEMENTS`] made.
pub(crate) fn replace_in_harness(name: &str, text: String) -> String {
    HARNESS_REPLACEMENTS
        .iter()
        .filter(|(file, ..)| *file == name)
        .fold(text, |text, (_, from, to)| text.replace(from, to))
}

#[cfg(test)]
mod tests {
    use super::calls_source_text_eval as uses;

    #[test]
    fn calls_are_found() {
        assert!(uses("eval('x')"));
        assert!(uses("var f = Function('a', 'return a');"));
        assert!(uses("new Function(\"this.p1=1\")"));
        assert!(uses("x = eval ( 'y' );"));
        // A call in a function body, its source text holding a function with a body.
        assert!(uses("f(function() {\n  eval(\"(function g() { arguments = 10; } ());\");\n});"));
    }

    #[test]
    fn names_that_are_not_calls_are_not() {
        assert!(!uses("var o = { eval: 1 }; o.eval(1);"));
        assert!(!uses("function eval() {}"));
        assert!(!uses("class C { static eval() {} get eval() {} }"));
        assert!(!uses("var o = { eval() { return 1; } };"));
        assert!(!uses("Function(); new Function()"));
        assert!(!uses("Function.prototype.call(f); isConstructor(Function)"));
        assert!(!uses("/* eval('x') */\n// Function('y')\nvar z = 1;"));
        assert!(!uses("var evaluate = 1; retrieval(2); myFunction(3);"));
    }
}
