(async (): Promise<string[]> => {
  const { records } = await tools.data.records({ n: 5 });
  return (records as { title: string }[]).map((r) => r.title.toLowerCase());
})();
