const [a, b] = await Promise.all([tools.one({}), tools.two({})]);
const later = async () => await tools.three({ a, b });
async function run(x) {
  for (const item of x) {
    await item;
  }
  return await later();
}
await run([a, b]);
