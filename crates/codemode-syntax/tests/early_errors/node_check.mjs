// Checks `cases.txt` against Node: every error case must be a SyntaxError when compiled as a
// script (`vm.Script`, which compiles without running), every `ok` case must compile.
// Usage: node crates/codemode-syntax/tests/early_errors/node_check.mjs
import { readFileSync } from "node:fs";
import vm from "node:vm";

const text = readFileSync(new URL("./cases.txt", import.meta.url), "utf8");
const cases = [];
for (const line of text.split("\n")) {
  if (line.startsWith("=== ")) cases.push({ expected: line.slice(4), program: "" });
  else if (cases.length > 0) cases[cases.length - 1].program += line + "\n";
}
let failed = 0;
for (const { expected, program } of cases) {
  let error = null;
  try {
    new vm.Script(program);
  } catch (e) {
    error = e;
  }
  const ok = expected === "ok" ? error === null : error instanceof SyntaxError;
  if (!ok) {
    failed++;
    console.log(`MISMATCH (expected ${expected}):\n${program}node: ${error ? error.message : "compiled"}\n`);
  }
}
console.log(`${cases.length - failed}/${cases.length} cases agree with Node ${process.version}`);
process.exit(failed ? 1 : 0);
