function* gen(n) {
  const sent = yield n;
  yield;
  yield* inner();
  return sent;
}
function* inner() {}
const obj = { *m() { yield 1; } };
