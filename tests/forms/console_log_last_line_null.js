const { records } = await tools.data.records({ n: 6 });
const summary = records.map((r) => `${r.id}:${r.status}`).join(", ");
console.log(summary);
