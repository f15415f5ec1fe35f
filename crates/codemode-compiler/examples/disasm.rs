//! Prints the disassembly of a program file: `cargo run -p codemode-compiler --example disasm -- file.js`.

fn main() {
    let Some(path) = std::env::args().nth(1) else { return eprintln!("usage: disasm FILE") };
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => return eprintln!("{path}: {e}"),
    };
    match codemode_syntax::compile_to_ir(&source) {
        Ok(ir) => match codemode_compiler::compile(&ir) {
            Ok(module) => print!("{}", codemode_compiler::disasm::module(&module)),
            Err(e) => eprintln!("{e:?}"),
        },
        Err(e) => eprintln!("{e:?}"),
    }
}
