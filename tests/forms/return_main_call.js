async function main() {
  const { records } = await tools.data.records({ n: 11 });
  return records.filter((r) => r.owner.endsWith("1")).map((r) => r.id);
}
return main();
