// Node oracle for the conformance suite.
//
// Runs every `tests/conformance/NAME.js` program body in Node (20+) inside an `async function` with a
// `tools` object implementing codemode's demo tools (see `crates/codemode/src/demo.rs`) and a captured
// `console`, and writes the expected outcome to `NAME.json`:
//
//   {"ok":true,"value":<JSON value, undefined -> null, Errors -> {name, message}>,"logs":[...]}
//   {"ok":false,"error":"<Error name, e.g. TypeError; 'Uncaught' for a thrown non-Error>","logs":[...]}
//
// A first line `// time-zone: NAME` runs that program with `TZ=NAME` (codemode: the run's zone).
//
// Usage: node xtask/conformance/run.mjs [--check] [DIR]
//   (default DIR: tests/conformance next to this repository's root)
//   --check  compare with the checked-in .json files instead of writing them; exit 1 on a difference.
//
// Normally run through `cargo xtask conformance --bless`.

import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { makeTools, makeConsole, boundaryReplacer } from "../demo.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const check = args.includes("--check");
const dirArg = args.find(a => !a.startsWith("--"));
const dir = resolve(dirArg ?? join(here, "..", "..", "tests", "conformance"));

const AsyncFunction = (async () => {}).constructor;

async function runProgram(source) {
  const logs = [];
  // Programs are module-like: strict mode, top-level await and return.
  const fn = new AsyncFunction("tools", "console", '"use strict";\n' + source);
  try {
    const value = await fn(makeTools(), makeConsole(logs));
    const json = JSON.stringify(value, boundaryReplacer);
    return { ok: true, value: json === undefined ? null : JSON.parse(json), logs };
  } catch (e) {
    const error = e instanceof Error ? e.name : "Uncaught";
    return { ok: false, error, logs };
  }
}

const files = readdirSync(dir).filter(f => f.endsWith(".js")).sort();
let changed = 0;
for (const file of files) {
  const source = readFileSync(join(dir, file), "utf8");
  // `// time-zone: NAME` on the first line runs the program in that zone (codemode:
  // `ExecuteOptions::time_zone`); every other program in UTC, whatever this machine's zone.
  process.env.TZ = source.match(/^\/\/ time-zone: (\S+)/)?.[1] ?? "UTC";
  const result = await runProgram(source);
  const out = JSON.stringify(result, null, 2) + "\n";
  const target = join(dir, file.replace(/\.js$/, ".json"));
  const old = existsSync(target) ? readFileSync(target, "utf8") : null;
  if (old !== out) {
    changed++;
    if (check) console.error(`differs: ${file}`);
    else writeFileSync(target, out);
  }
}
const stale = readdirSync(dir)
  .filter(f => f.endsWith(".json"))
  .filter(f => !files.includes(f.replace(/\.json$/, ".js")));
for (const f of stale) console.error(`stale expectation without a program: ${f}`);
console.log(`${files.length} programs, ${changed} ${check ? "differ" : "written"}`);
if ((check && changed > 0) || stale.length > 0) process.exit(1);
