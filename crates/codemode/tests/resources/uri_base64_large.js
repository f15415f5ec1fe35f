// encodeURIComponent (up to 9x growth) and btoa of long strings are checked against the memory
// limit before their output is built.
// expect: value ["RangeError", "RangeError"]
// timeout-ms: 30000
// memory-limit: 64MiB
const s = "€".repeat(2 * 1024 * 1024);
const t = "\u00ff".repeat(4 * 1024 * 1024);
const out = [];
let keep = [];
try { for (;;) keep.push(encodeURIComponent(s)); } catch (e) { out.push(e.name); }
keep = [];
try { for (;;) keep.push(btoa(t)); } catch (e) { out.push(e.name); }
return out;
