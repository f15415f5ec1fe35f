I'll write a typed helper and call it:

```typescript
interface Order { id: string; total: number }

async function main(): Promise<number> {
  const orders: Order[] = await Promise.all(["pm1", "pm2"].map((id) => tools.orders.lookup({ id })));
  return orders.reduce((s, o) => s + o.total, 0);
}

main();
```

The result is the combined total of both orders.
