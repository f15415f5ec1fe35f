// for-of and destructuring over arrays step an array iterator: each step reads the array as it
// is then (growth and shrinking are seen), holes read undefined, and once done it stays done.
const log = [];

const grow = [1, 2, 3];
const seen = [];
for (const x of grow) {
  seen.push(x);
  if (x < 6) grow.push(x + 3);
}
log.push(seen);

const shrink = [1, 2, 3, 4, 5];
const kept = [];
for (const x of shrink) {
  kept.push(x);
  shrink.length = 3;
}
log.push(kept);

const holes = [1, , 3];
const [h0, h1, h2, h3] = holes;
log.push([h0, h1 === undefined, h2, h3 === undefined]);

const it = [10, 20][Symbol.iterator]();
const first = [...it];
const arr = [7];
const it2 = arr[Symbol.iterator]();
it2.next();
const end = it2.next();
arr.push(8, 9);
log.push(first, end.done, it2.next().done, [...it]);

// Destructuring in callbacks, with defaults and nested patterns.
const rows = [["a", 1], ["b"], ["c", 3, [4, 5]]];
log.push(rows.map(([k, v = 0, [x, y] = [-1, -2]]) => `${k}${v}${x}${y}`));

// Entries of a Map and Object.entries destructured in for-of.
const m = new Map([["p", 1], ["q", 2]]);
const out = [];
for (const [k, v] of m) out.push(k + v);
for (const [k, v] of Object.entries({ r: 3, s: 4 })) out.push(k + v);
log.push(out);

// An array whose iterator was replaced is iterated through it.
const custom = [1, 2, 3];
custom[Symbol.iterator] = function* () { yield "custom"; };
const [c0, c1] = custom;
log.push([c0, c1]);

return log;
