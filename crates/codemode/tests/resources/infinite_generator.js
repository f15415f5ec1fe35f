// An infinite generator consumed by an infinite loop runs out of time (yield and resume are metered).
// expect: error TimeoutExceeded
// timeout-ms: 1000
// memory-limit: 64MiB
function* naturals() { let i = 0; while (true) yield i++; }
let s = 0;
for (const x of naturals()) s += x;
return s;
