async () => (await tools.orders.lookup({ id: "A12" })).total
