const a = [1, 2, 3, 4, 5];
const errors = [];
for (const i of [5, -6, 100, Infinity]) {
  try {
    a.with(i, 0);
    errors.push("no error");
  } catch (e) {
    errors.push(e.name + ": " + e.message);
  }
}
const cw = (arr, ...args) => {
  const copy = arr.slice();
  const ret = copy.copyWithin(...args);
  return { copy, same: ret === copy };
};
return {
  with0: a.with(0, "x"),
  withNeg: a.with(-1, "y"),
  withStr: a.with("2", "z"),
  withFrac: a.with(1.7, "f"),
  withNaN: a.with(NaN, "n"),
  original: a,
  errors,
  spliced: a.toSpliced(1, 2, "a", "b", "c"),
  splicedNeg: a.toSpliced(-2, 1),
  splicedStartOnly: a.toSpliced(2),
  splicedNone: a.toSpliced(),
  splicedInsert: a.toSpliced(0, 0, 0),
  splicedBig: a.toSpliced(10, 5, "end"),
  splicedNegCount: a.toSpliced(1, -3, "i"),
  splicedFresh: a.toSpliced() !== a,
  originalAfter: a,
  cw1: cw(a, 0, 3),
  cw2: cw(a, 1, 3),
  cw3: cw(a, -2, -3, -1),
  cw4: cw(a, 2, 0),
  cw5: cw(a, 0, 3, 4),
  cw6: cw(a, 10, 0),
  cw7: cw(a, 1, 0, 100),
  cw8: cw(a, 0),
  empty: [[].with.length, [].toSpliced.length, [].copyWithin.length],
  chain: [3, 1, 2].toSpliced(0, 1).with(0, 9).toSorted(),
};
