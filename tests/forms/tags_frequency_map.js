const { records } = await tools.data.records({ n: 17 });
const freq = new Map();
for (const tag of records.flatMap((r) => r.tags)) freq.set(tag, (freq.get(tag) ?? 0) + 1);
Object.fromEntries(freq)
