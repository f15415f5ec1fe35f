const { records } = await tools.data.records({ n: 5 });
const header = ["id", "title", "status", "score"];
const rows = records.map((r) => header.map((h) => JSON.stringify(r[h])).join(","));
const csv = [header.join(","), ...rows].join("\n");
console.log(csv);
return csv;
