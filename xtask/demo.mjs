// The demo tools, console and result boundary shared by the Node oracles
// (xtask/conformance/run.mjs and xtask/forms/run.mjs): the JavaScript twin of
// `crates/codemode/src/demo.rs` and of codemode's console formatting.

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

export function makeConsole(logs) {
  const line = prefix => (...vals) => {
    logs.push(prefix + vals.map(formatArg).join(" "));
  };
  return { log: line(""), info: line(""), warn: line("[warn] "), error: line("[error] "), debug: line("[debug] ") };
}

/**
 * The result boundary: JSON.stringify semantics, except that Errors become `{ name, message, ...own }`
 * (as the reference runtime does; see shared seeds/README.md).
 */
export function boundaryReplacer(_key, v) {
  return v instanceof Error ? { name: v.name, message: v.message, ...v } : v;
}
