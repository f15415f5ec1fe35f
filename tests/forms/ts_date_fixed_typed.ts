interface Due { id: number; due: string; overdue: boolean }
const today: Date = new Date("2024-06-15T00:00:00Z");
const { records } = await tools.data.records({ n: 4 });
const due: Due[] = records.map((r: { id: number; meta: { created: string } }) => {
  const d = new Date(r.meta.created);
  d.setUTCDate(d.getUTCDate() + 30 * (r.id + 1) * 2);
  return { id: r.id, due: d.toISOString().slice(0, 10), overdue: d < today };
});
due
