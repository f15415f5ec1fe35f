;(async () => {
  const { records } = await tools.data.records({ n: 9 });
  return records.map((r) => r.owner);
})()
