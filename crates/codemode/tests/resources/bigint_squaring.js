// Squaring a BigInt in a loop ends at the size cap with a catchable RangeError, quickly.
// expect: value "RangeError"
// timeout-ms: 2000
// memory-limit: 64MiB
let x = 3n; try { for (;;) x = x * x; } catch (e) { return e.name; }
