const order = await tools.orders.lookup({ id: "ord-2" });
if (order.status === "open") {
  return { action: "remind", customer: order.customer };
}
({ action: "none" })
