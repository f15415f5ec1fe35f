```
async () => {
  const results = await Promise.allSettled([
    tools.orders.lookup({ id: "31" }),
    tools.demo.fail({ message: "not found" }),
  ]);
  return results.map((r) => r.status);
}
```
