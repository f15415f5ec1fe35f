// Node oracle for the program-forms corpus (tests/forms).
//
// Every `tests/forms/NAME.js` / `NAME.ts` is a program in a shape models hand in (a markdown fence
// with prose around it, a whole-program arrow, `export default`, `main();` last, a final expression,
// TypeScript...). This script applies codemode's rules for those shapes in Node, runs the program with
// the demo tools (xtask/demo.mjs) and writes the expected outcome to `NAME.json`:
//
//   {"ok":true,"value":<JSON value>,"logs":[...]}
//   {"ok":false,"error":"<Error name; 'Uncaught' for a thrown non-Error>","logs":[...]}
//   {"ok":false,"kind":"InvalidDataValue","logs":[...]}      (binary data in the result)
//
// The rules, in order (each one a few lines below, in `normalize`):
//   1. A markdown fence (any language tag, prose before/after): the program is the fenced text.
//   2. `.ts`: types are erased by TypeScript's own `transpileModule` (tests/forms/node_modules).
//   3. `export` before a declaration is dropped; `export { ... }` lists are dropped.
//   4. `export default E` is the result: E is awaited, and called first when it is a function.
//   5. A program that is exactly one function (an arrow or function expression, or one function
//      declaration) is called with no arguments; its awaited result is the result.
//   6. Otherwise the value of a final expression statement is the result (REPL rule).
//   The program is the body of an async function, so what it returns is awaited (a rejection fails
//   the run); the result then crosses the JSON boundary (`toResult`).
//
// Usage: node xtask/forms/run.mjs [--check] [--show NAME]
//   --check      compare with the checked-in .json files instead of writing them; exit 1 on a difference.
//   --show NAME  print the JavaScript the rules turn NAME into, and its outcome.

import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { makeTools, makeConsole, boundaryReplacer } from "../demo.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, "..", "..", "tests", "forms");
const ts = createRequire(join(dir, "package.json"))("typescript");
const args = process.argv.slice(2);
const check = args.includes("--check");
const show = args.includes("--show") ? args[args.indexOf("--show") + 1] : null;

const AsyncFunction = (async () => {}).constructor;

// Node 20 lacks two built-ins models use (Node 21/22 have them); small versions of the specified behaviour.
Object.groupBy ??= (items, key) => {
  const out = Object.create(null);
  let i = 0;
  for (const item of items) (out[key(item, i++)] ??= []).push(item);
  return out;
};
Array.fromAsync ??= async (items, map) => {
  const out = [];
  let i = 0;
  for await (const item of items) out.push(map ? await map(item, i++) : item);
  return out;
};

/** Rule 1: the text of the first fenced block, or the whole source when there is no fence. */
function stripFence(source) {
  const lines = source.split("\n");
  const open = lines.findIndex(l => /^\s*```/.test(l));
  if (open < 0) return source;
  const close = lines.findIndex((l, i) => i > open && /^\s*```\s*$/.test(l));
  return lines.slice(open + 1, close < 0 ? lines.length : close).join("\n");
}

/** Rule 2: TypeScript's output for the program, types erased, everything else kept (ES2022). */
function eraseTypes(source) {
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleDetection: ts.ModuleDetectionKind.Force,
  };
  return ts.transpileModule(source, { compilerOptions: options }).outputText;
}

const hasModifier = (node, kind) => (ts.getModifiers?.(node) ?? []).some(m => m.kind === kind);
const unparen = e => (ts.isParenthesizedExpression(e) ? unparen(e.expression) : e);
const isFunctionExpr = e => ts.isArrowFunction(unparen(e)) || ts.isFunctionExpression(unparen(e));

