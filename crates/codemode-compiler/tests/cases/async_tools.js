const ids = ["a1", "b2"];
const orders = await Promise.all(ids.map(id => tools.orders.lookup({ id })));
return orders.filter(o => o.status !== "complete").map(o => o.id);
