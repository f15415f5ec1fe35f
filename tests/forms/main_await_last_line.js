async function main() {
  const records = (await tools.data.records({ n: 6 })).records;
  return records.map((r) => ({ id: r.id, score: r.score }));
}

await main();
