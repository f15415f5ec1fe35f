const { records } = await tools.data.records({ n: 500 });
const open = records.filter(r => r.status === "open" && r.tags.includes("priority"));
const byOwner = {};
for (const r of open) (byOwner[r.owner] ??= []).push(r.id);
return { total: records.length, open: open.length, owners: Object.keys(byOwner).length, sample: open.slice(0, 3).map(r => r.title) };
