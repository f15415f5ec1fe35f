async function main() {
  const { records } = await tools.data.records({ n: 20 });
  const pending = records.filter((r) => r.status === "pending");
  console.log(`pending: ${pending.length}`);
  return { pending: pending.map((r) => r.id) };
}

main();
