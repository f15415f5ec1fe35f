//! What the host points codemode at: MCP servers by command line or URL, OpenAPI documents, each
//! optionally named (`name=…`), as given on the command line.

use std::fmt;
use std::path::PathBuf;

pub use crate::http_client::UpstreamAuth;

/// One source of tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// An MCP server started as a child process and spoken to over stdio.
    Command {
        /// The namespace name, or `None` to take it from the server's `serverInfo.name`.
        name: Option<String>,
        /// Program and arguments, already split.
        argv: Vec<String>,
    },
    /// An MCP server reached over streamable HTTP.
    Url {
        /// The namespace name, or `None` to take it from the server's `serverInfo.name`.
        name: Option<String>,
        /// The endpoint, e.g. `http://127.0.0.1:3001/mcp`.
        url: String,
        /// Headers sent with every request to it (for example `Authorization`).
        headers: Vec<(String, String)>,
        /// A token file or OAuth client credentials (`--upstream-token-file`, `--upstream-oauth`).
        auth: Option<UpstreamAuth>,
    },
    /// An OpenAPI 3.x document (JSON or YAML) whose operations are called over HTTP.
    OpenApi {
        /// The namespace name, or `None` to take it from the document's `info.title`.
        name: Option<String>,
        /// The document.
        file: PathBuf,
        /// Where requests go; `None` uses the document's first absolute `servers[].url`.
        base_url: Option<String>,
        /// Headers sent with every request to the API (for example `Authorization`).
        headers: Vec<(String, String)>,
        /// Credentials by security scheme name (`components.securitySchemes`): a token, an
        /// API key, or `user:password` for HTTP basic.
        credentials: Vec<(String, String)>,
    },
}

/// A source that could not be understood, with a message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceError(pub String);

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SourceError {}

/// Splits an optional `name=` prefix off a flag value: `github=npx -y server` gives
/// `(Some("github"), "npx -y server")`. Only a leading identifier followed by `=` counts, so
/// `--flag=value` arguments later in a command line are left alone.
pub fn split_name(value: &str) -> (Option<String>, &str) {
    let trimmed = value.trim_start();
    if let Some((head, rest)) = trimmed.split_once('=') {
        let is_name = !head.is_empty()
            && head.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && head.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if is_name {
            return (Some(head.to_owned()), rest);
        }
    }
    (None, trimmed)
}

impl Source {
    /// `--upstream "[name=]CMD ARGS"`: the command line is split like a POSIX shell does for
    /// words (single and double quotes, backslash escapes), without expansion.
    pub fn command(value: &str) -> Result<Self, SourceError> {
        let (name, line) = split_name(value);
        let argv = split_command_line(line)?;
        if argv.is_empty() {
            return Err(SourceError(format!("--upstream {value:?}: the command line is empty")));
        }
        Ok(Source::Command { name, argv })
    }

