// Doubling a string until it cannot grow: a catchable RangeError.
// expect: value "RangeError"
// timeout-ms: 10000
// memory-limit: 64MiB
let s = "x"; try { for (;;) s = s + s; } catch (e) { return e.name; }
