//! `codemode-vm`: the sans-I/O, stackless register machine.
//!
//! The VM never awaits, sleeps, spawns or reads a clock. [`Vm::run`] executes until it cannot go on
//! and says why ([`Status`]): the program finished, threw, ran out of this slice's fuel, or waits
//! on host calls. The host takes the calls with [`Vm::take_host_calls`], performs them however it
//! likes, feeds outcomes back with [`Vm::complete`] by call id, and runs the VM again.
//!
//! Module map:
//! - `value`, `heap`, `object`: the data model (everything addressed by index, all `serde`);
//! - `interp`: the instruction loop; `call`: calls, returns, throws and unwinding over the frame
//!   stack; `props`: property lookup and assignment; `convert`: JavaScript's type conversions and
//!   operators; `numconv`: number formatting and parsing;
//! - `promise`, `jobs`: promises, reactions, the microtask queue, `await`;
//! - `host`: host calls and the JSON boundary; `gc`: mark-and-sweep;
//! - `builtins`: the global environment and every built-in function.

// `to_number`, `to_json`, ... convert *values* and need the VM mutably (they allocate and can
// throw); the naming convention lint is about converting `self`.
#![allow(clippy::wrong_self_convention)]

mod absent;
mod arena;
mod async_generator;
mod bigint;
mod bindings;
mod builtins;
mod call;
mod class;
mod convert;
mod frame;
mod gc;
mod generator;
mod heap;
mod host;
mod interp;
mod interp_cold;
mod iter;
mod jobs;
mod meter;
mod method_cache;
pub mod numconv;
mod object;
mod output;
mod promise;
mod props;
mod proxy;
mod proxy_check;
mod proxy_keys;
mod proxy_ops;
mod realm;
mod replay;
mod restore;
mod result_note;
mod snapshot;
mod stack_trace;
mod to_primitive;
mod toolroot;
mod user_iter;
mod value;

use std::collections::VecDeque;

use codemode_bytecode::{Module, VerifiedModule};
use serde::{Deserialize, Serialize};

pub use host::{
    FailureKind, HostCall, HostError, HostFunctionRef, HostTarget, MAX_BOUNDARY_DEPTH, builtin_global_names,
};
pub use output::{LogTally, MAX_LOG_LINES};
pub use snapshot::build_fingerprint;

/// One entry of the built-in table, by its stable name: `owner` is where a program finds it
/// (`Array.prototype`, `Math`, `""` for a global function, `#internal` for helpers no program
/// can name), `name` its property (`get size` / `set x` for accessors, `@@iterator` for a
/// well-known symbol). For tools that cover the whole table (the resource sweep).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinEntry {
    pub owner: &'static str,
    pub name: &'static str,
    pub arity: u8,
    pub constructor: bool,
}

/// Every built-in of the table, in table order.
pub fn builtin_entries() -> impl Iterator<Item = BuiltinEntry> {
    builtins::table().iter().map(|d| BuiltinEntry {
        owner: d.owner,
        name: d.name,
        arity: d.arity,
        constructor: d.construct.is_some(),
    })
}
pub use builtins::time_zone::LocalZone;
pub use toolroot::ToolPaths;
pub use value::Value;
pub use value::json_text;

use frame::Frame;
use heap::Heap;
use promise::Job;
use realm::Realm;
use value::ObjId;

/// The global environment (intrinsics and every built-in installed), built once per process;
/// each run starts from a copy, which is much cheaper than installing the built-ins again.
/// Heaps of finished runs ([`Vm::recycle`]), reset to the pristine heap, for the next [`Vm::new`]:
/// copying the pristine heap allocates every built-in's property map, and dropping a run's heap
/// frees them all, about half of a short program's cost; and a run that outgrows the pristine
/// arenas would grow them again (copying them and faulting in fresh pages). At most
/// [`SPARE_HEAPS_MAX`] are kept, each already reset and trimmed ([`Vm::recycle`]).
static SPARE_HEAPS: std::sync::Mutex<Vec<Heap>> = std::sync::Mutex::new(Vec::new());
const SPARE_HEAPS_MAX: usize = 2;

