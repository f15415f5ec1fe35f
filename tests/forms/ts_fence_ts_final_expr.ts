```ts
type Row = { id: number; score: number };
const { records } = await tools.data.records({ n: 12 });
const best: Row = (records as Row[]).reduce((a, b) => (b.score > a.score ? b : a));
best
```
