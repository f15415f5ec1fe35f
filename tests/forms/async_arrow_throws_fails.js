async () => {
  const order = await tools.orders.lookup({ id: "5" });
  if (order.status !== "open") throw new RangeError(`order ${order.id} is not open`);
  return order;
}
