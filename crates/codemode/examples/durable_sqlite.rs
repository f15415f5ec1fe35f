//! Suspended runs kept in a real database table, resumed by another worker.
//!
//! Worker A executes programs; when one suspends (a person must approve a refund), it stores the
//! state bytes and the pending call keys in SQLite. Decisions arrive in another table. Worker B,
//! with a runtime of its own (another process would do the same), picks up every run whose
//! pending calls all have decisions, resumes it and stores the result. `cargo run -p codemode
//! --example durable_sqlite`; the test `tests/durable_sqlite.rs` runs the same flow.

use codemode::{CodeMode, ExecuteOptions, Outcome, Snapshot, ToolError};
use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Value, json};

/// The tables: suspended and finished runs, and decisions by call key.
pub fn open(path: &str) -> rusqlite::Result<Connection> {
    let db = Connection::open(path)?;
    db.execute_batch(
        "CREATE TABLE IF NOT EXISTS runs (
             run_id  TEXT PRIMARY KEY,
             state   BLOB,          -- Snapshot::to_bytes while suspended
             pending TEXT,          -- JSON array of the pending calls' keys
             result  TEXT           -- the ExecResult JSON once finished
         );
         CREATE TABLE IF NOT EXISTS decisions (
             key     TEXT PRIMARY KEY,
             outcome TEXT NOT NULL  -- {\"ok\":true,\"value\":..} or {\"ok\":false,\"error\":\"..\"}
         );",
    )?;
    Ok(db)
}

/// Stores how a run went: its result, or its state and pending keys.
fn store(db: &Connection, run_id: &str, outcome: Outcome) -> Result<(), String> {
    match outcome {
        Outcome::Finished(result) => {
            let text = serde_json::to_string(&result).map_err(|e| e.to_string())?;
            db.execute(
                "INSERT INTO runs (run_id, state, pending, result) VALUES (?1, NULL, NULL, ?2)
                 ON CONFLICT(run_id) DO UPDATE SET state = NULL, pending = NULL, result = ?2",
                params![run_id, text],
            )
        }
        Outcome::Suspended(s) => {
            let bytes = s.state.to_bytes().map_err(|e| e.to_string())?;
            let keys: Vec<&str> = s.pending.iter().map(|p| p.key.as_str()).collect();
            db.execute(
                "INSERT INTO runs (run_id, state, pending, result) VALUES (?1, ?2, ?3, NULL)
                 ON CONFLICT(run_id) DO UPDATE SET state = ?2, pending = ?3, result = NULL",
                params![run_id, bytes, json!(keys).to_string()],
            )
        }
    }
    .map(drop)
    .map_err(|e| e.to_string())
}

/// Worker A: runs the refund program for `order` and stores where it got to.
pub async fn start(db: &Connection, runtime: &CodeMode, run_id: &str, order: &str) -> Result<(), String> {
    let options = ExecuteOptions::new().run_id(run_id).binding("ORDER", json!(order));
    let mut execution = runtime.execute_with(REFUND, options);
    let outcome = execution.result().await;
    store(db, run_id, outcome)
}

/// Someone decides on a pending call.
pub fn decide(db: &Connection, key: &str, outcome: Value) -> rusqlite::Result<()> {
    db.execute(
        "INSERT OR REPLACE INTO decisions (key, outcome) VALUES (?1, ?2)",
        params![key, outcome.to_string()],
    )
    .map(drop)
}

/// Worker B: resumes every suspended run whose pending calls all have decisions. Returns how
/// many it resumed.
pub async fn resume_ready(db: &Connection, runtime: &CodeMode) -> Result<usize, String> {
    let suspended: Vec<(String, Vec<u8>, String)> = {
        let mut query = db
            .prepare("SELECT run_id, state, pending FROM runs WHERE state IS NOT NULL ORDER BY run_id")
            .map_err(|e| e.to_string())?;
        let rows =
            query.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).map_err(|e| e.to_string())?;
        rows.collect::<Result<_, _>>().map_err(|e| e.to_string())?
    };
    let mut resumed = 0;
    for (run_id, bytes, pending) in suspended {
        let keys: Vec<String> = serde_json::from_str(&pending).map_err(|e| e.to_string())?;
        let mut outcomes = Vec::new();
        for key in keys {
            let decision: Option<String> = db
                .query_row("SELECT outcome FROM decisions WHERE key = ?1", [&key], |r| r.get(0))
                .optional()
                .map_err(|e| e.to_string())?;
            let Some(decision) = decision else { break };
            let decision: Value = serde_json::from_str(&decision).map_err(|e| e.to_string())?;
            let outcome = if decision["ok"] == json!(true) {
                Ok(decision["value"].clone())
            } else {
                Err(ToolError::failure(decision["error"].as_str().unwrap_or("declined")))
            };
            outcomes.push((key, outcome));
        }
        if outcomes.len() != serde_json::from_str::<Vec<String>>(&pending).map_or(0, |k| k.len()) {
            continue; // still waiting for someone
        }
        let state = Snapshot::from_bytes(&bytes).map_err(|e| e.to_string())?;
        let mut execution = runtime.resume(state, outcomes).map_err(|e| e.to_string())?;
        let outcome = execution.result().await;
        store(db, &run_id, outcome)?;
        resumed += 1;
    }
    Ok(resumed)
}

/// The stored result of a finished run.
pub fn result(db: &Connection, run_id: &str) -> rusqlite::Result<Option<Value>> {
    let text: Option<Option<String>> =
        db.query_row("SELECT result FROM runs WHERE run_id = ?1", [run_id], |r| r.get(0)).optional()?;
    Ok(text.flatten().and_then(|t| serde_json::from_str(&t).ok()))
}

/// The refund program both workers run (`ORDER` is a binding): it needs a person's approval.
pub const REFUND: &str = r#"
    const order = await tools.orders.lookup({ id: ORDER });
    const decision = await tools.demo.approve({ action: `refund ${order.total} to ${order.customer}` });
    return decision.approved ? { refunded: order.total, order: order.id } : { refunded: 0, order: order.id };
"#;

#[allow(dead_code)] // the test includes this file for its functions
fn main() -> Result<(), String> {
    let path = std::env::temp_dir().join("codemode-durable-example.sqlite");
    let _ = std::fs::remove_file(&path);
    let db = open(&path.to_string_lossy()).map_err(|e| e.to_string())?;
    let tokio = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let worker_a = codemode::demo::builder().build().map_err(|e| e.to_string())?;
    for (run, order) in [("refund-1", "A-1001"), ("refund-2", "A-1002")] {
        tokio.block_on(start(&db, &worker_a, run, order))?;
    }
    println!("suspended: refund-1 and refund-2 wait for approval");
    decide(&db, "refund-1:2", json!({ "ok": true, "value": { "approved": true } }))
        .map_err(|e| e.to_string())?;
    let worker_b = codemode::demo::builder().build().map_err(|e| e.to_string())?;
    let n = tokio.block_on(resume_ready(&db, &worker_b))?;
    println!(
        "worker B resumed {n} run(s); refund-1: {}",
        result(&db, "refund-1").map_err(|e| e.to_string())?.unwrap_or_default()
    );
    Ok(())
}