/** Rules 3-6 on JavaScript text: returns the body of the async function that runs the program. */
function applyRules(js) {
  const file = ts.createSourceFile("program.js", js, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const stmts = file.statements;
  const edits = []; // [start, end, replacement], non-overlapping
  const text = node => js.slice(node.getStart(file), node.end);
  let tail = "";
  // Top-level statements other than `export { ... }` lists (rule 3).
  const kept = stmts.filter(s => {
    if (ts.isExportDeclaration(s) && !s.moduleSpecifier) {
      edits.push([s.getStart(file), s.end, ""]);
      return false;
    }
    return true;
  });
  for (const s of kept) {
    if (ts.isExportAssignment(s) && !s.isExportEquals) {
      // Rule 4: `export default E`.
      edits.push([s.getStart(file), s.end, `return __callIfFunction((${text(s.expression)}));`]);
    } else if (hasModifier(s, ts.SyntaxKind.ExportKeyword)) {
      const mods = ts.getModifiers(s).filter(m => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword);
      const isDefault = mods.some(m => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (isDefault && ts.isFunctionDeclaration(s) && s.name) {
        // Rule 4: `export default function run() {...}` is declared, then called.
        edits.push([mods[0].getStart(file), mods[mods.length - 1].end, ""]);
        tail = `\nreturn ${s.name.text}();`;
      } else if (isDefault) {
        // Rule 4: `export default function () {...}` / `export default class {...}`.
        edits.push([mods[0].getStart(file), mods[mods.length - 1].end, "const __default = "]);
        tail = "\nreturn __callIfFunction(__default);";
      } else {
        // Rule 3: `export const x = ...`, `export function f() {}`.
        edits.push([mods[0].getStart(file), mods[mods.length - 1].end, ""]);
      }
    }
  }
  const only = kept.length === 1 ? kept[0] : null;
  const last = kept[kept.length - 1];
  if (only && ts.isExpressionStatement(only) && isFunctionExpr(only.expression)) {
    // Rule 5: a whole-program arrow or function expression.
    edits.push([only.getStart(file), only.end, `return (${text(only.expression)})();`]);
  } else if (only && ts.isFunctionDeclaration(only) && only.name && !hasModifier(only, ts.SyntaxKind.ExportKeyword)) {
    // Rule 5: one function declaration and nothing else.
    tail = `\nreturn ${only.name.text}();`;
  } else if (last && ts.isExpressionStatement(last)) {
    // Rule 6: the final expression statement's value.
    edits.push([last.getStart(file), last.end, `return (${text(last.expression)});`]);
  }
  let out = js;
  for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0])) {
    out = out.slice(0, start) + replacement + out.slice(end);
  }
  return out + tail;
}

function normalize(file, source) {
  const program = stripFence(source);
  return applyRules(file.endsWith(".ts") ? eraseTypes(program) : program);
}

class InvalidDataValue extends Error {}

/** Awaits the promises (and thenables) inside plain objects and arrays of the result. */
async function settle(v) {
  if (v !== null && (typeof v === "object" || typeof v === "function") && typeof v.then === "function") {
    return settle(await v);
  }
  if (Array.isArray(v)) return Promise.all(v.map(settle));
  if (v !== null && typeof v === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(v))) {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = await settle(x);
    return out;
  }
  return v;
}

/** The result boundary: JSON.stringify semantics, Errors as {name, message, ...own}, URLSearchParams
 * as its query string, binary data refused. */
function toResult(v) {
  const json = JSON.stringify(v, function (key, x) {
    const raw = this[key];
    if (ArrayBuffer.isView(raw) || raw instanceof ArrayBuffer) throw new InvalidDataValue();
    if (raw instanceof URLSearchParams) return raw.toString();
    return boundaryReplacer(key, x);
  });
  return json === undefined ? null : JSON.parse(json);
}

async function runProgram(body) {
  const logs = [];
  const callIfFunction = v => (typeof v === "function" ? v() : v);
  const fn = new AsyncFunction("tools", "console", "__callIfFunction", '"use strict";\n' + body);
  try {
    const value = await settle(await fn(makeTools(), makeConsole(logs), callIfFunction));
    return { ok: true, value: toResult(value), logs };
  } catch (e) {
    if (e instanceof InvalidDataValue) return { ok: false, kind: "InvalidDataValue", logs };
    return { ok: false, error: e instanceof Error ? e.name : "Uncaught", logs };
  }
}

const isProgram = f => (f.endsWith(".js") || f.endsWith(".ts")) && !f.endsWith(".d.ts");
const files = readdirSync(dir).filter(isProgram).sort();
if (show) {
  const file = files.find(f => f === show || f.replace(/\.[jt]s$/, "") === show);
  const body = normalize(file, readFileSync(join(dir, file), "utf8"));
  console.log(body + "\n----");
  console.log(JSON.stringify(await runProgram(body), null, 2));
  process.exit(0);
}
let changed = 0;
for (const file of files) {
  const body = normalize(file, readFileSync(join(dir, file), "utf8"));
  const out = JSON.stringify(await runProgram(body), null, 2) + "\n";
  const target = join(dir, file.replace(/\.[jt]s$/, ".json"));
  const old = existsSync(target) ? readFileSync(target, "utf8") : null;
  if (old !== out) {
    changed++;
    if (check) console.error(`differs: ${file}`);
    else writeFileSync(target, out);
  }
}
const stems = files.map(f => f.replace(/\.[jt]s$/, ".json"));
const stale = readdirSync(dir).filter(f => f.endsWith(".json") && !f.startsWith("package") && !stems.includes(f));
for (const f of stale) console.error(`stale expectation without a program: ${f}`);
const dupes = stems.filter((s, i) => stems.indexOf(s) !== i);
for (const f of dupes) console.error(`two programs share the expectation ${f}`);
console.log(`${files.length} programs, ${changed} ${check ? "differ" : "written"}`);
if ((check && changed > 0) || stale.length > 0 || dupes.length > 0) process.exit(1);
