interface Counts { [tag: string]: number }
const { records } = await tools.data.records({ n: 9 });
const counts: Counts = {};
for (const r of records as { tags: string[] }[]) for (const t of r.tags) counts[t] = (counts[t] || 0) + 1;
counts;
