// One global replace whose every search nearly exhausts the backtracking budget: the budget is per call.
// expect: error ExecutionFailure too complex
// timeout-ms: 5000
const s = ("a".repeat(21) + "!ab").repeat(3000); return s.replace(/(a+)+b/g, "x").length;
