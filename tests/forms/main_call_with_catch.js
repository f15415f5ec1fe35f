async function main() {
  const order = await tools.orders.lookup({ id: "77" });
  if (order.status !== "open") throw new Error(`order ${order.id} is ${order.status}`);
  return order;
}

main().catch((err) => ({ error: err.message }));
