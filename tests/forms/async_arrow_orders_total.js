async () => {
  const ids = ["1001", "1002", "1003"];
  const orders = await Promise.all(ids.map((id) => tools.orders.lookup({ id })));
  const total = orders.reduce((sum, o) => sum + o.total, 0);
  return { count: orders.length, total };
}
