use swc_common::BytePos;
use swc_ecma_parser::{Parser, StringInput, Syntax, TsSyntax, lexer::Lexer};
use codemode_syntax::Dump;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args[1].clone();
    let n: usize = args[2].parse().unwrap();
    let stack: usize = args[3].parse().unwrap();
    let src = match kind.as_str() {
        "paren" => format!("{}1{}", "(".repeat(n), ")".repeat(n)),
        "not" => format!("x = {}1", "!".repeat(n)),
        "neg" => format!("x = {}1", "- ".repeat(n)),
        "cond" => format!("x = {}1", "a ? b : ".repeat(n)),
        "assign" => format!("{}1", "a = ".repeat(n)),
        "arrow" => format!("{}1", "a => ".repeat(n)),
        "add" => format!("x = 1{}", " + 1".repeat(n)),
        "exp" => format!("x = 1{}", " ** 1".repeat(n)),
        "member" => format!("x = a{}", ".b".repeat(n)),
        "call" => format!("x = a{}", "()".repeat(n)),
        "ifelse" => format!("{}x;", "if (a) x; else ".repeat(n)),
        "if" => format!("{}x;", "if (a) ".repeat(n)),
        "label" => (0..n).map(|i| format!("l{i}: ")).collect::<String>() + "x;",
        "await" => format!("x = {}1", "await ".repeat(n)),
        "new" => format!("x = {}a", "new ".repeat(n)),
        "generic" => format!("let x: {}number{} = 1", "Array<".repeat(n), ">".repeat(n)),
        "union" => format!("let x: {}number = 1", "number | ".repeat(n)),
        "array" => format!("x = {}{}", "[".repeat(n), "]".repeat(n)),
        "obj" => format!("x = {}1{}", "{a:".repeat(n), "}".repeat(n)),
        "blocks" => format!("{}{}", "{".repeat(n), "}".repeat(n)),
        "ifs" => format!("{}x;", "if (a)\n".repeat(n)),
        "fns" => format!("{}{}", "function f() {".repeat(n), "}".repeat(n)),
        "arrfn" => format!("x = {}1{}", "f(() => ".repeat(n), ")".repeat(n)),
        "elseif" => format!("if (a) x;{}", " else if (a) x;".repeat(n)),
        "destr" => format!("const {}a{} = x", "[".repeat(n), "]".repeat(n)),
        "destro" => format!("const {}a{} = x", "{a:".repeat(n), "}".repeat(n)),
        "exp" => format!("x = 1{}", " ** 1".repeat(n)),
        "as" => format!("x = 1{}", " as any".repeat(n)),
        "nonnull" => format!("x = a{}", "!".repeat(n)),
        "keyof" => format!("let x: {}T = 1", "keyof ".repeat(n)),
        "arrtype" => format!("let x: number{} = 1", "[]".repeat(n)),
        "optchain" => format!("x = a{}", "?.b".repeat(n)),
        "union" => format!("let x: {}T = 1", "A | ".repeat(n)),
        "fntype" => format!("let x: {}T = 1", "() => ".repeat(n)),
        "nullish" => format!("x = a{}", " ?? a".repeat(n)),
        "comma" => format!("x = (a{})", ", a".repeat(n)),
        "typeofT" => format!("let x: {}T = 1", "typeof ".repeat(n)),
        "inst" => format!("x = a{}", " instanceof b".repeat(n)),
        "readonly" => format!("let x: {}T = 1", "readonly ".repeat(n)),
        "unique" => format!("let x: {}T = 1", "unique ".repeat(n)),
        "neg" => format!("x = {}1", "- ".repeat(n)),
        "spread" => format!("f({}x)", "...".repeat(n)),
        "condtype" => format!("let x: {}T = 1", "A extends B ? C : ".repeat(n)),
        "tmpl" => format!("x = {}1{}", "`${".repeat(n), "}`".repeat(n)),
        _ => panic!(),
    };
    let full = args.get(4).is_some();
    let src = if full { src } else { format!("async function __m(){{\n{src}\n}}") };
    let h = std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            if full {
                let r = codemode_syntax::compile_to_ir(&src);
                let n = r.as_ref().map(|p| p.dump().len()).unwrap_or(0);
                return (r.is_ok(), n);
            }
            let input = StringInput::new(&src, BytePos(1), BytePos(1 + src.len() as u32));
            let lexer = Lexer::new(Syntax::Typescript(TsSyntax::default()), Default::default(), input, None);
            let mut p = Parser::new_from(lexer);
            let r = p.parse_script();
            let ok = r.is_ok();
            let errs = p.take_errors();
            drop(r);
            (ok, errs.len())
        })
        .unwrap();
    println!("{kind} {n}: {:?}", h.join());
}
