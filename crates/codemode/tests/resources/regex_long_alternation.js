// A 300,000-alternative pattern is refused with a SyntaxError (the regex compiler recursed per alternative and aborted the host).
// expect: error ExecutionFailure SyntaxError
// timeout-ms: 10000
const r = new RegExp("a|".repeat(300000) + "b"); return r.test("b");
