//! [`Snapshot`]: a suspended run as data, and its versioned binary form.
//!
//! A snapshot is the VM's state (`codemode_vm::Vm::to_bytes`: the difference from this build's
//! pristine realm) and the driver's ([`RunState`]: the run id, the limits it keeps, the active
//! time so far, the call record, the durable calls it waits on and the calls queued behind
//! them). Bytes: `CMRUNSNP`, a `u32` version, the package version, the `postcard` run state and
//! the VM's bytes, each with its length. Nothing in it refers to memory; the bytes decode on
//! this build only (the VM's fingerprint, the package version), and a malformed or foreign
//! snapshot is a [`SnapshotError`], never a panic.
//!
//! A suspended run moves into its snapshot whole and is encoded only when the host writes it;
//! [`Snapshot::write_to`] and [`Snapshot::read_from`] encode and decode as the bytes pass, so
//! saving to a file or resuming from one holds no second copy of the state (a run holding 200 MB
//! peaked at 618 MiB saving and 401 MiB resuming when both went through whole byte buffers).
//!
//! A host that keeps states where others can write them (a queue, a database, a user's disk)
//! signs them: [`Snapshot::to_signed_bytes`] appends an HMAC-SHA256 tag under the host's key and
//! [`Snapshot::from_signed_bytes`] checks it, in constant time, before decoding anything, so an
//! edited state (raised limits, a forged call record, a rewritten heap) is refused.

use std::sync::LazyLock;

use std::io::Read;

use hmac::{KeyInit, Mac};

use codemode_vm::{HostCall, Vm};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::result::{CallFailure, CallFailureKind, CallStatus, ToolCall};

const MAGIC: &[u8; 8] = b"CMRUNSNP";
/// The version of the run-state layout (the VM's bytes carry their own).
const VERSION: u32 = 1;
const PACKAGE: &str = env!("CARGO_PKG_VERSION");

/// A suspended run, ready to be saved ([`Snapshot::to_bytes`]) or resumed
/// ([`crate::CodeMode::resume`]).
#[derive(Clone)]
pub struct Snapshot {
    pub(crate) run: RunState,
    /// The run itself: encoded only when the host writes the snapshot, and shared by clones
    /// (an `Execution` keeps its outcome, so a suspended run would otherwise be held twice).
    pub(crate) vm: std::sync::Arc<Vm>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("run_id", &self.run.run_id)
            .field("pending", &self.run.pending.iter().map(|p| &p.key).collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// The driver's part of a saved run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct RunState {
    pub(crate) run_id: String,
    pub(crate) limits: SavedLimits,
    /// Time the run was active (driven) before it was saved, in microseconds.
    pub(crate) active_micros: u64,
    pub(crate) calls: Vec<SavedCall>,
    pub(crate) extension_calls: Vec<u32>,
    pub(crate) pending: Vec<SavedPending>,
    pub(crate) queued: Vec<HostCall>,
    /// The names of the runtime's extensions (a state resumes only with the same ones).
    pub(crate) extensions: Vec<String>,
    /// How many functions extension results had given the program (by handle).
    pub(crate) host_functions: u32,
    /// The values with functions that extensions saved with their snapshot hooks.
    pub(crate) returned: Vec<SavedReturned>,
}

/// A value an extension's snapshot `encode` saved, and the handles of its functions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SavedReturned {
    /// The index of the extension among the runtime's.
    pub(crate) extension: u32,
    #[serde(with = "codemode_vm::json_text")]
    pub(crate) data: Json,
    pub(crate) handles: Vec<(Vec<String>, u32)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SavedLimits {
    pub(crate) timeout_micros: Option<u64>,
    pub(crate) max_tool_calls: Option<u32>,
    pub(crate) memory_limit: u64,
    pub(crate) max_call_depth: u64,
    pub(crate) max_output_bytes: Option<u64>,
}

impl SavedLimits {
    pub(crate) fn from_limits(l: &crate::Limits) -> Self {
        SavedLimits {
            timeout_micros: l.timeout.map(|t| u64::try_from(t.as_micros()).unwrap_or(u64::MAX)),
            max_tool_calls: l.max_tool_calls,
            memory_limit: l.memory_limit as u64,
            max_call_depth: l.max_call_depth as u64,
            max_output_bytes: l.max_output_bytes.map(|b| b as u64),
        }
    }

