// Arrays iterate through Array.prototype[Symbol.iterator] when a program replaced or deleted it (spread, for-of, destructuring), and through an array's own [Symbol.iterator].
const out = [];
const a = [1, 2, 3];
out.push([...a].join(), Array.from(a).length);
for (const x of a) out.push(x);
const [p, q] = a; out.push(p + q);
const saved = Array.prototype[Symbol.iterator];
Array.prototype[Symbol.iterator] = function* () { yield "patched"; };
out.push([...a].join());
for (const x of a) out.push(x);
delete Array.prototype[Symbol.iterator];
try { const [x] = a; out.push("no error"); } catch (e) { out.push(e.constructor.name); }
try { for (const x of a) {} } catch (e) { out.push(e.constructor.name); }
Array.prototype[Symbol.iterator] = saved;
const own = [7, 8]; own[Symbol.iterator] = function* () { yield "own"; };
out.push([...own].join(), [...a].join());
class MyArr extends Array {}
out.push([...MyArr.from([4, 5])].join());
return out;
