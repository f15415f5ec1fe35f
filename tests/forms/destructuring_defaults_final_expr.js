const { records: [first, second, ...rest] = [] } = await tools.data.records({ n: 7 });
const { title, meta: { created } = {} } = first;
const summary = { title, created, second: second.id, rest: rest.length };
summary;
