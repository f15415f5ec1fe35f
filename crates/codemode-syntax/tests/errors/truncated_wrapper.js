async () => {
  const x = await tools.a({});
  return x;
