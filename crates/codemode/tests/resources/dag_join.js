// Joining a DAG of shared arrays: the string is bounded and charged as it grows.
// expect: any
// timeout-ms: 5000
// memory-limit: 64MiB
let a = [1]; for (let i = 0; i < 30; i++) a = [a, a]; try { return String(a).length; } catch (e) { return e.name; }
