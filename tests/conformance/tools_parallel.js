const ids = ["a1", "b2", "c3", "d4", "e5"];
const started = ids.map(id => tools.orders.lookup({ id }));
const orders = await Promise.all(started);
const totals = orders.map(o => o.total);
const [echo, first] = await Promise.all([tools.demo.echo([1, 2]), tools.orders.lookup({ id: "z9" })]);
return { ids: orders.map(o => o.id), totals, customers: orders.map(o => o.customer), echo, first: first.status };