    /// `--upstream-url "[name=]URL"`.
    pub fn url(value: &str) -> Result<Self, SourceError> {
        let (name, url) = split_name(value);
        let url = url.trim();
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(SourceError(format!(
                "--upstream-url {value:?}: expected an http:// or https:// URL"
            )));
        }
        Ok(Source::Url { name, url: url.to_owned(), headers: Vec::new(), auth: None })
    }

    /// `--openapi "[name=]FILE"` with its `--base-url`.
    pub fn openapi(value: &str, base_url: Option<String>) -> Result<Self, SourceError> {
        let (name, file) = split_name(value);
        if file.trim().is_empty() {
            return Err(SourceError(format!("--openapi {value:?}: the file name is empty")));
        }
        if let Some(base) = &base_url
            && !(base.starts_with("http://") || base.starts_with("https://"))
        {
            return Err(SourceError(format!("--base-url {base:?}: expected an http:// or https:// URL")));
        }
        Ok(Source::OpenApi {
            name,
            file: PathBuf::from(file.trim()),
            base_url,
            headers: Vec::new(),
            credentials: Vec::new(),
        })
    }

    /// The explicit name, if one was given.
    pub fn name(&self) -> Option<&str> {
        match self {
            Source::Command { name, .. } | Source::Url { name, .. } | Source::OpenApi { name, .. } => {
                name.as_deref()
            }
        }
    }

    /// Whether requests to it are HTTP requests that can carry headers (URL and OpenAPI sources).
    pub fn takes_headers(&self) -> bool {
        matches!(self, Source::Url { .. } | Source::OpenApi { .. })
    }

    /// Adds a header to every request to this source. Only URL and OpenAPI sources take headers.
    pub fn add_header(
        &mut self,
        name: impl Into<String>,
        value: impl Into<String>,
    ) -> Result<(), SourceError> {
        match self {
            Source::Url { headers, .. } | Source::OpenApi { headers, .. } => {
                headers.push((name.into(), value.into()));
                Ok(())
            }
            Source::Command { argv, .. } => Err(SourceError(format!(
                "`{}` is started as a process and gets no HTTP headers (give it environment variables instead)",
                argv.join(" ")
            ))),
        }
    }

    /// Adds the credential for one of an OpenAPI document's security schemes.
    pub fn add_credential(
        &mut self,
        scheme: impl Into<String>,
        value: impl Into<String>,
    ) -> Result<(), SourceError> {
        match self {
            Source::OpenApi { credentials, .. } => {
                credentials.push((scheme.into(), value.into()));
                Ok(())
            }
            other => Err(SourceError(format!(
                "`{}` is not an OpenAPI document; --auth supplies the credentials of an --openapi source's security schemes",
                other.label()
            ))),
        }
    }

    /// Sets how codemode authenticates to an `--upstream-url` server.
    pub fn set_auth(&mut self, how: UpstreamAuth) -> Result<(), SourceError> {
        match self {
            Source::Url { auth, url, .. } => {
                if auth.is_some() {
                    return Err(SourceError(format!(
                        "{url} already has a token file or OAuth credentials (give one of them)"
                    )));
                }
                *auth = Some(how);
                Ok(())
            }
            other => Err(SourceError(format!(
                "`{}` is not an --upstream-url server; --upstream-token-file and --upstream-oauth are for MCP servers reached over HTTP",
                other.label()
            ))),
        }
    }

    /// A short label for messages: the command line, URL or file.
    pub fn label(&self) -> String {
        match self {
            Source::Command { argv, .. } => argv.join(" "),
            Source::Url { url, .. } => url.clone(),
            Source::OpenApi { file, .. } => file.display().to_string(),
        }
    }
}

/// A `--header "[NAME=]Header-Name: value"` argument: the source it is for (by name), the header
/// name and the value with `${VAR}` replaced from `env` (so secrets can stay in the environment
/// the MCP host sets up rather than in the command line).
pub fn parse_header(
    text: &str,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(Option<String>, String, String), SourceError> {
    let (target, rest) = split_name(text);
    let Some((name, value)) = rest.split_once(':') else {
        return Err(SourceError(format!("--header {text:?}: expected \"Name: value\"")));
    };
    let name = name.trim();
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_".contains(&b)) {
        return Err(SourceError(format!("--header {text:?}: {name:?} is not a header name")));
    }
    let value = expand_env(value.trim(), env).map_err(|e| SourceError(format!("--header {name}: {e}")))?;
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(SourceError(format!("--header {name}: the value contains control characters")));
    }
    Ok((target, name.to_owned(), value))
}

