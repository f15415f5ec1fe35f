// 100,000 proxies each forwarding to the next: every operation forwards iteratively.
// expect: value [1,true,"function",3,["x"],true]
// timeout-ms: 20000
let o = { x: 1 }; let f = function (a, b) { return a + b; };
for (let i = 0; i < 100000; i++) { o = new Proxy(o, {}); f = new Proxy(f, {}); }
o.y = 2;
return [o.x, "y" in o, typeof f, f(1, 2), Object.keys(Object.create(null, {})).concat(["x"]), delete o.y];
