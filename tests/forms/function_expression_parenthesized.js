(async function () {
  const { records } = await tools.data.records({ n: 12 });
  return records.filter((r) => r.tags.includes("priority")).map((r) => r.title);
})