fn pristine() -> Option<&'static (Heap, Realm)> {
    static PRISTINE: std::sync::LazyLock<Option<(Heap, Realm)>> = std::sync::LazyLock::new(|| {
        let mut heap = Heap::new(usize::MAX);
        let realm = Realm::new(&mut heap).ok()?;
        // The built-ins are installed without running any code: an empty module stands in.
        let module = VerifiedModule::new(Module { functions: vec![empty_function()] }).ok()?;
        let mut vm = Vm::bare(module, VmConfig::default(), heap, realm);
        builtins::install(&mut vm).ok()?;
        vm.heap.atoms.reserve_for_runs();
        vm.heap.settle_pristine();
        Some((vm.heap, vm.realm))
    });
    PRISTINE.as_ref()
}

/// A function that returns at once: the module of the pristine realm, which runs no code.
fn empty_function() -> codemode_bytecode::FunctionCode {
    codemode_bytecode::FunctionCode {
        name: None,
        param_count: 0,
        rest: None,
        arguments: None,
        register_count: 1,
        is_async: false,
        is_generator: false,
        is_arrow: false,
        class_kind: codemode_bytecode::ClassKind::None,
        length: 0,
        code: vec![codemode_bytecode::Op::LoadUndef { dst: 0 }, codemode_bytecode::Op::Return { src: 0 }],
        constants: Vec::new(),
        handlers: Vec::new(),
        captures: Vec::new(),
        lines: Vec::new(),
        callee_names: Vec::new(),
        span: codemode_bytecode::Span::default(),
    }
}

/// Limits and host-supplied inputs fixed when a run starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VmConfig {
    /// Bytes the heap may hold.
    pub memory_limit: usize,
    /// Seed for `Math.random`.
    pub random_seed: u64,
    /// What `Date.now()` returns (milliseconds since the epoch), supplied by the host.
    pub now_ms: f64,
    /// Maximum nested calls before `RangeError: Maximum call stack size exceeded`.
    pub max_call_depth: usize,
    /// Bytes of console output kept (`None`: unlimited); later lines are dropped and counted.
    #[serde(default)]
    pub max_log_bytes: Option<usize>,
    /// The run's local time zone: `Date`'s local-time methods (`getHours`, `toString`, `new
    /// Date(y, m, d)`) and `Intl`'s default zone. UTC by default.
    #[serde(default)]
    pub time_zone: LocalZone,
}

impl Default for VmConfig {
    fn default() -> Self {
        VmConfig {
            memory_limit: 256 << 20,
            random_seed: 0x5eed,
            now_ms: 0.0,
            max_call_depth: 10_000,
            max_log_bytes: None,
            time_zone: LocalZone::default(),
        }
    }
}

/// Why [`Vm::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// The program returned; see [`Vm::result_json`].
    Done,
    /// The program threw; see [`Vm::error_report`].
    Threw,
    /// This slice's fuel ran out; run again to continue.
    OutOfFuel,
    /// Nothing can run until a host call completes; see [`Vm::take_host_calls`].
    Waiting,
}

/// A JavaScript error as the host reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorReport {
    pub kind: FailureKind,
    /// `TypeError: x is not a function`, `Uncaught: "text"`, ...
    pub message: String,
    /// 1-based line and column where it was thrown, when known.
    pub location: Option<(u32, u32)>,
}

