export default async () => {
  const { records } = await tools.data.records({ n: 8 });
  return records.reduce((max, r) => Math.max(max, r.score), 0);
};