    pub(crate) fn to_limits(&self) -> crate::Limits {
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        crate::Limits {
            timeout: self.timeout_micros.map(std::time::Duration::from_micros),
            max_tool_calls: self.max_tool_calls,
            memory_limit: size(self.memory_limit),
            max_call_depth: size(self.max_call_depth),
            max_output_bytes: self.max_output_bytes.map(size),
            // The program was compiled before it was saved.
            max_source_bytes: crate::limits::DEFAULT_MAX_SOURCE_BYTES,
        }
    }
}

/// One entry of the call record.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SavedCall {
    pub(crate) id: u32,
    pub(crate) path: String,
    /// 0 ok, 1 error, 2 not finished.
    pub(crate) status: u8,
    /// Kind (as its `Debug` name), message, private cause.
    pub(crate) failure: Option<(String, String, Option<String>)>,
}

impl SavedCall {
    pub(crate) fn from_call(c: &ToolCall) -> Self {
        let status = match c.status {
            CallStatus::Ok => 0,
            CallStatus::Error => 1,
            _ => 2,
        };
        let failure =
            c.failure.as_ref().map(|f| (format!("{:?}", f.kind), f.message.clone(), f.cause.clone()));
        SavedCall { id: c.id, path: c.path.clone(), status, failure }
    }

    pub(crate) fn to_call(&self) -> ToolCall {
        let status = match self.status {
            0 => CallStatus::Ok,
            1 => CallStatus::Error,
            _ => CallStatus::Interrupted,
        };
        let failure = self.failure.as_ref().map(|(kind, message, cause)| CallFailure {
            kind: failure_kind(kind),
            message: message.clone(),
            cause: cause.clone(),
        });
        ToolCall { id: self.id, path: self.path.clone(), status, failure }
    }
}

fn failure_kind(name: &str) -> CallFailureKind {
    match name {
        "InvalidInput" => CallFailureKind::InvalidInput,
        "InvalidOutput" => CallFailureKind::InvalidOutput,
        "Refused" => CallFailureKind::Refused,
        "Internal" => CallFailureKind::Internal,
        "Panicked" => CallFailureKind::Panicked,
        "Denied" => CallFailureKind::Denied,
        "UnknownTool" => CallFailureKind::UnknownTool,
        _ => CallFailureKind::Failed,
    }
}

/// A durable call the saved run waits on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SavedPending {
    pub(crate) id: u32,
    pub(crate) key: String,
    /// The tool's path (`demo.approve`).
    pub(crate) path: String,
    #[serde(with = "codemode_vm::json_text")]
    pub(crate) args: Json,
    #[serde(with = "codemode_vm::json_text")]
    pub(crate) handle: Option<Json>,
}

