// Writing millions of distinct keys runs out of memory, not the host (names are charged).
// expect: error ExecutionFailure Out of memory
// timeout-ms: 20000
// memory-limit: 32MiB
const o = {}; for (let i = 0; i < 1e9; i++) { o["name_" + i] = 1; delete o["name_" + i]; } return 1;
