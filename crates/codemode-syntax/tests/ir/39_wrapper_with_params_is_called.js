async (x) => {
  return x;
}
