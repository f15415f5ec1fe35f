// Typed-array built-ins over a large array charge their work: an endless loop of them times out.
// expect: error TimeoutExceeded
// timeout-ms: 1000
// memory-limit: 128MiB
const big = new Float64Array(1 << 21);
for (;;) { big.fill(1.5); big.sort(); big.indexOf(7); big.slice(1).reverse(); big.join(""); }
