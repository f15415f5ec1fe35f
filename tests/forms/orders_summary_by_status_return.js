// Look up the orders and summarise them by status.
const ids = ["A100", "A101", "A102", "A103", "A104", "A105"];
const orders = await Promise.all(ids.map((id) => tools.orders.lookup({ id })));
const summary = {};
for (const o of orders) {
  summary[o.status] ??= { count: 0, total: 0 };
  summary[o.status].count += 1;
  summary[o.status].total += o.total;
}
return { orders: orders.length, summary };
