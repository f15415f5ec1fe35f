//! The execution contract of the reference runtime, item by item (see `docs/contract.md`).

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use codemode::{CodeMode, DiagnosticKind, ExecResult, Limits};
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime")
}

fn run_with(rt: &CodeMode, source: &str) -> ExecResult {
    runtime().block_on(rt.execute(source))
}

fn run(source: &str, limits: Limits) -> ExecResult {
    let rt = codemode::demo::builder().limits(limits).build().expect("build");
    run_with(&rt, source)
}

// ---------------------------------------------------------------------------------------------
// 1. The output budget
// ---------------------------------------------------------------------------------------------

#[test]
fn an_oversized_value_becomes_a_string_with_a_marker() {
    let r = run(r#"return "y".repeat(1000000)"#, Limits::default().max_output_bytes(1000));
    assert!(r.ok, "{r:?}");
    assert!(r.truncated);
    let Some(Value::String(text)) = &r.value else { panic!("not a string: {r:?}") };
    assert!(text.len() <= 1000, "{} bytes", text.len());
    assert!(text.starts_with("\"yyyy"), "{text}");
    assert!(
        text.ends_with(
            " [result truncated: 1000002 bytes exceeds the 1000-byte output limit; return a smaller value]"
        ),
        "{text}"
    );
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["truncated"], json!(true));
}

