async () => {
  const seen = new Set<string>();
  const totals = new Map<string, number>();
  for (const id of ["ms1", "ms2", "ms1", "ms3", "ms2"]) {
    if (seen.has(id)) continue;
    seen.add(id);
    const o: { customer: string; total: number } = await tools.orders.lookup({ id });
    totals.set(o.customer, (totals.get(o.customer) ?? 0) + o.total);
  }
  return { unique: [...seen], totals: Object.fromEntries(totals) };
}