/// Why a snapshot could not be decoded or resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The bytes are not a snapshot, are cut short, or do not decode (a message says where).
    Malformed(String),
    /// The snapshot was made by another build of codemode.
    OtherBuild(String),
    /// The runtime's extensions are not the ones the run was saved with.
    Extensions { saved: Vec<String>, here: Vec<String> },
    /// A pending durable call has no outcome.
    MissingOutcome { key: String },
    /// An outcome was given for a key that is not a pending durable call of this state.
    UnexpectedOutcome { key: String },
    /// An extension's snapshot `decode` failed for a saved value.
    Extension { name: String, message: String },
    /// A signed state's tag does not match under this key: the state was changed, signed with
    /// another key, or not signed.
    Unauthenticated,
    /// Reading or writing the state failed (a file, a socket).
    Io(String),
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotError::Malformed(m) => write!(f, "malformed snapshot: {m}"),
            SnapshotError::Io(m) => write!(f, "the state could not be read or written: {m}"),
            SnapshotError::Unauthenticated => write!(
                f,
                "the state is not authenticated by this key: it was changed after it was saved, \
                 signed with another key, or saved unsigned"
            ),
            SnapshotError::OtherBuild(m) => write!(f, "snapshot from another build: {m}"),
            SnapshotError::Extensions { saved, here } => write!(
                f,
                "the run was saved with extensions [{}] but this runtime has [{}]",
                saved.join(", "),
                here.join(", ")
            ),
            SnapshotError::MissingOutcome { key } => {
                write!(f, "no outcome was given for the pending durable call '{key}'")
            }
            SnapshotError::Extension { name, message } => {
                write!(f, "extension '{name}' could not restore a saved value: {message}")
            }
            SnapshotError::UnexpectedOutcome { key } => {
                write!(f, "an outcome was given for '{key}', which is not a pending durable call of this run")
            }
        }
    }
}

impl std::error::Error for SnapshotError {}

/// Bytes of the HMAC-SHA256 tag a signed state ends with.
const STATE_TAG_LEN: usize = 32;

/// HMAC-SHA256 over `bytes` under `key` (any length: HMAC hashes a long key, pads a short one).
fn state_mac(key: &[u8], bytes: &[u8]) -> Result<hmac::Hmac<sha2::Sha256>, SnapshotError> {
    let mut mac = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(key)
        .map_err(|_| SnapshotError::Malformed("the state key was refused".into()))?;
    mac.update(bytes);
    Ok(mac)
}

impl Snapshot {
    /// The first bytes of every saved run: a reader can refuse anything else before reading the
    /// rest.
    pub const MAGIC: &'static [u8; 8] = MAGIC;

    /// The run's id (call keys are `<runId>:<id>`).
    pub fn run_id(&self) -> &str {
        &self.run.run_id
    }

    /// The compact binary form (see the module docs).
    pub fn to_bytes(&self) -> Result<Vec<u8>, SnapshotError> {
        // One encoding pass: the VM's length is written after it, where `write_to` (which cannot
        // go back in its writer) encodes into a counter first.
        let mut out = Vec::new();
        self.write_head(&mut out)?;
        let at = out.len();
        out.extend_from_slice(&0u64.to_le_bytes());
        self.vm.write_to(&mut out).map_err(SnapshotError::Io)?;
        let vm_len = (out.len() - at - 8) as u64;
        out[at..at + 8].copy_from_slice(&vm_len.to_le_bytes());
        Ok(out)
    }

    /// Everything before the VM's part: the magic, the version, the package and the run state.
    fn write_head<W: std::io::Write>(&self, out: &mut W) -> Result<(), SnapshotError> {
        let failed = |e: std::io::Error| SnapshotError::Io(e.to_string());
        let run = postcard::to_stdvec(&self.run).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        out.write_all(MAGIC).map_err(failed)?;
        out.write_all(&VERSION.to_le_bytes()).map_err(failed)?;
        for part in [PACKAGE.as_bytes(), &run] {
            out.write_all(&(part.len() as u64).to_le_bytes()).map_err(failed)?;
            out.write_all(part).map_err(failed)?;
        }
        Ok(())
    }

    /// Writes [`Snapshot::to_bytes`]'s bytes to `out` as they are encoded: saving a suspended
    /// run to a file or a socket holds no second copy of its state.
    pub fn write_to<W: std::io::Write>(&self, mut out: W) -> Result<(), SnapshotError> {
        let failed = |e: std::io::Error| SnapshotError::Io(e.to_string());
        let vm_len = self.vm.encoded_len().map_err(SnapshotError::Malformed)?;
        self.write_head(&mut out)?;
        out.write_all(&vm_len.to_le_bytes()).map_err(failed)?;
        self.vm.write_to(&mut out).map_err(SnapshotError::Io)?;
        out.flush().map_err(failed)
    }

