async () => {
  class Repository<T extends { id: string }> {
    private items = new Map<string, T>();
    add(item: T): this {
      this.items.set(item.id, item);
      return this;
    }
    find(id: string): T | undefined {
      return this.items.get(id);
    }
    all(): T[] {
      return [...this.items.values()];
    }
  }

  type Order = { id: string; status: string; total: number };
  const repo = new Repository<Order>();
  for (const id of ["r1", "r2", "r3"]) repo.add(await tools.orders.lookup({ id }));
  return { count: repo.all().length, r2: repo.find("r2")?.status ?? null, missing: repo.find("zz") ?? null };
}
