const { records } = await tools.data.records({ n: 15 });
const closed = records.filter((r) => r.status === "closed");
export default { closed: closed.length, ids: closed.map((r) => r.id) };