    /// [`Snapshot::to_bytes`] followed by an HMAC-SHA256 tag of those bytes under `key` (32
    /// bytes): what [`Snapshot::from_signed_bytes`] reads.
    pub fn to_signed_bytes(&self, key: &[u8]) -> Result<Vec<u8>, SnapshotError> {
        // In memory the bytes can be signed after they are made: one encoding pass, where
        // `write_signed_to` (through `write_to`) counts the VM's length first.
        let mut bytes = self.to_bytes()?;
        let tag = state_mac(key, &bytes)?.finalize().into_bytes();
        bytes.extend_from_slice(&tag);
        Ok(bytes)
    }

    /// [`Snapshot::write_to`] followed by the HMAC-SHA256 tag of what it wrote under `key`, as
    /// [`Snapshot::to_signed_bytes`] makes it.
    pub fn write_signed_to<W: std::io::Write>(&self, out: W, key: &[u8]) -> Result<(), SnapshotError> {
        let mut signing = MacWriter { mac: state_mac(key, &[])?, out };
        self.write_to(&mut signing)?;
        let tag = signing.mac.finalize().into_bytes();
        signing.out.write_all(&tag).map_err(|e| SnapshotError::Io(e.to_string()))?;
        signing.out.flush().map_err(|e| SnapshotError::Io(e.to_string()))
    }

    /// Checks the tag [`Snapshot::to_signed_bytes`] appended, in constant time and before
    /// decoding anything, then decodes the state: [`SnapshotError::Unauthenticated`] when the
    /// bytes were changed, signed under another key or not signed.
    pub fn from_signed_bytes(bytes: &[u8], key: &[u8]) -> Result<Snapshot, SnapshotError> {
        let split = bytes.len().checked_sub(STATE_TAG_LEN).ok_or(SnapshotError::Unauthenticated)?;
        let (state, tag) = bytes.split_at(split);
        state_mac(key, state)?.verify_slice(tag).map_err(|_| SnapshotError::Unauthenticated)?;
        Snapshot::from_bytes(state)
    }

    /// [`Snapshot::from_signed_bytes`] from a reader that can go back (a file): the tag is
    /// checked in a first pass that holds nothing, then the state is decoded as it is read.
    pub fn read_signed_from<R: std::io::Read + std::io::Seek>(
        mut input: R,
        key: &[u8],
    ) -> Result<Snapshot, SnapshotError> {
        use std::io::SeekFrom;
        let failed = |e: std::io::Error| SnapshotError::Io(e.to_string());
        let len = input.seek(SeekFrom::End(0)).map_err(failed)?;
        let state_len = len.checked_sub(STATE_TAG_LEN as u64).ok_or(SnapshotError::Unauthenticated)?;
        input.seek(SeekFrom::Start(0)).map_err(failed)?;
        let mut checking = MacWriter { mac: state_mac(key, &[])?, out: std::io::sink() };
        let copied = std::io::copy(&mut (&mut input).take(state_len), &mut checking).map_err(failed)?;
        let mut tag = [0u8; STATE_TAG_LEN];
        if copied != state_len || input.read_exact(&mut tag).is_err() {
            return Err(SnapshotError::Unauthenticated);
        }
        checking.mac.verify_slice(&tag).map_err(|_| SnapshotError::Unauthenticated)?;
        input.seek(SeekFrom::Start(0)).map_err(failed)?;
        Snapshot::read_from(input.take(state_len))
    }

    /// Decodes [`Snapshot::to_bytes`]'s output and checks it (the VM state as any restore).
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, SnapshotError> {
        Snapshot::read_from(bytes)
    }

