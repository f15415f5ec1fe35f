// Promises created in a loop without awaiting: memory-bounded, ends by timeout or out of memory.
// expect: error any
// timeout-ms: 1000
// memory-limit: 32MiB
const ps = []; for (;;) ps.push(new Promise(() => {}));
