// Recursion under a huge max-call-depth meets the memory limit with its frames and registers counted at their real size (issue 36: 497 MiB under a 256 MiB limit before).
// expect: value "RangeError"
// timeout-ms: 20000
// memory-limit: 64MiB
// max-call-depth: 1000000000
function f(n) { return n === 0 ? 0 : 1 + f(n - 1); }
try { return f(1e8); } catch (e) { return e.name; }
