//! IR → bytecode.
use crate::bytecode::Module;
use codemode_syntax::ir::Program;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    pub message: String,
    pub span: codemode_syntax::Span,
}

pub fn compile(_program: &Program) -> Result<Module, CompileError> {
    Err(CompileError { message: "todo".into(), span: Default::default() })
}
