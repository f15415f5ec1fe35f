// Logs are charged to the memory limit.
// expect: error ExecutionFailure Out of memory
// timeout-ms: 10000
// memory-limit: 64MiB
const s = "x".repeat(10 * 1024 * 1024); for (let i = 0; i < 30; i++) console.log(s); return 1;
