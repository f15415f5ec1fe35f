Here's a program that looks up the three orders and totals them:

```js
const orders = await Promise.all(["101", "102", "103"].map((id) => tools.orders.lookup({ id })));
return orders.reduce((sum, o) => sum + o.total, 0);
```
