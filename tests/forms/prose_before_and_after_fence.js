I'll fetch the records, keep the open ones and count them per owner.

```javascript
const { records } = await tools.data.records({ n: 40 });
const open = records.filter((r) => r.status === "open");
const perOwner = {};
for (const r of open) perOwner[r.owner] = (perOwner[r.owner] ?? 0) + 1;
return { open: open.length, owners: Object.keys(perOwner).length };
```

This returns the number of open records and how many distinct owners they have.
