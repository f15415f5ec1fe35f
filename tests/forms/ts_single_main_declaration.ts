async function main(): Promise<Record<string, number>> {
  const { records } = await tools.data.records({ n: 16 });
  const out: Record<string, number> = {};
  for (const r of records as { owner: string; score: number }[]) out[r.owner] = (out[r.owner] ?? 0) + r.score;
  return out;
}
