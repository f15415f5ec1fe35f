function* gen(n) {
  try {
    const sent = yield n;
    return sent;
  } finally {
    n = 0;
  }
}
function* delegate() {
  return yield* gen(1);
}
for (const x of gen(2)) {
  if (x) break;
}
