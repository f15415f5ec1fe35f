async () => ((await tools.orders.lookup({ id: "7" })) as { total: number }).total
