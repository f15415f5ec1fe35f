const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const orders = await Promise.all(["11", "12", "13"].map((id) => tools.orders.lookup({ id })));
const total = orders.reduce((sum, o) => sum + o.total, 0);
return {
  perOrder: orders.map((o) => ({ id: o.id, amount: usd.format(o.total) })),
  total: usd.format(total),
  big: usd.format(1234567.891),
};
