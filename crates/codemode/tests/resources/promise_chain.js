// An endless chain of then() on a settled promise: queued jobs and reactions are charged.
// expect: any
// timeout-ms: 2000
// memory-limit: 64MiB
let p = Promise.resolve(); for (;;) p = p.then(() => {});
