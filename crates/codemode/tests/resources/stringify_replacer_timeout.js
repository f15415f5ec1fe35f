// JSON.stringify with a replacer function over a large value stops at the time limit: each call of the replacer is a call like any other, so the deadline applies between them (issue 36: 4.3 s under a 1 s timeout).
// expect: error TimeoutExceeded
// memory-limit: 512MiB
// timeout-ms: 1000
const big = new Array(1e6).fill(0);
return JSON.stringify(big, (k, v) => { for (let i = 0; i < 200; i++); return v; }).length;
