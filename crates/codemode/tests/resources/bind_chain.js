// 100,000 nested binds, called: unwrapped iteratively.
// expect: value 3
// timeout-ms: 10000
let g = function (a, b) { return a + b; }; for (let i = 0; i < 100000; i++) g = g.bind(null); return g(1, 2)
