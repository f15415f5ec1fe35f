const { records } = await tools.data.records({ n: 4 });
return Promise.all(records.map((r) => tools.demo.echo({ id: r.id, title: r.title })));
