```js
async function main() {
  const a = await tools.orders.lookup({ id: "61" });
  const b = await tools.orders.lookup({ id: "62" });
  return { difference: Math.abs(a.total - b.total) };
}
main();
```
