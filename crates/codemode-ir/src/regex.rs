//! Regular-expression syntax, checked the same way where a pattern first appears: regex
//! literals when the program is compiled (an invalid one is an early `SyntaxError`, as in
//! JavaScript) and `new RegExp(...)` when it runs. The engine is `regress`; this module adds the
//! flag rules and the size limits that keep compiling a pattern bounded in time and stack.

/// The most `|` alternatives a pattern may have.
pub const MAX_ALTERNATIVES: usize = 10_000;
/// The deepest nesting of groups a pattern may have.
pub const MAX_GROUP_DEPTH: usize = 1_000;

/// The flags JavaScript knows, in the order `RegExp.prototype.flags` reports them.
pub const FLAGS: &str = "dgimsuvy";

/// Each known flag at most once, and not both `u` and `v`.
pub fn check_flags(flags: &str) -> Result<(), String> {
    // The message quotes at most 32 characters of what was given (flags can be any string).
    let invalid = || {
        let shown: String = flags.chars().take(32).collect();
        let more = if shown.len() < flags.len() { "..." } else { "" };
        format!("Invalid flags supplied to RegExp constructor '{shown}{more}'")
    };
    let mut seen = String::new();
    for c in flags.chars() {
        if !FLAGS.contains(c) || seen.contains(c) {
            return Err(invalid());
        }
        seen.push(c);
    }
    if seen.contains('u') && seen.contains('v') {
        return Err(invalid());
    }
    Ok(())
}

/// `|` alternatives and the deepest group nesting of `source` (escapes and classes skipped).
pub fn shape(source: &str) -> (usize, usize) {
    let (mut alternatives, mut depth, mut max_depth) = (0usize, 0usize, 0usize);
    let mut in_class = false;
    let mut bytes = source.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => {
                bytes.next();
            }
            b']' if in_class => in_class = false,
            _ if in_class => {}
            b'[' => in_class = true,
            b'(' => {
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            b')' => depth = depth.saturating_sub(1),
            b'|' => alternatives += 1,
            _ => {}
        }
    }
    (alternatives, max_depth)
}

/// Compiles `source` with `flags` (flags already checked), within the size limits; the error is
/// the reason, for `Invalid regular expression: /source/flags: <reason>`.
pub fn compile(source: &str, flags: &str) -> Result<regress::Regex, String> {
    let (alternatives, depth) = shape(source);
    if alternatives > MAX_ALTERNATIVES || depth > MAX_GROUP_DEPTH {
        return Err(format!(
            "too large (more than {MAX_ALTERNATIVES} alternatives or groups nested more than {MAX_GROUP_DEPTH} deep)"
        ));
    }
    crate::stack::with_stack_for(alternatives / 16 + depth / 4, || regress::Regex::with_flags(source, flags))
        .map_err(|e| e.to_string())
}

/// The message of an invalid pattern: its first 200 characters, the flags and the reason.
pub fn error_message(source: &str, flags: &str, reason: &str) -> String {
    let shown: String = source.chars().take(200).collect();
    let more = if shown.len() < source.len() { "..." } else { "" };
    format!("Invalid regular expression: /{shown}{more}/{flags}: {reason}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_known_distinct_and_not_both_u_and_v() {
        assert!(check_flags("dgimsuy").is_ok());
        assert!(check_flags("gg").is_err());
        assert!(check_flags("x").is_err());
        assert!(check_flags("uv").is_err());
    }

    #[test]
    fn patterns_compile_or_say_why() {
        assert!(compile("a(b|c)*", "").is_ok());
        assert!(compile("(", "").is_err());
        assert!(compile("a{2,1}", "").is_err());
        let wide = "a|".repeat(MAX_ALTERNATIVES + 1);
        assert!(compile(&wide, "").unwrap_err().contains("too large"));
    }
}
