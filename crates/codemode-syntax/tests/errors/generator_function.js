function* gen() {
  yield 1;
}
