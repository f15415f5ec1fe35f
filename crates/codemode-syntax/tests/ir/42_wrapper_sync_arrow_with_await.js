() => {
  const order = await tools.orders.lookup({ id: "1" });
  return order.status;
};
