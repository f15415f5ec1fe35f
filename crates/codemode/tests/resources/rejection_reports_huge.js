// A thousand unhandled rejections with a 20 MB reason: only the 100 reports kept are formatted, each cut to 4,096 characters (issue 36: 14 GB and no end before).
// expect: value "done"
// timeout-ms: 5000
const reason = "R".repeat(2e7);
for (let i = 0; i < 1000; i++) Promise.reject(reason);
return "done";
