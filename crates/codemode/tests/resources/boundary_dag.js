// A DAG of shared arrays expands exponentially into JSON at the boundary: charged per node.
// expect: error ExecutionFailure RangeError
// timeout-ms: 10000
// memory-limit: 64MiB
let a = [1]; for (let i = 0; i < 23; i++) a = [a, a]; return await tools.demo.echo({ value: a });
