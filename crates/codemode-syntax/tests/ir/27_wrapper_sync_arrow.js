() => {
  const x = 1;
  return x + 1;
};
