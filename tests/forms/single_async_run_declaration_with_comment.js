// Fetch a page of records and report how many belong to each owner.
async function run() {
  const { records } = await tools.data.records({ n: 50 });
  const owners = new Map();
  for (const r of records) owners.set(r.owner, (owners.get(r.owner) ?? 0) + 1);
  return [...owners].filter(([, n]) => n > 1).map(([owner, n]) => ({ owner, n }));
}
