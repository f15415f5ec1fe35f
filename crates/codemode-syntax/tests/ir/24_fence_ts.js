```ts
const orders = await tools.orders.list({});
orders.length
```
