//! Text analysis for search: tokenizing (camelCase, snake_case, kebab-case and dotted names
//! split into words), folding plurals and a few verb endings, stopwords, and the small synonym
//! table of words tool APIs use interchangeably.

/// Splits `text` into lowercase word tokens: `listPullRequests` → `list pull requests`,
/// `get_file-contents` → `get file contents`, `HTTPServer` → `http server`.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    Words::default().each(text, |word| out.push(word.to_owned()));
    out
}

/// The buffers of [`words`], kept between texts: the search index tokenizes a whole catalog
/// with one.
#[derive(Debug, Default)]
pub(crate) struct Words {
    chars: Vec<char>,
    current: String,
}

impl Words {
    /// Calls `f` with each word of `text`, as [`words`] splits it.
    pub(crate) fn each(&mut self, text: &str, mut f: impl FnMut(&str)) {
        if text.is_ascii() {
            self.each_ascii(text.as_bytes(), f);
            return;
        }
        let Words { chars, current } = self;
        chars.clear();
        chars.extend(text.chars());
        current.clear();
        for (i, &c) in chars.iter().enumerate() {
            if c.is_alphanumeric() {
                // `HTTPServer` splits before `S`, but an acronym's plural (`PRs`, `IDs`, `URLs`)
                // is one word.
                let acronym_plural =
                    chars.get(i + 1) == Some(&'s') && !chars.get(i + 2).is_some_and(|n| n.is_lowercase());
                let boundary = c.is_uppercase()
                    && i > 0
                    && (chars[i - 1].is_lowercase()
                        || chars[i - 1].is_ascii_digit()
                        || (chars[i - 1].is_uppercase()
                            && !acronym_plural
                            && chars.get(i + 1).is_some_and(|n| n.is_lowercase())));
                if boundary && !current.is_empty() {
                    f(current);
                    current.clear();
                }
                current.extend(c.to_lowercase());
            } else if !current.is_empty() {
                f(current);
                current.clear();
            }
        }
        if !current.is_empty() {
            f(current);
            current.clear();
        }
    }
}

impl Words {
    /// [`Words::each`] of an ASCII text, on its bytes: for ASCII, the char predicates and
    /// lowercasing are the ASCII ones.
    fn each_ascii(&mut self, bytes: &[u8], mut f: impl FnMut(&str)) {
        let current = &mut self.current;
        current.clear();
        for (i, &c) in bytes.iter().enumerate() {
            if c.is_ascii_alphanumeric() {
                let acronym_plural =
                    bytes.get(i + 1) == Some(&b's') && !bytes.get(i + 2).is_some_and(u8::is_ascii_lowercase);
                let boundary = c.is_ascii_uppercase()
                    && i > 0
                    && (bytes[i - 1].is_ascii_lowercase()
                        || bytes[i - 1].is_ascii_digit()
                        || (bytes[i - 1].is_ascii_uppercase()
                            && !acronym_plural
                            && bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase)));
                if boundary && !current.is_empty() {
                    f(current);
                    current.clear();
                }
                current.push(char::from(c.to_ascii_lowercase()));
            } else if !current.is_empty() {
                f(current);
                current.clear();
            }
        }
        if !current.is_empty() {
            f(current);
            current.clear();
        }
    }
}

/// Folds a word to its search stem: plurals (`-ies`, `-es`, `-s`) and the `-ing`/`-ed` verb
/// forms that descriptions use ("listing", "created"). Deliberately light: a stem is only ever
/// compared with other stems made the same way.
pub fn stem(word: &str) -> String {
    let w = word;
    let n = w.len();
    if !w.is_ascii() || n <= 3 {
        return w.to_owned();
    }
    if let Some(base) = w.strip_suffix("ies")
        && n > 4
    {
        return format!("{base}y");
    }
    if w.ends_with("sses")
        || w.ends_with("xes")
        || w.ends_with("ches")
        || w.ends_with("shes")
        || w.ends_with("zes")
    {
        return w[..n - 2].to_owned();
    }
    if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        return drop_e(&w[..n - 1]);
    }
    if let Some(base) = w.strip_suffix("ing")
        && base.len() >= 3
    {
        return undouble(base);
    }
    if let Some(base) = w.strip_suffix("ed")
        && base.len() >= 3
    {
        return undouble(base);
    }
    drop_e(w)
}

