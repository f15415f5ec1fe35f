const ids = Array.from({ length: 10 }, (_, i) => `b${i + 1}`);
const chunk = (xs, n) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
const out = [];
for (const batch of chunk(ids, 3)) {
  const orders = await Promise.all(batch.map((id) => tools.orders.lookup({ id })));
  out.push(...orders.filter((o) => o.status === "open").map((o) => o.id));
}
out;
