Here is the TypeScript for that:

```ts
type Config = { pageSize: number; statuses: readonly string[]; currency: string };

const config = {
  pageSize: 5,
  statuses: ["open", "pending"],
  currency: "EUR",
} satisfies Config;

const { records } = await tools.data.records({ n: 20 });
const wanted = records.filter((r: { status: string }) => config.statuses.includes(r.status)).slice(0, config.pageSize);
return { currency: config.currency, ids: wanted.map((r: { id: number }) => r.id) };
```

It returns the summary as JSON.
