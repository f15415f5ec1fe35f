//! The binary form of a saved run: [`Vm::to_bytes`] and [`Vm::from_bytes`].
//!
//! Every run starts from a copy of the pristine realm (several thousand built-in objects,
//! strings and names), and most of it is never touched. So the bytes hold only the difference:
//! for each arena, the pristine slots that changed (by index) and the slots the run added; for
//! the names, the ones the run interned. Decoding copies the pristine realm of this build and
//! applies the difference. A **fingerprint** of that realm (and the format version) heads the
//! bytes, so a state only restores on a build whose built-ins have the same layout; after that,
//! decoding goes through the same checks as any restore (`restore.rs`): a corrupt snapshot is an
//! error, never a panic.
//!
//! Layout: `CMVMSNAP` magic, the format version and the fingerprint (little-endian `u32` and
//! `u64`), then the `postcard` encoding of [`WireOut`] / [`WireIn`] (the two must list the same
//! fields in the same order).

use std::collections::VecDeque;
use std::sync::LazyLock;

use codemode_bytecode::{FORMAT_VERSION, VerifiedModule};
use serde::{Deserialize, Serialize};

use crate::frame::Frame;
use crate::heap::{Arena, Heap, JsBigInt, JsString};
use crate::host::HostState;
use crate::object::Object;
use crate::promise::Job;
use crate::realm::Realm;
use crate::restore::SavedVm;
use crate::value::{ObjId, Value};
use crate::{Status, Vm, VmConfig};

const MAGIC: &[u8; 8] = b"CMVMSNAP";
const HEADER_LEN: usize = 8 + 4 + 8;

/// A hash of what a snapshot's difference is taken against: the format version and the
/// pristine realm's layout (its interned names and arena sizes). FNV-1a, so it is the same on
/// every machine and every run of one build.
pub fn build_fingerprint() -> u64 {
    static FINGERPRINT: LazyLock<u64> = LazyLock::new(|| {
        let mut h = Fnv::default();
        h.write(&FORMAT_VERSION.to_le_bytes());
        if let Some((heap, _)) = crate::pristine() {
            h.write(heap.atoms.text().as_bytes());
            for n in [heap.objects.len(), heap.strings.len(), heap.cells.len()] {
                h.write(&(n as u64).to_le_bytes());
            }
            for s in heap.strings.slots().iter().flatten() {
                h.write(s.as_str().as_bytes());
            }
        }
        h.0
    });
    *FINGERPRINT
}

struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// One arena as the difference from its pristine copy.
#[derive(Serialize)]
struct ArenaOut<'a, T> {
    changed: Vec<(u32, Option<&'a T>)>,
    added: &'a [Option<T>],
    free: &'a [u32],
}

#[derive(Deserialize)]
struct ArenaIn<T> {
    changed: Vec<(u32, Option<T>)>,
    added: Vec<Option<T>>,
    free: Vec<u32>,
}

fn arena_out<'a, T: PartialEq>(run: &'a Arena<T>, base: &Arena<T>) -> Result<ArenaOut<'a, T>, String> {
    let n = base.len();
    let (kept, added) =
        run.slots().split_at_checked(n).ok_or("the heap is smaller than the pristine realm")?;
    let changed = kept
        .iter()
        .zip(base.slots())
        .enumerate()
        .filter(|(_, (now, was))| now != was)
        .map(|(i, (now, _))| (i as u32, now.as_ref()))
        .collect();
    Ok(ArenaOut { changed, added, free: &run.free })
}

fn arena_in<T: Clone>(saved: ArenaIn<T>, base: &Arena<T>, what: &str) -> Result<Arena<T>, String> {
    let mut slots = base.slots().to_vec();
    for (i, slot) in saved.changed {
        let target = slots.get_mut(i as usize).ok_or_else(|| {
            format!("the snapshot changes {what} {i}, which the pristine realm does not have")
        })?;
        *target = slot;
    }
    slots.extend(saved.added);
    Ok(Arena::from_parts(slots, saved.free))
}

