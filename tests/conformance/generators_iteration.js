const log = [];
function* range(start, end) {
  try {
    for (let i = start; i < end; i++) yield i;
  } finally {
    log.push(`closed ${start}-${end}`);
  }
}
const spread = [...range(0, 4)];
const args = Math.max(...range(3, 7));
const [first, second] = range(10, 20);
const [head, ...tail] = range(0, 4);
const fromArr = Array.from(range(1, 4));
const mapped = Array.from(range(1, 4), (x, i) => x * 10 + i);
const broke = [];
for (const x of range(0, 100)) {
  if (x === 3) break;
  broke.push(x);
}
function findFirst(pred) {
  for (const x of range(50, 60)) {
    if (pred(x)) return x;
  }
  return -1;
}
const found = findFirst(x => x % 7 === 0);
const labeled = [];
outer: for (const a of range(0, 3)) {
  for (const b of range(0, 3)) {
    if (b === 1) continue outer;
    if (a === 2) break outer;
    labeled.push(`${a}${b}`);
  }
}
const continued = [];
for (const x of range(0, 5)) {
  if (x % 2) continue;
  continued.push(x);
}
let thrownOut;
try {
  for (const x of range(0, 3)) {
    if (x === 1) throw new Error("stop");
  }
} catch (e) {
  thrownOut = e.message;
}
const it = range(0, 3);
const manual = [];
for (const x of it) manual.push(x);
const again = [...it];
function* entries(obj) {
  for (const k of Object.keys(obj)) yield [k, obj[k]];
}
const obj = Object.fromEntries([...entries({ a: 1, b: 2 })]);
const pairs = [];
for (const [k, v] of entries({ x: 1, y: 2 })) pairs.push(k + v);
return {
  spread,
  args,
  first,
  second,
  head,
  tail,
  fromArr,
  mapped,
  broke,
  found,
  labeled,
  continued,
  thrownOut,
  manual,
  again,
  obj,
  pairs,
  log,
};
