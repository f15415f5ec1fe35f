//! `compile_to_ir` never panics and never overflows the stack, whatever the input: it returns a
//! program or a diagnostic with a sane location.

use codemode_syntax::Dump;
use codemode_syntax::{MAX_NESTING, compile_to_ir};

fn tricky_inputs() -> Vec<String> {
    let mut inputs: Vec<String> = [
        "",
        " ",
        "\n\n",
        "\u{feff}",
        "\u{feff}1",
        "```",
        "```js",
        "```js\n```",
        "```ts\n\n```",
        "``` js\nreturn 1\n```",
        "}",
        ")",
        "]",
        "{",
        "(",
        "[",
        "`",
        "`${",
        "`${}`",
        "'",
        "\"",
        "/",
        "/*",
        "//",
        "/[/",
        "x = /[/]/",
        "a /* } */ b",
        "}{",
        "})({",
        "async () => {",
        "async () => { }",
        "async () => { })()",
        // swc asserts (a debug assertion) on an arrow after a non-parameter in a list.
        "(a, 1 => 1)",
        "(a, x.y => 1)",
        "(a, \"s\" => 1)",
        "f((a, b\n=> c))",
        "(async () => {})",
        "(async () => {})()()",
        "await (async () => 1)()",
        "() => 1",
        "async function* g() {}",
        "function* g() { yield 1 }",
        "return",
        "return;;;",
        "break",
        "continue",
        "foo: break foo;",
        "x: while (1) continue y;",
        "await",
        "await;",
        "let",
        "let let = 1",
        "const",
        "const x",
        "let x; let x;",
        "var x; let x;",
        "function f(a, a) {}",
        "function f(a) { let a; }",
        "try {} catch (e) { let e; }",
        "try {} catch (e) { var e = 1; }",
        "({ a = 1 })",
        "({ a = 1 } = {})",
        "[a, ...b, c] = x",
        "[...a, ...b] = x",
        "({...a, b} = x)",
        "f(...)",
        "new",
        "new.target",
        "super.x",
        "super()",
        "import.meta",
        "import('x')",
        "import x from 'y'",
        "export default 1",
        "export {}",
        "#x in y",
        "a?.b = 1",
        "a?.b++",
        "delete a?.b",
        "delete x",
        "delete (x)",
        "delete 1",
        "x++ ++",
        "1 = 2",
        "(a, b) = 1",
        "for (let of of of) {}",
        "for (const x of y) const z = 1;",
        "for (var i = 0, j = 0;;) break;",
        "for (let [a, b] = [1, 2];;) break;",
        "for (x in y) ;",
        "for (a.b of c) ;",
        "for ([a, b] of c) ;",
        "for ({a} of c) ;",
        "for (let x = 1 of y) ;",
        "for await (const x of y) ;",
        "with (x) {}",
        "label: function f() {}",
        "if (a) function f() {}",
        "switch (x) { case 1: function f() {} case 2: f(); }",
        "switch (x) { case 1: let y = 1; break; default: y; }",
        "debugger;",
        ";",
        ";;",
        "1n",
        "({ [1n]: 1 })",
        "enum E { A }",
        "namespace N {}",
        "declare namespace N {}",
        "declare module 'x' {}",
        "declare enum E { A }",
        "declare const x: number; x",
        "declare function f(): void; f()",
        "function f(): void; function f() {} f()",
        "interface I { a: string }",
        "type T = { a: string }",
        "abstract class A {}",
        "@dec class A {}",
        "class A { constructor(private x: number) {} }",
        "let x = <any>1",
        "let x = 1 as const",
        "let x = y!",
        "let x = y satisfies T",
        "f<string>(1)",
        "const f = <T,>(x: T) => x",
        "let x: Array<Array<number>> = []",
        "x = a < b > c",
        "<div></div>",
        "using x = y",
        "const { a: { b: [c = 1, , ...d] = [] } = {}, ...e } = x",
        "this",
        "arguments",
        "() => arguments",
        "function f() { return () => () => this.x + arguments[0] }",
        "const f = function g() { g = 1; return g }",
        "const f = function arguments() { return arguments }",
        "x = function () {}.name",
        "'\\u{D800}'",
        "`\\u{D800}`",
        "'\\uD800'",
        "x = 1e400",
        "x = 0x",
        "x = 1_000",
        "x = .5",
        "x = 5.",
        "x = 0b101 + 0o17",
        "ğ = 1; ğ",
        "\u{2028}x\u{2029}",
        "x = '\u{2028}'",
        "a\r\nb\rc",
        "\t\t\tlet\ty\t=\t1",
        "😀",
        "x = '😀'; y",
        "/*😀*/ z",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();

    // Every prefix of a realistic program: truncated model output.
    let program = "```ts\nconst orders = await tools.orders.list({ status: 'open' } as any);\nlet total = 0;\nfor (const { amount = 0, ...rest } of orders ?? []) {\n  if (amount > 10) { total += amount; } else continue;\n}\nconst byId = Object.fromEntries(orders.map((o: any) => [o.id, o]));\ntry { await tools.audit.log({ total }) } catch { /* ignore */ } finally { total ||= 0 }\nswitch (total) { case 0: break; default: total **= 2 }\n`total: ${total}`\n```";
    for (index, _) in program.char_indices() {
        inputs.push(program[..index].to_owned());
    }

    // Nesting right around the limit, of every kind the pre-scan and the passes count.
    for depth in [MAX_NESTING - 2, MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1] {
        inputs.push(format!("x = {}1{}", "(".repeat(depth), ")".repeat(depth)));
        inputs.push(format!("x = {}{}", "[".repeat(depth), "]".repeat(depth)));
        inputs.push(format!("{}{}", "{".repeat(depth), "}".repeat(depth)));
        inputs.push(format!("x = {}1", "a => ".repeat(depth)));
        inputs.push(format!("x = {}1", "-".repeat(depth)));
        inputs.push(format!("x = a{}", ".b".repeat(depth)));
        inputs.push(format!("x = 1{}", " + 1".repeat(depth)));
        inputs.push(format!("if (a) x;{}", " else if (a) x;".repeat(depth)));
        inputs.push(format!("const {}a{} = x", "[".repeat(depth), "]".repeat(depth)));
        inputs.push(format!("const {}a{} = x", "{a:".repeat(depth), "}".repeat(depth)));
        inputs.push(format!("{}{}", "function f() {".repeat(depth), "}".repeat(depth)));
        inputs.push(format!("x = {}1{}", "f(() => ".repeat(depth / 2), ")".repeat(depth / 2)));
        inputs.push(format!("x = {}1", "new ".repeat(depth)));
        inputs.push(format!("x = {}1", "typeof ".repeat(depth)));
        inputs.push(format!("{}x;", "while (a)\n".repeat(depth)));
    }
    inputs
}

/// Random token soup: mostly invalid programs, some valid ones, from a fixed seed.
fn random_programs() -> Vec<String> {
    const TOKENS: &[&str] = &[
        "let ",
        "const ",
        "var ",
        "x",
        "y",
        "f",
        "tools",
        ".a",
        "?.",
        "?.[",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "=>",
        "=",
        "+=",
        "??=",
        "&&",
        "||",
        "??",
        "+",
        "-",
        "*",
        "**",
        "!",
        "typeof ",
        "delete ",
        "void ",
        "await ",
        "new ",
        "function ",
        "async ",
        "return ",
        "if ",
        "else ",
        "for ",
        "of ",
        "in ",
        "while ",
        "do ",
        "switch ",
        "case ",
        "default",
        ":",
        "break ",
        "continue ",
        "try ",
        "catch ",
        "finally ",
        "throw ",
        "this",
        "arguments",
        ";",
        ",",
        "...",
        "1",
        "0.5",
        "'s'",
        "`t${",
        "`",
        "}`",
        "/re/g",
        "null",
        "undefined",
        "true",
        "class ",
        "yield ",
        "label: ",
        "\n",
        " as any",
        "!",
        ": number",
        "<T>",
        "#p",
        "get ",
        "set ",
        "static ",
        "super",
        "import ",
        "export ",
        "1n",
        "?",
        "++",
        "--",
        "with ",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..3000)
        .map(|_| {
            let len = (next() % 40) as usize;
            (0..len).map(|_| TOKENS[(next() % TOKENS.len() as u64) as usize]).collect::<String>()
        })
        .collect()
}

#[test]
fn lowering_never_panics_on_random_token_soup() {
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let mut lowered = 0;
            for input in random_programs() {
                if compile_to_ir(&input).map(|program| program.dump()).is_ok() {
                    lowered += 1;
                }
            }
            lowered
        })
        .unwrap_or_else(|error| panic!("spawn: {error}"));
    match handle.join() {
        // Some of the soup is valid: the test exercises the lowering, not only the parser.
        Ok(lowered) => assert!(lowered > 0),
        Err(_) => panic!("compile_to_ir panicked"),
    }
}

