const { records } = await tools.data.records({ n: 25 });
const top = [...records].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 5);
return top.map(({ id, score }) => ({ id, score }));
