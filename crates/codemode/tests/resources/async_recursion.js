// Unbounded async recursion through await: suspended frames and their promises are charged.
// expect: any
// timeout-ms: 2000
// memory-limit: 64MiB
async function f(n) { await null; return f(n + 1); } return await f(0);
