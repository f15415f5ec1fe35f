//! Activation records. The interpreter keeps every activation in `Vm::frames` (a plain vector)
//! and all registers in one `Vm::stack`: a JavaScript call pushes a frame and never recurses
//! through Rust.

use codemode_bytecode::Reg;
use serde::{Deserialize, Serialize};

use crate::builtins::Cont;
use crate::value::{ObjId, Value};

/// Where a finished activation's value goes, and what a throw escaping it does.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum ReturnTo {
    /// Into this register of the JavaScript frame below.
    Reg(Reg),
    /// Into the native continuation frame below.
    Native,
    /// Resolve this promise with the value; a throw rejects it instead of propagating.
    Settle(ObjId),
    /// `new F(..)` : the frame below gets the returned object, or `this` when the function did not
    /// return an object. `super_call`: it goes on as [`ReturnTo::SuperResult`] instead of into the
    /// register (a base class constructed by `super(...)`).
    Construct { dst: Reg, this: ObjId, new_target: ObjId, super_call: bool },
    /// A derived class's constructor: `this` is whatever its `super(...)` bound, read from the
    /// frame when it returns.
    ConstructDerived { dst: Reg, new_target: ObjId, super_call: bool },
    /// A built-in parent constructor called by `super(...)`: its object gets `proto` (the
    /// derived class's prototype), then goes on as [`ReturnTo::SuperResult`].
    SuperNative { dst: Reg, proto: ObjId },
    /// The result of `super(...)`: becomes `this` of the JavaScript frame below (once) and the
    /// value of the register.
    SuperResult(Reg),
    /// Nobody waits (a reaction without a derived promise).
    Discard,
    /// Nobody waits for the value, but a throw rejects this promise (a thenable's `then`).
    RejectOnThrow(ObjId),
    /// A fused compare-and-jump of the JavaScript frame below, finished after user conversions:
    /// a falsy value sends it to the target.
    JumpUnless(u32),
    /// The frame of this running generator: a return finishes it (`{ value, done: true }` to
    /// whoever resumed it), a throw finishes it and goes on to that caller.
    Generator(ObjId),
    /// `[Symbol.iterator]()` of a for-of or destructuring: the iterator, once checked
    /// (`user_iter.rs`), goes into this register of the JavaScript frame below.
    Iterator(Reg),
    /// A program-defined iterator's `next()`: its value goes into `dst` of the JavaScript frame
    /// below, or, when done, that frame jumps to `target`.
    IterStep { dst: Reg, target: u32 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsFrame {
    pub func: u32,
    pub pc: u32,
    /// Index of register 0 in `Vm::stack`.
    pub base: u32,
    pub this: Value,
    /// The closure being run (its captures); `None` for the top-level script.
    pub closure: Option<ObjId>,
    /// Where the value goes. For an async function this is where its promise goes, at its first
    /// `await` or when it finishes, whichever comes first (then `Discard`).
    pub ret: ReturnTo,
    /// An async function's promise, settled by its return or throw.
    pub async_promise: Option<ObjId>,
}

/// A built-in that called back into JavaScript (`map`, `sort`, ...) and waits for the result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NativeFrame {
    pub cont: Cont,
    pub ret: ReturnTo,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Frame {
    Js(JsFrame),
    Native(NativeFrame),
}

impl Frame {
    /// Rust data sized by the program that a built-in's frame holds ([`crate::builtins::Cont::held_bytes`]).
    pub fn held_bytes(&self) -> usize {
        match self {
            Frame::Js(_) => 0,
            Frame::Native(f) => f.cont.held_bytes(),
        }
    }
}

/// An async function suspended at `await`: its frame and a copy of its registers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedFrame {
    pub frame: JsFrame,
    pub registers: Vec<Value>,
    /// The register that receives the awaited value on resumption.
    pub await_dst: Reg,
}