/// A tiny random generator of mostly valid programs, so that the lowering (not only the parser)
/// sees unusual combinations of scopes, closures, patterns and control flow.
struct Generator {
    state: u64,
    names: &'static [&'static str],
}

impl Generator {
    fn next(&mut self, bound: usize) -> usize {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        (self.state % bound.max(1) as u64) as usize
    }

    fn name(&mut self) -> &'static str {
        self.names[self.next(self.names.len())]
    }

    fn expr(&mut self, depth: usize) -> String {
        if depth == 0 {
            return match self.next(5) {
                0 => self.next(100).to_string(),
                1 => format!("'s{}'", self.next(10)),
                2 => "this".into(),
                3 => "arguments".into(),
                _ => self.name().into(),
            };
        }
        let d = depth - 1;
        match self.next(16) {
            0 => format!("({} + {})", self.expr(d), self.expr(d)),
            1 => format!("{}?.{}", self.expr(d), self.name()),
            2 => format!("{}({})", self.name(), self.expr(d)),
            3 => format!("(({}) => {})", self.name(), self.expr(d)),
            4 => format!("(async () => {{ {} }})", self.stmt(d)),
            5 => {
                format!("function {}({} = {}) {{ {} }}", self.name(), self.name(), self.expr(d), self.stmt(d))
            }
            6 => format!("[{}, ...{}]", self.expr(d), self.expr(d)),
            7 => format!(
                "{{ {}: {}, [{}]: 1, get g() {{ return {} }} }}",
                self.name(),
                self.expr(d),
                self.expr(d),
                self.expr(d)
            ),
            8 => format!("`t${{{}}}`", self.expr(d)),
            9 => format!("({} = {})", self.name(), self.expr(d)),
            10 => format!("({} ??= {})", self.name(), self.expr(d)),
            11 => format!("[{}] = [{}]", self.name(), self.expr(d)),
            12 => format!("typeof {}", self.name()),
            13 => format!("await {}", self.expr(d)),
            14 => format!("({} ? {} : {})", self.expr(d), self.expr(d), self.expr(d)),
            _ => format!("{}++", self.name()),
        }
    }

    fn stmt(&mut self, depth: usize) -> String {
        if depth == 0 {
            return format!("{};", self.expr(0));
        }
        let d = depth - 1;
        match self.next(14) {
            0 => format!("let {} = {};", self.name(), self.expr(d)),
            1 => format!("const {{ {}, ...{} }} = {};", self.name(), self.name(), self.expr(d)),
            2 => format!("var {} = {};", self.name(), self.expr(d)),
            3 => format!("if ({}) {{ {} }} else {{ {} }}", self.expr(d), self.stmt(d), self.stmt(d)),
            4 => format!(
                "for (let {} = 0; {} < 3; {}++) {{ {} }}",
                self.name(),
                self.name(),
                self.name(),
                self.stmt(d)
            ),
            5 => format!(
                "for (const [{}, {}] of {}) {{ {} }}",
                self.name(),
                self.name(),
                self.expr(d),
                self.stmt(d)
            ),
            6 => format!(
                "try {{ {} }} catch ({}) {{ {} }} finally {{ {} }}",
                self.stmt(d),
                self.name(),
                self.stmt(d),
                self.stmt(d)
            ),
            7 => {
                format!("switch ({}) {{ case 1: {} default: {} }}", self.expr(d), self.stmt(d), self.stmt(d))
            }
            8 => format!("function {}() {{ {} return {}; }}", self.name(), self.stmt(d), self.expr(d)),
            9 => format!("l: while ({}) {{ {} break l; }}", self.expr(d), self.stmt(d)),
            10 => format!("{{ {} {} }}", self.stmt(d), self.stmt(d)),
            11 => format!("return {};", self.expr(d)),
            12 => format!("do {{ {} continue; }} while ({});", self.stmt(d), self.expr(d)),
            _ => format!("{};", self.expr(d)),
        }
    }
}

