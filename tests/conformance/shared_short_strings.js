// Short strings with the same text may be one string in the heap, and property slots keep a
// value's tag and payload packed beside their key: neither may show. Strings made every way
// (concatenation, numbers, split, slice, JSON, template literals) compare, key and count the
// same, and every kind of value comes back out of a property unchanged.
const log = [];

const made = [];
for (let i = 0; i < 300; i++) {
  made.push("g" + (i % 7), `g${i % 7}`, String(i % 7), ("x,g" + (i % 7)).split(",")[1]);
}
const counts = {};
for (const s of made) counts[s] = (counts[s] ?? 0) + 1;
log.push(JSON.stringify(counts));
log.push(made[0] === made[1], made[1] === made[3], made[0] === "g0", made[4] === "g1");

const parsed = JSON.parse('[{"status":"open"},{"status":"open"},{"status":"shut"}]');
const byStatus = new Map();
for (const row of parsed) byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1);
log.push([...byStatus].join(";"), parsed[0].status === parsed[1].status);

// A string used as a key, then as a value, then dropped and made again after collections.
let keep = [];
for (let round = 0; round < 3; round++) {
  const fresh = [];
  for (let i = 0; i < 20000; i++) fresh.push({ k: "key" + (i % 50), v: i });
  keep = fresh.filter(r => r.k === "key7").map(r => r.k + ":" + r.v);
}
log.push(keep.length, keep[0], keep[keep.length - 1]);

const slice = "abcabc";
log.push(slice.slice(0, 3) === slice.slice(3), slice.slice(0, 3) + slice.slice(3));

// Every kind of value survives a property slot.
const sym = Symbol("s");
const big = 2n ** 70n;
const obj = {};
const values = [undefined, null, true, false, 0, -0, NaN, 1.5e300, -Infinity, "", "text", sym, big, obj, [1, 2]];
const holder = {};
values.forEach((v, i) => { holder["p" + i] = v; });
log.push(values.every((v, i) => Object.is(holder["p" + i], v)));
log.push(Object.is(holder.p5, -0), holder.p11 === sym, holder.p12 === big, holder.p13 === obj);
holder.p1 = 7;
holder.p2 = "now a string";
log.push(holder.p1, holder.p2, Object.keys(holder).length);

return log;
