//! The durable-execution example: suspended runs stored in SQLite by one worker and resumed by
//! another, with a runtime of its own, once their approvals are in.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../examples/durable_sqlite.rs"]
mod example;

use serde_json::json;

#[test]
fn suspended_runs_are_stored_in_sqlite_and_resumed_by_another_worker() {
    let dir = std::env::temp_dir().join(format!("codemode-durable-sqlite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("runs.sqlite");
    let db = example::open(path.to_str().unwrap()).unwrap();
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let worker_a = codemode::demo::builder().build().unwrap();
    tokio.block_on(example::start(&db, &worker_a, "refund-1", "A-1001")).unwrap();
    tokio.block_on(example::start(&db, &worker_a, "refund-2", "A-1002")).unwrap();
    drop(worker_a);
    assert_eq!(example::result(&db, "refund-1").unwrap(), None, "suspended, not finished");

    // Nothing is decided: worker B resumes nothing.
    let worker_b = codemode::demo::builder().build().unwrap();
    assert_eq!(tokio.block_on(example::resume_ready(&db, &worker_b)).unwrap(), 0);
    // One approval, one refusal; worker B finishes both (a fresh connection, as another process).
    example::decide(&db, "refund-1:2", json!({ "ok": true, "value": { "approved": true } })).unwrap();
    example::decide(&db, "refund-2:2", json!({ "ok": true, "value": { "approved": false } })).unwrap();
    let db_b = example::open(path.to_str().unwrap()).unwrap();
    assert_eq!(tokio.block_on(example::resume_ready(&db_b, &worker_b)).unwrap(), 2);
    let one = example::result(&db_b, "refund-1").unwrap().unwrap();
    assert_eq!(one["value"], json!({ "refunded": 17.5, "order": "A-1001" }), "{one}");
    assert_eq!(one["toolCalls"].as_array().unwrap().len(), 2);
    let two = example::result(&db_b, "refund-2").unwrap().unwrap();
    assert_eq!(two["value"], json!({ "refunded": 0, "order": "A-1002" }), "{two}");
    // Finished runs are not resumed again.
    assert_eq!(tokio.block_on(example::resume_ready(&db_b, &worker_b)).unwrap(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}
