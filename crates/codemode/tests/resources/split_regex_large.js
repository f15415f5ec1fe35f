// A regex split into millions of pieces: the pieces are counted against memory before they are built, and a simple pattern is not cut short by the backtracking budget.
// expect: error ExecutionFailure Out of memory
// timeout-ms: 5000
// memory-limit: 64MiB
return "a,".repeat(4e6).split(/,/).length;
