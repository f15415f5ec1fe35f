// Member names are copied every time a shared object is reached at the boundary: a DAG of one
// object with a 1 MB name, 3,000 times, is charged for its names and ends by the memory limit.
// expect: error ExecutionFailure Out of memory
// memory-limit: 64MiB
const o = { ["x".repeat(1e6)]: 1 };
return (await tools.demo.echo(Array(3000).fill(o))).length;
