//! Prints the IR dump (or the error) of a file: `cargo run --example dump -- file.js`.
use codemode_syntax::Dump;
fn main() {
    let Some(path) = std::env::args().nth(1) else { return eprintln!("usage: dump FILE") };
    match std::fs::read_to_string(&path) {
        Ok(source) => match codemode_syntax::compile_to_ir(&source) {
            Ok(program) => print!("{}", program.dump()),
            Err(error) => println!("{error:?}"),
        },
        Err(error) => eprintln!("{path}: {error}"),
    }
}
