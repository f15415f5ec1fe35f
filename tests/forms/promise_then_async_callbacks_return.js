return tools.data.records({ n: 3 }).then(async ({ records }) => {
  const echoed = await Promise.all(records.map((r) => tools.demo.echo(r.id * 10)));
  return echoed;
});
