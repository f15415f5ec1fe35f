Sure! Running this:
```js
(async () => {
  const order = await tools.orders.lookup({ id: "58" });
  console.log("looked up", order.id);
  return order.customer;
})();
```
Let me know if you need anything else.