#[test]
fn lowering_never_panics_on_generated_programs() {
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let mut generator =
                Generator { state: 0x2545_f491_4f6c_dd1d, names: &["a", "b", "c", "f", "x", "tools"] };
            let mut lowered = 0;
            for _ in 0..400 {
                let program: String = (0..4).map(|_| generator.stmt(4)).collect::<Vec<_>>().join("\n");
                if compile_to_ir(&program).map(|program| program.dump()).is_ok() {
                    lowered += 1;
                }
            }
            lowered
        })
        .unwrap_or_else(|error| panic!("spawn: {error}"));
    match handle.join() {
        // The generator is sloppy (redeclarations, statements where expressions go), so many
        // programs are rejected; enough of them must lower to exercise the lowering.
        Ok(lowered) => assert!(lowered >= 50, "only {lowered} of 400 generated programs lowered"),
        Err(_) => panic!("compile_to_ir panicked"),
    }
}

#[test]
fn lowering_never_panics() {
    // A 2 MiB stack, the default of spawned threads and tokio workers.
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            for input in tricky_inputs() {
                let line_count = u32::try_from(input.lines().count().max(1)).unwrap_or(u32::MAX);
                match compile_to_ir(&input) {
                    Ok(program) => {
                        assert!(!program.functions.is_empty(), "{input:?}");
                        let _ = program.dump();
                    }
                    Err(error) => {
                        assert!(error.span.line >= 1 && error.span.column >= 1, "{input:?}: {error:?}");
                        assert!(error.span.line <= line_count + 1, "{input:?}: {error:?}");
                        assert!(!error.message.is_empty(), "{input:?}");
                    }
                }
            }
        })
        .unwrap_or_else(|error| panic!("spawn: {error}"));
    if handle.join().is_err() {
        panic!("compile_to_ir panicked");
    }
}
