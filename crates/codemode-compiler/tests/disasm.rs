//! Snapshot tests of the bytecode disassembly over the programs in `tests/cases/*.js`.
//! Each snapshot is the stable text of `codemode_compiler::disasm::module`; review changes to
//! them like code: they are the compiler's output.

use std::path::Path;

#[test]
fn disassembly_of_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("cases dir").flatten().map(|e| e.path()).collect();
    files.sort();
    assert!(files.len() >= 8, "expected the case files in {}", dir.display());
    for path in files {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("case").to_string();
        let source = std::fs::read_to_string(&path).expect("readable");
        let ir = codemode_syntax::compile_to_ir(&source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let module = codemode_compiler::compile(&ir).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        insta::assert_snapshot!(name, codemode_compiler::disasm::module(&module));
    }
}