#[derive(Serialize)]
struct HeapOut<'a> {
    strings: ArenaOut<'a, JsString>,
    objects: ArenaOut<'a, Object>,
    cells: ArenaOut<'a, Value>,
    bigints: ArenaOut<'a, JsBigInt>,
    /// Names interned by the run (after the pristine realm's), in order.
    names: Vec<&'a str>,
    /// What each of those names is (`heap::AtomKind`: a name or a kind of symbol).
    kinds: Vec<u8>,
    counters: HeapCounters,
}

#[derive(Deserialize)]
struct HeapIn {
    strings: ArenaIn<JsString>,
    objects: ArenaIn<Object>,
    cells: ArenaIn<Value>,
    bigints: ArenaIn<JsBigInt>,
    names: Vec<String>,
    kinds: Vec<u8>,
    counters: HeapCounters,
}

#[derive(Serialize, Deserialize)]
struct HeapCounters {
    bytes_used: usize,
    memory_limit: usize,
    allocated_since_gc: usize,
    gc_threshold: usize,
    retained: usize,
    collect_soon: bool,
    map_deletes: usize,
}

/// What [`Vm::to_bytes`] writes after the header (borrowed from the VM).
#[derive(Serialize)]
struct WireOut<'a> {
    module: &'a VerifiedModule,
    config: &'a VmConfig,
    heap: HeapOut<'a>,
    realm: &'a Realm,
    stack: &'a [Value],
    frames: &'a [Frame],
    jobs: &'a VecDeque<Job>,
    main_promise: ObjId,
    host: &'a HostState,
    fuel: i64,
    rng: u64,
    logs: &'a [String],
    log_tally: &'a crate::output::LogTally,
    console: &'a crate::output::ConsoleState,
    rejected_unhandled: &'a [ObjId],
    throw_location: Option<(u32, u32)>,
    finished: Option<Status>,
    #[serde(with = "crate::value::json_text")]
    result_json_value: &'a Option<serde_json::Value>,
}

/// What [`Vm::from_bytes`] reads: [`WireOut`]'s fields, owned.
#[derive(Deserialize)]
struct WireIn {
    module: VerifiedModule,
    config: VmConfig,
    heap: HeapIn,
    realm: Realm,
    stack: Vec<Value>,
    frames: Vec<Frame>,
    jobs: VecDeque<Job>,
    main_promise: ObjId,
    host: HostState,
    fuel: i64,
    rng: u64,
    logs: Vec<String>,
    log_tally: crate::output::LogTally,
    console: crate::output::ConsoleState,
    rejected_unhandled: Vec<ObjId>,
    throw_location: Option<(u32, u32)>,
    finished: Option<Status>,
    #[serde(with = "crate::value::json_text")]
    result_json_value: Option<serde_json::Value>,
}

