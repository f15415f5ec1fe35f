const ids = ["a2", "b3", "c4"];
const out = [];
for (const id of ids) {
  const o = await tools.orders.lookup({ id });
  if (o.status === "complete") continue;
  out.push(o.customer);
}
let i = 0;
while (true) { if (++i > 3) break; await null; }
for (let j = 0, k = 10; j < k; j += 3, k--) out.push(j + ":" + k);
const results = await Promise.all(ids.map(async (id, idx) => { const r = await tools.orders.lookup({ id }); return idx + r.status; }));
return { out, i, results };
