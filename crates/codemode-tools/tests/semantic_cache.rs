//! The semantic ranker's on-disk vector cache and background embedding, with a counting
//! embedder (no model): a restart embeds nothing, a changed catalog only its changed tools, a
//! background embedding answers lexically until it is done, and its failure is reported.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode_tools::search::{EmbedError, Embedder, SemanticRanker};
use codemode_tools::{Namespace, Tool, ToolSet};
use serde_json::{Value, json};

/// Vectors from the texts' letters; counts the texts it is asked to embed (queries apart).
struct Counting {
    documents: Arc<AtomicUsize>,
    delay: Duration,
    fail: bool,
}

impl Embedder for Counting {
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        std::thread::sleep(self.delay);
        if self.fail {
            return Err(EmbedError("the model is on fire".to_owned()));
        }
        self.documents.fetch_add(texts.len(), Ordering::SeqCst);
        Ok(texts.iter().map(|t| vector(t)).collect())
    }

    fn embed_query(&self, query: &str) -> Result<Vec<f32>, EmbedError> {
        Ok(vector(query))
    }

    fn model_id(&self) -> &str {
        "counting"
    }
}

fn vector(text: &str) -> Vec<f32> {
    let mut v = vec![0.0f32; 26];
    for c in text.to_lowercase().chars().filter(char::is_ascii_lowercase) {
        v[(c as u8 - b'a') as usize] += 1.0;
    }
    v
}

fn tool(description: &str) -> Tool {
    Tool::from_json(description, Some(json!({ "type": "object" })), None, |_, _| async { Ok(Value::Null) })
}

fn tools(third: &str) -> ToolSet {
    Namespace::new()
        .tool("send_mail", tool("Sends an email message"))
        .tool("read_file", tool("Reads a file from disk"))
        .tool("third", tool(third))
        .build()
        .unwrap()
}

fn ranker(
    documents: &Arc<AtomicUsize>,
    dir: &std::path::Path,
    delay: Duration,
    fail: bool,
) -> SemanticRanker {
    SemanticRanker::new(Counting { documents: Arc::clone(documents), delay, fail }).with_vector_cache(dir)
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-semantic-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn vectors_survive_a_restart_and_only_changed_tools_are_embedded() {
    let dir = scratch("restart");
    let count = Arc::new(AtomicUsize::new(0));
    ranker(&count, &dir, Duration::ZERO, false).warm(&tools("Lists calendar events")).unwrap();
    assert_eq!(count.load(Ordering::SeqCst), 3);
    // A new ranker (a restart) reads all three from disk.
    let count = Arc::new(AtomicUsize::new(0));
    let restarted = Arc::new(ranker(&count, &dir, Duration::ZERO, false));
    let catalog = tools("Lists calendar events").with_semantic_ranker(Arc::clone(&restarted));
    restarted.warm(&catalog).unwrap();
    assert_eq!(count.load(Ordering::SeqCst), 0);
    assert!(restarted.is_ready(&catalog));
    // Search uses them.
    let hits = catalog.rank("calendar", None);
    assert!(hits.iter().any(|h| h.matches.contains(&"semantic")), "{hits:?}");
    // One tool changed: one text embedded.
    let count = Arc::new(AtomicUsize::new(0));
    ranker(&count, &dir, Duration::ZERO, false).warm(&tools("Deletes calendar events")).unwrap();
    assert_eq!(count.load(Ordering::SeqCst), 1);
    // A corrupt cache file is ignored and rewritten.
    for entry in std::fs::read_dir(&dir).unwrap() {
        std::fs::write(entry.unwrap().path(), b"garbage").unwrap();
    }
    let count = Arc::new(AtomicUsize::new(0));
    ranker(&count, &dir, Duration::ZERO, false).warm(&tools("Deletes calendar events")).unwrap();
    assert_eq!(count.load(Ordering::SeqCst), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn background_embedding_answers_lexically_until_done() {
    let dir = scratch("background");
    let count = Arc::new(AtomicUsize::new(0));
    let ranker = Arc::new(ranker(&count, &dir, Duration::from_millis(300), false).with_background(true));
    let catalog = tools("Lists calendar events").with_semantic_ranker(Arc::clone(&ranker));
    let started = Instant::now();
    let first = catalog.rank("email message", None);
    assert!(started.elapsed() < Duration::from_millis(250), "search waited for the embedding");
    assert!(first.iter().all(|h| !h.matches.contains(&"semantic")), "{first:?}");
    assert_eq!(first.first().map(|h| h.tool.path.as_str()), Some("send_mail"));
    // A second search while it runs does not start another embedding.
    let _ = catalog.rank("file", None);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ranker.is_ready(&catalog) {
        assert!(Instant::now() < deadline, "the background embedding never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(count.load(Ordering::SeqCst), 3, "embedded once");
    let later = catalog.rank("email message", None);
    assert!(later.iter().any(|h| h.matches.contains(&"semantic")), "{later:?}");
    assert!(ranker.background_failure().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_background_embedding_is_reported_and_search_stays_lexical() {
    let dir = scratch("failing");
    let count = Arc::new(AtomicUsize::new(0));
    let ranker = Arc::new(ranker(&count, &dir, Duration::ZERO, true).with_background(true));
    let catalog = tools("Lists calendar events").with_semantic_ranker(Arc::clone(&ranker));
    ranker.warm_in_background(&catalog);
    let deadline = Instant::now() + Duration::from_secs(10);
    while ranker.background_failure().is_none() {
        assert!(Instant::now() < deadline, "no failure reported");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(ranker.background_failure().unwrap().0.contains("on fire"));
    let hits = catalog.rank("email message", None);
    assert_eq!(hits.first().map(|h| h.tool.path.as_str()), Some("send_mail"));
    // The synchronous warm says why.
    assert!(ranker.warm(&catalog).unwrap_err().0.contains("on fire"));
    let _ = std::fs::remove_dir_all(&dir);
}