/// The whole run state: plain data, serializable with serde. Decoding checks the state (see
/// `restore.rs`): a bad snapshot is an error, never a panic.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "restore::SavedVm")]
pub struct Vm {
    /// [`codemode_bytecode::FORMAT_VERSION`] of the build that made this state.
    pub(crate) format: u32,
    /// Immutable compiled code, shared by every run of the same program; verified (also when
    /// decoded from a snapshot).
    pub(crate) module: VerifiedModule,
    pub(crate) config: VmConfig,
    pub(crate) heap: Heap,
    pub(crate) realm: Realm,
    /// All registers of all JavaScript activations, each frame a window.
    pub(crate) stack: Vec<Value>,
    /// Register stack capacity (slots) charged to the memory limit (see `grow_stack`): the
    /// stack never grows past it without a charge.
    #[serde(skip)]
    pub(crate) stack_charged: usize,
    pub(crate) frames: Vec<Frame>,
    /// Frames the interpreter may push without a check: the smaller of `max_call_depth` and
    /// the frame capacity charged to the memory limit (see `Vm::check_call_depth`).
    #[serde(skip)]
    pub(crate) frame_room: usize,
    pub(crate) jobs: VecDeque<Job>,
    /// The promise of the top-level script.
    pub(crate) main_promise: ObjId,
    pub(crate) host: host::HostState,
    pub(crate) fuel: i64,
    pub(crate) rng: u64,
    pub(crate) logs: Vec<String>,
    /// Console output dropped by the log budget.
    pub(crate) log_tally: output::LogTally,
    /// `console.group` depth, `count` counters and `time` starts.
    pub(crate) console: output::ConsoleState,
    /// Rejected promises without handlers, in rejection order (checked again at the end).
    pub(crate) rejected_unhandled: Vec<ObjId>,
    /// Where the last uncaught throw happened.
    pub(crate) throw_location: Option<(u32, u32)>,
    pub(crate) finished: Option<Status>,
    /// The value the top frame (a built-in's) waits for, held over the end of a slice: a chain
    /// of built-ins calling built-ins yields when its fuel is spent (`Vm::deliver_yielding`),
    /// and the next `run` resumes it first.
    pub(crate) parked: Option<Value>,
    /// The program's result as JSON, produced (calling `toJSON` methods) when the top-level
    /// script returns.
    #[serde(with = "crate::value::json_text")]
    pub(crate) result_json_value: Option<serde_json::Value>,
    /// Why the program's result may have come out empty (`null`, `{}`): see `result_note.rs`.
    /// Made when the result is; a run saved after its program returned does not keep it.
    #[serde(skip)]
    pub(crate) result_note: Option<String>,
    /// Promises made and not settled yet (collected ones included): when none is pending, the
    /// program's result has no promise to wait for and is not searched for one. Never too low; a
    /// restored run does not know it and searches (`usize::MAX`).
    #[serde(skip)]
    pub(crate) pending_promises: usize,
    /// The logs of the built-ins whose code is running and met a getter (`replay.rs`); empty
    /// between steps.
    #[serde(skip)]
    pub(crate) replays: Vec<replay::ReplayLog>,
    /// How many built-ins' first runs are in progress (nested ones count); 0 between steps.
    #[serde(skip)]
    pub(crate) native_depth: u32,
    /// Emptied argument lists of finished trampoline hops, reused by built-ins that call back
    /// once per element (`map`, `reduce`, ...) instead of allocating a list per call. A cache:
    /// bounded ([`call::ARGS_POOL_MAX`] lists of at most [`call::ARGS_POOL_CAPACITY`] values),
    /// never saved, with no effect on results or fuel.
    #[serde(skip)]
    pub(crate) args_pool: Vec<Vec<Value>>,
    /// The box of the last array loop that finished in place, for the next loop's state (a
    /// cache like `args_pool`: never saved).
    #[serde(skip)]
    pub(crate) loop_box: Option<Box<crate::builtins::ArrayLoop>>,
    /// Where prototypes hold the methods `o.name` reads (`method_cache.rs`): checked on every
    /// use, never saved.
    #[serde(skip)]
    pub(crate) method_cache: method_cache::MethodCache,
    /// The collector's mark bits and worklist, kept between collections so that a collection
    /// allocates nothing (a cache like `args_pool`: never saved; see `gc::Marks::reset`).
    #[serde(skip)]
    pub(crate) gc_marks: gc::Marks,
}

