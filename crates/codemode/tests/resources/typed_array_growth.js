// Keeping ever more buffers alive runs out of memory, caught.
// expect: value "RangeError"
// timeout-ms: 10000
// memory-limit: 64MiB
const kept = [];
try { for (;;) kept.push(new Uint8Array(1 << 20)); } catch (e) { return e.name; }
