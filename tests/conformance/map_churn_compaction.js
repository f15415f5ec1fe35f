// A Map and a Set that churn (add, delete, add, ...) far past their live size: deleted entries are
// compacted away by the collector while an iterator and a forEach are in the middle of them.
const m = new Map();
const s = new Set();
for (let i = 0; i < 50; i++) { m.set("keep" + i, i); s.add(i); }
const it = m.entries();
const firstTwo = [it.next().value, it.next().value];
let visited = 0;
let churned = 0;
m.forEach((v, k) => {
  visited++;
  if (v === 25) {
    for (let i = 0; i < 60000; i++) {
      m.set("tmp" + i, i);
      m.delete("tmp" + i);
      s.add(-i - 1);
      s.delete(-i - 1);
      churned++;
    }
  }
});
const rest = [];
for (const [k, v] of it) { if (v % 10 === 0) rest.push(k); }
// Deleting the entry an iterator stands on, after a churn.
const it2 = s.values();
it2.next();
s.delete(1);
for (let i = 0; i < 60000; i++) { s.add("x" + i); s.delete("x" + i); }
const after = [...it2].slice(0, 5);
return { size: m.size, setSize: s.size, firstTwo, visited, churned, rest, after, has: [m.has("keep49"), m.has("tmp5"), s.has(0), s.has(1)] };
