//! Fuzz target `resume_snapshot`: a suspended run's state decoded from arbitrary bytes and
//! resumed. Input starting with the snapshot magic is decoded as it is; other input mutates a
//! real snapshot (an approval pending after a tool call and a `Map`), so most inputs are nearly
//! valid. Decoding and resuming must return an error or a run, and a run must end (it is
//! cancelled after a second) without panicking.

#![no_main]

use std::time::Duration;

use codemode::{CancelToken, ExecuteOptions, Outcome, Snapshot};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

const PROGRAM: &str = r#"
    const seen = new Map([["a", 1]]);
    const order = await tools.orders.lookup({ id: "A-12" });
    const decision = await tools.demo.approve({ action: "refund " + order.total });
    for (const k of [1, 2, 3]) seen.set("k" + k, [order.total * k, decision.approved]);
    return [...seen.entries()];
"#;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap_or_else(|e| panic!("{e}"))
}

thread_local! {
    static SNAPSHOT: Vec<u8> = {
        let cm = codemode::demo::builder().build().unwrap_or_else(|e| panic!("{e}"));
        let mut execution = cm.execute_with(PROGRAM, ExecuteOptions::new().run_id("f"));
        match runtime().block_on(execution.result()) {
            Outcome::Suspended(s) => s.state.to_bytes().unwrap_or_else(|e| panic!("{e}")),
            Outcome::Finished(r) => panic!("the seed program did not suspend: {r:?}"),
        }
    };
}

fuzz_target!(|data: &[u8]| {
    let bytes = if data.starts_with(b"CMRUNSNP") {
        data.to_vec()
    } else {
        SNAPSHOT.with(|s| codemode_fuzz::mutate(s, data))
    };
    let Ok(state) = Snapshot::from_bytes(&bytes) else { return };
    let _ = state.to_json();
    let cm = codemode::demo::builder().build().unwrap_or_else(|e| panic!("{e}"));
    let token = CancelToken::new();
    let outcomes = [("f:2".to_string(), Ok(json!({ "approved": true })))];
    let Ok(execution) = cm.resume_with(state, outcomes, ExecuteOptions::new().cancel(token.clone())) else {
        return;
    };
    // The driver yields to other tasks between slices when it has a cancel token.
    let _ = runtime().block_on(async move {
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(1)).await;
            token.cancel();
        });
        execution.await
    });
});