/// An `--auth "[SOURCE.]SCHEME=VALUE"` argument: the source it is for (by name), the security
/// scheme's name and the credential with `${VAR}` replaced from `env`.
pub fn parse_auth(
    text: &str,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(Option<String>, String, String), SourceError> {
    let Some((target, value)) = text.split_once('=') else {
        return Err(SourceError(format!("--auth {text:?}: expected \"[SOURCE.]SCHEME=VALUE\"")));
    };
    let (source, scheme) = match target.trim().split_once('.') {
        Some((source, scheme)) => (Some(source.trim().to_owned()), scheme.trim()),
        None => (None, target.trim()),
    };
    if scheme.is_empty() || source.as_deref().is_some_and(str::is_empty) {
        return Err(SourceError(format!("--auth {target:?}: expected SOURCE.SCHEME or SCHEME before `=`")));
    }
    let value = expand_env(value.trim(), env).map_err(|e| SourceError(format!("--auth {target}: {e}")))?;
    if value.is_empty() || value.chars().any(char::is_control) {
        return Err(SourceError(format!(
            "--auth {target}: the credential is empty or has control characters"
        )));
    }
    Ok((source, scheme.to_owned(), value))
}

/// An `--upstream-oauth "[NAME=]client_id=ID,client_secret=SECRET[,scope=S][,token_url=URL]"`
/// argument (`${VAR}` read from `env`): the source it is for and the credentials.
pub fn parse_oauth(
    text: &str,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(Option<String>, UpstreamAuth), SourceError> {
    let (target, rest) = split_name(text);
    let (target, rest) = match target.as_deref() {
        // `client_id=…` alone: no source name was given.
        Some("client_id" | "client_secret" | "scope" | "token_url") => (None, text.trim()),
        _ => (target, rest),
    };
    let mut fields: Vec<(&str, String)> = Vec::new();
    for part in rest.split(',') {
        let Some((key, value)) = part.split_once('=') else {
            return Err(SourceError(format!(
                "--upstream-oauth: expected \"[NAME=]client_id=ID,client_secret=SECRET[,scope=S][,token_url=URL]\", got {part:?}"
            )));
        };
        let key = key.trim();
        if !["client_id", "client_secret", "scope", "token_url"].contains(&key) {
            return Err(SourceError(format!(
                "--upstream-oauth: unknown field {key:?} (client_id, client_secret, scope, token_url)"
            )));
        }
        let value = expand_env(value.trim(), &env)
            .map_err(|e| SourceError(format!("--upstream-oauth {key}: {e}")))?;
        if value.is_empty() || value.chars().any(char::is_control) {
            return Err(SourceError(format!("--upstream-oauth {key}: empty or has control characters")));
        }
        fields.push((key, value));
    }
    let get = |key: &str| fields.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
    let (Some(client_id), Some(client_secret)) = (get("client_id"), get("client_secret")) else {
        return Err(SourceError("--upstream-oauth: client_id and client_secret are required".to_owned()));
    };
    let token_url = get("token_url");
    if let Some(url) = &token_url
        && !(url.starts_with("https://") || url.starts_with("http://"))
    {
        return Err(SourceError(format!("--upstream-oauth token_url {url:?}: expected an http(s) URL")));
    }
    Ok((target, UpstreamAuth::ClientCredentials { client_id, client_secret, scope: get("scope"), token_url }))
}

/// Replaces every `${NAME}` in `text` with `env(NAME)`; a variable that is not set is an error.
pub fn expand_env(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            return Err("unterminated ${…}".to_owned());
        };
        let name = &after[..end];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(format!("${{{name}}} is not a variable name"));
        }
        match env(name) {
            Some(value) => out.push_str(&value),
            None => return Err(format!("the environment variable {name} is not set")),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Splits a command line into words: whitespace separates, `'…'` is literal, `"…"` allows `\"`
/// and `\\`, a backslash outside quotes escapes the next character. No variables, globs or
/// operators (the command runs without a shell).
pub fn split_command_line(line: &str) -> Result<Vec<String>, SourceError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(SourceError(format!("unterminated ' quote in {line:?}"))),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(SourceError(format!("unterminated \" quote in {line:?}"))),
                        },
                        Some(c) => word.push(c),
                        None => return Err(SourceError(format!("unterminated \" quote in {line:?}"))),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(SourceError(format!("trailing backslash in {line:?}"))),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_words_and_quotes() {
        assert_eq!(
            split_command_line(r#"npx -y "a b" 'c "d"' e\ f"#).ok(),
            Some(vec!["npx".into(), "-y".into(), "a b".into(), "c \"d\"".into(), "e f".into()])
        );
        assert!(split_command_line("node 'open").is_err());
        assert_eq!(split_command_line("   ").ok(), Some(vec![]));
    }

    #[test]
    fn names_are_optional() {
        assert_eq!(
            Source::command("gh=npx -y server --port=3").ok(),
            Some(Source::Command {
                name: Some("gh".into()),
                argv: vec!["npx".into(), "-y".into(), "server".into(), "--port=3".into()]
            })
        );
        assert_eq!(
            Source::command("node server.js --x=1").ok(),
            Some(Source::Command {
                name: None,
                argv: vec!["node".into(), "server.js".into(), "--x=1".into()]
            })
        );
        assert!(Source::command("").is_err());
        assert_eq!(
            Source::url("api=http://localhost:1/mcp").ok(),
            Some(Source::Url {
                name: Some("api".into()),
                url: "http://localhost:1/mcp".into(),
                headers: vec![],
                auth: None
            })
        );
        assert!(Source::url("localhost:1").is_err());
        assert!(Source::openapi("spec.json", Some("ftp://x".into())).is_err());
    }

    #[test]
    fn oauth_credentials_are_parsed_with_their_source_and_environment() {
        let env = |name: &str| (name == "SECRET").then(|| "s3cret".to_owned());
        let (target, auth) = parse_oauth("docs=client_id=agent,client_secret=${SECRET},scope=a b", env)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(target.as_deref(), Some("docs"));
        assert_eq!(
            auth,
            UpstreamAuth::ClientCredentials {
                client_id: "agent".into(),
                client_secret: "s3cret".into(),
                scope: Some("a b".into()),
                token_url: None
            }
        );
        // No source name: the first field is not taken for one.
        let (target, _) = parse_oauth("client_id=a,client_secret=b", env).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(target, None);
        for bad in
            ["client_id=a", "x=client_id=a,client_secret=b,colour=red", "client_id=a,client_secret=${NOPE}"]
        {
            assert!(parse_oauth(bad, env).is_err(), "{bad}");
        }
        assert!(parse_oauth("client_id=a,client_secret=b,token_url=ftp://x", env).is_err());
        // The secret is not shown in debug output.
        assert!(!format!("{auth:?}").contains("s3cret"));
        let mut command = Source::command("node s.js").unwrap_or_else(|e| panic!("{e}"));
        assert!(command.set_auth(UpstreamAuth::TokenFile("t".into())).is_err());
    }

    #[test]
    fn headers_name_their_source_and_read_the_environment() {
        let env = |name: &str| (name == "TOKEN").then(|| "s3cret".to_owned());
        assert_eq!(
            parse_header("gh=Authorization: Bearer ${TOKEN}", env).ok(),
            Some((Some("gh".into()), "Authorization".into(), "Bearer s3cret".into()))
        );
        assert_eq!(parse_header("X-Api-Key: a=b", env).ok(), Some((None, "X-Api-Key".into(), "a=b".into())));
        assert!(parse_header("no colon", env).is_err());
        assert!(parse_header("Bad Name: x", env).is_err());
        let missing = parse_header("A: ${NOPE}", env).err().map(|e| e.0).unwrap_or_default();
        assert!(missing.contains("NOPE is not set"), "{missing}");
        assert!(parse_header("A: ${TOKEN", env).is_err());
        let mut command = Source::command("node s.js").unwrap_or_else(|e| panic!("{e}"));
        assert!(command.add_header("A", "b").is_err());
    }
}
