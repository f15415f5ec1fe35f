//! `codemode-bytecode`: the contract between the compiler and the VM.
//!
//! - [`op`]: the instructions ([`Op`]) with the documentation table of operands, effects and fuel,
//!   and the compiled units ([`Module`], [`FunctionCode`]);
//! - [`table`]: each opcode's name, operand kinds and fuel class as data;
//! - [`verify`]: checks every operand of every instruction against the table;
//! - [`disasm`]: the stable textual disassembly used in snapshot tests;
//! - [`VerifiedModule`]: a module that passed the verifier — the only kind the VM accepts, whether
//!   it was just compiled or decoded from a snapshot (decoding verifies again).

pub mod disasm;
pub mod op;
pub mod table;
pub mod verify;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use op::*;
pub use table::{Fuel, OPCODE_NAMES, Operand};

/// The version of the bytecode and snapshot format. Bump it whenever an instruction, a constant,
/// the module layout or the VM's saved state changes shape: a snapshot of another version is
/// refused instead of misread.
pub const FORMAT_VERSION: u32 = 13;

/// A module the verifier accepted. Cheap to clone (shared); serialized as the module itself and
/// verified again when decoded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Module", into = "Module")]
pub struct VerifiedModule(Arc<Module>);

impl VerifiedModule {
    /// Verifies `module`; the error names the function and instruction at fault.
    pub fn new(module: Module) -> Result<VerifiedModule, String> {
        verify::verify(&module)?;
        Ok(VerifiedModule(Arc::new(module)))
    }

    pub fn module(&self) -> &Module {
        &self.0
    }
}

impl std::ops::Deref for VerifiedModule {
    type Target = Module;

    fn deref(&self) -> &Module {
        &self.0
    }
}

impl TryFrom<Module> for VerifiedModule {
    type Error = String;

    fn try_from(module: Module) -> Result<Self, String> {
        VerifiedModule::new(module)
    }
}

impl From<VerifiedModule> for Module {
    fn from(m: VerifiedModule) -> Module {
        Arc::unwrap_or_clone(m.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documentation table in `op.rs` lists every opcode (and nothing else).
    #[test]
    fn the_doc_table_lists_every_opcode() {
        let doc = include_str!("op.rs");
        let rows: Vec<&str> = doc.lines().filter_map(|l| l.strip_prefix("//! | `")).collect();
        let mut documented: Vec<String> = Vec::new();
        for row in rows {
            let first = row.split(" |").next().unwrap_or("");
            for name in first.split(" / ") {
                documented.push(name.trim_matches('`').to_string());
            }
        }
        for name in OPCODE_NAMES {
            assert!(documented.iter().any(|d| d == name), "opcode {name} is missing from the table in op.rs");
        }
        for d in &documented {
            assert!(OPCODE_NAMES.contains(&d.as_str()), "the table in op.rs lists {d}, which is no opcode");
        }
    }

    /// Every operand the verifier can reject is rejected when out of range.
    #[test]
    fn the_verifier_checks_operands_by_kind() {
        let function = FunctionCode {
            name: None,
            param_count: 0,
            rest: None,
            arguments: None,
            register_count: 2,
            is_async: true,
            is_generator: false,
            is_arrow: false,
            class_kind: crate::ClassKind::None,
            length: 0,
            code: vec![Op::Return { src: 0 }],
            constants: vec![Constant::Number(1.0)],
            handlers: Vec::new(),
            captures: Vec::new(),
            lines: Vec::new(),
            callee_names: Vec::new(),
            span: Span::default(),
        };
        let with = |op: Op| {
            let mut f = function.clone();
            f.code.insert(0, op);
            VerifiedModule::new(Module { functions: vec![f] })
        };
        assert!(with(Op::Move { dst: 1, src: 0 }).is_ok());
        assert!(with(Op::Move { dst: 2, src: 0 }).is_err());
        assert!(with(Op::Call { dst: 0, callee: 0, this: 0, args: 1, argc: 2 }).is_err());
        assert!(with(Op::LoadConst { dst: 0, k: 1 }).is_err());
        assert!(with(Op::GetGlobal { dst: 0, k: 0 }).is_err(), "k0 is a number, not a name");
        assert!(with(Op::Jump { target: 3 }).is_err());
        assert!(with(Op::Closure { dst: 0, func: 1 }).is_err());
        assert!(VerifiedModule::new(Module { functions: Vec::new() }).is_err());
        let decoded: Result<VerifiedModule, _> = serde_json::from_str(r#"{"functions":[]}"#);
        assert!(decoded.is_err(), "decoding verifies");
    }
}
