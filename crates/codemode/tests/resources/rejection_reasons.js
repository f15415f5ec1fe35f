// Unhandled rejections with huge reasons: the warnings are bounded.
// expect: value 1
// timeout-ms: 10000
// memory-limit: 64MiB
const big = { s: "x".repeat(4 * 1024 * 1024) }; for (let i = 0; i < 200; i++) Promise.reject(big); return 1;
