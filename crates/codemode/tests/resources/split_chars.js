// split("") of a long string is charged before it is built.
// expect: value "RangeError"
// timeout-ms: 10000
// memory-limit: 64MiB
const s = "ab".repeat(8 * 1024 * 1024); try { return s.split("").length; } catch (e) { return e.name; }
