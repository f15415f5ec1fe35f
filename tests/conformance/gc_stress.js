const keep = [];
let total = 0;
for (let i = 0; i < 60000; i++) {
  const o = { i, s: "item" + i, tags: [i % 3, i % 5], f: () => i * 2 };
  if (i % 1000 === 0) keep.push(o);
  total += o.f() + o.tags.length + o.s.length;
}
const mapped = Array.from({ length: 30000 }, (_, i) => i).map(i => ({ v: "x" + i })).filter(o => o.v.length > 5);
const sorted = Array.from({ length: 5000 }, (_, i) => ({ k: (i * 7919) % 5000, t: "t" + i })).sort((a, b) => a.k - b.k);
const ps = await Promise.all(Array.from({ length: 2000 }, async (_, i) => { await null; return { i, s: "p" + i }; }));
const m = new Map();
for (let i = 0; i < 20000; i++) m.set("k" + (i % 5000), { i });
return { total, keep: keep.map(o => o.f()), mapped: mapped.length, first: sorted[0].t, last: sorted[4999].k, ps: ps[1999].s, m: m.size, mv: m.get("k42").i };
