// JSON.stringify of a 10M-element array with a replacer: the walk's index keys are made as it goes and its slots are charged before they are reserved (the keys of every index were built whole first: 702 MiB under a 512 MiB limit).
// expect: error ExecutionFailure Out of memory
// memory-limit: 512MiB
// timeout-ms: 5000
const big = new Array(1e7).fill(0);
return JSON.stringify(big, (k, v) => v).length;