#[test]
fn a_value_within_the_budget_is_untouched_and_not_marked() {
    let r = run(r#"return { a: [1, 2, 3], b: "é".repeat(10) }"#, Limits::default().max_output_bytes(100));
    assert_eq!(r.value, Some(json!({"a": [1, 2, 3], "b": "éééééééééé"})));
    assert!(!r.truncated);
    assert!(serde_json::to_value(&r).unwrap().get("truncated").is_none());
}

#[test]
fn the_value_prefix_is_cut_on_a_character_boundary() {
    let r = run(r#"return "é".repeat(5000)"#, Limits::default().max_output_bytes(300));
    let Some(Value::String(text)) = &r.value else { panic!("{r:?}") };
    assert!(text.len() <= 300 && text.contains("[result truncated: 10002 bytes"), "{text}");
}

#[test]
fn logs_get_what_the_value_left_and_end_with_a_marker() {
    let source = r#"
        for (let i = 0; i < 100000; i++) console.log("line " + i);
        return "0123456789"
    "#;
    let r = run(source, Limits::default().max_output_bytes(200));
    assert!(r.ok && r.truncated, "{r:?}");
    assert_eq!(r.value, Some(json!("0123456789")));
    let (marker, kept) = r.logs.split_last().expect("logs");
    let kept_bytes: usize = kept.iter().map(String::len).sum();
    assert!(kept_bytes + 12 <= 200, "{kept_bytes}");
    assert_eq!(kept.first().map(String::as_str), Some("line 0"));
    assert_eq!(marker, &format!("[logs truncated: showing {} of 100000 lines]", kept.len()));
}

#[test]
fn dropped_console_lines_are_not_kept_while_the_program_runs() {
    // 10,000 lines of 10 KB are 100 MB; an 8 MiB memory limit holds them only because lines past
    // the output budget are dropped as they are printed.
    let source = r#"
        const line = "x".repeat(10000);
        for (let i = 0; i < 10000; i++) console.log(line);
        return "done"
    "#;
    let r = run(source, Limits::default().max_output_bytes(50_000).memory_limit(8 << 20));
    assert_eq!(r.value, Some(json!("done")), "{:?}", r.error);
    assert_eq!(r.logs.len(), 5);
    assert_eq!(r.logs[4], "[logs truncated: showing 4 of 10000 lines]");
    // Without the budget, the same lines fill the memory limit.
    let r = run(source, Limits::default().memory_limit(8 << 20));
    assert!(!r.ok, "{:?}", r.value);
}

#[test]
fn truncation_never_fails_a_run_and_applies_to_failed_runs_too() {
    let source = r#"
        for (let i = 0; i < 1000; i++) console.log("before the failure " + i);
        throw new Error("boom")
    "#;
    let r = run(source, Limits::default().max_output_bytes(100));
    assert!(!r.ok);
    let error = r.error.as_ref().expect("error");
    assert_eq!(error.kind, DiagnosticKind::ExecutionFailure);
    assert!(r.truncated);
    // The error message counts against the budget as a value would; the logs get the rest.
    let kept = r.logs.len() - 1;
    let kept_bytes: usize = r.logs[..kept].iter().map(String::len).sum();
    assert!(kept > 0 && error.message.len() + kept_bytes <= 100, "{r:?}");
    assert_eq!(r.logs.last(), Some(&format!("[logs truncated: showing {kept} of 1000 lines]")));
}

#[test]
fn an_error_message_longer_than_the_budget_is_cut() {
    let r = run(r#"throw new Error("e".repeat(5000))"#, Limits::default().max_output_bytes(300));
    let message = &r.error.as_ref().expect("error").message;
    assert!(message.len() <= 300 && message.ends_with(" bytes]"), "{message}");
    assert!(message.starts_with("Error: eeee") && message.contains("[message truncated: "), "{message}");
    assert!(r.truncated);
}

#[test]
fn warnings_share_the_budget_and_end_with_a_truncated_warning() {
    let source = r#"
        for (let i = 0; i < 50; i++) Promise.reject(new Error("rejection number " + i));
        return "x".repeat(500)
    "#;
    let r = run(source, Limits::default().max_output_bytes(1000));
    assert!(r.ok && r.truncated, "{r:?}");
    let value = serde_json::to_string(r.value.as_ref().expect("value")).unwrap();
    let (last, kept) = r.warnings.split_last().expect("warnings");
    assert_eq!(last.kind, DiagnosticKind::Truncated);
    assert!(!kept.is_empty() && kept.len() < 50, "{}", kept.len());
    // One budget: the value's 502 bytes and the kept warnings together.
    assert!(value.len() + kept.iter().map(|w| w.message.len()).sum::<usize>() <= 1000);
    assert_eq!(last.message, format!("{} additional warnings omitted by the output limit.", 50 - kept.len()));
}

#[test]
fn tool_calls_past_the_budget_are_summarized_keeping_the_first_and_the_last() {
    let source = r#"
        await Promise.all(Array.from({ length: 3000 }, (_, i) => tools.demo.echo(i)));
        for (let i = 0; i < 3; i++) { try { await tools.demo.fail({ message: "no" }); } catch {} }
        return "done"
    "#;
    let r = run(source, Limits::default().max_output_bytes(500));
    assert!(r.ok && r.truncated, "{r:?}");
    let json = serde_json::to_value(&r).unwrap();
    let text = json.to_string();
    assert!(text.len() <= 1000, "{} bytes: {text}", text.len());
    let calls = json["toolCalls"].as_array().unwrap();
    assert!(calls.len() >= 2 && calls.len() < 20, "{}", calls.len());
    assert_eq!(calls[0]["id"], 1);
    assert_eq!(calls[calls.len() - 1]["id"], 3003);
    assert_eq!(
        json["toolCallSummary"],
        json!({
            "total": 3003,
            "shown": calls.len(),
            "byPath": [{ "path": "demo.echo", "ok": 3000 }, { "path": "demo.fail", "error": 3 }]
        })
    );
    // Within the budget the whole record stays, and there is no summary.
    let r = run("await tools.demo.echo(1); return 1", Limits::default().max_output_bytes(500));
    assert_eq!(r.tool_calls.len(), 1);
    assert!(r.tool_call_summary.is_none() && !r.truncated);
}

#[test]
fn without_a_budget_nothing_is_cut() {
    let r = run(r#"console.log("a"); return "y".repeat(100000)"#, Limits::default());
    assert_eq!(r.value.as_ref().and_then(Value::as_str).map(str::len), Some(100_000));
    assert_eq!(r.logs, ["a"]);
    assert!(!r.truncated);
}

// ---------------------------------------------------------------------------------------------
// 2. Invalid limits are typed build errors
// ---------------------------------------------------------------------------------------------

#[test]
fn every_invalid_limit_is_a_typed_build_error() {
    use codemode::{BuildError, LimitName, MIN_MEMORY_LIMIT};
    use std::time::Duration;
    let cases = [
        (Limits::default().timeout(Duration::ZERO), LimitName::Timeout, 0, 1),
        (Limits::default().timeout(Duration::from_micros(500)), LimitName::Timeout, 0, 1),
        (Limits::default().max_tool_calls(0), LimitName::MaxToolCalls, 0, 1),
        (Limits::default().max_output_bytes(0), LimitName::MaxOutputBytes, 0, 1),
        (Limits::default().memory_limit(1 << 20), LimitName::MemoryLimit, 1 << 20, MIN_MEMORY_LIMIT as u64),
        (Limits::default().max_call_depth(0), LimitName::MaxCallDepth, 0, 1),
        (Limits::default().max_source_bytes(0), LimitName::MaxSourceBytes, 0, 1),
    ];
    for (limits, name, value, minimum) in cases {
        let err = CodeMode::builder().limits(limits).build().err().expect("refused");
        assert_eq!(err, BuildError::InvalidLimit { limit: name, value, minimum });
        let text = err.to_string();
        assert!(text.starts_with(name.as_str()) && !text.contains("RangeError"), "{text}");
    }
    assert_eq!(
        CodeMode::builder().limits(Limits::default().max_tool_calls(0)).build().err().map(|e| e.to_string()),
        Some("max_tool_calls must be at least 1 (got 0)".into())
    );
    // The smallest valid values build.
    let smallest = Limits::default()
        .timeout(Duration::from_millis(1))
        .max_tool_calls(1)
        .max_output_bytes(1)
        .memory_limit(MIN_MEMORY_LIMIT)
        .max_call_depth(1);
    assert!(CodeMode::builder().limits(smallest).build().is_ok());
}

#[test]
fn an_invalid_tool_set_is_a_typed_build_error() {
    let tool = codemode::Tool::from_json("x", None, None, |_: Value, _ctx| async { Ok(json!(1)) });
    let err = CodeMode::builder().tool("a", tool.clone()).tool("a.b", tool).build().err().expect("refused");
    assert!(matches!(err, codemode::BuildError::Tools(_)), "{err:?}");
}

// ---------------------------------------------------------------------------------------------
// 3. Faithful failures and call shapes
// ---------------------------------------------------------------------------------------------

fn echo_tool() -> codemode::Tool {
    codemode::Tool::from_json("Echo", None, None, |input: Value, _ctx| async move { Ok(input) })
}

#[test]
fn a_cyclic_or_too_deep_tool_argument_is_invalid_tool_input() {
    let rt = CodeMode::builder().tool("echo", echo_tool()).build().unwrap();
    let r = run_with(&rt, "const a = {}; a.self = a; await tools.echo(a)");
    let e = r.error.expect("failed");
    assert_eq!(e.kind, DiagnosticKind::InvalidToolInput, "{e:?}");
    assert!(e.message.contains("Invalid input for tool 'echo'") && e.message.contains("circular"), "{e:?}");
    let r = run_with(&rt, "let d = 1; for (let i = 0; i < 40; i++) d = [d]; await tools.echo(d)");
    let e = r.error.expect("failed");
    assert_eq!(e.kind, DiagnosticKind::InvalidToolInput, "{e:?}");
    assert!(e.message.contains("maximum depth of 32"), "{e:?}");
    // The program can catch it like any failed call, and the tool was never called.
    let r =
        run_with(&rt, "const a = []; a.push(a); try { await tools.echo(a) } catch (e) { return e.message }");
    assert!(r.value.as_ref().and_then(Value::as_str).is_some_and(|m| m.contains("circular")), "{r:?}");
    assert!(r.tool_calls.is_empty());
}

#[test]
fn a_bigint_cannot_cross_the_json_boundary() {
    let rt = CodeMode::builder().tool("echo", echo_tool()).build().unwrap();
    // In a tool's arguments: a TypeError at the call naming the tool; the tool is not called.
    let r =
        run_with(&rt, "try { await tools.echo({ n: 1n }) } catch (e) { return e.name + ': ' + e.message }");
    let text = r.value.as_ref().and_then(Value::as_str).unwrap_or_default().to_string();
    assert!(text.starts_with("TypeError: Invalid input for tool 'echo'") && text.contains("BigInt"), "{r:?}");
    assert!(r.tool_calls.is_empty());
    // In the result: refused, saying how to convert it.
    let r = run_with(&rt, "return { big: 2n ** 70n }");
    let e = r.error.expect("failed");
    assert_eq!(e.kind, DiagnosticKind::InvalidDataValue, "{e:?}");
    assert!(e.message.contains("BigInt") && e.message.contains("String(x)"), "{e:?}");
    // Converted, it crosses.
    let r = run_with(&rt, "return String(2n ** 70n)");
    assert_eq!(r.value, Some(json!("1180591620717411303424")), "{r:?}");
}

fn panicking_tools() -> CodeMode {
    let in_future =
        codemode::Tool::from_json("Panics when awaited", None, None, |_: Value, _ctx| async move {
            if true {
                panic!("secret database password in a panic");
            }
            Ok(json!(1))
        });
    let in_call = codemode::Tool::from_json(
        "Panics when called",
        None,
        None,
        |_: Value,
         _ctx|
         -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<Value, codemode::ToolError>> + Send>,
        > { panic!("before any future exists") },
    );
    CodeMode::builder()
        .tool("boom.later", in_future)
        .tool("boom.now", in_call)
        .tool("echo", echo_tool())
        .build()
        .unwrap()
}

#[test]
fn a_panicking_tool_fails_its_call_and_the_program_can_catch_it() {
    let rt = panicking_tools();
    for path in ["boom.later", "boom.now"] {
        let source = format!(
            "let seen; try {{ await tools.{path}({{}}) }} catch (e) {{ seen = e.message }} \
             return [seen, await tools.echo(1)]"
        );
        // On a multi-threaded runtime too: the panic never reaches the host.
        let r = tokio::runtime::Runtime::new().unwrap().block_on(rt.execute(&source));
        assert_eq!(r.value, Some(json!(["The tool failed with an internal error.", 1])), "{path}: {r:?}");
        let call = &r.tool_calls[0];
        assert_eq!(call.status, codemode::CallStatus::Error);
        let failure = call.failure.as_ref().expect("private failure");
        assert_eq!(failure.kind, codemode::CallFailureKind::Panicked);
        assert!(failure.cause.as_deref().is_some_and(|c| c.contains("panicked")), "{failure:?}");
    }
    // Uncaught, it is a ToolFailure, and the private cause is not in what the model reads.
    let r = run_with(&rt, "await tools.boom.later()");
    assert_eq!(r.error.as_ref().map(|e| e.kind), Some(DiagnosticKind::ToolFailure));
    let text = serde_json::to_string(&r).unwrap();
    assert!(!text.contains("secret") && !text.contains("panicked"), "{text}");
    assert!(
        r.tool_calls[0]
            .failure
            .as_ref()
            .and_then(|f| f.cause.as_deref())
            .is_some_and(|c| c.contains("secret"))
    );
}

#[test]
fn the_host_sees_refused_apart_from_failed_and_private_causes() {
    let refuse = codemode::Tool::from_json("Refuses", None, None, |_: Value, _ctx| async move {
        Err::<Value, _>(codemode::ToolError::refused("not allowed for this user"))
    });
    let internal = codemode::Tool::from_json("Breaks", None, None, |_: Value, _ctx| async move {
        Err::<Value, _>(codemode::ToolError::internal(std::io::Error::other("disk /var/secret full")))
    });
    let rt = CodeMode::builder().tool("refuse", refuse).tool("internal", internal).build().unwrap();
    let r = run_with(
        &rt,
        "const out = []; for (const t of [tools.refuse, tools.internal, tools.nope]) { try { await t() } catch (e) { out.push(e.message) } } return out",
    );
    let v = r.value.clone().unwrap();
    assert_eq!(v[0], json!("not allowed for this user"));
    assert_eq!(v[1], json!("The tool failed with an internal error."));
    let kinds: Vec<_> = r.tool_calls.iter().map(|c| c.failure.as_ref().map(|f| f.kind)).collect();
    use codemode::CallFailureKind as K;
    assert_eq!(kinds, [Some(K::Refused), Some(K::Internal), Some(K::UnknownTool)]);
    assert_eq!(
        r.tool_calls[1].failure.as_ref().and_then(|f| f.cause.as_deref()),
        Some("disk /var/secret full")
    );
    assert!(!serde_json::to_string(&r).unwrap().contains("secret"));
}

#[test]
fn a_call_without_an_argument_sends_an_empty_object_to_an_object_tool() {
    let object_tool = codemode::Tool::from_json(
        "Takes an object",
        Some(json!({"type": "object", "properties": {"limit": {"type": "integer"}}})),
        None,
        |input: Value, _ctx| async move { Ok(input) },
    );
    let rt =
        CodeMode::builder().tool("takes.object", object_tool).tool("takes.any", echo_tool()).build().unwrap();
    let r = run_with(&rt, "return [await tools.takes.object(), await tools.takes.any()]");
    assert_eq!(r.value, Some(json!([{}, null])), "{r:?}");
}

#[test]
fn object_keys_of_tools_lists_the_namespaces_and_reads_are_stable() {
    let source = r#"
        return [
            Object.keys(tools),
            tools.orders === tools.orders,
            tools.orders.lookup === tools.orders.lookup,
            tools["demo"].echo === tools.demo["echo"],
            Object.keys(tools.orders),
            typeof tools,
        ]
    "#;
    let r = run(source, Limits::default());
    assert_eq!(
        r.value,
        Some(json!([["data", "demo", "orders"], true, true, true, ["lookup"], "object"])),
        "{r:?}"
    );
}

#[test]
fn search_is_usable_directly_awaited_or_chained() {
    let source = r#"
        const direct = search({ query: "order" }).items.length;
        const awaited = (await search({ query: "order" })).items.length;
        const chained = await search({ query: "order" }).then(r => r.items.map(i => i.path));
        const caught = await search({ query: "order" }).catch(() => "never").then(r => typeof r.items);
        let done = false;
        await search({ query: "order" }).finally(() => { done = true; });
        return [direct, awaited, chained, caught, done, Object.keys(search({}))]
    "#;
    let r = run(source, Limits::default());
    assert_eq!(
        r.value,
        Some(json!([1, 1, ["tools.orders.lookup"], "object", true, ["items", "remaining", "next"]])),
        "{r:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// 4. Per-run options, compiled programs, per-run randomness
// ---------------------------------------------------------------------------------------------

/// A tool that reports the key and the run's context (a user name) it was called with.
fn whoami_runtime() -> CodeMode {
    #[derive(Debug)]
    struct User(&'static str);
    let whoami = codemode::Tool::from_json(
        "Who calls",
        None,
        None,
        |_: Value, ctx: codemode::CallContext| async move {
            let user = ctx.context::<User>().map(|u| u.0);
            Ok(json!({ "key": ctx.key, "user": user }))
        },
    );
    let _ = User("unused");
    CodeMode::builder().tool("whoami", whoami).build().unwrap()
}

#[test]
fn the_host_sets_the_run_id_and_the_per_run_context() {
    #[derive(Debug)]
    struct User(&'static str);
    let whoami = codemode::Tool::from_json(
        "Who calls",
        None,
        None,
        |_: Value, ctx: codemode::CallContext| async move {
            Ok(json!({ "key": ctx.key, "user": ctx.context::<User>().map(|u| u.0) }))
        },
    );
    let rt = CodeMode::builder().tool("whoami", whoami).build().unwrap();
    let rt2 = rt.clone();
    let source = "return [await tools.whoami(), await tools.whoami()]";
    let (alice, bob) = runtime().block_on(async move {
        let alice = rt
            .execute_with(source, codemode::ExecuteOptions::new().run_id("session-a").context(User("alice")));
        let bob = rt2
            .execute_with(source, codemode::ExecuteOptions::new().run_id("session-b").context(User("bob")));
        tokio::join!(alice, bob)
    });
    assert_eq!(
        alice.value,
        Some(json!([{"key": "session-a:1", "user": "alice"}, {"key": "session-a:2", "user": "alice"}]))
    );
    assert_eq!(
        bob.value,
        Some(json!([{"key": "session-b:1", "user": "bob"}, {"key": "session-b:2", "user": "bob"}]))
    );
    assert_eq!(alice.run_id, "session-a");
    // Without a context, handlers see none.
    let r = run_with(&whoami_runtime(), "return (await tools.whoami()).user");
    assert_eq!(r.value, Some(json!(null)));
}

#[test]
fn generated_run_ids_are_unique_and_keys_use_them() {
    let rt = whoami_runtime();
    let ids: std::collections::HashSet<String> = (0..50).map(|_| run_with(&rt, "return 1").run_id).collect();
    assert_eq!(ids.len(), 50);
    assert!(ids.iter().all(|id| id.starts_with("run-")), "{ids:?}");
    let r = run_with(&rt, "return (await tools.whoami()).key");
    assert_eq!(r.value, Some(json!(format!("{}:1", r.run_id))));
}

#[test]
fn bindings_are_read_only_top_level_constants() {
    let rt = whoami_runtime();
    let options = || {
        codemode::ExecuteOptions::new()
            .binding("user", json!({"name": "ada", "roles": ["admin"]}))
            .binding("limit", json!(3))
    };
    let r = runtime()
        .block_on(rt.execute_with("return [user.name, user.roles[0], limit * 2, typeof user]", options()));
    assert_eq!(r.value, Some(json!(["ada", "admin", 6, "object"])), "{r:?}");
    // Assigning one fails; each run gets its own copy.
    let r = runtime().block_on(rt.execute_with("limit = 4", options()));
    assert!(!r.ok);
    let r = runtime().block_on(rt.execute_with("user.name = 'eve'; return user.name", options()));
    assert_eq!(r.value, Some(json!("eve")));
    let r = runtime().block_on(rt.execute_with("return user.name", options()));
    assert_eq!(r.value, Some(json!("ada")));
    // A binding may not shadow a global.
    for name in ["Math", "tools", "search"] {
        let r = runtime()
            .block_on(rt.execute_with("return 1", codemode::ExecuteOptions::new().binding(name, json!(1))));
        let e = r.error.expect("refused");
        assert!(e.message.contains(&format!("Invalid binding '{name}'")), "{e:?}");
    }
}

#[test]
fn a_program_compiles_once_and_runs_many_times() {
    let rt = codemode::demo::builder().build().unwrap();
    let program = rt.compile("const o = await tools.orders.lookup({ id: id }); return o.status").unwrap();
    for (id, status) in [("a1", "complete"), ("a2", "open"), ("a3", "complete")] {
        let r =
            runtime().block_on(rt.run(&program, codemode::ExecuteOptions::new().binding("id", json!(id))));
        assert_eq!(r.value, Some(json!(status)), "{r:?}");
    }
    let e = rt.compile("return (").expect_err("a parse error");
    assert_eq!(e.kind, DiagnosticKind::ParseError);
    assert!(e.location.is_some());
}

#[test]
fn math_random_is_seeded_per_run_and_the_host_may_fix_the_seed() {
    let rt = whoami_runtime();
    let source = "return [Math.random(), Math.random()]";
    let a = run_with(&rt, source).value;
    let b = run_with(&rt, source).value;
    assert_ne!(a, b, "two runs drew the same numbers");
    let fixed = || codemode::ExecuteOptions::new().random_seed(42);
    let c = runtime().block_on(rt.execute_with(source, fixed())).value;
    let d = runtime().block_on(rt.execute_with(source, fixed())).value;
    assert_eq!(c, d);
}

#[test]
fn the_host_can_cancel_a_run() {
    let rt = codemode::demo::builder().build().unwrap();
    let token = codemode::CancelToken::new();
    let options = codemode::ExecuteOptions::new().cancel(token.clone());
    let started = std::time::Instant::now();
    let r = runtime().block_on(async {
        let canceller = async {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            token.cancel();
        };
        let (r, ()) = tokio::join!(
            rt.execute_with("await tools.demo.sleep({ ms: 60000 }); return 1", options),
            canceller
        );
        r
    });
    assert_eq!(r.error.as_ref().map(|e| e.kind), Some(DiagnosticKind::Cancelled), "{r:?}");
    assert_eq!(r.tool_calls[0].status, codemode::CallStatus::Interrupted);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // A busy loop is cancelled between slices, by a task on the same thread too.
    let token = codemode::CancelToken::new();
    let options = codemode::ExecuteOptions::new().cancel(token.clone());
    let r = runtime().block_on(async {
        let canceller = async {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            token.cancel();
        };
        tokio::join!(rt.execute_with("while (true) {}", options), canceller).0
    });
    assert_eq!(r.error.as_ref().map(|e| e.kind), Some(DiagnosticKind::Cancelled), "{r:?}");
    // A token cancelled before the start stops the run at once.
    let token = codemode::CancelToken::new();
    token.cancel();
    let r =
        runtime().block_on(rt.execute_with("while (true) {}", codemode::ExecuteOptions::new().cancel(token)));
    assert_eq!(r.error.as_ref().map(|e| e.kind), Some(DiagnosticKind::Cancelled), "{r:?}");
}

// ---------------------------------------------------------------------------------------------
// 5. Hooks
// ---------------------------------------------------------------------------------------------

#[test]
fn before_hooks_see_the_call_and_can_deny_it() {
    use std::sync::{Arc, Mutex};
    let seen: Arc<Mutex<Vec<(String, Value, String)>>> = Arc::default();
    let called = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = called.clone();
    let delete = codemode::Tool::from_json("Deletes", None, None, move |_: Value, _ctx| {
        count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        async move { Ok(json!("deleted")) }
    });
    let log = seen.clone();
    let rt = codemode::demo::builder()
        .tool("admin.delete", delete)
        .before_call(move |call: codemode::CallStart| {
            log.lock().unwrap().push((call.name.clone(), call.input.clone(), call.key.clone()));
            async move {
                // An async hook: it may wait (ask a person) before deciding.
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                if call.name.starts_with("admin.") {
                    Err(codemode::Deny::new(format!("{} needs approval", call.name)))
                } else {
                    Ok(())
                }
            }
        })
        .build()
        .unwrap();
    let source = r#"
        const order = await tools.orders.lookup({ id: "a2" });
        let denied;
        try { await tools.admin.delete({ id: "a2" }); } catch (e) { denied = e.message; }
        return [order.status, denied]
    "#;
    let r = runtime().block_on(rt.execute_with(source, codemode::ExecuteOptions::new().run_id("r7")));
    assert_eq!(r.value, Some(json!(["open", "admin.delete needs approval"])), "{r:?}");
    assert_eq!(called.load(std::sync::atomic::Ordering::SeqCst), 0, "a denied call never reaches the tool");
    assert_eq!(
        *seen.lock().unwrap(),
        [
            ("orders.lookup".to_string(), json!({"id": "a2"}), "r7:1".to_string()),
            ("admin.delete".to_string(), json!({"id": "a2"}), "r7:2".to_string()),
        ]
    );
    let failure = r.tool_calls[1].failure.as_ref().unwrap();
    assert_eq!(failure.kind, codemode::CallFailureKind::Denied);
    // Uncaught, a denial is a ToolFailure.
    let r = run_with(&rt, r#"await tools.admin.delete({})"#);
    assert_eq!(r.error.map(|e| e.kind), Some(DiagnosticKind::ToolFailure));
}

#[test]
fn hooks_see_search_calls_and_a_denied_search_throws() {
    let rt = codemode::demo::builder()
        .before_call(|call: codemode::CallStart| async move {
            match call.kind {
                codemode::CallKind::Search if call.input["query"] == json!("secret") => {
                    Err(codemode::Deny::new("no searching for that"))
                }
                _ => Ok(()),
            }
        })
        .build()
        .unwrap();
    let source = r#"
        const found = search({ query: "order" }).items.length;
        try { search({ query: "secret" }); return "not denied"; } catch (e) { return [found, e.message]; }
    "#;
    let r = run_with(&rt, source);
    assert_eq!(r.value, Some(json!([1, "no searching for that"])), "{r:?}");
}

#[test]
fn after_hooks_see_outcomes_and_durations_and_cannot_fail_the_run() {
    use codemode::CallOutcome;
    use std::sync::{Arc, Mutex};
    let ends: Arc<Mutex<Vec<codemode::CallEnd>>> = Arc::default();
    let sink = ends.clone();
    let rt = codemode::demo::builder()
        .after_call(move |end: codemode::CallEnd| {
            sink.lock().unwrap().push(end);
            async move { panic!("an after hook that breaks changes nothing") }
        })
        .build()
        .unwrap();
    let source = r#"
        await tools.demo.sleep({ ms: 30, value: "slept" });
        try { await tools.demo.fail({ message: "nope" }) } catch {}
        search({ query: "x" });
        tools.demo.sleep({ ms: 60000 });  // still running when the program returns
        return "done"
    "#;
    let r = run_with(&rt, source);
    assert_eq!(r.value, Some(json!("done")), "{r:?}");
    let ends = ends.lock().unwrap();
    let outcomes: Vec<(&str, &CallOutcome)> = ends.iter().map(|e| (e.name.as_str(), &e.outcome)).collect();
    assert_eq!(outcomes.len(), 4, "{ends:?}");
    assert_eq!(outcomes[0], ("demo.sleep", &CallOutcome::Value(json!("slept"))));
    assert!(ends[0].duration >= std::time::Duration::from_millis(30));
    assert!(
        matches!(outcomes[1], ("demo.fail", CallOutcome::Error { kind: codemode::CallFailureKind::Failed, message }) if message == "nope")
    );
    assert!(matches!(outcomes[2], ("search", CallOutcome::Value(_))));
    assert_eq!(outcomes[3], ("demo.sleep", &CallOutcome::Interrupted));
}

/// The README's Rust quick start, as written there.
#[test]
fn readme_quick_start() {
    use codemode::{CallStart, Deny};
    use std::time::Duration;
    let runtime = codemode::demo::builder()
        .limits(
            Limits::default().timeout(Duration::from_secs(5)).max_tool_calls(100).max_output_bytes(64 * 1024),
        )
        .before_call(|call: CallStart| async move {
            if call.name == "demo.fail" { Err(Deny::new("demo.fail is not allowed here")) } else { Ok(()) }
        })
        .after_call(|end| async move { eprintln!("{} {:?} in {:?}", end.key, end.outcome, end.duration) })
        .build()
        .expect("valid configuration");
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio");
    let result = tokio.block_on(runtime.execute(
        r#"
        const order = await tools.orders.lookup({ id: "order_42" });
        return { id: order.id, needsAttention: order.status !== "complete" };
    "#,
    ));
    assert_eq!(
        serde_json::to_string(&result).unwrap(),
        r#"{"ok":true,"value":{"id":"order_42","needsAttention":true},"toolCalls":[{"id":1,"path":"orders.lookup","status":"ok"}]}"#
    );
    let denied =
        tokio.block_on(runtime.execute("try { await tools.demo.fail({}) } catch (e) { return e.message }"));
    assert_eq!(denied.value, Some(json!("demo.fail is not allowed here")));
}

// ---------------------------------------------------------------------------------------------
// 6. Cleanup after the program returns
// ---------------------------------------------------------------------------------------------

#[test]
fn work_left_running_is_given_until_the_timeout() {
    use std::time::{Duration, Instant};
    // Generous limits: a loaded machine must not turn these into timeouts before the return.
    let limits = || Limits::default().timeout(Duration::from_millis(3000));
    // Finishes in time: the call completes, no warning.
    let started = Instant::now();
    let r = run(r#"tools.demo.sleep({ ms: 50, value: 1 }); return "done""#, limits());
    assert_eq!(r.value, Some(json!("done")), "{r:?}");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.tool_calls[0].status, codemode::CallStatus::Ok);
    assert!(started.elapsed() >= Duration::from_millis(50));
    // A late failure nobody handles is an unhandled-rejection warning.
    let r = run(r#"tools.demo.fail({ message: "late" }); return "done""#, limits());
    assert_eq!(r.value, Some(json!("done")));
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(r.warnings[0].message.contains("late"), "{:?}", r.warnings);
    // Does not finish in time: the result stays successful, with a TimeoutExceeded warning.
    let started = Instant::now();
    let r = run(
        r#"tools.demo.sleep({ ms: 60000 }); return "done""#,
        Limits::default().timeout(Duration::from_millis(1000)),
    );
    assert!(r.ok, "{r:?}");
    assert_eq!(r.value, Some(json!("done")));
    let w = r.warnings.last().expect("a warning");
    assert_eq!(w.kind, DiagnosticKind::TimeoutExceeded);
    assert!(w.message.starts_with("Execution timed out after 1000ms"), "{}", w.message);
    assert_eq!(r.tool_calls[0].status, codemode::CallStatus::Interrupted);
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(990) && took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn without_a_time_limit_work_left_running_is_interrupted_at_once() {
    let started = std::time::Instant::now();
    let r = run(r#"tools.demo.sleep({ ms: 60000 }); return "done""#, Limits::default());
    assert_eq!(r.value, Some(json!("done")));
    assert!(r.warnings.is_empty());
    assert_eq!(r.tool_calls[0].status, codemode::CallStatus::Interrupted);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn the_program_side_root_follows_the_configured_name() {
    let rt = codemode::demo::builder().root_name("api").build().unwrap();
    let r = run_with(
        &rt,
        r#"return [(await api.orders.lookup({ id: "a2" })).status, api === tools, Object.keys(api)]"#,
    );
    assert_eq!(r.value, Some(json!(["open", true, ["data", "demo", "orders"]])), "{r:?}");
    let declarations = rt.tools().declarations(&rt.declaration_options());
    assert!(declarations.contains("declare const api"), "{declarations}");
    for bad in ["Math", "search", "not an identifier", ""] {
        let err = codemode::demo::builder().root_name(bad).build().err().expect("refused");
        assert_eq!(err, codemode::BuildError::InvalidRootName { name: bad.into() });
    }
}

// ---------------------------------------------------------------------------------------------
// Tool calls that end at once and calls that wait
// ---------------------------------------------------------------------------------------------

/// A handler's future is polled once when the call is made: one that is ready ends there, one
/// that waits goes on in a task. A future that waits several times (re-registering its waker
/// each time) must still be woken and finish, and results must reach the right promises
/// whatever order the calls end in.
#[test]
fn calls_that_end_at_once_and_calls_that_wait_all_reach_their_promises() {
    let slow = codemode::Tool::from_json("Slow", None, None, |input: Value, _ctx| async move {
        let n = input["n"].as_u64().unwrap_or(0);
        for _ in 0..n {
            tokio::task::yield_now().await;
        }
        Ok(json!({ "n": n }))
    });
    // A lost wake-up would leave the run waiting: the timeout turns that into a failure.
    let limits = Limits::default().timeout(std::time::Duration::from_secs(10));
    let rt = CodeMode::builder().tool("echo", echo_tool()).tool("slow", slow).limits(limits).build().unwrap();
    let source = r#"
        const calls = [];
        for (let i = 0; i < 30; i++) {
            calls.push(i % 3 === 0 ? tools.slow({ n: (i * 7) % 5 }) : tools.echo({ i }));
        }
        const all = await Promise.all(calls);
        return all.map((r, i) => (i % 3 === 0 ? r.n === (i * 7) % 5 : r.i === i)).every(Boolean);
    "#;
    for runtime in [runtime(), tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap()] {
        let result = runtime.block_on(rt.execute(source));
        assert!(result.ok, "{:?}", result.error);
        assert_eq!(result.value, Some(json!(true)));
        assert_eq!(result.tool_calls.len(), 30);
        assert!(result.tool_calls.iter().all(|c| c.status == codemode::CallStatus::Ok));
    }
}

/// What a tool receives is what `JSON.stringify` gives for the argument, whichever way the VM
/// converts it (plain data objects take a shortcut; index-like keys, hidden, read-only and
/// symbol-keyed properties and arrays the general path; getters, `toJSON` methods and proxies
/// the resumable walk, which runs them).
#[test]
fn a_tool_receives_what_json_stringify_gives() {
    let rt = CodeMode::builder().tool("echo", echo_tool()).build().unwrap();
    let source = r#"
        const hidden = { a: 1 };
        Object.defineProperty(hidden, "h", { value: 2, enumerable: false });
        const args = [
            { b: 1, a: "two", c: null, d: [1, { e: true }], u: undefined, f() {} },
            { z: 1, 2: "two", 1: "one", y: 2 },
            hidden,
            Object.freeze({ p: 1, q: { r: 2 } }),
            { [Symbol("s")]: 1, t: 2 },
            Object.assign(Object.create({ inherited: 1 }), { own: 2 }),
            // JavaScript runs to convert these: getters, toJSON methods, proxies.
            { get g() { return { deep: [1, 2] }; }, after: 3 },
            { o: { toJSON(key) { return "toJSON of " + key; } }, d: new Date(0) },
            new Proxy({ a: 1, b: 2 }, { get: (t, k) => (k === "a" ? 42 : t[k]) }),
            [1, { get y() { return "got"; } }, { toJSON() { return undefined; } }],
            Object.assign(Object.create({ toJSON() { return { inherited: "toJSON" }; } }), { x: 1 }),
        ];
        const out = [];
        for (const a of args) {
            const got = await tools.echo(a);
            out.push(JSON.stringify(got) === JSON.stringify(a) ? "same" : JSON.stringify(got));
        }
        return out;
    "#;
    let result = runtime().block_on(rt.execute(source));
    assert!(result.ok, "{:?}", result.error);
    assert_eq!(result.value, Some(json!(vec!["same"; 11])));
}

/// On a multi-thread runtime a handler that blocks before its first `.await` (which it should
/// not) runs in its own task, so the run still ends at its deadline rather than when the handler
/// returns.
#[test]
fn a_blocking_handler_does_not_hold_up_the_deadline_on_a_multi_thread_runtime() {
    let blocking = codemode::Tool::from_json("Blocks", None, None, |_: Value, _ctx| async move {
        std::thread::sleep(std::time::Duration::from_secs(3));
        Ok(json!(1))
    });
    let limits = Limits::default().timeout(std::time::Duration::from_millis(200));
    let rt = CodeMode::builder().tool("blocks", blocking).limits(limits).build().unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let started = std::time::Instant::now();
    let result = runtime.block_on(rt.execute("return await tools.blocks({});"));
    assert!(!result.ok);
    assert_eq!(result.error.map(|d| d.kind), Some(DiagnosticKind::TimeoutExceeded));
    assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    runtime.shutdown_background();
}

/// A program longer than `Limits::max_source_bytes` is refused before it is parsed, with a
/// diagnostic that says what to do, whether it is run or compiled; one at the limit runs.
#[test]
fn a_program_longer_than_the_source_limit_is_refused_before_it_is_parsed() {
    let rt = codemode::demo::builder().limits(Limits::default().max_source_bytes(64)).build().unwrap();
    let fits = format!("return {:<57}", "1;");
    assert_eq!(fits.len(), 64);
    let too_long = format!("{fits} ");
    let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    assert_eq!(tokio.block_on(rt.execute(&fits)).value, Some(serde_json::json!(1)));
    let refused = tokio.block_on(rt.execute(&too_long));
    let error = refused.error.expect("refused");
    assert_eq!(error.kind, codemode::DiagnosticKind::ParseError);
    assert!(
        error.message.contains("65 bytes, more than the 64 bytes")
            && error.message.contains("max_source_bytes")
    );
    let compiled = rt.compile(&too_long).expect_err("refused by compile too");
    assert_eq!(compiled.message, error.message);
    assert_eq!(codemode::DEFAULT_MAX_SOURCE_BYTES, Limits::default().max_source_bytes);
}
