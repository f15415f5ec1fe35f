(async function main() {
  const orders = await Promise.all(["3", "4"].map((id) => tools.orders.lookup({ id })));
  return orders.map(({ id, customer }) => `${id}@${customer}`);
})();
