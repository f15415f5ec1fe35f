// A tool argument that is a DAG of small objects ({x: v, y: v}, 25 levels) expands at the boundary: every member is charged at what it holds, so the process stays within the limit (issue 36: 610 MiB before its RangeError).
// expect: error ExecutionFailure RangeError
// timeout-ms: 20000
// memory-limit: 64MiB
let v = {}; for (let i = 0; i < 25; i++) v = { x: v, y: v }; return await tools.demo.echo(v);
