const results = await Promise.all(Array.from({ length: 100 }, (_, i) => tools.orders.lookup({ id: "order_" + i })));
return results.filter(r => r.status === "open").length;
