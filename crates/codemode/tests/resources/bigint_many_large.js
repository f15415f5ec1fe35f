// Keeping many of the largest BigInts runs out of memory (a RangeError), not the host.
// expect: value "RangeError"
// timeout-ms: 10000
// memory-limit: 64MiB
const a = []; const big = 2n ** 1000000n;
try { for (;;) a.push(big + BigInt(a.length)); } catch (e) { return e.name; }
