// The last callback of map/filter/forEach/reduce over an array finishes the loop in place: the
// loop's value must reach the caller exactly as the ordinary return would deliver it.
const log = [];
const xs = [1, 2, 3, 4];

log.push(xs.map(x => x * 2), xs.filter(x => x % 2 === 0), xs.filter(x => x > 3), xs.filter(x => x > 9));
log.push(xs.reduce((a, x) => a + x, 0), xs.reduceRight((a, x) => a + "" + x, ""), [7].reduce((a, x) => a + x));
let seen = 0;
const fe = xs.forEach(x => { seen += x; });
log.push(fe === undefined, seen);

// Nested loops: the inner loop finishes inside the outer loop's callback.
log.push(xs.map(x => xs.filter(y => y <= x).map(y => y * x)));
log.push([[1, 2], [3], []].map(row => row.reduce((a, b) => a + b, 0)));

// A map whose array shrank pads its result to the starting length.
const shrink = [1, 2, 3, 4, 5];
log.push(shrink.map((x, i, arr) => { if (i === 1) arr.length = 3; return x * 10; }));
// A filter whose last element is kept or dropped; the element as it was given.
const objs = [{ k: 1 }, { k: 2 }];
const kept = objs.filter(o => o.k === 2);
log.push(kept[0] === objs[1], kept.length);

// Called through call/apply/Reflect (the loop's value goes to a built-in first).
log.push(Array.prototype.map.call(xs, x => x + 1), Reflect.apply(Array.prototype.filter, xs, [x => x < 3]));
log.push([1, 2, 3].map(x => x).map(x => x * 3).reduce((a, b) => a + b));

// Inside async functions and generators, and with an await after the loop.
async function inAsync() {
  const a = xs.map(x => x - 1);
  await null;
  return a.reduce((s, x) => s + x, 100);
}
function* inGenerator() {
  yield xs.filter(x => x & 1);
  yield xs.reduce((a, x) => a * x, 1);
}
log.push(await inAsync(), [...inGenerator()]);

// The last callback throws: the loop does not finish, the throw reaches the caller.
try {
  xs.map(x => { if (x === 4) throw new Error("last"); return x; });
} catch (e) {
  log.push(e.message);
}
// Results used in expressions directly, with a loop in a default parameter.
const f = (arr = xs.map(x => x * x)) => arr.reduce((a, b) => a + b);
log.push(f(), xs.map(x => x).length + xs.filter(Boolean).length);
return log;
