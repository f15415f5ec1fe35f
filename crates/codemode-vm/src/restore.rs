//! Restoring a VM from saved state: decoding verifies the state as it verifies bytecode.
//!
//! **A VM decoded from bytes is checked before it exists.** [`Vm`]'s `Deserialize` goes through
//! [`SavedVm`] and [`Vm::check_restored`]: the format version matches, the module verifies (by
//! [`VerifiedModule`]'s own decoding), built-ins are named by stable names that this build has,
//! every frame's function, pc and register window fit the module and the stack, and every
//! object, string and cell id reachable from anywhere is a live slot and every property key an
//! interned name. A bad snapshot is a decoding error, never a panic later.

use std::collections::VecDeque;

use codemode_bytecode::{FORMAT_VERSION, VerifiedModule};
use serde::Deserialize;

use crate::frame::Frame;
use crate::gc::Marks;
use crate::heap::Heap;
use crate::host::HostState;
use crate::object::ObjKind;
use crate::promise::Job;
use crate::realm::Realm;
use crate::value::{Atom, ObjId, Value};
use crate::{Status, Vm, VmConfig};

/// The wire form of a [`Vm`]: the same fields, unchecked.
#[derive(Deserialize)]
pub(crate) struct SavedVm {
    pub(crate) format: u32,
    pub(crate) module: VerifiedModule,
    pub(crate) config: VmConfig,
    pub(crate) heap: Heap,
    pub(crate) realm: Realm,
    pub(crate) stack: Vec<Value>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) jobs: VecDeque<Job>,
    pub(crate) main_promise: ObjId,
    pub(crate) host: HostState,
    pub(crate) fuel: i64,
    pub(crate) rng: u64,
    pub(crate) logs: Vec<String>,
    #[serde(default)]
    pub(crate) log_tally: crate::output::LogTally,
    #[serde(default)]
    pub(crate) console: crate::output::ConsoleState,
    pub(crate) rejected_unhandled: Vec<ObjId>,
    pub(crate) throw_location: Option<(u32, u32)>,
    pub(crate) finished: Option<Status>,
    pub(crate) parked: Option<Value>,
    #[serde(with = "crate::value::json_text")]
    pub(crate) result_json_value: Option<serde_json::Value>,
}

impl TryFrom<SavedVm> for Vm {
    type Error = String;

    fn try_from(s: SavedVm) -> Result<Vm, String> {
        if s.format != FORMAT_VERSION {
            return Err(format!("snapshot format {} is not this build's format {FORMAT_VERSION}", s.format));
        }
        let mut heap = s.heap;
        // Derived state the serialized form does not carry.
        heap.retrigger();
        let vm = Vm {
            format: s.format,
            module: s.module,
            config: s.config,
            heap,
            realm: s.realm,
            stack_charged: s.stack.capacity(),
            stack: s.stack,
            frame_room: 0,
            frames: s.frames,
            jobs: s.jobs,
            main_promise: s.main_promise,
            host: s.host,
            fuel: s.fuel,
            rng: s.rng,
            logs: s.logs,
            log_tally: s.log_tally,
            console: s.console,
            rejected_unhandled: s.rejected_unhandled,
            throw_location: s.throw_location,
            finished: s.finished,
            result_json_value: s.result_json_value,
            parked: s.parked,
            result_note: None,
            pending_promises: usize::MAX,
            replays: Vec::new(),
            native_depth: 0,
            args_pool: Vec::new(),
            loop_box: None,
            method_cache: Default::default(),
            gc_marks: Default::default(),
        };
        vm.check_restored()?;
        Ok(vm)
    }
}

