// Cloning until memory runs out: a catchable RangeError, the copies charged as they are made.
// expect: value "RangeError"
// timeout-ms: 10000
// memory-limit: 64MiB
const big = [];
for (let i = 0; i < 10000; i++) big.push({ i, s: "x", a: [i] });
const keep = [];
try { for (;;) keep.push(structuredClone(big)); } catch (e) { return e.name; }
