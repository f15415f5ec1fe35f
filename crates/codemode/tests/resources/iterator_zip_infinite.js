// Iterator.zip (longest) and zipKeyed over iterators that never end, stepped by loops that keep
// nothing: the run must end at its deadline, neither running on nor growing toward the memory
// limit (each round's array is garbage at once).
// expect: error TimeoutExceeded
// timeout-ms: 1000
// memory-limit: 64MiB
function* naturals() { let i = 0; while (true) yield i++; }
const endless = { next() { return { value: 0, done: false }; } };
let n = 0;
for (const [a, b] of Iterator.zip([naturals(), endless, []], { mode: "longest" })) n += a + b;
for (const row of Iterator.zipKeyed({ a: naturals(), b: endless })) n += row.a;
return n;
