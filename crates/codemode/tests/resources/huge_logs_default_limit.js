// Logs up to the default memory limit: the result that carries them is not copied again on the
// way out (an awaited execution kept a second copy of its result, doubling the peak).
// expect: error ExecutionFailure Out of memory
// timeout-ms: 20000
const s = "x".repeat(10 * 1024 * 1024); for (let i = 0; i < 30; i++) console.log(s); return 1;
