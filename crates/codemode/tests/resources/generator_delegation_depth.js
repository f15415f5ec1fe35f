// Unbounded yield* delegation is bounded by the call depth: a catchable RangeError.
// expect: value "RangeError"
// timeout-ms: 2000
function* down(n) { yield* down(n + 1); }
try { return [...down(0)].length; } catch (e) { return e.name; }
