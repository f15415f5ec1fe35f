//! Prints the IR dump (or the error) of a file: `cargo run --example dump -- file.js`.

use std::io::Write as _;

use codemode_syntax::Dump;

fn main() {
    let Some(path) = std::env::args().nth(1) else { return eprintln!("usage: dump FILE") };
    let text = match std::fs::read_to_string(&path) {
        Ok(source) => match codemode_syntax::compile_to_ir(&source) {
            Ok(program) => program.dump(),
            Err(error) => format!("{error:?}\n"),
        },
        Err(error) => return eprintln!("{path}: {error}"),
    };
    // A closed pipe (`| head`) is not worth a panic.
    let _ = std::io::stdout().write_all(text.as_bytes());
}
