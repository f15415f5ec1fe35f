```js
const order = await tools.orders.lookup({ id: "ord-16" });
return { id: order.id, open: order.status === "open" };
```
