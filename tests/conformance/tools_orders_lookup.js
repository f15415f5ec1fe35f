const one = await tools.orders.lookup({ id: "order_42" });
const two = await tools.orders.lookup({ id: "x7" });
const none = await tools.orders.lookup({ id: "nodigits" });
return { one, two, none, keys: Object.keys(one) };