/// A final silent `e` goes, as in Porter's stemmer, so `stage`, `staged` and `staging` (and
/// `create`, `created`, `creating`) share one stem.
fn drop_e(word: &str) -> String {
    match word.strip_suffix('e') {
        Some(base) if base.len() >= 3 && !base.ends_with('e') => base.to_owned(),
        _ => word.to_owned(),
    }
}

/// `stopp` → `stop`: a doubled final consonant left by `-ing`/`-ed` is undone.
fn undouble(base: &str) -> String {
    let bytes = base.as_bytes();
    let n = bytes.len();
    if n >= 2 && bytes[n - 1] == bytes[n - 2] && !matches!(bytes[n - 1], b'l' | b's' | b'z') {
        return base[..n - 1].to_owned();
    }
    base.to_owned()
}

/// Words too common in queries to carry meaning.
const STOPWORDS: &[&str] = &[
    "a", "about", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from",
    "give", "how", "i", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "our", "please",
    "some", "that", "the", "their", "them", "there", "this", "to", "tool", "tools", "want", "we", "what",
    "which", "with", "you", "your",
];

/// Whether a (lowercase) word is a stopword.
pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(&word)
}

/// Stems of a text, for indexing.
pub fn stems(text: &str) -> Vec<String> {
    words(text).iter().map(|w| stem(w)).collect()
}

/// Groups of stems that name the same idea in tool APIs. Used only to expand queries (never
/// documents), at a discount, so an exact word always outranks its synonym.
const SYNONYMS: &[&[&str]] = &[
    &["delete", "remove", "destroy", "drop", "erase", "trash"],
    &["create", "add", "new", "make", "insert", "open", "start", "leave", "invite"],
    &["get", "fetch", "retrieve", "read", "show", "view", "detail", "info", "describe", "load", "inspect"],
    &["list", "enumerate", "browse", "index", "exist", "all"],
    &["search", "find", "query", "lookup", "look", "filter", "locate"],
    &["update", "edit", "modify", "change", "set", "patch", "rename", "move", "switch", "mark"],
    &["send", "post", "publish", "notify", "dm"],
    &["message", "chat", "msg", "dm"],
    &["repo", "repository", "project"],
    &["pr", "pull", "merge"],
    &["issue", "ticket", "bug", "task"],
    &["user", "member", "person", "people", "account", "profile", "who"],
    &["customer", "client", "buyer"],
    &["payment", "charge", "pay", "transaction"],
    &["invoice", "bill", "billing"],
    &["subscription", "plan", "recurring"],
    &["file", "document", "doc"],
    &["directory", "folder", "dir"],
    &["database", "db", "sql", "postgres", "schema"],
    &["table", "relation"],
    &["domain", "zone", "dns", "hostname"],
    &["worker", "function", "script", "lambda"],
    &["bucket", "storage", "object", "blob", "r2"],
    &["kv", "key", "value", "cache"],
    &["comment", "reply", "respond", "note"],
    &["label", "tag"],
    &["assign", "assignee", "owner"],
    &["close", "resolve", "finish", "complete", "done"],
    &["cancel", "stop", "abort", "terminate"],
    &["upload", "put", "store", "save", "write", "overwrite"],
    &["download", "export"],
    &["move", "rename", "relocate"],
    &["log", "logs", "event", "history", "audit"],
    &["commit", "change"],
    &["branch", "ref"],
    &["release", "version", "tag"],
    &["workflow", "action", "ci", "pipeline", "build", "run", "job"],
    &["team", "group", "org", "organization", "workspace"],
    &["status", "state", "health"],
    &["reaction", "emoji", "react"],
    &["refund", "reimburse", "return"],
    &["secret", "credential", "token", "key"],
    &["analytics", "metric", "stat", "usage", "traffic"],
    &["deploy", "deployment", "publish", "release"],
    &["cycle", "sprint", "iteration"],
    &["price", "cost", "amount"],
    &["product", "item", "sku"],
    &["content", "contents", "text", "body"],
    &["explain", "plan", "analyze"],
    &["slow", "performance", "latency"],
];

