async function main() {
  const orders = await Promise.all(["tl1", "tl2"].map((id) => tools.orders.lookup({ id })));
  return orders.map((o) => ({ id: o.id, status: o.status }));
}

main().then(console.log);
