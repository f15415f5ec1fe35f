//! `codemode-compiler`: IR → register-machine bytecode.
//!
//! `codegen` walks the IR of each function and emits instructions, allocating registers; the
//! instructions, the verifier and the disassembler live in `codemode-bytecode` (re-exported here
//! as [`bytecode`], [`verify`] and [`disasm`]). [`compile`] returns a [`VerifiedModule`].

mod codegen;

pub use codegen::{CompileError, compile};
pub use codemode_bytecode as bytecode;
pub use codemode_bytecode::{Module, VerifiedModule, disasm, verify};
