Here is a TypeScript module whose default export does the work:

```ts
interface Line { id: string; amount: string }

export default async function report(): Promise<Line[]> {
  const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
  const orders = await Promise.all(["pd1", "pd2"].map((id) => tools.orders.lookup({ id })));
  return orders.map((o): Line => ({ id: o.id, amount: fmt.format(o.total) }));
}
```
Call it and it returns one line per order.
