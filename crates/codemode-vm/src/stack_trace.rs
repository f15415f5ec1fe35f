//! Error stacks: the frames an Error records when it is made, and their text.
//!
//! An Error made by the VM or by `new Error()` records up to [`STACK_TRACE_LIMIT`] JavaScript
//! frames (V8's `Error.stackTraceLimit`) as plain data in its [`crate::object::ErrorInfo`]: each
//! frame's function and its line and column in the program. `Error.prototype.stack` (a getter,
//! so it is never an own enumerable property and never reaches a result) renders them as V8
//! does: `TypeError: msg` then `    at f (<program>:3:9)` or `    at <program>:7:1` per frame.
//!
//! The interpreter saves the running frame's pc only at calls and throws, so an error made
//! inside an instruction may see an older pc for its top frame; the first throw corrects it
//! ([`settle_top`]) with the throw's location when the same frame is still on top.

use serde::{Deserialize, Serialize};

use crate::Vm;
use crate::frame::Frame;
use crate::meter::Work;
use crate::object::ErrorInfo;

/// At most this many frames are recorded, as V8's default `Error.stackTraceLimit`.
pub(crate) const STACK_TRACE_LIMIT: usize = 10;

/// The frames an Error recorded, innermost first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StackTrace {
    /// The index in `Vm::frames` of the innermost recorded frame when it was recorded.
    pub top: u32,
    pub frames: Vec<StackFrame>,
}

/// One recorded frame: a function of the module and a 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StackFrame {
    pub func: u32,
    pub line: u32,
    pub column: u32,
}

impl StackTrace {
    /// The heap bytes it holds (charged with its Error).
    pub(crate) fn heap_bytes(&self) -> usize {
        std::mem::size_of::<StackTrace>() + self.frames.capacity() * std::mem::size_of::<StackFrame>()
    }
}

impl Vm {
    /// The JavaScript frames running now, innermost first, at most [`STACK_TRACE_LIMIT`].
    pub(crate) fn capture_stack(&mut self) -> Option<Box<StackTrace>> {
        let mut frames = Vec::new();
        let mut top = None;
        for (i, frame) in self.frames.iter().enumerate().rev() {
            if frames.len() >= STACK_TRACE_LIMIT {
                break;
            }
            let Frame::Js(f) = frame else { continue };
            let Some(code) = self.module.functions.get(f.func as usize) else { continue };
            let span = code.span_at(f.pc.saturating_sub(1) as usize);
            top.get_or_insert(i);
            frames.push(StackFrame { func: f.func, line: span.line, column: span.column });
        }
        self.charge(Work::Elements(frames.len()));
        Some(Box::new(StackTrace { top: u32::try_from(top?).ok()?, frames }))
    }

    /// The `    at …` lines of `trace`, each after a line break.
    pub(crate) fn stack_lines(&self, trace: &StackTrace) -> String {
        let mut out = String::new();
        for frame in &trace.frames {
            let name = match self.module.functions.get(frame.func as usize) {
                Some(code) if frame.func != 0 => code.name.as_deref().unwrap_or(""),
                _ => "",
            };
            let place = format!("<program>:{}:{}", frame.line, frame.column);
            if name.is_empty() {
                out.push_str(&format!("\n    at {place}"));
            } else {
                out.push_str(&format!("\n    at {name} ({place})"));
            }
        }
        out
    }
}

/// At an error's first throw: its innermost frame takes the throw's location when that frame is
/// still the one running (its pc may have been stale when the error was made).
pub(crate) fn settle_top(running: &[Frame], info: &mut ErrorInfo, location: Option<(u32, u32)>) {
    let (Some(trace), Some((line, column))) = (info.stack.as_mut(), location) else { return };
    let top = match running.len().checked_sub(1).map(|i| (i, running.get(i))) {
        Some((i, Some(Frame::Js(f)))) => Some((i, f.func)),
        _ => None,
    };
    if let Some(first) = trace.frames.first_mut()
        && top == Some((trace.top as usize, first.func))
    {
        first.line = line;
        first.column = column;
    }
}
