const fns = [];
for (var i = 0; i < 3; i++) fns.push(() => i);
const fns2 = [];
for (let i = 0; i < 3; i++) { fns2.push(() => i); i += 0; }
let x = 10;
function outer() { let x = 1; return function inner() { x++; return x; }; }
const inc = outer();
inc(); inc();
const counter = (() => { let c = 0; return { up: () => ++c, get: () => c }; })();
counter.up(); counter.up(); counter.up();
return [fns.map(f => f()), fns2.map(f => f()), inc(), x, counter.get()];