impl Vm {
    /// A VM with nothing to run: what a driver leaves in the place of a run it moved out (to
    /// save it without copying its state).
    pub fn idle() -> Result<Vm, String> {
        Vm::new(VerifiedModule::new(Module { functions: vec![empty_function()] })?, VmConfig::default())
    }

    /// Creates a VM ready to run `module`'s top-level script.
    pub fn new(module: VerifiedModule, config: VmConfig) -> Result<Vm, String> {
        let Some((heap, realm)) = pristine() else {
            return Err("the global environment could not be built".into());
        };
        let spare = SPARE_HEAPS.lock().ok().and_then(|mut spare| spare.pop());
        let mut heap = match spare {
            Some(mut spare) => {
                spare.reset_to(heap);
                spare
            }
            None => Heap::copy_for_run(heap),
        };
        let realm = realm.clone();
        heap.memory_limit = config.memory_limit;
        heap.retrigger();
        if heap.bytes_used > heap.memory_limit {
            return Err("memory limit too small for the global environment".into());
        }
        let mut vm = Vm::bare(module, config, heap, realm);
        vm.load_constants().map_err(|_| "memory limit too small for the program's constants")?;
        vm.start_main().map_err(|_| "memory limit too small to start the program")?;
        Ok(vm)
    }

    /// Gives this VM's heap to the next [`Vm::new`] to reuse (see [`SPARE_HEAPS`]), reset to the
    /// pristine heap now and trimmed (`Heap::trim_for_reuse`), so that a spare heap holds none
    /// of this run's things and little spare room; the VM is left with an empty heap and must
    /// not run again. Called by the host when a run is dropped. Results are unaffected: the
    /// next run's heap is reset to the pristine one whichever way it was made.
    pub fn recycle(&mut self) {
        let Some((pristine_heap, _)) = pristine() else { return };
        let room = |spare: &Vec<Heap>| spare.len() < SPARE_HEAPS_MAX;
        // Not reset under the lock: other threads' runs start meanwhile.
        if !SPARE_HEAPS.lock().is_ok_and(|spare| room(&spare)) {
            return;
        }
        let mut heap = std::mem::replace(&mut self.heap, Heap::new(0));
        heap.reset_to(pristine_heap);
        heap.trim_for_reuse(pristine_heap);
        if let Ok(mut spare) = SPARE_HEAPS.lock()
            && room(&spare)
        {
            spare.push(heap);
        }
    }

    fn bare(module: VerifiedModule, config: VmConfig, heap: Heap, realm: Realm) -> Vm {
        let rng = config.random_seed ^ 0x9E37_79B9_7F4A_7C15;
        Vm {
            format: codemode_bytecode::FORMAT_VERSION,
            module,
            config,
            heap,
            realm,
            stack: Vec::new(),
            stack_charged: 0,
            frames: Vec::new(),
            frame_room: 0,
            jobs: VecDeque::new(),
            main_promise: ObjId(0),
            host: host::HostState::default(),
            fuel: 0,
            rng,
            logs: Vec::new(),
            log_tally: output::LogTally::default(),
            console: output::ConsoleState::default(),
            rejected_unhandled: Vec::new(),
            throw_location: None,
            finished: None,
            parked: None,
            result_json_value: None,
            result_note: None,
            pending_promises: 0,
            replays: Vec::new(),
            native_depth: 0,
            args_pool: Vec::new(),
            loop_box: None,
            method_cache: Default::default(),
            gc_marks: Default::default(),
        }
    }

    /// Console output so far (`[warn] ` etc. prefixes included).
    pub fn logs(&self) -> &[String] {
        &self.logs
    }

    pub fn take_logs(&mut self) -> Vec<String> {
        std::mem::take(&mut self.logs)
    }

    /// Fuel left of the last [`Vm::run`] slice (negative when its last instruction overran it):
    /// `slice - fuel_left()` is the work the slice did, for metering oracles.
    pub fn fuel_left(&self) -> i64 {
        self.fuel
    }

