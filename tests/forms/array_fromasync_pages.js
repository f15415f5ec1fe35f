async function* pages(total, size) {
  for (let offset = 0; offset < total; offset += size) {
    const { records } = await tools.data.records({ n: Math.min(total, offset + size) });
    yield records.slice(offset).map((r) => r.id);
  }
}
const all = await Array.fromAsync(pages(10, 4));
return { pages: all.length, ids: all.flat() };
