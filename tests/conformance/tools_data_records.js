const { records } = await tools.data.records({ n: 50 });
const byStatus = {};
for (const r of records) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
const priority = records.filter(r => r.tags.includes("priority")).map(r => r.id);
return {
  count: records.length,
  first: records[0],
  last: records[records.length - 1].title,
  byStatus,
  priority: priority.length,
  scoreSum: records.reduce((s, r) => s + r.score, 0),
};
