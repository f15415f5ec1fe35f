Here is the TypeScript for that:

```
interface Rec { id: number; owner: string; tags: string[] }

const { records } = (await tools.data.records({ n: 10 })) as { records: Rec[] };
const first = records.find((r) => r.tags.includes("priority"))!;
const owners = new Map<string, Rec>(records.map((r) => [r.owner, r]));
const owner = owners.get("user3")!.owner;
return { first: first.id, owner, tagCount: first.tags!.length };
```

It returns the summary as JSON.
