//! Fuzz target `run_source`: arbitrary bytes, read as UTF-8 (lossily), run as a program against the
//! demo tools with a 50 ms timeout and at most 10 tool calls. Whatever the input, `execute` must
//! return (never panic, never hang past its limit) a result that keeps the `ExecResult` contract.
//! The program then runs again directly on the VM under the metering oracle
//! (`codemode_fuzz::metered_run`): a slice that takes far longer than its fuel, or memory far past
//! what the heap accounts for, is reported.

#![no_main]

use std::time::Duration;

use codemode::{CodeMode, Limits};
use libfuzzer_sys::fuzz_target;

thread_local! {
    static TOKIO: Option<tokio::runtime::Runtime> =
        tokio::runtime::Builder::new_current_thread().enable_all().build().ok();
    static CODEMODE: Option<CodeMode> = codemode::demo::builder()
        .limits(Limits::default().timeout(Duration::from_millis(50)).max_tool_calls(10))
        .build()
        .ok();
}

fuzz_target!(|data: &[u8]| {
    codemode_fuzz::tolerate_caught_parser_panics();
    let source = String::from_utf8_lossy(data);
    TOKIO.with(|tokio| {
        CODEMODE.with(|codemode| {
            let (Some(tokio), Some(codemode)) = (tokio, codemode) else {
                panic!("the fuzz harness could not set up tokio or the demo runtime");
            };
            let result = tokio.block_on(codemode.execute(&source));
            // The ExecResult contract: a value exactly when ok, an error exactly when not, always JSON.
            assert_eq!(result.ok, result.value.is_some(), "ok iff value: {result:?}");
            assert_eq!(result.ok, result.error.is_none(), "error iff failed: {result:?}");
            if let Err(e) = serde_json::to_string(&result) {
                panic!("ExecResult does not serialize: {e}: {result:?}");
            }
            if let Some(module) = codemode_fuzz::compile(&source)
                && let Ok(mut vm) = codemode_vm::Vm::new(module, codemode_fuzz::config())
            {
                codemode_fuzz::metered_run(&mut vm);
            }
        });
    });
});
