const order: { id: string; status: string; total: number } = await tools.orders.lookup({ id: "fo-21" });
const tax: number = Math.round(order.total * 0.2 * 100) / 100;
({ id: order.id, tax, gross: order.total + tax } satisfies { id: string; tax: number; gross: number })
