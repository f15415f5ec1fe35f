// The demo tools, console and result boundary shared by the Node oracles
// (xtask/conformance/run.mjs and xtask/forms/run.mjs): the JavaScript twin of
// `crates/codemode/src/demo.rs` and of codemode's console formatting.

import { Console } from "node:console";
import { Writable } from "node:stream";

/** A JSON copy, as every value crossing the tool boundary is plain data. */
const copy = v => (v === undefined ? null : JSON.parse(JSON.stringify(v)));

/** Resolves on a later macrotask, as a host call completes after the VM has run out of work. */
const later = (fn) =>
  new Promise((resolveP, rejectP) =>
    setImmediate(() => {
      try {
        resolveP(fn());
      } catch (e) {
        rejectP(e);
      }
    }),
  );

function digitsOf(id) {
  const d = String(id ?? "").replace(/[^0-9]/g, "");
  return d === "" ? 0 : Number(d);
}

/** The demo tools, exactly as `crates/codemode/src/demo.rs` and `benches/workloads/README.md` describe. */
export function makeTools() {
  return {
    orders: {
      lookup: input =>
        later(() => {
          const { id } = copy(input);
          const n = digitsOf(id);
          return { id, status: n % 2 === 0 ? "open" : "complete", total: ((n * 17) % 100) + 0.5, customer: "c" + (n % 5) };
        }),
    },
    data: {
      records: input =>
        later(() => {
          const { n } = copy(input);
          const records = [];
          for (let i = 0; i < n; i++) {
            records.push({
              id: i,
              title: "Record " + i,
              status: ["open", "closed", "pending"][i % 3],
              owner: "user" + (i % 40),
              tags: i % 4 === 0 ? ["priority", "x"] : ["y"],
              score: (i * 37) % 101,
              meta: { created: "2024-01-01T00:00:00Z", n: i },
            });
          }
          return { records };
        }),
    },
    demo: {
      echo: value => later(() => copy(value)),
      fail: input =>
        later(() => {
          throw new Error(copy(input).message);
        }),
      sleep: input =>
        new Promise(r => {
          const { ms, value } = copy(input);
          setTimeout(() => r(value === undefined ? null : value), ms);
        }),
    },
  };
}

/** codemode's console formatting: strings as is, other values as JSON text, `undefined` as `undefined`. */
export function formatArg(v) {
  if (typeof v === "string") return v;
  const s = JSON.stringify(v);
  return s === undefined ? "undefined" : s;
}

/** Node's own rendering of `console.table`, captured as text (codemode draws the same box). */
function nodeTable(...args) {
  let text = "";
  const sink = new Writable({ write(chunk, _enc, done) { text += chunk; done(); } });
  new Console({ stdout: sink, stderr: sink, colorMode: false }).table(...args);
  return text.replace(/\n$/, "");
}

export function makeConsole(logs) {
  // Node's group indentation (two spaces a level, on every line of a message); `count`, `assert`
  // and `table` as Node writes them. `time`/`trace`/`dir` print run-dependent text: tested in Rust.
  // Every method returns `undefined`, as Node's do.
  let indent = "";
  const counts = new Map();
  const push = (prefix, text) => {
    logs.push(prefix + indent + text.split("\n").join("\n" + indent));
  };
  const line = prefix => (...vals) => push(prefix, vals.map(formatArg).join(" "));
  const log = line("");
  const group = (...labels) => {
    if (labels.length > 0) log(...labels);
    indent += "  ";
  };
  const label = l => (l === undefined ? "default" : `${l}`);
  return {
    log, info: log, warn: line("[warn] "), error: line("[error] "), debug: line("[debug] "),
    group, groupCollapsed: group, groupEnd: () => { indent = indent.slice(2); },
    count: l => { const k = label(l); counts.set(k, (counts.get(k) ?? 0) + 1); push("", `${k}: ${counts.get(k)}`); },
    countReset: l => { const k = label(l); if (counts.has(k)) counts.set(k, 0); },
    assert: (cond, ...data) => {
      if (cond) return;
      const head = data.length === 0 ? "Assertion failed" : `Assertion failed: ${data[0]}`;
      push("[warn] ", [head, ...data.slice(1).map(formatArg)].join(" "));
    },
    table: (...args) => push("", nodeTable(...args)),
  };
}

/**
 * The result boundary: JSON.stringify semantics, except that Errors become `{ name, message, ...own }`
 * (as the reference runtime does; see shared seeds/README.md).
 */
export function boundaryReplacer(_key, v) {
  return v instanceof Error ? { name: v.name, message: v.message, ...v } : v;
}
