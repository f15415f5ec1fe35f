const { records } = await tools.data.records({ n: 30 });
const grouped = Object.groupBy(records, (r) => r.status);
const counts = Object.fromEntries(Object.entries(grouped).map(([k, v]) => [k, v.length]));
counts
