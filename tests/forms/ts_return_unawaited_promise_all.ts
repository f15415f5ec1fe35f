type Order = { id: string; status: string };
const ids: readonly string[] = ["ra1", "ra2", "ra3"];
return Promise.all(ids.map((id): Promise<Order> => tools.orders.lookup({ id })));
