async () => {
  const fetchOrder = (id) => tools.orders.lookup({ id });
  const isOpen = (o) => o.status === "open";
  const orders = [];
  for (const id of ["20", "21", "22", "23"]) orders.push(await fetchOrder(id));
  const open = orders.filter(isOpen);
  console.log(`found ${open.length} open orders`);
  return open.map((o) => o.id);
};
