// for-of and array destructuring over plain arrays keep their iterator in a register, not in an
// object: what it does must still be what an array iterator does, across early exits, awaits,
// generators that suspend mid-loop, rest elements and defaults that change the array.
const log = [];

// Once done stays done, even when a default pushes to the array being destructured.
const a = [1];
const [x, y = a.push(5), z] = a;
log.push([x, y, z, a.length]);

// A default that pushes before the iterator is done is seen by the next element.
const b = [undefined];
const [p = b.push(9), q] = b;
log.push([p, q]);

// Rest after some elements, after all of them, and of an empty array.
const [r0, ...rest] = [1, 2, 3, 4];
const [s0, s1, ...none] = [1, 2];
const [...empty] = [];
log.push([r0, rest, s0 + s1, none, empty]);

// Nested patterns over the same array, and the array's holes.
const nested = [[1, [2, 3]], [4, [5, 6]]];
const [[n1, [n2]], [, [, n6]]] = nested;
log.push([n1, n2, n6]);

// break, continue, return and throw out of for-of, then the loop again over the same array.
const list = [1, 2, 3, 4, 5];
let sum = 0;
for (const v of list) {
  if (v === 2) continue;
  if (v === 4) break;
  sum += v;
}
const firstEven = (() => { for (const v of list) if (v % 2 === 0) return v; return -1; })();
let caught = null;
try { for (const v of list) if (v === 3) throw new Error("at " + v); } catch (e) { caught = e.message; }
const again = [];
for (const v of list) again.push(v * 10);
log.push([sum, firstEven, caught, again]);

// Two loops over the same array, one inside the other.
const pairs = [];
for (const i of [1, 2]) for (const j of [1, 2]) pairs.push(`${i}${j}`);
log.push(pairs);

// An await inside the loop: the iterator survives the suspension.
const echoed = [];
for (const [k, v] of [["a", 1], ["b", 2]]) {
  const r = await tools.demo.echo({ k, v });
  echoed.push(JSON.stringify(r));
}
log.push(echoed);

// A generator suspended in the middle of a for-of over an array, resumed and returned early.
function* walk(items) {
  try {
    for (const item of items) yield item * 2;
  } finally {
    log.push("walk closed");
  }
}
const g = walk([1, 2, 3]);
log.push([g.next().value, g.next().value, g.return(7).value, g.next().done]);

// yield* over an array, and over an array's own iterator.
function* delegate() { yield* [1, 2]; yield* [3][Symbol.iterator](); return "end"; }
log.push([...delegate()]);

// The iterator is not an object a program can see: destructuring an iterator object it made
// itself steps that object.
const it = [10, 20, 30][Symbol.iterator]();
it.next();
const [fromIt] = it;
log.push([fromIt, it.next().done]);

// A loop that empties the array it walks.
const drain = [1, 2, 3, 4];
const drained = [];
for (const v of drain) { drained.push(v); drain.shift(); }
log.push([drained, drain]);

return log;
