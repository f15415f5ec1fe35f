type Rec = { id: number; score: number };
tools.data
  .records({ n: 6 })
  .then(({ records }: { records: Rec[] }) => records.map((r) => r.score))
  .then((scores: number[]) => ({ max: Math.max(...scores), min: Math.min(...scores) }))