impl Vm {
    /// Checks every index the interpreter trusts (see the module docs).
    fn check_restored(&self) -> Result<(), String> {
        let functions = &self.module.functions;
        if self.realm.consts.len() != functions.len() || self.realm.const_atoms.len() != functions.len() {
            return Err("the constants do not match the module".into());
        }
        let mut window_end = 0usize;
        for (i, frame) in self.frames.iter().enumerate() {
            if let Frame::Js(f) = frame {
                let code = functions
                    .get(f.func as usize)
                    .ok_or_else(|| format!("frame {i}: no function {}", f.func))?;
                let base = f.base as usize;
                if base < window_end || base + code.register_count as usize > self.stack.len() {
                    return Err(format!("frame {i}: register window outside the stack"));
                }
                if f.pc as usize > code.code.len() {
                    return Err(format!("frame {i}: pc {} past the code", f.pc));
                }
                window_end = base + code.register_count as usize;
            }
        }
        self.host.tools.check()?;
        check_free_list("object", &self.heap.objects)?;
        check_free_list("string", &self.heap.strings)?;
        check_free_list("cell", &self.heap.cells)?;
        check_free_list("BigInt", &self.heap.bigints)?;
        // Every id reachable from the roots, and every id held by any live object or cell.
        let mut marks = Marks::default();
        self.push_roots(&mut marks);
        let atoms = self.heap.atoms.count();
        for (i, slot) in self.heap.objects.slots().iter().enumerate() {
            let Some(obj) = slot else { continue };
            self.trace_object(ObjId(i as u32), &mut marks);
            for p in obj.props.iter() {
                if p.key != Atom::DELETED && p.key.0 as usize >= atoms {
                    return Err(format!("object {i}: property key {} is not an interned name", p.key.0));
                }
            }
            if let ObjKind::Url(state) = &obj.kind
                && !state.is_valid()
            {
                return Err(format!("object {i}: a URL whose text is not a URL"));
            }
            let saved = match &obj.kind {
                ObjKind::Coroutine(saved) => Some(saved),
                ObjKind::Generator(state) => state.saved.as_ref(),
                _ => None,
            };
            if let Some(saved) = saved {
                let code = functions
                    .get(saved.frame.func as usize)
                    .ok_or_else(|| format!("object {i}: suspended frame of no function"))?;
                if saved.registers.len() < code.register_count as usize
                    || saved.frame.pc as usize > code.code.len()
                {
                    return Err(format!("object {i}: suspended frame does not fit its function"));
                }
            }
        }
        marks.work.extend(self.heap.cells.slots().iter().flatten().copied());
        for v in &marks.work {
            let live = match *v {
                Value::Obj(id) => matches!(self.heap.objects.slots().get(id.0 as usize), Some(Some(_))),
                Value::ArrayIter(cursor) => {
                    matches!(self.heap.objects.slots().get(cursor.array().0 as usize), Some(Some(_)))
                }
                Value::Str(id) => matches!(self.heap.strings.slots().get(id.0 as usize), Some(Some(_))),
                Value::Cell(id) => matches!(self.heap.cells.slots().get(id.0 as usize), Some(Some(_))),
                Value::BigInt(id) => matches!(self.heap.bigints.slots().get(id.0 as usize), Some(Some(_))),
                Value::Symbol(a) => self.heap.atoms.is_symbol(a),
                _ => true,
            };
            if !live {
                return Err(format!("a saved value refers to a freed or missing heap slot ({v:?})"));
            }
        }
        if !matches!(self.heap.obj_checked(self.main_promise).map(|o| &o.kind), Some(ObjKind::Promise(_))) {
            return Err("the program's promise is missing".into());
        }
        Ok(())
    }
}

/// An arena's free list names each empty slot at most once (allocation reuses them in place).
fn check_free_list<T>(what: &str, arena: &crate::heap::Arena<T>) -> Result<(), String> {
    let mut seen = vec![false; arena.len()];
    for &i in &arena.free {
        match (arena.slots().get(i as usize), seen.get_mut(i as usize)) {
            (Some(None), Some(seen @ false)) => *seen = true,
            _ => return Err(format!("the {what} free list names slot {i}, which is not a free slot")),
        }
    }
    Ok(())
}
