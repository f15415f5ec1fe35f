// Growing an array forever: out of memory, caught.
// expect: value "RangeError"
// timeout-ms: 10000
// memory-limit: 64MiB
const a = []; try { for (let i = 0; ; i++) a.push(i); } catch (e) { return e.name; }
