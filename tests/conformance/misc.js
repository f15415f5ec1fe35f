const o = { toString() { return "custom"; } };
const nums = [3, 1, 2];
let total = 0;
for (const i in nums) total += Number(i);
for (const k in { a: 1, b: 2 }) total += k.length;
const fib = n => n < 2 ? n : fib(n - 1) + fib(n - 2);
var hoisted = typeof laterFn;
function laterFn() {}
const bound = function (x) { return this.v + x; }.bind({ v: 10 });
const called = Math.max.apply(null, [1, 5, 3]);
const tagless = ((a, b) => a * b).call(null, 6, 7);
return [total, fib(15), hoisted, bound(5), called, tagless, void 0, (1, 2), !!"", +true, -"3", typeof null, [] instanceof Array, Number.isInteger(5.0), (25).toString(2), (255).toString(16), (3.14159).toFixed(2), parseInt("08"), parseFloat("3.5e2x")];
