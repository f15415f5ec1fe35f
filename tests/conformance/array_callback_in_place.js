// Loop callbacks that go on to the next element restart their frame in place: every call must
// still be a fresh call (fresh registers and cells, its own arguments, defaults, `this`).
const log = [];
const a = [1, 2, 3, 4];

// Each call gets fresh registers: a `let` without initializer and a closure per call.
const fns = a.map((x, i) => { let fresh; const seen = fresh; return () => [x, i, seen]; });
log.push(fns.map(f => f()));

// Defaults apply per call; the third argument is the array.
log.push(a.map(function (x, i = 99, arr, extra = "d") { return [x, i, arr === a, extra]; }));

// `this` of a function callback (thisArg) and of an arrow (lexical) stay the same each call.
const ctx = { k: 10 };
log.push(a.map(function (x) { return x + this.k; }, ctx));
log.push([5, 6].map(x => typeof this));

// `arguments` and rest parameters.
log.push(a.map(function () { return arguments.length + ":" + arguments[0]; }));
log.push(a.map((...r) => r.length));

// The array growing and shrinking under the loop.
const grow = [1, 2, 3];
log.push(grow.map((x, i, arr) => { if (i === 0) arr.push(100); return x * 2; }), grow.length);
const shrink = [1, 2, 3, 4, 5];
const visited = [];
shrink.forEach((x, i, arr) => { visited.push(x); if (i === 1) arr.length = 3; });
log.push(visited);
const shrinkRight = [1, 2, 3, 4, 5];
log.push(shrinkRight.reduceRight((acc, x, i, arr) => { if (i === 4) arr.length = 2; return acc + ":" + x; }, "r"));
const emptied = [1, 2, 3].map((x, i, arr) => { arr.length = 0; return x * 10; });
log.push(emptied.length, emptied);
const seenFind = [];
[1, 2, 3, 4].find((x, i, arr) => { seenFind.push(x); if (i === 0) arr.length = 2; return false; });
const seenFindLast = [];
[1, 2, 3, 4, 5].findLast((x, i, arr) => { seenFindLast.push(x); if (i === 4) arr.length = 2; return false; });
log.push(seenFind, seenFindLast);

// Early answers, and loops that end after the first element.
log.push(a.find(x => x > 2), a.findIndex(x => x > 2), a.findLast(x => x < 3), a.findLastIndex(x => x < 3));
log.push(a.some(x => x === 3), a.every(x => x < 3), a.every(x => x < 10), a.some(x => x > 10));
log.push([7].map(x => x + 1), [].map(x => x), [1, 2].filter(x => x % 2));

// Reduce in both directions, with and without an initial value.
log.push(a.reduce((s, x, i) => s + x * i), a.reduce((s, x) => s + "," + x, ""), a.reduceRight((s, x) => s * 10 + x));

// Nested loops calling the same callback.
const deep = x => (Array.isArray(x) ? x.map(deep).reduce((s, y) => s + y, 0) : x);
log.push(deep([1, [2, [3, 4]], [5], [[6, [7]]]]));

// A bound callback, a callback that throws part way, a callback that stops being callable.
const bound = function (p, x) { return p + x; }.bind(null, "b");
log.push(a.map(bound));
try {
  a.map((x, i) => { if (i === 2) throw new RangeError("at " + x); return x; });
} catch (e) {
  log.push(e.name + " " + e.message);
}
let calls = 0;
const counted = a.filter(x => { calls++; return x & 1; });
log.push(counted, calls);

// Generators and async functions as callbacks are ordinary calls.
log.push(a.map(function* (x) { yield x; }).map(g => g.next().value));
const promised = await Promise.all(a.map(async x => x * 3));
log.push(promised);

// A long loop (many restarts) with objects built per call.
const big = Array.from({ length: 5000 }, (_, i) => i);
const objs = big.map(i => ({ i, sq: i * i })).filter(o => o.sq % 7 === 1);
log.push(objs.length, objs[objs.length - 1]);
return log;
