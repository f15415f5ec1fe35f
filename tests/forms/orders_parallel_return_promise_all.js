const ids = ["ord-1", "ord-2", "ord-3", "ord-4"];
return Promise.all(ids.map((id) => tools.orders.lookup({ id })));
