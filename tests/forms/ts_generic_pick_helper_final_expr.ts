function pick<T extends object, K extends keyof T>(obj: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = obj[k];
  return out;
}

const { records } = await tools.data.records({ n: 3 });
records.map((r: { id: number; title: string; score: number }) => pick(r, ["id", "score"] as const))