impl Vm {
    /// The run's state as compact bytes (see the module docs): the difference from this build's
    /// pristine realm, after a header naming the format and the build.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let Some((base, _)) = crate::pristine() else {
            return Err("the global environment could not be built".into());
        };
        let heap = &self.heap;
        let names = heap.atoms.names_from(base.atoms.count()).ok_or("the names table is damaged")?;
        let wire = WireOut {
            module: &self.module,
            config: &self.config,
            heap: HeapOut {
                strings: arena_out(&heap.strings, &base.strings)?,
                objects: arena_out(&heap.objects, &base.objects)?,
                cells: arena_out(&heap.cells, &base.cells)?,
                bigints: arena_out(&heap.bigints, &base.bigints)?,
                names,
                kinds: heap.atoms.kinds_from(base.atoms.count()),
                counters: HeapCounters {
                    bytes_used: heap.bytes_used,
                    memory_limit: heap.memory_limit,
                    allocated_since_gc: heap.allocated_since_gc,
                    gc_threshold: heap.gc_threshold,
                    retained: heap.retained,
                    collect_soon: heap.collect_soon,
                    map_deletes: heap.map_deletes,
                },
            },
            realm: &self.realm,
            stack: &self.stack,
            frames: &self.frames,
            jobs: &self.jobs,
            main_promise: self.main_promise,
            host: &self.host,
            fuel: self.fuel,
            rng: self.rng,
            logs: &self.logs,
            log_tally: &self.log_tally,
            console: &self.console,
            rejected_unhandled: &self.rejected_unhandled,
            throw_location: self.throw_location,
            finished: self.finished,
            result_json_value: &self.result_json_value,
        };
        let mut out = Vec::with_capacity(HEADER_LEN + 4096);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.format.to_le_bytes());
        out.extend_from_slice(&build_fingerprint().to_le_bytes());
        postcard::to_io(&wire, &mut out).map_err(|e| format!("the run state could not be encoded: {e}"))?;
        Ok(out)
    }

    /// Decodes [`Vm::to_bytes`]'s output, made by this build, and checks it like any restore.
    pub fn from_bytes(bytes: &[u8]) -> Result<Vm, String> {
        let header = bytes.get(..HEADER_LEN).ok_or("the snapshot is truncated (no header)")?;
        if &header[..8] != MAGIC {
            return Err("these bytes are not a codemode snapshot".into());
        }
        let format = u32::from_le_bytes([header[8], header[9], header[10], header[11]]);
        if format != FORMAT_VERSION {
            return Err(format!("snapshot format {format} is not this build's format {FORMAT_VERSION}"));
        }
        let mut fingerprint = [0u8; 8];
        fingerprint.copy_from_slice(&header[12..20]);
        if u64::from_le_bytes(fingerprint) != build_fingerprint() {
            return Err("the snapshot was made by another build of codemode (its built-ins differ)".into());
        }
        let Some((base, _)) = crate::pristine() else {
            return Err("the global environment could not be built".into());
        };
        let (wire, rest): (WireIn, &[u8]) = postcard::take_from_bytes(&bytes[HEADER_LEN..])
            .map_err(|e| format!("the snapshot is malformed: {e}"))?;
        if !rest.is_empty() {
            return Err(format!("the snapshot has {} bytes after its end", rest.len()));
        }
        let h = wire.heap;
        let mut atoms = base.atoms.clone();
        if h.kinds.len() != h.names.len() {
            return Err("the snapshot's names and their kinds differ in number".into());
        }
        for (name, &kind) in h.names.iter().zip(&h.kinds) {
            let kind =
                crate::heap::AtomKind::from_byte(kind).ok_or("the snapshot names an unknown kind of atom")?;
            atoms.insert_kind(name, kind);
        }
        let c = h.counters;
        let mut heap = Heap::new(c.memory_limit);
        heap.strings = arena_in(h.strings, &base.strings, "string")?;
        heap.objects = arena_in(h.objects, &base.objects, "object")?;
        heap.cells = arena_in(h.cells, &base.cells, "cell")?;
        heap.bigints = arena_in(h.bigints, &base.bigints, "BigInt")?;
        heap.atoms = atoms;
        heap.bytes_used = c.bytes_used;
        heap.allocated_since_gc = c.allocated_since_gc;
        heap.gc_threshold = c.gc_threshold;
        heap.retained = c.retained;
        heap.collect_soon = c.collect_soon;
        heap.map_deletes = c.map_deletes;
        heap.retrigger();
        let mut vm = Vm::try_from(SavedVm {
            format,
            module: wire.module,
            config: wire.config,
            heap,
            realm: wire.realm,
            stack: wire.stack,
            frames: wire.frames,
            jobs: wire.jobs,
            main_promise: wire.main_promise,
            host: wire.host,
            fuel: wire.fuel,
            rng: wire.rng,
            logs: wire.logs,
            log_tally: wire.log_tally,
            console: wire.console,
            rejected_unhandled: wire.rejected_unhandled,
            throw_location: wire.throw_location,
            finished: wire.finished,
            result_json_value: wire.result_json_value,
        })?;
        // Decoded arrays hold exactly their elements (no spare capacity), so the saved byte
        // count overstates the heap: count it again, so that a restored run has the room it
        // really has (and the same room however often it was saved).
        vm.collect_garbage();
        Ok(vm)
    }
}
