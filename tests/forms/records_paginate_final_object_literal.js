const pageSize = 10;
const { records } = await tools.data.records({ n: 35 });
const pages = [];
for (let i = 0; i < records.length; i += pageSize) {
  pages.push(records.slice(i, i + pageSize).map((r) => r.id));
}
({ pageCount: pages.length, lastPage: pages.at(-1), total: records.length })
