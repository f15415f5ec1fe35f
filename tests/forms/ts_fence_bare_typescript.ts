```
const ids: string[] = ["bt1", "bt2", "bt3"];
const orders = await Promise.all(ids.map((id) => tools.orders.lookup({ id })));
return orders.filter((o: { status: string }) => o.status === "complete").length;
```
