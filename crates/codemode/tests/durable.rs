//! Suspend and resume: durable tools, `Execution::suspend`, snapshots to bytes and back into a
//! brand-new runtime, and what blocks a suspend.

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codemode::{
    CodeMode, Durable, ExecuteOptions, Limits, Outcome, Snapshot, SnapshotError, Tool, ToolError,
};
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn demo() -> CodeMode {
    codemode::demo::builder().build().unwrap()
}

const APPROVAL: &str = r#"
    const order = await tools.orders.lookup({ id: "A-1001" });
    const decision = await tools.demo.approve({ action: `refund ${order.total}` });
    return { order: order.id, refunded: decision.approved, by: decision.by ?? null };
"#;

fn suspended(outcome: Outcome) -> codemode::Suspended {
    match outcome {
        Outcome::Suspended(s) => s,
        Outcome::Finished(r) => panic!("expected a suspended run, got {r:?}"),
    }
}

fn finished(outcome: Outcome) -> codemode::ExecResult {
    match outcome {
        Outcome::Finished(r) => r,
        Outcome::Suspended(s) => panic!("expected a finished run, got {:?}", s.pending),
    }
}

/// The approval flow: the durable tool suspends from `start`; the state goes to bytes; a new
/// runtime resumes it with the person's decision.
#[test]
fn a_durable_tool_suspends_its_run_and_a_new_runtime_resumes_it_from_bytes() {
    let rt = runtime();
    let mut execution = demo().execute_with(APPROVAL, ExecuteOptions::new().run_id("r1"));
    let s = suspended(rt.block_on(execution.result()));
    assert_eq!(s.pending.len(), 1);
    assert_eq!(s.pending[0].key, "r1:2");
    assert_eq!(s.pending[0].path, "demo.approve");
    assert_eq!(s.pending[0].args, json!({ "action": "refund 17.5" }));
    assert_eq!(s.pending[0].handle, None);
    assert_eq!(s.to_json()["ok"], "suspended");
    let bytes = s.state.to_bytes().unwrap();
    drop(execution);

    // Another runtime (another process would do the same), another tokio runtime.
    let state = Snapshot::from_bytes(&bytes).unwrap();
    let outcome = Ok(json!({ "approved": true, "by": "ann" }));
    let mut resumed = demo().resume(state, [("r1:2".to_string(), outcome)]).unwrap();
    let result = finished(runtime().block_on(resumed.result()));
    assert!(result.ok, "{result:?}");
    assert_eq!(result.value, Some(json!({ "order": "A-1001", "refunded": true, "by": "ann" })));
    assert_eq!(result.run_id, "r1");
    let calls: Vec<_> = result.tool_calls.iter().map(|c| (c.id, c.path.as_str())).collect();
    assert_eq!(calls, [(1, "orders.lookup"), (2, "demo.approve")]);
}

/// A run suspended in the middle of a for-of over an array (its iterator is a register value,
/// not an object) resumes from bytes where it stopped: the elements after the suspension are
/// visited once each, and a destructuring's rest sees the array as it is then.
#[test]
fn a_for_of_over_an_array_resumes_at_its_next_element() {
    let rt = runtime();
    let source = r#"
        const items = ["a", "b", "c"];
        const seen = [];
        for (const item of items) {
            seen.push(item);
            if (item === "b") {
                const d = await tools.demo.approve({ action: item });
                seen.push(d.approved);
                items.push("d");
            }
        }
        const [first, ...others] = items;
        return { seen, first, others };
    "#;
    let mut execution = demo().execute_with(source, ExecuteOptions::new().run_id("loop"));
    let s = suspended(rt.block_on(execution.result()));
    assert_eq!(s.pending[0].args, json!({ "action": "b" }));
    let state = Snapshot::from_bytes(&s.state.to_bytes().unwrap()).unwrap();
    drop(execution);
    let outcome = Ok(json!({ "approved": true }));
    let mut resumed = demo().resume(state, [("loop:1".to_string(), outcome)]).unwrap();
    let result = finished(runtime().block_on(resumed.result()));
    assert_eq!(
        result.value,
        Some(json!({ "seen": ["a", "b", true, "c", "d"], "first": "a", "others": ["b", "c", "d"] }))
    );
}