    /// Bytes the heap holds now (approximately).
    pub fn memory_used(&self) -> usize {
        self.heap.bytes_used
    }
}

#[cfg(test)]
mod heap_reuse_tests {
    use crate::heap::{Heap, JsString, OutOfMemory};
    use crate::object::Object;
    use crate::value::{ObjId, Value};

    /// **A reused heap is the pristine heap**: a finished run's heap, reset for the next run
    /// (`Heap::reset_to`), equals a fresh copy of the pristine heap, including the capacities
    /// that memory accounting reads, so a run's results, fuel and memory do not depend on the
    /// run before it. Checked for a run's copy (which records what it changes, so the reset
    /// copies only that) through every way a slot is written, and for a heap with no record.
    #[test]
    fn a_reset_heap_equals_a_fresh_copy_of_the_pristine_heap() -> Result<(), OutOfMemory> {
        let Some((pristine, _)) = super::pristine() else { panic!("no pristine realm") };
        for tracked in [true, false] {
            let mut dirty = if tracked { Heap::copy_for_run(pristine) } else { pristine.clone() };
            rewrite_like_a_run(&mut dirty)?;
            dirty.reset_to(pristine);
            assert_equal_heaps(&dirty, pristine);
            // Twice: the record starts again after a reset.
            rewrite_like_a_run(&mut dirty)?;
            dirty.reset_to(pristine);
            assert_equal_heaps(&dirty, pristine);
        }
        Ok(())
    }

    /// **A spare heap holds none of its run's memory**: a big run's heap, reset and trimmed for
    /// reuse, equals the pristine heap and keeps room for a bounded number of things only.
    #[test]
    fn a_trimmed_heap_keeps_bounded_room() -> Result<(), OutOfMemory> {
        let Some((pristine, _)) = super::pristine() else { panic!("no pristine realm") };
        let mut big = Heap::copy_for_run(pristine);
        rewrite_like_a_run(&mut big)?;
        for i in 0..100_000u32 {
            big.alloc_object(Object::plain(None))?;
            big.alloc_string(JsString::new(Box::from("a string of the run, longer than inline")))?;
            big.alloc_cell(Value::Number(f64::from(i)))?;
            big.atoms.intern(&format!("name_{i}"));
        }
        big.reset_to(pristine);
        big.trim_for_reuse(pristine);
        assert_equal_heaps(&big, pristine);
        let bound = crate::heap::SPARE_SLOTS;
        assert!(big.objects.capacity() <= pristine.objects.len() + bound, "{}", big.objects.capacity());
        assert!(big.strings.capacity() <= pristine.strings.len() + bound, "{}", big.strings.capacity());
        assert!(big.cells.capacity() <= pristine.cells.len() + bound, "{}", big.cells.capacity());
        assert!(big.atoms.text_capacity() <= pristine.atoms.text().len() + (64 << 10));
        Ok(())
    }

    /// **A string's remembered atom dies with the string**: once the collector frees string
    /// slots, an id reused for another text is not taken for the old text's atom.
    #[test]
    fn a_reused_string_id_does_not_answer_the_atom_of_the_string_it_replaced() -> Result<(), OutOfMemory> {
        let mut heap = Heap::new(1 << 30);
        let alpha = heap.atoms.intern("alpha");
        let id = heap.alloc_string(JsString::new("alpha"))?;
        assert_eq!(heap.string_atom(id), Some(alpha));
        assert_eq!(heap.known_atom(id), Some(alpha));
        // What the collector's sweep does with unreachable strings.
        heap.strings.free_where(0, |_, _| false, |_| false);
        heap.forget_string_ids();
        let reused = heap.alloc_string(JsString::new("beta"))?;
        assert_eq!(reused, id);
        assert_eq!(heap.known_atom(reused), None);
        assert_eq!(heap.string_atom(reused), None);
        let beta = heap.atoms.intern("beta");
        assert_eq!(heap.string_atom(reused), Some(beta));
        Ok(())
    }

