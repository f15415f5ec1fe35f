export async function loadOrders(ids) {
  return Promise.all(ids.map((id) => tools.orders.lookup({ id })));
}

export async function main() {
  const orders = await loadOrders(["e1", "e2", "e3"]);
  return orders.filter((o) => o.status === "complete").length;
}

main();