/// A run's time zone is part of its state: the resumed run's local time is still that zone's,
/// in a runtime that was given none.
#[test]
fn a_resumed_run_keeps_its_time_zone() {
    let rt = runtime();
    let source = r#"
        const at = Date.UTC(2024, 6, 4, 16, 0);
        const before = new Date(at).getHours();
        await tools.demo.approve({ action: "meet" });
        return [before, new Date(at).getHours(), new Date(2024, 0, 15, 9, 30).toISOString()];
    "#;
    let options = ExecuteOptions::new().run_id("tz").time_zone("Asia/Kolkata");
    let mut execution = demo().execute_with(source, options);
    let s = suspended(rt.block_on(execution.result()));
    let state = Snapshot::from_bytes(&s.state.to_bytes().unwrap()).unwrap();
    drop(execution);
    let outcome = Ok(json!({ "approved": true }));
    let mut resumed = demo().resume(state, [("tz:1".to_string(), outcome)]).unwrap();
    let result = finished(runtime().block_on(resumed.result()));
    assert_eq!(result.value, Some(json!([21, 21, "2024-01-15T04:00:00.000Z"])), "{result:?}");
}

/// A state can be resumed twice with different outcomes (forked); an error outcome rejects the
/// call's promise with a tool error the program can catch.
#[test]
fn a_state_forks_and_error_outcomes_are_catchable() {
    let rt = runtime();
    let source =
        "try { return await tools.demo.approve({ action: 'x' }) } catch (e) { return 'no: ' + e.message }";
    let mut execution = demo().execute_with(source, ExecuteOptions::new().run_id("f"));
    let s = suspended(rt.block_on(execution.result()));
    let yes = demo().resume(s.state.clone(), [("f:1".to_string(), Ok(json!({ "approved": true })))]).unwrap();
    let no =
        demo().resume(s.state, [("f:1".to_string(), Err(ToolError::failure("declined by bob")))]).unwrap();
    assert_eq!(rt.block_on(yes).value, Some(json!({ "approved": true })));
    assert_eq!(rt.block_on(no).value, Some(json!("no: declined by bob")));
}

/// Awaited directly, a run cannot be suspended: the durable tool is told so and fails its call.
#[test]
fn a_run_awaited_directly_cannot_be_suspended() {
    let r = runtime().block_on(
        demo().execute("try { await tools.demo.approve({ action: 'x' }) } catch (e) { return e.message }"),
    );
    let message = r.value.unwrap();
    assert!(message.as_str().unwrap().contains("cannot be suspended"), "{message}");
    // A plain tool can never suspend.
    let ctx = codemode::CallContext::new("k:1", "t");
    let refusal = runtime().block_on(ctx.suspend());
    assert!(refusal.message.contains("only a durable tool"), "{}", refusal.message);
}

/// A plain tool call in flight blocks a suspend (named by key and path) and the run goes on
/// untouched; attached durable work does not block, and its handles are in the pending list.
#[test]
fn running_plain_calls_block_a_suspend_and_attached_durable_work_does_not() {
    let rt = runtime();
    let mut execution = demo().execute_with(
        "const a = await tools.demo.sleep({ ms: 50, value: 1 }); \
         const [b, c] = await Promise.all([tools.demo.job({ ms: 60000, value: 2 }), tools.demo.job({ ms: 60000, value: 3 })]); \
         return [a, b, c];",
        ExecuteOptions::new().run_id("b"),
    );
    rt.block_on(async {
        tokio::select! {
            _ = execution.result() => panic!("the run cannot finish this early"),
            () = tokio::time::sleep(Duration::from_millis(10)) => {}
        }
    });
    let refusal = execution.suspend().unwrap_err();
    assert_eq!(refusal.blocking.len(), 1);
    assert_eq!(refusal.blocking[0].key, "b:1");
    assert_eq!(refusal.blocking[0].path, "tools.demo.sleep");
    assert!(refusal.message.contains("tools.demo.sleep (b:1)"), "{}", refusal.message);
    // The run went on: the sleep ends, the jobs start and attach; now it can be suspended.
    rt.block_on(async {
        tokio::select! {
            _ = execution.result() => panic!("the jobs take a minute"),
            () = tokio::time::sleep(Duration::from_millis(200)) => {}
        }
    });
    let s = suspended(execution.suspend().unwrap());
    let handles: Vec<_> = s.pending.iter().map(|p| (p.key.clone(), p.handle.clone())).collect();
    assert_eq!(
        handles,
        [
            ("b:2".to_string(), Some(json!({ "job": "b:2", "ms": 60000, "value": 2 }))),
            ("b:3".to_string(), Some(json!({ "job": "b:3", "ms": 60000, "value": 3 }))),
        ]
    );
    // A second suspend gives the same state.
    assert!(matches!(execution.suspend(), Ok(Outcome::Suspended(_))));
    let outcomes = s.pending.iter().map(|p| (p.key.clone(), Ok(p.handle.as_ref().unwrap()["value"].clone())));
    let result = rt.block_on(demo().resume(s.state, outcomes).unwrap());
    assert_eq!(result.value, Some(json!([1, 2, 3])));
}

