// Array iteration methods on array-likes read as the spec does: length once (valueOf included), then HasProperty and Get per index between callbacks (holes skipped, getters at their index, proxies' traps), find visiting holes.
const out = [];
// holes skipped, getters run at their index, deletions seen
const obj = { 2: 2, length: 5 };
Object.defineProperty(obj, "0", { get() { delete obj[2]; out.push("g0"); return 0; }, configurable: true });
const seen = [];
Array.prototype.forEach.call(obj, (v, i) => seen.push(i + ":" + v));
out.push(seen.join());
// inherited indices count; a getter that deletes the prototype's index
Object.prototype[1] = "proto";
const o2 = { length: 3, 0: "a" };
out.push(Array.prototype.map.call(o2, (v) => v + "!").join("|"));
delete Object.prototype[1];
// filter/every/some/reduce over array-likes with a length object
const al = { length: { valueOf() { return 3; } }, 0: 1, 1: 2, 2: 3 };
out.push(Array.prototype.filter.call(al, (v) => v > 1).join(), Array.prototype.every.call(al, (v) => v > 0),
  Array.prototype.some.call(al, (v) => v > 2), Array.prototype.reduce.call(al, (a, b) => a + b),
  Array.prototype.reduceRight.call({ length: 3, 0: "a", 2: "c" }, (a, b) => a + b));
// a callback adds an element past the current index: seen; the length is fixed at the start
const grow = { length: 3, 0: "x" };
out.push(Array.prototype.map.call(grow, (v, i, o) => { o[i + 1] = "y" + i; o.length = 10; return v; }).length);
// find visits holes
out.push(Array.prototype.findIndex.call({ length: 3, 2: 7 }, (v) => v === undefined));
// a proxy's traps
const log = [];
const p = new Proxy({ length: 2, 0: "p0", 1: "p1" }, {
  has(t, k) { log.push("has " + String(k)); return k in t; },
  get(t, k) { log.push("get " + String(k)); return t[k]; },
});
Array.prototype.forEach.call(p, () => {});
out.push(log.join());
try { Array.prototype.reduce.call({ length: 2 }, (a, b) => a); } catch (e) { out.push(e.constructor.name); }
try { Array.prototype.forEach.call({ length: 2 }, null); } catch (e) { out.push(e.constructor.name); }
out.push(Array.prototype.map.call("abc", (c) => c.toUpperCase()).join(""));
out.push([1, 2, 3].filter((v, i, a) => { a[i + 1] = 9; return true; }).join());
return out;