    /// [`Snapshot::from_bytes`] from a reader, decoded as it is read: resuming from a file holds
    /// no copy of the state besides the run itself. The reader must end where the state ends.
    pub fn read_from<R: std::io::Read>(mut input: R) -> Result<Snapshot, SnapshotError> {
        let malformed = |m: &str| SnapshotError::Malformed(m.to_string());
        let mut magic = [0u8; 8];
        input.read_exact(&mut magic).map_err(|_| malformed("these bytes are not a codemode run snapshot"))?;
        if &magic != MAGIC {
            return Err(malformed("these bytes are not a codemode run snapshot"));
        }
        let mut version = [0u8; 4];
        input.read_exact(&mut version).map_err(|_| malformed("truncated header"))?;
        let version = u32::from_le_bytes(version);
        if version != VERSION {
            return Err(SnapshotError::OtherBuild(format!(
                "run-state version {version}, this build reads {VERSION}"
            )));
        }
        let package = part(&mut input)?;
        if package != PACKAGE.as_bytes() {
            return Err(SnapshotError::OtherBuild(format!(
                "saved by codemode {}, this is {PACKAGE}",
                String::from_utf8_lossy(&package)
            )));
        }
        let run = part(&mut input)?;
        let run: RunState =
            postcard::from_bytes(&run).map_err(|e| SnapshotError::Malformed(format!("run state: {e}")))?;
        let vm_len = part_len(&mut input)?;
        let vm = Vm::read_from((&mut input).take(vm_len)).map_err(|e| {
            if e.contains("another build") {
                SnapshotError::OtherBuild(e)
            } else {
                SnapshotError::Malformed(e)
            }
        })?;
        let mut extra = [0u8; 1];
        if input.read(&mut extra).map_err(|e| SnapshotError::Io(e.to_string()))? != 0 {
            return Err(malformed("bytes after the end of the snapshot"));
        }
        Ok(Snapshot { run, vm: std::sync::Arc::new(vm) })
    }

    /// The state as JSON, for inspection: the run state and the whole VM (heap, frames, calls).
    pub fn to_json(&self) -> Result<Json, SnapshotError> {
        let vm =
            serde_json::to_value(self.vm.as_ref()).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        let run = serde_json::to_value(&self.run).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        Ok(serde_json::json!({ "run": run, "vm": vm }))
    }

    /// The run state and the VM (copied only while a clone of this snapshot still holds it).
    pub(crate) fn into_vm(self) -> (RunState, Vm) {
        let vm = std::sync::Arc::try_unwrap(self.vm).unwrap_or_else(|shared| Vm::clone(&shared));
        (self.run, vm)
    }
}

/// The length of the next part.
fn part_len(input: &mut impl std::io::Read) -> Result<u64, SnapshotError> {
    let mut n = [0u8; 8];
    input.read_exact(&mut n).map_err(|_| SnapshotError::Malformed("truncated snapshot".into()))?;
    Ok(u64::from_le_bytes(n))
}

/// One length-prefixed part, read whole (the package name and the run state: the VM's part is
/// decoded as it is read). The buffer grows only as bytes arrive, so a damaged length cannot
/// reserve memory.
fn part(input: &mut impl std::io::Read) -> Result<Vec<u8>, SnapshotError> {
    let len = part_len(input)?;
    let mut bytes = Vec::new();
    input.take(len).read_to_end(&mut bytes).map_err(|e| SnapshotError::Io(e.to_string()))?;
    if bytes.len() as u64 != len {
        return Err(SnapshotError::Malformed("truncated snapshot".into()));
    }
    Ok(bytes)
}

/// A writer that signs what passes through it: [`Snapshot::write_signed_to`] and the check of
/// [`Snapshot::read_signed_from`].
struct MacWriter<W> {
    mac: hmac::Hmac<sha2::Sha256>,
    out: W,
}

impl<W: std::io::Write> std::io::Write for MacWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.mac.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// `CODEMODE_ROUNDTRIP=1`: every run is saved to bytes and restored into a new VM after every
/// slice (every host call and every few thousand steps), to prove that nothing in a run's
/// state lives outside its saved form.
pub(crate) fn roundtrip_enabled() -> bool {
    static ENABLED: LazyLock<bool> =
        LazyLock::new(|| std::env::var("CODEMODE_ROUNDTRIP").is_ok_and(|v| v == "1"));
    *ENABLED
}
