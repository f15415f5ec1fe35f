//! Fuzz target `restore_snapshot`: a VM decoded from arbitrary bytes. Input starting with `{` is
//! decoded as it is; other input mutates a real mid-run snapshot (pairs of position and byte), so
//! most inputs are nearly valid. Decoding must return an error or a VM, and a VM that decodes
//! must run (metered, see `codemode_fuzz::metered_run`) without panicking.

#![no_main]

use codemode_vm::{Status, Vm};
use libfuzzer_sys::fuzz_target;

const PROGRAM: &str = r#"
    const seen = new Map([["a", 1]]);
    const [x, y] = await Promise.all([tools.t.get({ n: 1 }), tools.t.get({ n: 2 })]);
    for (const k of [1, 2, 3]) seen.set("k" + k, [x, y].map(v => v.n * k));
    return [...seen.entries()];
"#;

thread_local! {
    static SNAPSHOT: Vec<u8> = {
        let module = codemode_fuzz::compile(PROGRAM).unwrap_or_else(|| panic!("the seed program compiles"));
        let mut vm = Vm::new(module, codemode_fuzz::config()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(vm.run(1_000_000), Status::Waiting);
        serde_json::to_vec(&vm).unwrap_or_default()
    };
}

fuzz_target!(|data: &[u8]| {
    let bytes = if data.first() == Some(&b'{') {
        data.to_vec()
    } else {
        SNAPSHOT.with(|s| codemode_fuzz::mutate(s, data))
    };
    if let Ok(mut vm) = serde_json::from_slice::<Vm>(&bytes) {
        codemode_fuzz::metered_run(&mut vm);
        let _ = vm.result_json();
    }
});
