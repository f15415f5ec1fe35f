//! Measures the stack `compile_to_ir` (plus `dump`) needs for deeply nested input, to check the
//! nesting limits against real stack sizes after changing the lowering.
//!
//! `cargo run -p codemode-syntax --example stack_depth -- KIND DEPTH STACK_BYTES`
//! runs one compile on a thread with that stack; a stack overflow aborts the process (which is
//! the measurement). A shell loop that bisects STACK_BYTES gives the stack a construct needs.
//! KIND is one of the names in `source_for`.
use codemode_syntax::Dump;

fn source_for(kind: &str, n: usize) -> Option<String> {
    Some(match kind {
        "parens" => format!("x = {}1{}", "(".repeat(n), ")".repeat(n)),
        "arrays" => format!("x = {}{}", "[".repeat(n), "]".repeat(n)),
        "objects" => format!("x = {}1{}", "{a:".repeat(n), "}".repeat(n)),
        "blocks" => format!("{}{}", "{".repeat(n), "}".repeat(n)),
        "ifs" => format!("{}x;", "if (a)\n".repeat(n)),
        "else_ifs" => format!("if (a) x;{}", " else if (a) x;".repeat(n)),
        "functions" => format!("{}{}", "function f() {".repeat(n), "}".repeat(n)),
        "arrows" => format!("x = {}1", "a => ".repeat(n)),
        "member_chain" => format!("x = a{}", ".b".repeat(n)),
        "binary_chain" => format!("x = 1{}", " + 1".repeat(n)),
        "templates" => format!("x = {}1{}", "`${".repeat(n), "}`".repeat(n)),
        "array_patterns" => format!("const {}a{} = x", "[".repeat(n), "]".repeat(n)),
        "object_patterns" => format!("const {}a{} = x", "{a:".repeat(n), "}".repeat(n)),
        _ => return None,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, depth, stack] = args.as_slice() else {
        return eprintln!("usage: stack_depth KIND DEPTH STACK_BYTES");
    };
    let (Ok(depth), Ok(stack)) = (depth.parse::<usize>(), stack.parse::<usize>()) else {
        return eprintln!("DEPTH and STACK_BYTES are numbers");
    };
    let Some(source) = source_for(kind, depth) else { return eprintln!("unknown kind {kind}") };
    let spawned = std::thread::Builder::new().stack_size(stack).spawn(move || {
        match codemode_syntax::compile_to_ir(&source) {
            Ok(program) => format!("lowered, dump of {} bytes", program.dump().len()),
            Err(error) => format!("{:?}: {}", error.kind, error.message),
        }
    });
    match spawned.map(|handle| handle.join()) {
        Ok(Ok(outcome)) => println!("{kind} {depth}: {outcome}"),
        _ => println!("{kind} {depth}: failed"),
    }
}
