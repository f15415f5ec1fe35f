var count = 0;
const orders = await Promise.all(["h1", "h2"].map(fetchOne));
async function fetchOne(id) {
  count++;
  return tools.orders.lookup({ id });
}
[count, orders.map((o) => o.status)]
