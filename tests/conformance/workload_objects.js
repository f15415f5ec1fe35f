const rows = [];
for (let i = 0; i < 5000; i++) rows.push({ id: i, group: "g" + (i % 97), price: (i * 7919) % 1000 / 10, active: i % 3 !== 0 });
const byGroup = {};
for (const r of rows.filter(r => r.active)) {
  const g = byGroup[r.group] ?? (byGroup[r.group] = { n: 0, total: 0 });
  g.n++; g.total += r.price;
}
const top = Object.entries(byGroup).map(([k, v]) => ({ k, avg: v.total / v.n })).sort((a, b) => b.avg - a.avg).slice(0, 5);
return { count: rows.length, groups: Object.keys(byGroup).length, top: top.map(t => t.k) };
