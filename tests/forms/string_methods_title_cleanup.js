const { records } = await tools.data.records({ n: 4 });
records.map((r) => r.title.toUpperCase().replace("RECORD", "Item").padEnd(10, ".") + r.owner.at(-1))
