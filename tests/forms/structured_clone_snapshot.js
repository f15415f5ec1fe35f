const { records } = await tools.data.records({ n: 3 });
const snapshot = structuredClone(records);
records[0].title = "changed";
snapshot.map((r) => r.title)
