// The default sort converts elements to strings: charged.
// expect: any
// timeout-ms: 5000
// memory-limit: 32MiB
const a = []; for (let i = 0; i < 600000; i++) a.push(i * 1.5); try { a.sort(); return a.length; } catch (e) { return e.name; }
