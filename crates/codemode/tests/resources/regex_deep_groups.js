// Deeply nested groups are refused or compiled, never a crash.
// expect: error ExecutionFailure SyntaxError
// timeout-ms: 10000
const r = new RegExp("(".repeat(5000) + "a" + ")".repeat(5000)); return r.test("a");
