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
    parked: Option<Value>,
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
    parked: Option<Value>,
    #[serde(with = "crate::value::json_text")]
    result_json_value: Option<serde_json::Value>,
}

impl Vm {
    /// The run's state as compact bytes (see the module docs): the difference from this build's
    /// pristine realm, after a header naming the format and the build.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let mut out = Vec::with_capacity(HEADER_LEN + 4096);
        self.write_to(&mut out)?;
        Ok(out)
    }

    /// How many bytes [`Vm::write_to`] writes, found by encoding into a counter: a caller that
    /// frames the state (or checks its size) learns it without holding the bytes.
    pub fn encoded_len(&self) -> Result<u64, String> {
        let mut counter = ByteCounter(0);
        self.write_to(&mut counter)?;
        Ok(counter.0)
    }

    /// Writes [`Vm::to_bytes`]'s bytes to `out` as they are encoded, so saving a run holds no
    /// copy of its state besides the run itself.
    pub fn write_to<W: std::io::Write>(&self, mut out: W) -> Result<(), String> {
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
            parked: self.parked,
            result_json_value: &self.result_json_value,
        };
        let failed = |e: std::io::Error| format!("the run state could not be written: {e}");
        out.write_all(MAGIC).map_err(failed)?;
        out.write_all(&self.format.to_le_bytes()).map_err(failed)?;
        out.write_all(&build_fingerprint().to_le_bytes()).map_err(failed)?;
        postcard::to_io(&wire, &mut out).map_err(|e| format!("the run state could not be encoded: {e}"))?;
        Ok(())
    }

    /// Decodes [`Vm::to_bytes`]'s output, made by this build, and checks it like any restore.
    pub fn from_bytes(bytes: &[u8]) -> Result<Vm, String> {
        Vm::read_from(bytes)
    }

    /// [`Vm::from_bytes`] from a reader, decoded as it is read: a resumed run holds no copy of its
    /// saved state besides the run itself (and the longest single string, while it is read). The
    /// reader must end where the state ends.
    pub fn read_from<R: std::io::Read>(mut input: R) -> Result<Vm, String> {
        let mut header = [0u8; HEADER_LEN];
        input.read_exact(&mut header).map_err(|_| "the snapshot is truncated (no header)".to_string())?;
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
        let mut decoder =
            postcard::Deserializer::from_flavor(ReadFlavor { input: &mut input, scratch: Vec::new() });
        let wire =
            WireIn::deserialize(&mut decoder).map_err(|e| format!("the snapshot is malformed: {e}"))?;
        drop(decoder);
        let mut extra = [0u8; 1];
        if input.read(&mut extra).map_err(|e| format!("the snapshot could not be read: {e}"))? != 0 {
            return Err("the snapshot has bytes after its end".into());
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
            parked: wire.parked,
            result_json_value: wire.result_json_value,
        })?;
        // Decoded arrays hold exactly their elements (no spare capacity), so the saved byte
        // count overstates the heap: count it again, so that a restored run has the room it
        // really has (and the same room however often it was saved).
        vm.collect_garbage();
        Ok(vm)
    }
}

/// A writer that only counts: [`Vm::encoded_len`].
struct ByteCounter(u64);

impl std::io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len() as u64);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// postcard's input from a reader, for [`Vm::read_from`]. Nothing in [`WireIn`] borrows from
/// the input, so every run of bytes is read into one scratch buffer that the next reuses;
/// `postcard::from_io` instead needs a caller-sized buffer that holds all of them at once.
///
/// Generic over the reader, so that reading one byte from a slice (`Vm::from_bytes`, every
/// round trip) is a slice operation, not a call through a trait object.
struct ReadFlavor<'r, R> {
    input: &'r mut R,
    scratch: Vec<u8>,
}

impl<'de, 'r: 'de, R: std::io::Read + 'de> postcard::de_flavors::Flavor<'de> for ReadFlavor<'r, R> {
    type Remainder = ();
    type Source = ();

    fn pop(&mut self) -> postcard::Result<u8> {
        let mut byte = [0u8; 1];
        self.input.read_exact(&mut byte).map_err(|_| postcard::Error::DeserializeUnexpectedEnd)?;
        Ok(byte[0])
    }

    fn try_take_n(&mut self, _ct: usize) -> postcard::Result<&'de [u8]> {
        // Only borrowed data asks for this, and the saved state borrows nothing.
        Err(postcard::Error::DeserializeUnexpectedEnd)
    }

    fn try_take_n_temp<'a>(&'a mut self, ct: usize) -> postcard::Result<&'a [u8]>
    where
        'de: 'a,
    {
        // A long run of bytes leaves the buffer large: let it go rather than hold it.
        if self.scratch.capacity() > SCRATCH_KEPT && ct <= SCRATCH_KEPT {
            self.scratch = Vec::new();
        }
        self.scratch.clear();
        // Grows only as bytes arrive: a length in damaged input cannot reserve memory.
        let read = std::io::Read::read_to_end(
            &mut std::io::Read::take(&mut *self.input, ct as u64),
            &mut self.scratch,
        )
        .map_err(|_| postcard::Error::DeserializeUnexpectedEnd)?;
        if read != ct {
            return Err(postcard::Error::DeserializeUnexpectedEnd);
        }
        Ok(&self.scratch)
    }

    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

/// The scratch capacity [`ReadFlavor`] keeps between runs of bytes.
const SCRATCH_KEPT: usize = 1 << 16;
