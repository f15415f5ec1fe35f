//! Pillars 2 and 3 at the VM level: the sans-I/O protocol (run, take calls, complete by id) and
//! run state as plain data (serialize mid-run, restore in a fresh VM, finish there).

// Test setup fails loudly by design.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use codemode_vm::{HostCall, HostTarget, Status, Vm, VmConfig};
use serde_json::{Value, json};

fn vm(source: &str) -> Vm {
    let ir = codemode_syntax::compile_to_ir(source).expect("parses");
    let module = codemode_compiler::compile(&ir).expect("compiles");
    Vm::new(module, VmConfig::default()).expect("starts")
}

const PROGRAM: &str = r#"
    const [a, b] = await Promise.all([tools.x.get({ n: 1 }), tools.x.get({ n: 2 })]);
    const seen = [];
    for (const item of [a, b]) seen.push(item.n * 10);
    const c = await tools.x.get({ n: seen.reduce((s, v) => s + v, 0) });
    console.log("total", c.n);
    return { seen, c };
"#;

/// Completes a call the way a host tool would: echo the input.
fn answer(vm: &mut Vm, call: &HostCall) {
    assert_eq!(call.target, HostTarget::Tool("x.get".into()));
    assert!(vm.complete(call.id, Ok(call.input.clone())));
}

fn run_to_end(vm: &mut Vm) -> Value {
    loop {
        match vm.run(1_000_000) {
            Status::Done => return vm.result_json().expect("result"),
            Status::Waiting => {
                for call in vm.take_host_calls() {
                    answer(vm, &call);
                }
            }
            Status::OutOfFuel => {}
            Status::Threw => panic!("threw: {:?}", vm.error_report()),
        }
    }
}

