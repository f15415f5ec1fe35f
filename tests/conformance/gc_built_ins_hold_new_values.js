// Values reachable only through a built-in the program changed (a new property on a prototype,
// on Math or JSON, a replaced method, a global) survive any number of collections, and so do
// values reachable through a closure stored there; garbage made beside them goes away without
// disturbing them. The collector does not trace the built-ins a run has not written.
const log = [];

Math.kept = { list: [1, 2, 3], note: "on Math" };
JSON.kept = new Map([["k", { deep: "yes" }]]);
Array.prototype.extraHelper = function () { return this.length * 10; };
const originalPush = Array.prototype.push;
let pushes = 0;
const counter = { label: "pushes" };
Array.prototype.push = function (...items) {
  pushes += items.length;
  counter.last = items[0];
  return originalPush.apply(this, items);
};
globalThis.kept = [{ id: 1 }, { id: 2 }];
Object.prototype.hiddenTotal = { n: 0 };
String.prototype.shout = function () { return this.toUpperCase() + "!"; };

let junk = 0;
for (let round = 0; round < 4; round++) {
  const rows = [];
  for (let i = 0; i < 30000; i++) {
    const o = { i, s: "row " + i, tags: [i % 3, i % 5] };
    rows.push(o);
    junk += o.tags[0];
  }
  Math.kept.list.push(rows.length);
  ({}).hiddenTotal.n += rows.length;
  log.push(Math.kept.list.join(), JSON.kept.get("k").deep, [1, 2].extraHelper());
}

log.push(junk, pushes > 120000, counter.label, typeof counter.last);
log.push(globalThis.kept.map(k => k.id).join(), ({}).hiddenTotal.n, "ok".shout());
Array.prototype.push = originalPush;
delete Array.prototype.extraHelper;
delete Object.prototype.hiddenTotal;
log.push([].extraHelper === undefined, ({}).hiddenTotal === undefined);

// Closures held by a built-in keep what they capture.
Math.makeCounter = (() => {
  let n = 0;
  const history = [];
  return () => { n++; history.push({ n }); return history.length; };
})();
for (let i = 0; i < 50000; i++) {
  const tmp = { i, big: "x".repeat(i % 40) };
  if (i % 1000 === 0) Math.makeCounter();
  junk += tmp.big.length;
}
log.push(Math.makeCounter(), junk);
return log;
