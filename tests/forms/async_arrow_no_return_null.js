async () => {
  const order = await tools.orders.lookup({ id: "w1" });
  console.log("status:", order.status);
}