    /// **A short string is shared only with a live string of the same text**: the same short
    /// text made twice is one string; a long one is not shared; once the string is freed, its
    /// id is not handed out for its text (even by a cache the sweep did not empty).
    #[test]
    fn a_short_text_made_twice_is_one_string_while_it_lives() -> Result<(), OutOfMemory> {
        let mut heap = Heap::new(1 << 30);
        let first = heap.alloc_string(JsString::new("g42"))?;
        let used = heap.bytes_used;
        assert_eq!(heap.alloc_string(JsString::new("g42"))?, first);
        assert_eq!(heap.bytes_used, used, "a shared string is not charged again");
        assert_ne!(heap.alloc_string(JsString::new("g43"))?, first);
        let long = "a text longer than a string slot holds";
        assert_ne!(heap.alloc_string(JsString::new(long))?, heap.alloc_string(JsString::new(long))?);
        // Freed without the sweep's forgetting: the stale entry must not answer.
        heap.strings.free_where(0, |_, _| false, |_| false);
        let other = heap.alloc_string(JsString::new("other"))?;
        assert_eq!(heap.str(other), "other");
        let again = heap.alloc_string(JsString::new("g42"))?;
        assert_eq!(heap.str(again), "g42");
        Ok(())
    }

    /// What a run does: properties on built-ins (their maps grow), new objects, strings, names
    /// and symbols, deleted properties, a rewritten cell, built-ins freed by the collector and
    /// their slots taken by new objects.
    fn rewrite_like_a_run(heap: &mut Heap) -> Result<(), OutOfMemory> {
        for i in 0..40u32 {
            let name = heap.atoms.intern(&format!("added_{i}"));
            heap.obj_mut(ObjId(i)).props.push_new(name, Value::Number(f64::from(i)), 0);
        }
        for _ in 0..500 {
            heap.alloc_object(Object::plain(None))?;
        }
        heap.alloc_string(JsString::new(Box::from("a run's string")))?;
        heap.atoms.insert_kind("registered", crate::heap::AtomKind::RegisteredSymbol);
        heap.set_cell(crate::value::CellId(0), Value::Number(7.0));
        heap.objects.free_where(0, |i, _| !(100..110).contains(&i), |_| false);
        heap.strings.free_where(0, |i, _| i != 3, |_| false);
        for _ in 0..5 {
            heap.alloc_object(Object::plain(None))?;
        }
        Ok(())
    }

    fn assert_equal_heaps(dirty: &Heap, pristine: &Heap) {
        let mut fresh = pristine.clone();
        // Every pristine name is found as before; the run's names and symbols are gone.
        let mut dirty_atoms = dirty.atoms.clone();
        for i in 0..fresh.atoms.count() as u32 {
            let name = fresh.atoms.name(crate::value::Atom(i)).to_owned();
            assert_eq!(dirty_atoms.lookup(&name), fresh.atoms.lookup(&name), "atom {i} `{name}`");
        }
        assert_eq!(dirty_atoms.registered("registered"), None);
        assert_eq!(dirty.objects.len(), fresh.objects.len());
        for (i, (a, b)) in dirty.objects.slots().iter().zip(fresh.objects.slots()).enumerate() {
            // Compared as text: `NaN` (the global's property) is not equal to itself.
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "object {i}");
            let capacity = |o: &Option<Object>| o.as_ref().map(|o| (o.props.capacity(), o.extra_bytes()));
            assert_eq!(capacity(a), capacity(b), "object {i}'s accounted capacity");
        }
        assert_eq!(dirty.objects.free, fresh.objects.free);
        assert_eq!(dirty.strings.slots(), fresh.strings.slots());
        assert_eq!(dirty.strings.free, fresh.strings.free);
        assert_eq!(dirty.cells.slots(), fresh.cells.slots());
        assert_eq!(dirty.atoms.count(), fresh.atoms.count());
        assert_eq!(dirty_atoms.lookup("added_0"), None);
        assert_eq!(dirty.bytes_used, fresh.bytes_used);
    }
}
