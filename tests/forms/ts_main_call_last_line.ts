type Page = { page: number; ids: number[] };

async function fetchPages(size: number, count: number): Promise<Page[]> {
  const { records } = await tools.data.records({ n: size * count });
  return Array.from({ length: count }, (_, page) => ({ page, ids: records.slice(page * size, (page + 1) * size).map((r: { id: number }) => r.id) }));
}

async function main(): Promise<Page[]> {
  return fetchPages(3, 2);
}

main();
