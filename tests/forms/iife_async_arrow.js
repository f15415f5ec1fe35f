(async () => {
  const order = await tools.orders.lookup({ id: "ord-8" });
  const echoed = await tools.demo.echo({ seen: order.id });
  return { order, echoed };
})();
