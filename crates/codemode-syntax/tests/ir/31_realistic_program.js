// Find open orders over $100 and notify their owners.
const orders = await tools.orders.search({ status: "open" });
const big = orders.filter((o) => o.total > 100);
const notified = [];
for (const order of big) {
  try {
    const owner = await tools.users.get({ id: order.ownerId });
    await tools.mail.send({
      to: owner.email,
      subject: `Order ${order.id} needs attention`,
      body: `Total: ${order.total.toFixed(2)}`,
    });
    notified.push(order.id);
  } catch (error) {
    console.warn("could not notify", order.id, error?.message);
  }
}
({ count: notified.length, notified });
