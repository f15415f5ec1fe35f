(async () => {
  const a = await tools.a({});
  a.value;
})();
