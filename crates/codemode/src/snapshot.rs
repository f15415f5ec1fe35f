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
//! A host that keeps states where others can write them (a queue, a database, a user's disk)
//! signs them: [`Snapshot::to_signed_bytes`] appends an HMAC-SHA256 tag under the host's key and
//! [`Snapshot::from_signed_bytes`] checks it, in constant time, before decoding anything, so an
//! edited state (raised limits, a forged call record, a rewritten heap) is refused.

use std::sync::LazyLock;

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
    pub(crate) vm: VmState,
}

#[derive(Clone)]
pub(crate) enum VmState {
    /// As saved by a suspend (checked against `max_bytes` already).
    Bytes(Vec<u8>),
    /// As decoded by [`Snapshot::from_bytes`] (which checks it).
    Decoded(Box<Vm>),
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
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotError::Malformed(m) => write!(f, "malformed snapshot: {m}"),
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
        let vm = match &self.vm {
            VmState::Bytes(bytes) => std::borrow::Cow::Borrowed(bytes),
            VmState::Decoded(vm) => std::borrow::Cow::Owned(vm.to_bytes().map_err(SnapshotError::Malformed)?),
        };
        let run = postcard::to_stdvec(&self.run).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        let mut out = Vec::with_capacity(MAGIC.len() + 16 + PACKAGE.len() + run.len() + vm.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for part in [PACKAGE.as_bytes(), &run, &vm] {
            out.extend_from_slice(&(part.len() as u64).to_le_bytes());
            out.extend_from_slice(part);
        }
        Ok(out)
    }

    /// [`Snapshot::to_bytes`] followed by an HMAC-SHA256 tag of those bytes under `key` (32
    /// bytes): what [`Snapshot::from_signed_bytes`] reads.
    pub fn to_signed_bytes(&self, key: &[u8]) -> Result<Vec<u8>, SnapshotError> {
        let mut bytes = self.to_bytes()?;
        let tag = state_mac(key, &bytes)?.finalize().into_bytes();
        bytes.extend_from_slice(&tag);
        Ok(bytes)
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

    /// Decodes [`Snapshot::to_bytes`]'s output and checks it (the VM state as any restore).
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, SnapshotError> {
        let malformed = |m: &str| SnapshotError::Malformed(m.to_string());
        let rest = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| malformed("these bytes are not a codemode run snapshot"))?;
        let (version, rest) = rest.split_at_checked(4).ok_or_else(|| malformed("truncated header"))?;
        let version = u32::from_le_bytes([version[0], version[1], version[2], version[3]]);
        if version != VERSION {
            return Err(SnapshotError::OtherBuild(format!(
                "run-state version {version}, this build reads {VERSION}"
            )));
        }
        let (package, rest) = part(rest)?;
        if package != PACKAGE.as_bytes() {
            return Err(SnapshotError::OtherBuild(format!(
                "saved by codemode {}, this is {PACKAGE}",
                String::from_utf8_lossy(package)
            )));
        }
        let (run, rest) = part(rest)?;
        let (vm, rest) = part(rest)?;
        if !rest.is_empty() {
            return Err(malformed("bytes after the end of the snapshot"));
        }
        let run: RunState =
            postcard::from_bytes(run).map_err(|e| SnapshotError::Malformed(format!("run state: {e}")))?;
        let vm = Vm::from_bytes(vm).map_err(|e| {
            if e.contains("another build") {
                SnapshotError::OtherBuild(e)
            } else {
                SnapshotError::Malformed(e)
            }
        })?;
        Ok(Snapshot { run, vm: VmState::Decoded(Box::new(vm)) })
    }

    /// The state as JSON, for inspection: the run state and the whole VM (heap, frames, calls).
    pub fn to_json(&self) -> Result<Json, SnapshotError> {
        let vm = match &self.vm {
            VmState::Bytes(bytes) => {
                std::borrow::Cow::Owned(Vm::from_bytes(bytes).map_err(SnapshotError::Malformed)?)
            }
            VmState::Decoded(vm) => std::borrow::Cow::Borrowed(vm.as_ref()),
        };
        let vm = serde_json::to_value(vm.as_ref()).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        let run = serde_json::to_value(&self.run).map_err(|e| SnapshotError::Malformed(e.to_string()))?;
        Ok(serde_json::json!({ "run": run, "vm": vm }))
    }

    /// The VM, decoded.
    pub(crate) fn into_vm(self) -> Result<(RunState, Vm), SnapshotError> {
        let vm = match self.vm {
            VmState::Bytes(bytes) => Vm::from_bytes(&bytes).map_err(SnapshotError::Malformed)?,
            VmState::Decoded(vm) => *vm,
        };
        Ok((self.run, vm))
    }
}

/// One length-prefixed part of the bytes.
fn part(bytes: &[u8]) -> Result<(&[u8], &[u8]), SnapshotError> {
    let malformed = || SnapshotError::Malformed("truncated snapshot".into());
    let (len, rest) = bytes.split_at_checked(8).ok_or_else(malformed)?;
    let mut n = [0u8; 8];
    n.copy_from_slice(len);
    let len = usize::try_from(u64::from_le_bytes(n)).map_err(|_| malformed())?;
    rest.split_at_checked(len).ok_or_else(malformed)
}

/// `CODEMODE_ROUNDTRIP=1`: every run is saved to bytes and restored into a new VM after every
/// slice (every host call and every few thousand steps), to prove that nothing in a run's
/// state lives outside its saved form.
pub(crate) fn roundtrip_enabled() -> bool {
    static ENABLED: LazyLock<bool> =
        LazyLock::new(|| std::env::var("CODEMODE_ROUNDTRIP").is_ok_and(|v| v == "1"));
    *ENABLED
}
