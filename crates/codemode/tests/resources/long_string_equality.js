// Comparing two long strings is charged: a loop of comparisons times out on time.
// expect: error TimeoutExceeded
// timeout-ms: 1000
const a = "x".repeat(20 * 1024 * 1024); const b = "x".repeat(20 * 1024 * 1024 - 1) + "x"; let n = 0; while (true) { if (a === b) n++; }
