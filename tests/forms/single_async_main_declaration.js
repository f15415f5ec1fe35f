async function main() {
  const orders = await Promise.all(["1", "2", "3", "4", "5"].map((id) => tools.orders.lookup({ id })));
  const byCustomer = {};
  for (const o of orders) (byCustomer[o.customer] ??= []).push(o.id);
  return byCustomer;
}
