// Reads of millions of distinct absent keys do not intern them.
// expect: error TimeoutExceeded
// timeout-ms: 1000
// memory-limit: 64MiB
const o = {}; let n = 0; for (let i = 0; i < 1e9; i++) { if (o["name_" + i] !== undefined) n++; } return n;
