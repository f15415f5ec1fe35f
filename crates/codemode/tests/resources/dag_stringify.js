// JSON.stringify of a DAG of shared arrays is charged per node as it is built (it took 24 GB).
// expect: value "RangeError"
// timeout-ms: 5000
// memory-limit: 64MiB
let a = [1]; for (let i = 0; i < 30; i++) a = [a, a]; try { return JSON.stringify(a).length; } catch (e) { return e.name; }
