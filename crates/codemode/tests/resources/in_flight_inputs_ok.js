// Inputs are charged only while their calls last: 200 calls with a 2 MB argument, each awaited before the next, stay within a 64 MiB limit.
// expect: value 200
// timeout-ms: 20000
// memory-limit: 64MiB
const big = "x".repeat(2e6);
let n = 0;
for (let i = 0; i < 200; i++) { await tools.demo.sleep({ ms: 0, pad: big }); n++; }
return n;
