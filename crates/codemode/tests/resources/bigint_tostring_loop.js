// Converting the largest BigInt to decimal again and again is charged: the run times out.
// expect: error TimeoutExceeded
// timeout-ms: 2000
// memory-limit: 64MiB
const x = 2n ** 1048000n - 1n; let n = 0; for (;;) n += String(x).length; return n;
