// Hashing a long Map key is charged.
// expect: error TimeoutExceeded
// timeout-ms: 1000
const k = "x".repeat(20 * 1024 * 1024); const m = new Map(); m.set(k, 1); let n = 0; while (true) { n += m.get(k); }
