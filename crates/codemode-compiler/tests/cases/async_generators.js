async function* ticks(n) {
  yield n;
}
for await (const t of ticks(1)) {
  t;
}
