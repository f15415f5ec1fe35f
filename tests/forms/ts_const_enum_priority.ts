const enum Priority {
  Low = 1,
  Medium = 5,
  High = 10,
}

const { records } = await tools.data.records({ n: 8 });
const priorityOf = (score: number): Priority => (score > 70 ? Priority.High : score > 30 ? Priority.Medium : Priority.Low);
return records.map((r: { id: number; score: number }) => ({ id: r.id, priority: priorityOf(r.score) }));