#[test]
fn sans_io_protocol_numbers_calls_in_program_order() {
    let mut vm = vm(PROGRAM);
    assert_eq!(vm.run(1_000_000), Status::Waiting);
    let calls = vm.take_host_calls();
    assert_eq!(calls.iter().map(|c| c.id).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(calls[0].input, json!({ "n": 1 }));
    // Nothing can run until a completion arrives.
    assert_eq!(vm.run(1_000_000), Status::Waiting);
    // Completions in any order, by id; unknown ids are refused.
    assert!(!vm.complete(99, Ok(json!(null))));
    answer(&mut vm, &calls[1]);
    assert_eq!(vm.run(1_000_000), Status::Waiting);
    answer(&mut vm, &calls[0]);
    assert_eq!(vm.run(1_000_000), Status::Waiting);
    let third = vm.take_host_calls();
    assert_eq!(third.len(), 1);
    assert_eq!(third[0].id, 3);
    assert_eq!(third[0].input, json!({ "n": 30 }));
    answer(&mut vm, &third[0]);
    assert_eq!(vm.run(1_000_000), Status::Done);
    assert_eq!(vm.result_json().expect("result"), json!({ "seen": [10, 20], "c": { "n": 30 } }));
    assert_eq!(vm.logs(), ["total 30"]);
}

#[test]
fn state_roundtrips_through_serde_json_mid_run() {
    let expected = run_to_end(&mut vm(PROGRAM));

    let mut first = vm(PROGRAM);
    assert_eq!(first.run(1_000_000), Status::Waiting);
    let calls = first.take_host_calls();
    answer(&mut first, &calls[0]);
    // Serialize everything, drop the VM, restore into a fresh one.
    let bytes = serde_json::to_vec(&first).expect("serializes");
    drop(first);
    let mut restored: Vm = serde_json::from_slice(&bytes).expect("deserializes");
    answer(&mut restored, &calls[1]);
    assert_eq!(run_to_end(&mut restored), expected);
}

/// Runs `vm` in slices of 500 fuel to its end, passing it through `save_and_restore` after every
/// slice; returns how many slices ran out of fuel.
fn run_in_slices(vm: &mut Vm, save_and_restore: fn(&Vm) -> Vm) -> usize {
    let mut slices = 0;
    loop {
        match vm.run(500) {
            Status::OutOfFuel => slices += 1,
            Status::Done => return slices,
            other => panic!("unexpected {other:?}"),
        }
        *vm = save_and_restore(vm);
    }
}

#[test]
fn out_of_fuel_slices_resume_where_they_stopped() {
    let mut vm = vm("let s = 0; for (let i = 0; i < 10000; i++) { s += [i].map(x => x * 2)[0]; } return s;");
    // Snapshot in the middle of callbacks too: serialize and restore every slice.
    let slices = run_in_slices(&mut vm, |vm| {
        serde_json::from_slice(&serde_json::to_vec(vm).expect("serializes")).expect("deserializes")
    });
    assert!(slices > 10, "only {slices} slices");
    assert_eq!(vm.result_json().expect("result"), json!(99990000));
}

/// A loop of built-ins calling built-ins (each element's `toLocaleString`, `map(String)`) yields
/// when its slice's fuel is spent, and the value its built-in waits for is saved with the run:
/// every slice here goes through bytes into a fresh VM.
#[test]
fn a_chain_of_built_ins_yields_at_the_end_of_its_slice() {
    let source = "const t = new Uint8Array(20000).toLocaleString(); return [t.length, Array.from(t.slice(0, 9), String).map(Number)];";
    let mut vm = vm(source);
    let slices =
        run_in_slices(&mut vm, |vm| Vm::from_bytes(&vm.to_bytes().expect("saves")).expect("restores"));
    // 20,000 calls cost over 20,000 fuel: one slice each 500 would be about 40.
    assert!(slices > 30, "only {slices} slices: the chain did not yield");
    assert_eq!(vm.result_json().expect("result"), json!([39999, [0, null, 0, null, 0, null, 0, null, 0]]));
}

#[test]
fn random_and_clock_are_host_supplied_and_deterministic() {
    let source = "return [Math.random(), Math.random()];";
    let a = run_to_end(&mut vm(source));
    let b = run_to_end(&mut vm(source));
    assert_eq!(a, b);
    let config = VmConfig { random_seed: 7, ..VmConfig::default() };
    let ir = codemode_syntax::compile_to_ir(source).expect("parses");
    let module = codemode_compiler::compile(&ir).expect("compiles");
    let mut other = Vm::new(module, config).expect("starts");
    assert_ne!(run_to_end(&mut other), a);
}

/// A mid-run snapshot of `PROGRAM` as JSON (waiting on its first tool calls).
fn snapshot_json() -> Value {
    let mut vm = vm(PROGRAM);
    assert_eq!(vm.run(1_000_000), Status::Waiting);
    serde_json::to_value(&vm).expect("serializes")
}

fn restore(json: &Value) -> Result<Vm, String> {
    serde_json::from_value::<Vm>(json.clone()).map_err(|e| e.to_string())
}

/// Invariant: a VM restored from bytes is verified again; a bad snapshot is an error, never a
/// panic (format version, bytecode, built-in names, frames, heap ids).
#[test]
fn corrupt_snapshots_are_refused_not_run() {
    let good = snapshot_json();
    assert!(restore(&good).is_ok());

    let mut bad = good.clone();
    bad["format"] = json!(9999);
    assert!(restore(&bad).unwrap_err().contains("format"));

    let mut bad = good.clone();
    bad["module"]["functions"][0]["register_count"] = json!(0);
    assert!(restore(&bad).is_err(), "the module is verified again");

    let mut bad = good.clone();
    let text = bad.to_string().replacen("\"Array.prototype.map\"", "\"Array.prototype.nosuch\"", 1);
    bad = serde_json::from_str(&text).expect("json");
    assert!(restore(&bad).unwrap_err().contains("unknown built-in"));

    let mut running = vm("let s = 0; for (let i = 0; i < 1e6; i++) s += i; return s;");
    assert_eq!(running.run(1_000), Status::OutOfFuel);
    let running = serde_json::to_value(&running).expect("serializes");
    assert!(restore(&running).is_ok());
    let mut bad = running.clone();
    bad["stack"] = json!([]);
    assert!(restore(&bad).is_err(), "frames outside the stack");
    let mut bad = running.clone();
    bad["frames"][0]["Js"]["func"] = json!(77);
    assert!(restore(&bad).is_err(), "a frame of no function");

    let mut bad = good.clone();
    bad["main_promise"] = json!(4_000_000_000u32);
    assert!(restore(&bad).is_err(), "a dangling object id");

    let mut bad = good.clone();
    let stack = bad["stack"].as_array_mut().expect("stack");
    stack.push(json!({ "Obj": 3_999_999 }));
    assert!(restore(&bad).is_err(), "a dangling id in a register");

    // Whatever a truncation or a flipped byte does, decoding returns (Ok or Err) and a VM that
    // decodes runs without panicking.
    let bytes = serde_json::to_vec(&good).expect("bytes");
    for cut in (0..bytes.len()).step_by(bytes.len() / 50 + 1) {
        let _ = serde_json::from_slice::<Vm>(&bytes[..cut]);
    }
    let mut seed = 17u64;
    for _ in 0..200 {
        let mut mangled = bytes.clone();
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        let at = (seed >> 33) as usize % mangled.len();
        mangled[at] = b"0123456789,:[]{}\"-"[(seed >> 20) as usize % 18];
        if let Ok(mut vm) = serde_json::from_slice::<Vm>(&mangled) {
            for _ in 0..20 {
                let _ = vm.take_host_calls();
                if vm.run(10_000) != Status::OutOfFuel {
                    break;
                }
            }
        }
    }
}

/// Invariant: the fuel a program consumes does not depend on what the thread ran before (the
/// regex cache is charged whether it hits or misses).
#[test]
fn fuel_does_not_depend_on_what_the_thread_ran_before() {
    let source = r#"
        const words = "alpha beta gamma delta".split(/\s+/);
        return words.filter(w => /^[a-d]/.test(w)).map(w => w.replace(/a/g, "A"));
    "#;
    let spent = || {
        let mut vm = vm(source);
        assert_eq!(vm.run(10_000_000), Status::Done);
        10_000_000 - vm.fuel_left()
    };
    let first = spent();
    assert_eq!(spent(), first, "a warm regex cache must not make the second run cheaper");
}

/// A finished run's heap is reused by the next run (`Vm::recycle`): whatever the first run did
/// to the built-ins and globals, the next one starts from the pristine realm and spends the same
/// fuel as a run that had nothing before it.
#[test]
fn a_recycled_heap_starts_the_next_run_pristine() {
    let observe = r#"
        const keys = Object.getOwnPropertyNames(Math).length + Object.keys(globalThis).length;
        return [typeof Array.prototype.extra, ({}).polluted, typeof Math.max, typeof globalThis.g,
                typeof JSON.stringify, [3, 1, 2].sort().join(), keys, Object.isFrozen(Object)];
    "#;
    let spent = |source: &str| {
        let mut vm = vm(source);
        assert_eq!(vm.run(10_000_000), Status::Done);
        let fuel = 10_000_000 - vm.fuel_left();
        let result = vm.result_json().expect("result");
        vm.recycle();
        (result, fuel)
    };
    let before = spent(observe);
    let (_, _) = spent(
        r#"
        Array.prototype.extra = () => 1; Object.prototype.polluted = true; Math.max = null;
        globalThis.g = 5; delete JSON.stringify; Array.prototype.sort = () => "broken";
        for (let i = 0; i < 200; i++) Math["k" + i] = { i }; Object.freeze(Object);
        return 1;
    "#,
    );
    let after = spent(observe);
    assert_eq!(after, before);
    assert_eq!(
        before.0,
        json!(["undefined", null, "function", "undefined", "function", "1,2,3", before.0[6], false])
    );
}

/// The binary form round-trips mid-run and in every fuel slice, and holds only what the run
/// changed: a fresh run's state is a small fraction of the pristine realm's JSON.
#[test]
fn state_roundtrips_through_bytes_and_is_a_difference_from_the_pristine_realm() {
    let expected = run_to_end(&mut vm(PROGRAM));
    let mut first = vm(PROGRAM);
    assert_eq!(first.run(1_000_000), Status::Waiting);
    let calls = first.take_host_calls();
    answer(&mut first, &calls[0]);
    let bytes = first.to_bytes().expect("encodes");
    let json = serde_json::to_vec(&first).expect("json");
    eprintln!("snapshot: {} bytes; JSON: {} bytes", bytes.len(), json.len());
    assert!(bytes.len() * 20 < json.len(), "{} bytes vs {} bytes of JSON", bytes.len(), json.len());
    drop(first);
    let mut restored = Vm::from_bytes(&bytes).expect("decodes");
    answer(&mut restored, &calls[1]);
    assert_eq!(run_to_end(&mut restored), expected);

    let mut vm = vm(
        "const m = new Map(); let s = ''; for (let i = 0; i < 3000; i++) { m.set('k' + i, [i]); s += i; } \
                     Array.prototype.total = function () { return this.length; }; return [m.size, s.length, [1, 2].total()];",
    );
    loop {
        match vm.run(700) {
            Status::OutOfFuel => {}
            Status::Done => break,
            other => panic!("unexpected {other:?}"),
        }
        vm = Vm::from_bytes(&vm.to_bytes().expect("encodes")).expect("decodes");
    }
    assert_eq!(vm.result_json().expect("result"), json!([3000, 10890, 2]));
}

/// Invariant: bytes that are not this build's snapshot, truncated or mangled anywhere, decode to
/// an error or to a VM that runs; never a panic.
#[test]
fn corrupt_snapshot_bytes_are_refused_not_run() {
    let mut good = vm(PROGRAM);
    assert_eq!(good.run(1_000_000), Status::Waiting);
    let bytes = good.to_bytes().expect("encodes");
    assert!(Vm::from_bytes(&bytes).is_ok());
    assert!(Vm::from_bytes(b"not a snapshot at all").unwrap_err().contains("not a codemode snapshot"));
    let mut other_build = bytes.clone();
    other_build[12] ^= 1;
    assert!(Vm::from_bytes(&other_build).unwrap_err().contains("another build"));
    let mut trailing = bytes.clone();
    trailing.push(0);
    assert!(Vm::from_bytes(&trailing).is_err());
    for cut in 0..bytes.len() {
        assert!(Vm::from_bytes(&bytes[..cut]).is_err(), "a snapshot cut at {cut} decoded");
    }
    let mut seed = 99u64;
    for _ in 0..2_000 {
        let mut mangled = bytes.clone();
        for _ in 0..1 + (seed % 3) {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let at = 20 + (seed >> 33) as usize % (mangled.len() - 20);
            mangled[at] = (seed >> 13) as u8;
        }
        if let Ok(mut vm) = Vm::from_bytes(&mangled) {
            for _ in 0..20 {
                for call in vm.take_host_calls() {
                    let _ = vm.complete(call.id, Ok(json!({ "n": 1 })));
                }
                if !matches!(vm.run(10_000), Status::OutOfFuel | Status::Waiting) {
                    break;
                }
            }
            let _ = vm.result_json();
        }
    }
}

#[test]
fn a_vm_suspended_inside_generators_roundtrips_through_serde() {
    const GENERATORS: &str = r#"
        function* doubling() {
            let n = 1;
            try {
                while (true) {
                    const got = yield n;
                    n = got * 2;
                }
            } finally {
                console.log("closed");
            }
        }
        const it = doubling();
        let v = it.next().value;
        const out = [];
        for (let i = 0; i < 3; i++) {
            const r = await tools.x.get({ n: v });
            out.push(r.n);
            v = it.next(r.n).value;
        }
        it.return();
        function* squares(n) { for (let i = 0; i < n; i++) yield i * i; }
        let sum = 0;
        for (const s of squares(300)) sum += [...squares(3)].length + s;
        return { out, sum };
    "#;
    let expected = run_to_end(&mut vm(GENERATORS));
    assert_eq!(expected, json!({ "out": [1, 2, 4], "sum": 8_955_950 }));

    // Suspended at a tool call while `doubling` waits at its yield: restore and finish.
    let mut first = vm(GENERATORS);
    assert_eq!(first.run(1_000_000), Status::Waiting);
    let calls = first.take_host_calls();
    let bytes = serde_json::to_vec(&first).expect("serializes");
    drop(first);
    let mut restored: Vm = serde_json::from_slice(&bytes).expect("deserializes");
    answer(&mut restored, &calls[0]);
    assert_eq!(run_to_end(&mut restored), expected);
    assert_eq!(restored.logs(), ["closed"]);

    // Small fuel slices with a snapshot after each: generator frames running on the stack and
    // suspended in the heap survive every one.
    let mut vm = vm(GENERATORS);
    let mut slices = 0;
    loop {
        match vm.run(40) {
            Status::OutOfFuel => slices += 1,
            Status::Waiting => {
                for call in vm.take_host_calls() {
                    answer(&mut vm, &call);
                }
            }
            Status::Done => break,
            Status::Threw => panic!("threw: {:?}", vm.error_report()),
        }
        let bytes = serde_json::to_vec(&vm).expect("serializes");
        vm = serde_json::from_slice(&bytes).expect("deserializes");
    }
    assert!(slices > 10, "only {slices} slices");
    assert_eq!(vm.result_json().expect("result"), expected);
}

#[test]
fn a_vm_suspended_inside_an_async_generator_roundtrips_through_serde() {
    const ASYNC_GENERATORS: &str = r#"
        async function* fetched(ns) {
            try {
                for (const n of ns) yield (await tools.x.get({ n })).n * 2;
            } finally {
                console.log("done");
            }
        }
        const out = [];
        for await (const v of fetched([1, 2, 3])) out.push(v);
        const g = fetched([5, 6]);
        const both = await Promise.all([g.next(), g.next(), g.next()]);
        return { out, both: both.map(r => r.done ? "end" : r.value) };
    "#;
    let expected = run_to_end(&mut vm(ASYNC_GENERATORS));
    assert_eq!(expected, json!({ "out": [2, 4, 6], "both": [10, 12, "end"] }));

    // Snapshot at every tool call: the generator waits at an `await` inside its body, with
    // requests (and their promises) queued.
    let mut vm = vm(ASYNC_GENERATORS);
    loop {
        match vm.run(1_000_000) {
            Status::Done => break,
            Status::Waiting => {
                let calls = vm.take_host_calls();
                let bytes = serde_json::to_vec(&vm).expect("serializes");
                vm = serde_json::from_slice(&bytes).expect("deserializes");
                for call in calls {
                    answer(&mut vm, &call);
                }
            }
            Status::OutOfFuel => {}
            Status::Threw => panic!("threw: {:?}", vm.error_report()),
        }
    }
    assert_eq!(vm.result_json().expect("result"), expected);
    assert_eq!(vm.logs(), ["done", "done"]);
}

/// **Every intrinsic the realm names is a root.** A restored heap has no pristine base keeping
/// the intrinsics alive, and a program can delete every global that reaches them: a collection
/// then freed `Symbol.prototype` (and the weak collections' and disposable stacks' prototypes)
/// while the VM still used them, so after a resume `sym.toString` was not a function.
#[test]
fn intrinsics_survive_a_collection_after_restore_with_their_globals_deleted() {
    let mut vm = vm(r#"
        const sym = Object.getOwnPropertySymbols(Array.prototype)[0];
        for (const name of ["Symbol", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "DisposableStack", "AsyncDisposableStack"]) {
            delete globalThis[name];
        }
        await tools.x.get({ n: 1 });
        let junk = [];
        for (let i = 0; i < 200000; i++) { junk.push({ i, s: "x" + i }); if (junk.length > 20000) junk = []; }
        return [sym.toString(), sym.description, typeof sym.valueOf];
    "#);
    assert_eq!(vm.run(1_000_000), Status::Waiting);
    let calls = vm.take_host_calls();
    let mut vm = Vm::from_bytes(&vm.to_bytes().expect("saves")).expect("restores");
    for call in calls {
        answer(&mut vm, &call);
    }
    let value = run_to_end(&mut vm);
    assert_eq!(value, json!(["Symbol(Symbol.iterator)", "Symbol.iterator", "function"]));
}
