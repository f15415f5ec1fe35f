tools.data
  .records({ n: 10 })
  .then(({ records }) => records.filter((r) => r.score > 50))
  .then((high) => ({ count: high.length, ids: high.map((r) => r.id) }));
