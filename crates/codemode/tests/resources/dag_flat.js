// flat(Infinity) of a DAG of shared arrays is charged before it is built.
// expect: any
// timeout-ms: 5000
// memory-limit: 64MiB
let a = [1]; for (let i = 0; i < 30; i++) a = [a, a]; try { return a.flat(Infinity).length; } catch (e) { return e.name; }
