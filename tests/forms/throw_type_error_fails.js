const { records } = await tools.data.records({ n: 2 });
const first = records.find((r) => r.status === "archived");
return first.title;
