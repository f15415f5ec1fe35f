//! Regex search (the Go runtime's `QueryRegex`): deterministic filtering of tools whose path or
//! description matches a pattern. Uses the `regex` crate, which runs in linear time, so no
//! pattern can hang the host; compiled size is capped.

use regex::RegexBuilder;

use super::in_namespace;
use crate::registry::{ToolDescription, ToolSet};

/// The largest compiled program a pattern may produce.
const SIZE_LIMIT: usize = 1 << 20;

/// A pattern that does not compile (or is too large).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexSearchError(pub String);

impl std::fmt::Display for RegexSearchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid search pattern: {}", self.0)
    }
}

impl std::error::Error for RegexSearchError {}

impl ToolSet {
    /// Tools (in path order) whose path, callable expression or description matches
    /// `pattern`, case-insensitively, optionally within a namespace.
    pub fn search_regex(
        &self,
        pattern: &str,
        namespace: Option<&str>,
    ) -> Result<Vec<&ToolDescription>, RegexSearchError> {
        let regex = RegexBuilder::new(pattern)
            .case_insensitive(true)
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(SIZE_LIMIT)
            .build()
            .map_err(|e| RegexSearchError(e.to_string()))?;
        let namespace = namespace.map(super::canonical).unwrap_or_default();
        Ok(self
            .catalog()
            .iter()
            .filter(|t| in_namespace(&t.path, &namespace))
            .filter(|t| {
                regex.is_match(&t.path)
                    || regex.is_match(&crate::names::tool_expression(&t.path))
                    || regex.is_match(&t.description)
            })
            .collect())
    }
}
