// Tool calls left in flight each hold a copy of their input in the host: 200 calls with a 20 MB argument would hold 4 GB. Each input is charged until its call ends, so the program meets the memory limit.
// expect: error ExecutionFailure Out of memory
// timeout-ms: 20000
// memory-limit: 64MiB
const big = "x".repeat(20e6);
const calls = [];
for (let i = 0; i < 200; i++) calls.push(tools.demo.sleep({ ms: 2000, pad: big }));
await Promise.all(calls);
return calls.length;
