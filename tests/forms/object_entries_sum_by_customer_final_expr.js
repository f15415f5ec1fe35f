const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
const orders = await Promise.all(ids.map((id) => tools.orders.lookup({ id })));
const byCustomer = {};
for (const { customer, total } of orders) byCustomer[customer] = Math.round(((byCustomer[customer] ?? 0) + total) * 100) / 100;
Object.entries(byCustomer).sort(([a], [b]) => a.localeCompare(b))
