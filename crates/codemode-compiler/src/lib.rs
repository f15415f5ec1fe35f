//! `codemode-compiler`: IR → register-machine bytecode.
//!
//! - [`bytecode`]: the opcode table and compiled units (the contract with the VM);
//! - `codegen`: walks the IR of each function and emits instructions, allocating registers;
//! - [`disasm`]: a stable textual disassembly for snapshot tests and debugging.

pub mod bytecode;
mod codegen;
pub mod disasm;
pub mod verify;

pub use bytecode::Module;
pub use codegen::{CompileError, compile};
