await (async () => {
  return 1;
})();
