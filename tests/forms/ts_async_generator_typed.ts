async function* paged(n: number, size: number): AsyncGenerator<number[], void, undefined> {
  const { records } = await tools.data.records({ n });
  for (let i = 0; i < records.length; i += size) yield records.slice(i, i + size).map((r: { id: number }) => r.id);
}

const pages: number[][] = [];
for await (const page of paged(7, 3)) pages.push(page);
return pages;
