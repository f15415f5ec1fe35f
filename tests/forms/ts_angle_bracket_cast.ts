interface Order { id: string; total: number; customer: string }
const order = <Order>await tools.orders.lookup({ id: "ab-4" });
const copy = <Order>{ ...order, total: order.total * 2 };
return [order.total, copy.total];