/// Abbreviations and shell commands people type for whole phrases. Expanded in queries at full
/// weight, since they mean exactly the phrase.
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("cat", "read file"),
    ("cp", "copy"),
    ("db", "database"),
    ("dir", "directory"),
    ("dm", "direct message"),
    ("docs", "documentation"),
    ("env", "environment"),
    ("ls", "list"),
    ("mkdir", "create directory"),
    ("msg", "message"),
    ("mv", "move"),
    ("pr", "pull request"),
    ("prs", "pull requests"),
    ("repo", "repository"),
    ("repos", "repositories"),
    ("rm", "delete"),
    ("whoami", "me"),
];

/// The phrase an abbreviation stands for.
pub fn expand_abbreviation(word: &str) -> Option<&'static str> {
    ABBREVIATIONS.iter().find(|(short, _)| *short == word).map(|(_, long)| *long)
}

/// The synonym groups' stems, made once.
fn synonym_stems() -> &'static [Vec<String>] {
    static STEMS: std::sync::OnceLock<Vec<Vec<String>>> = std::sync::OnceLock::new();
    STEMS.get_or_init(|| SYNONYMS.iter().map(|group| group.iter().map(|w| stem(w)).collect()).collect())
}

/// Synonym stems of a stem (excluding itself).
pub fn synonyms(stem_word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for stems_of in synonym_stems() {
        if stems_of.iter().any(|s| s == stem_word) {
            for s in stems_of {
                if s != stem_word && !out.contains(s) {
                    out.push(s.clone());
                }
            }
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn splits_identifier_styles() {
        assert_eq!(words("listPullRequests"), ["list", "pull", "requests"]);
        assert_eq!(words("get_file-contents"), ["get", "file", "contents"]);
        assert_eq!(words("HTTPServer v2"), ["http", "server", "v2"]);
        assert_eq!(words("open PRs, IDs and URLs"), ["open", "prs", "ids", "and", "urls"]);
        assert_eq!(words("getURLs listIDsByName"), ["get", "urls", "list", "ids", "by", "name"]);
        assert_eq!(
            words("tools.context7[\"resolve-library-id\"]"),
            ["tools", "context7", "resolve", "library", "id"]
        );
    }

    /// The ASCII path splits as the general one does.
    #[test]
    fn ascii_texts_split_as_unicode_ones() {
        let texts = [
            "listPullRequests get_file-contents HTTPServer v2 open PRs, IDs and URLs",
            "getURLs listIDsByName tools.context7[\"resolve-library-id\"] ABCs AbC aBc 9Lives x2Y",
            "IDs IDsX IDss s S sS Ss A1b2C3 __init__ k8sCluster",
        ];
        for text in texts {
            let mut ascii = Vec::new();
            Words::default().each(text, |w| ascii.push(w.to_owned()));
            // A non-ASCII char that is not alphanumeric splits like a space, so the general
            // path sees the same words.
            let mut general = Vec::new();
            Words::default().each(&format!("{text}\u{2014}"), |w| general.push(w.to_owned()));
            assert_eq!(ascii, general, "{text}");
        }
    }

    #[test]
    fn stems_fold_plurals_and_verb_forms() {
        assert_eq!(stem("issues"), stem("issue"));
        assert_eq!(stem("repositories"), "repository");
        assert_eq!(stem("branches"), "branch");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("listing"), "list");
        assert_eq!(stem("created"), "creat");
        assert_eq!(stem("create"), "creat");
        assert_eq!(stem("staging"), stem("stage"));
        assert_eq!(stem("updates"), stem("update"));
        assert_eq!(stem("stopped"), "stop");
        assert_eq!(stem("address"), "address");
    }
}
