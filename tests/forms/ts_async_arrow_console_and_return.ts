async (): Promise<void | string> => {
  const o = await tools.orders.lookup({ id: "cr-11" });
  console.log(`order ${o.id} for ${o.customer}`);
  console.error("total", o.total);
  return o.status;
};
