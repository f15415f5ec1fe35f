(async () => {
  class Registry {
    static readonly prefix: string = "reg";
    private static entries: string[] = [];
    static add(id: string): void {
      Registry.entries.push(`${Registry.prefix}:${id}`);
    }
    static get size(): number {
      return Registry.entries.length;
    }
    static list(): readonly string[] {
      return Registry.entries;
    }
  }

  const { records } = await tools.data.records({ n: 3 });
  records.forEach((r: { id: number }) => Registry.add(String(r.id)));
  return { size: Registry.size, list: Registry.list() };
})();
