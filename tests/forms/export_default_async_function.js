export default async function run() {
  const order = await tools.orders.lookup({ id: "ord-42" });
  return { id: order.id, status: order.status, total: order.total };
}