/// Calls the program made after a durable call that suspended at once stay queued (not
/// started, not blocking) and start on resume.
#[test]
fn calls_queued_behind_a_suspending_start_start_on_resume() {
    let rt = runtime();
    let source = "const [d, o] = await Promise.all([tools.demo.approve({ action: 'a' }), tools.orders.lookup({ id: 'A-7' })]); \
                  return [d.approved, o.status];";
    let mut execution = demo().execute_with(source, ExecuteOptions::new().run_id("q"));
    let s = suspended(rt.block_on(execution.result()));
    assert_eq!(s.pending.iter().map(|p| p.key.as_str()).collect::<Vec<_>>(), ["q:1"]);
    let mut resumed =
        demo().resume(s.state, [("q:1".to_string(), Ok(json!({ "approved": false })))]).unwrap();
    let result = finished(rt.block_on(resumed.result()));
    assert_eq!(result.value, Some(json!([false, "complete"])));
    assert_eq!(result.tool_calls.iter().map(|c| c.id).collect::<Vec<_>>(), [1, 2]);
}

/// Resume refuses a missing outcome, an outcome for another key, other extensions, and bytes
/// that are not a snapshot (every truncation too).
#[test]
fn resume_refuses_wrong_outcomes_other_extensions_and_bad_bytes() {
    let rt = runtime();
    let mut execution = demo().execute_with(APPROVAL, ExecuteOptions::new().run_id("e"));
    let s = suspended(rt.block_on(execution.result()));
    let missing = demo().resume(s.state.clone(), Vec::new()).unwrap_err();
    assert_eq!(missing, SnapshotError::MissingOutcome { key: "e:2".into() });
    let extra = demo()
        .resume(s.state.clone(), [("e:2".to_string(), Ok(json!({}))), ("e:9".to_string(), Ok(json!(1)))])
        .unwrap_err();
    assert_eq!(extra, SnapshotError::UnexpectedOutcome { key: "e:9".into() });
    let other = codemode::demo::builder()
        .extension(
            codemode::Extension::new("web").sync_global("ping", |_args: Vec<Value>, _ctx| Ok(json!(1))),
        )
        .build()
        .unwrap();
    assert!(matches!(
        other.resume(s.state.clone(), [("e:2".to_string(), Ok(json!({})))]),
        Err(SnapshotError::Extensions { .. })
    ));
    let bytes = s.state.to_bytes().unwrap();
    assert!(matches!(Snapshot::from_bytes(b"hello"), Err(SnapshotError::Malformed(_))));
    for cut in (0..bytes.len()).step_by(7) {
        assert!(Snapshot::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut seed = 5u64;
    for _ in 0..300 {
        let mut mangled = bytes.clone();
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let at = (seed >> 33) as usize % mangled.len();
        mangled[at] ^= (seed >> 20) as u8 | 1;
        if let Ok(state) = Snapshot::from_bytes(&mangled)
            && let Ok(execution) =
                demo().resume(state, [("e:2".to_string(), Ok(json!({ "approved": true })))])
        {
            let _ = rt.block_on(async { tokio::time::timeout(Duration::from_secs(5), execution).await });
        }
    }
}

/// The limits a run was saved with persist: `max_tool_calls` counts every call of the run.
#[test]
fn tool_call_limits_count_across_resumes() {
    let rt = runtime();
    let limited = || codemode::demo::builder().limits(Limits::default().max_tool_calls(2)).build().unwrap();
    let source = "await tools.orders.lookup({ id: '1' }); await tools.demo.approve({ action: 'a' }); \
                  await tools.orders.lookup({ id: '2' }); return 1;";
    let mut execution = limited().execute_with(source, ExecuteOptions::new().run_id("l"));
    let s = suspended(rt.block_on(execution.result()));
    // Resumed by a runtime without the limit: the saved limit still applies.
    let result = rt.block_on(demo().resume(s.state, [("l:2".to_string(), Ok(json!({})))]).unwrap());
    assert!(!result.ok);
    assert_eq!(result.error.unwrap().kind, codemode::DiagnosticKind::ToolCallLimitExceeded);
}

/// A durable tool whose work is counted: started, cancelled.
fn counted_job(started: Arc<AtomicUsize>, cancelled: Arc<AtomicUsize>) -> Tool {
    Tool::durable(
        "A long job",
        None,
        None,
        Durable::new(
            move |_input: Value, ctx: codemode::CallContext| {
                let started = started.clone();
                async move {
                    started.fetch_add(1, Ordering::SeqCst);
                    Ok(json!({ "job": ctx.key }))
                }
            },
            |_handle: Value, _ctx| async move {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(json!(null))
            },
        )
        .on_cancel(move |_handle: Value| {
            let cancelled = cancelled.clone();
            async move {
                cancelled.fetch_add(1, Ordering::SeqCst);
            }
        }),
    )
}

/// A runtime with `jobs.long` ([`counted_job`]), and its counts of jobs started and cancelled.
fn long_jobs() -> (CodeMode, Arc<AtomicUsize>, Arc<AtomicUsize>) {
    let (started, cancelled) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let cm = CodeMode::builder()
        .tool("jobs.long", counted_job(started.clone(), cancelled.clone()))
        .build()
        .unwrap();
    (cm, started, cancelled)
}

/// Work still running when the run ends is cancelled; work detached by a suspend is not.
#[test]
fn durable_work_is_cancelled_when_its_run_ends_and_detached_when_it_is_suspended() {
    let rt = runtime();
    let (cm, started, cancelled) = long_jobs();
    // The program returns without awaiting its job.
    let r = rt.block_on(cm.execute("tools.jobs.long(); return 1;"));
    assert!(r.ok);
    assert_eq!((started.load(Ordering::SeqCst), cancelled.load(Ordering::SeqCst)), (1, 1));
    // Suspended while waiting: detached, not cancelled.
    let mut execution = cm.execute("return await tools.jobs.long();");
    rt.block_on(async {
        tokio::select! {
            _ = execution.result() => panic!("the job takes an hour"),
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
    });
    assert!(matches!(execution.suspend(), Ok(Outcome::Suspended(_))));
    drop(execution);
    rt.block_on(async { tokio::time::sleep(Duration::from_millis(10)).await });
    assert_eq!((started.load(Ordering::SeqCst), cancelled.load(Ordering::SeqCst)), (2, 1));
    // Dropped while waiting ("closing its scope"): cancelled.
    let mut execution = cm.execute("return await tools.jobs.long();");
    rt.block_on(async {
        tokio::select! {
            _ = execution.result() => panic!("the job takes an hour"),
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
        drop(execution);
        tokio::time::sleep(Duration::from_millis(10)).await;
    });
    assert_eq!((started.load(Ordering::SeqCst), cancelled.load(Ordering::SeqCst)), (3, 2));
}

/// The last owner of a run may drop it on a thread outside any tokio runtime (Python frees an
/// `Execution` on the asyncio loop's thread): its durable work is still cancelled, on the runtime
/// that drove the run. Stop 48's CI failure, where the cancel was silently lost.
#[test]
fn a_run_dropped_outside_any_runtime_still_cancels_its_durable_work() {
    let rt = runtime();
    let (cm, started, cancelled) = long_jobs();
    let mut execution = cm.execute("return await tools.jobs.long();");
    rt.block_on(async {
        tokio::select! {
            _ = execution.result() => panic!("the job takes an hour"),
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
    });
    assert!(tokio::runtime::Handle::try_current().is_err(), "this thread is outside the runtime here");
    drop(execution);
    rt.block_on(async {
        for _ in 0..100 {
            if cancelled.load(Ordering::SeqCst) == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    assert_eq!((started.load(Ordering::SeqCst), cancelled.load(Ordering::SeqCst)), (1, 1));
}

/// A run dropped while a durable `start` is still running lets the start finish and cancels the
/// work it started (dropping the start midway could orphan it): the Python flake at 789c884,
/// where a loaded machine had not finished the start within the caller's 0.2 s.
#[test]
fn a_run_dropped_during_a_durable_start_cancels_the_work_the_start_creates() {
    let rt = runtime();
    let gate = Arc::new(tokio::sync::Semaphore::new(0));
    let cancelled = Arc::new(std::sync::Mutex::new(Vec::<Value>::new()));
    let (gate_in, cancelled_in) = (gate.clone(), cancelled.clone());
    let slow_start = Tool::durable(
        "A job slow to submit",
        None,
        None,
        Durable::new(
            move |_input: Value, ctx: codemode::CallContext| {
                let gate = gate_in.clone();
                async move {
                    let _permit = gate.acquire().await.map_err(|e| ToolError::failure(e.to_string()))?;
                    Ok(json!({ "job": ctx.key }))
                }
            },
            |_handle: Value, _ctx| async move {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                Ok(json!(null))
            },
        )
        .on_cancel(move |handle: Value| {
            let cancelled = cancelled_in.clone();
            async move { cancelled.lock().unwrap().push(handle) }
        }),
    );
    let cm = CodeMode::builder().tool("jobs.slow", slow_start).build().unwrap();
    let mut execution = cm.execute_with("return await tools.jobs.slow();", ExecuteOptions::new().run_id("d"));
    rt.block_on(async {
        tokio::select! {
            _ = execution.result() => panic!("the start waits for the gate"),
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
        drop(execution);
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(cancelled.lock().unwrap().is_empty(), "nothing has started yet");
        gate.add_permits(1);
        for _ in 0..500 {
            if !cancelled.lock().unwrap().is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    assert_eq!(*cancelled.lock().unwrap(), vec![json!({ "job": "d:1" })]);
}

/// An extension whose `connect()` returns a client with a `query` method; `hooks` gives it
/// snapshot hooks that rebuild the client from its data.
fn db_runtime(hooks: bool, encode_fails: bool) -> CodeMode {
    fn client(name: String) -> codemode::HostValue {
        let prefix = name.clone();
        codemode::HostValue::object([
            ("name", codemode::HostValue::from(json!(name.clone()))),
            (
                "query",
                codemode::HostValue::function(move |args: Vec<Value>, _ctx| {
                    let prefix = prefix.clone();
                    async move {
                        Ok::<_, ToolError>(json!(format!("{prefix}: {}", args[0].as_str().unwrap_or(""))))
                    }
                }),
            ),
        ])
        .with_data(json!({ "name": name }))
    }
    let mut db = codemode::Extension::new("db").global("db.connect", |args: Vec<Value>, _ctx| async move {
        Ok::<_, ToolError>(client(args[0].as_str().unwrap_or("none").to_string()))
    });
    if hooks {
        db = db.snapshot(
            move |value: &codemode::HostValue| {
                if encode_fails {
                    return Err("the connection cannot be saved".to_string());
                }
                value.data().cloned().ok_or_else(|| "no data".to_string())
            },
            |data: Value| Ok(client(data["name"].as_str().unwrap_or("none").to_string())),
        );
    }
    codemode::demo::builder().extension(db).build().unwrap()
}

const DB_PROGRAM: &str = r#"
    const c = await db.connect("main");
    const d = await tools.demo.approve({ action: "query" });
    try { return [await c.query("select 1"), c.name, d.approved]; }
    catch (e) { return [e instanceof TypeError, e.message.startsWith("db.connect().query is not a function") || e.message, c.name]; }
"#;

/// Functions in extension values survive a resume through the extension's snapshot hooks;
/// without hooks they are lost and calling one throws a `TypeError`; a failing `encode` fails
/// the suspend and the run goes on.
#[test]
fn extension_values_keep_their_functions_through_snapshot_hooks() {
    let rt = runtime();
    for (hooks, expected) in
        [(true, json!(["main: select 1", "main", true])), (false, json!([true, true, "main"]))]
    {
        let mut execution =
            db_runtime(hooks, false).execute_with(DB_PROGRAM, ExecuteOptions::new().run_id("d"));
        let s = suspended(rt.block_on(execution.result()));
        let state = Snapshot::from_bytes(&s.state.to_bytes().unwrap()).unwrap();
        let resumed =
            db_runtime(hooks, false).resume(state, [("d:2".to_string(), Ok(json!({ "approved": true })))]);
        let result = rt.block_on(resumed.unwrap());
        assert_eq!(result.value, Some(expected), "hooks {hooks}: {result:?}");
    }
    // Saved with hooks, resumed without (or the reverse): refused.
    let mut execution = db_runtime(true, false).execute_with(DB_PROGRAM, ExecuteOptions::new().run_id("d"));
    let s = suspended(rt.block_on(execution.result()));
    let other = db_runtime(false, false).resume(s.state, [("d:2".to_string(), Ok(json!({})))]);
    assert!(matches!(other, Err(SnapshotError::Extensions { .. })));
    // An encoder that fails: the approval cannot suspend, the program sees why.
    let source = "const c = await db.connect('x'); try { await tools.demo.approve({ action: 'a' }) } catch (e) { return e.message }";
    let mut execution = db_runtime(true, true).execute(source);
    let result = finished(rt.block_on(execution.result()));
    let message = result.value.unwrap();
    assert!(message.as_str().unwrap().contains("could not save a value"), "{message}");
}

/// The time limit counts active time across resumes: 700 ms before the suspend and 500 ms after
/// exceed a 1 s limit, though each part alone does not.
#[test]
fn the_time_limit_counts_active_time_across_resumes() {
    let rt = runtime();
    let limited = || {
        codemode::demo::builder().limits(Limits::default().timeout(Duration::from_secs(1))).build().unwrap()
    };
    let source = "await tools.demo.sleep({ ms: 700 }); await tools.demo.approve({ action: 'a' }); \
                  await tools.demo.sleep({ ms: 500 }); return 'done';";
    let mut execution = limited().execute_with(source, ExecuteOptions::new().run_id("t"));
    let s = suspended(rt.block_on(execution.result()));
    // A pause between processes does not count.
    std::thread::sleep(Duration::from_millis(300));
    let result = rt.block_on(limited().resume(s.state, [("t:2".to_string(), Ok(json!({})))]).unwrap());
    assert_eq!(result.error.map(|e| e.kind), Some(codemode::DiagnosticKind::TimeoutExceeded));
}

/// A durable call's before hooks run when it starts and its after hooks when its work ends; a
/// denied one never starts; one detached by a suspend reports nothing.
#[test]
fn hooks_see_durable_calls_start_and_end_and_not_detached_work() {
    let rt = runtime();
    let events = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let (before, after) = (events.clone(), events.clone());
    let cm = codemode::demo::builder()
        .before_call(move |call: codemode::CallStart| {
            before.lock().unwrap().push(format!("before {} {}", call.name, call.key));
            let deny = call.input.get("value") == Some(&json!("deny"));
            async move { if deny { Err(codemode::Deny::new("not this one")) } else { Ok(()) } }
        })
        .after_call(move |end: codemode::CallEnd| {
            after.lock().unwrap().push(format!("after {} {} {:?}", end.name, end.key, end.outcome));
            async {}
        })
        .build()
        .unwrap();
    let source = "const a = await tools.demo.job({ ms: 5, value: 1 }); \
                  let b; try { await tools.demo.job({ value: 'deny' }) } catch (e) { b = e.message } \
                  return [a, b];";
    let result = rt.block_on(cm.execute_with(source, ExecuteOptions::new().run_id("h")));
    assert_eq!(result.value, Some(json!([1, "not this one"])), "{result:?}");
    let seen = std::mem::take(&mut *events.lock().unwrap());
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert_eq!(seen[0], "before demo.job h:1");
    assert!(seen[1].starts_with("after demo.job h:1 Value(Number(1))"), "{seen:?}");
    assert_eq!(seen[2], "before demo.job h:2");
    assert!(seen[3].starts_with("after demo.job h:2 Error"), "{seen:?}");

    let mut execution = cm.execute_with(
        "return await tools.demo.job({ ms: 60000, value: 1 })",
        ExecuteOptions::new().run_id("d"),
    );
    rt.block_on(async {
        tokio::select! {
            _ = execution.result() => panic!("the job takes a minute"),
            () = tokio::time::sleep(Duration::from_millis(50)) => {}
        }
    });
    assert!(matches!(execution.suspend(), Ok(Outcome::Suspended(_))));
    drop(execution);
    rt.block_on(async { tokio::time::sleep(Duration::from_millis(20)).await });
    assert_eq!(*events.lock().unwrap(), ["before demo.job d:1"], "detached work reports nothing");
}

/// A resumed run is replay-safe: resumed twice from one state, it makes the same calls under the
/// same keys in the same order, `Promise.all` included.
#[test]
fn resumed_runs_replay_the_same_calls_under_the_same_keys() {
    let rt = runtime();
    let keys = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let seen = keys.clone();
    let cm = codemode::demo::builder()
        .before_call(move |call: codemode::CallStart| {
            seen.lock().unwrap().push(format!("{} {}", call.key, call.name));
            async { Ok(()) }
        })
        .build()
        .unwrap();
    let source = "await tools.demo.approve({ action: 'a' }); \
                  const xs = await Promise.all(['A-1', 'B-2', 'C-3'].map(id => tools.orders.lookup({ id }))); \
                  return xs.map(x => x.status);";
    let mut execution = cm.execute_with(source, ExecuteOptions::new().run_id("p"));
    let s = suspended(rt.block_on(execution.result()));
    keys.lock().unwrap().clear();
    let mut runs = Vec::new();
    for _ in 0..2 {
        let result = rt.block_on(cm.resume(s.state.clone(), [("p:1".to_string(), Ok(json!({})))]).unwrap());
        assert_eq!(result.value, Some(json!(["complete", "open", "complete"])));
        runs.push(std::mem::take(&mut *keys.lock().unwrap()));
    }
    assert_eq!(runs[0], ["p:2 orders.lookup", "p:3 orders.lookup", "p:4 orders.lookup"]);
    assert_eq!(runs[0], runs[1]);
}

/// A state larger than `suspend_max_bytes` fails the suspend, and the run goes on.
#[test]
fn a_state_over_the_size_limit_fails_the_suspend_and_the_run_goes_on() {
    let rt = runtime();
    let cm = codemode::demo::builder().suspend_max_bytes(500).build().unwrap();
    let source = "const big = 'x'.repeat(10000); \
                  try { await tools.demo.approve({ action: 'a' }) } catch (e) { return [big.length, e.message] }";
    let mut execution = cm.execute(source);
    let result = finished(rt.block_on(execution.result()));
    let value = result.value.unwrap();
    assert_eq!(value[0], json!(10000));
    assert!(value[1].as_str().unwrap().contains("more than the 500 bytes allowed"), "{value}");
}

/// `attach` can suspend the run too (the work is waiting for a person); the pending call then
/// has its handle.
#[test]
fn attach_can_suspend_the_run_with_its_handle() {
    let rt = runtime();
    let review = Tool::durable(
        "Publish after a review",
        None,
        None,
        Durable::new(
            |_input: Value, ctx: codemode::CallContext| async move { Ok(json!({ "review": ctx.key })) },
            |_handle: Value, ctx: codemode::CallContext| async move {
                Err(ToolError::failure(ctx.suspend().await.message))
            },
        ),
    );
    let cm = || CodeMode::builder().tool("docs.publish", review.clone()).build().unwrap();
    let mut execution =
        cm().execute_with("return await tools.docs.publish()", ExecuteOptions::new().run_id("a"));
    let s = suspended(rt.block_on(execution.result()));
    assert_eq!(s.pending[0].handle, Some(json!({ "review": "a:1" })));
    let result = rt.block_on(cm().resume(s.state, [("a:1".to_string(), Ok(json!("published")))]).unwrap());
    assert_eq!(result.value, Some(json!("published")));
}

/// What a resume is given cannot do more than a live call could: an outcome that breaks a
/// validating tool's output schema fails the call as the handler's answer would, and the saved
/// limits are capped by the resuming runtime's (a run saved without a time limit that spins
/// once resumed is stopped by the host's).
#[test]
fn outcomes_are_checked_like_live_answers_and_a_state_cannot_raise_limits() {
    let output = json!({ "type": "object", "properties": { "approved": { "type": "boolean" } }, "required": ["approved"] });
    let review = Tool::durable(
        "Asks a person",
        None,
        Some(output),
        Durable::new(
            |_input: Value, ctx: codemode::CallContext| async move {
                let refusal = ctx.suspend().await;
                Err(ToolError::failure(refusal.message))
            },
            |_handle: Value, _ctx| async move { Err(ToolError::failure("no work to attach to")) },
        ),
    )
    .validate_output(true);
    let build = |limits: Limits| {
        CodeMode::builder().tool("review.ask", review.clone()).limits(limits).build().unwrap()
    };
    let source = "let r;\ntry { r = await tools.review.ask(); } catch (e) { return 'refused: ' + e.message; }\n\
                  if (r.spin) { for (;;) {} }\nreturn r.approved;";
    let rt = runtime();
    let mut execution = build(Limits::default()).execute_with(source, ExecuteOptions::new().run_id("v"));
    let s = suspended(rt.block_on(execution.result()));
    let bytes = s.state.to_bytes().unwrap();
    let key = s.pending[0].key.clone();
    let resume = |limits: Limits, outcome: Value| {
        let state = Snapshot::from_bytes(&bytes).unwrap();
        rt.block_on(build(limits).resume(state, [(key.clone(), Ok(outcome))]).unwrap())
    };
    let fine = resume(Limits::default(), json!({ "approved": true }));
    assert_eq!(fine.value, Some(json!(true)), "{fine:?}");
    let broken = resume(Limits::default(), json!({ "approved": "yes" }));
    let message = broken.value.as_ref().and_then(Value::as_str).unwrap_or_default().to_string();
    assert!(message.starts_with("refused: ") && message.contains("approved"), "{broken:?}");
    let spinning = resume(
        Limits::default().timeout(Duration::from_millis(300)),
        json!({ "approved": true, "spin": true }),
    );
    assert_eq!(spinning.error.map(|e| e.kind), Some(codemode::DiagnosticKind::TimeoutExceeded));
}

/// `write_to` and `read_from` are `to_bytes` and `from_bytes` as streams: the same bytes, the
/// same refusals (cut, trailing bytes), and a signed state checked from a seekable reader.
#[test]
fn snapshots_stream_to_writers_and_from_readers() {
    let rt = runtime();
    let mut execution = demo().execute_with(APPROVAL, ExecuteOptions::new().run_id("w"));
    let s = suspended(rt.block_on(execution.result()));
    let bytes = s.state.to_bytes().unwrap();
    let mut streamed = Vec::new();
    s.state.write_to(&mut streamed).unwrap();
    assert_eq!(streamed, bytes);
    let state = Snapshot::read_from(std::io::Cursor::new(&bytes)).unwrap();
    let result =
        rt.block_on(demo().resume(state, [("w:2".to_string(), Ok(json!({ "approved": true })))]).unwrap());
    assert_eq!(result.value, Some(json!({ "order": "A-1001", "refunded": true, "by": null })));
    for cut in [0, 9, bytes.len() / 2, bytes.len() - 1] {
        assert!(Snapshot::read_from(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    let trailing = Snapshot::read_from(longer.as_slice()).unwrap_err();
    assert!(trailing.to_string().contains("after the end"), "{trailing}");

    let key = b"host key";
    let mut signed = Vec::new();
    s.state.write_signed_to(&mut signed, key).unwrap();
    assert_eq!(signed, s.state.to_signed_bytes(key).unwrap());
    let state = Snapshot::read_signed_from(std::io::Cursor::new(&signed), key).unwrap();
    let result =
        rt.block_on(demo().resume(state, [("w:2".to_string(), Ok(json!({ "approved": false })))]).unwrap());
    assert_eq!(result.value, Some(json!({ "order": "A-1001", "refunded": false, "by": null })));
    for refused in [&bytes[..], &signed[..signed.len() - 1]] {
        let e = Snapshot::read_signed_from(std::io::Cursor::new(refused), key).unwrap_err();
        assert_eq!(e, SnapshotError::Unauthenticated);
    }
    let mut flipped = signed.clone();
    flipped[40] ^= 1;
    let e = Snapshot::read_signed_from(std::io::Cursor::new(&flipped), key).unwrap_err();
    assert_eq!(e, SnapshotError::Unauthenticated);
    assert_eq!(
        Snapshot::read_signed_from(std::io::Cursor::new(&signed), b"other key").unwrap_err(),
        SnapshotError::Unauthenticated
    );
}

#[allow(dead_code)] // shared with the suites that use all of it
mod isolated;

const SAVE_CASE: &str = "CODEMODE_DURABLE_SAVE_CASE";
/// The memory limit of the run the save and resume cases hold 96 MiB in.
const SAVE_LIMIT: usize = 128 << 20;

/// The child side of [`saving_and_resuming_a_large_run_stays_within_its_limit`]: `save:PATH`
/// runs a program holding 96 MiB of strings to its durable call and writes its state to PATH;
/// `resume:PATH` reads it back and finishes the run. Each prints its peak RSS.
#[test]
fn child_saves_or_resumes_a_large_run() {
    let Ok(case) = std::env::var(SAVE_CASE) else { return };
    let (what, path) = case.split_once(':').unwrap();
    let started = std::time::Instant::now();
    let rt = runtime();
    let limits = Limits::default().memory_limit(SAVE_LIMIT);
    let runtime = codemode::demo::builder().limits(limits).build().unwrap();
    let result = if what == "save" {
        let program = r#"
            const parts = [];
            for (let i = 0; i < 96; i++) parts.push(String(i).padEnd(1 << 20, "x"));
            const r = await tools.demo.approve({ action: "go" });
            return [parts.length, parts[95].length, r];
        "#;
        let mut execution = runtime.execute_with(program, ExecuteOptions::new().run_id("big"));
        let s = suspended(rt.block_on(execution.result()));
        drop(execution);
        let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        s.state.write_to(file).unwrap();
        json!({ "saved": std::fs::metadata(path).unwrap().len() })
    } else {
        let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
        let state = Snapshot::read_from(file).unwrap();
        let outcome = Ok(json!({ "approved": true }));
        let result = rt.block_on(runtime.resume(state, [("big:1".to_string(), outcome)]).unwrap());
        serde_json::to_value(&result).unwrap()
    };
    println!("ELAPSED_MS {}", started.elapsed().as_millis());
    println!("CPU_MS {}", isolated::cpu_time().as_millis());
    println!("PEAK_RSS {}", isolated::peak_rss_bytes());
    println!("RESULT {result}");
}

/// Saving a run that holds 96 MiB under a 128 MiB limit, and resuming it, each in a process of
/// its own, stays within the limit plus the allowance: the state is encoded as it is written
/// and decoded as it is read (whole byte buffers peaked at 3× the run's memory).
#[test]
fn saving_and_resuming_a_large_run_stays_within_its_limit() {
    // `CODEMODE_ROUNDTRIP=1` encodes the whole run into bytes after every slice, by design.
    if std::env::var(SAVE_CASE).is_ok() || std::env::var("CODEMODE_ROUNDTRIP").is_ok_and(|v| v == "1") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("codemode-durable-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.state");
    let path = path.to_str().unwrap();
    let bound = SAVE_LIMIT + isolated::RSS_ALLOWANCE;
    let saved =
        isolated::run_in_child("child_saves_or_resumes_a_large_run", SAVE_CASE, &format!("save:{path}"))
            .unwrap();
    assert!(saved.result["saved"].as_u64().unwrap() > 96 << 20, "{}", saved.result);
    assert!(saved.peak_rss <= bound, "saving peaked at {} MiB", saved.peak_rss >> 20);
    let resumed =
        isolated::run_in_child("child_saves_or_resumes_a_large_run", SAVE_CASE, &format!("resume:{path}"))
            .unwrap();
    assert_eq!(resumed.result["value"], json!([96, 1 << 20, { "approved": true }]), "{}", resumed.result);
    assert!(resumed.peak_rss <= bound, "resuming peaked at {} MiB", resumed.peak_rss >> 20);
    let _ = std::fs::remove_dir_all(&dir);
}
