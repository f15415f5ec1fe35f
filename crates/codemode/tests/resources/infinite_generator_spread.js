// Spreading an infinite generator stops at the memory limit or the deadline, whichever comes first.
// expect: error any
// timeout-ms: 2000
// memory-limit: 64MiB
function* naturals() { let i = 0; while (true) yield i++; }
return [...naturals()].length;
