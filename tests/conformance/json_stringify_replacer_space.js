// JSON.stringify: a replacer array's PropertyList (order, duplicates, wrappers, skipped entries) and wrapper/float spaces.
const o = { a: 2, b: 1, c: 3, n: { c: 1, a: 2, z: 0 }, 10: "ten" };
return [JSON.stringify(o, ["c", "b", "a", "n", "c"]), JSON.stringify(o, [new String("a"), 10, new Number(10), undefined, true, null, {}]),
  JSON.stringify({ a: [1, { b: 2 }] }, null, new Number(2.9)), JSON.stringify({ a: 1 }, null, new String("--")), JSON.stringify({ a: 1 }, null, -1.5), JSON.stringify({ a: 1 }, null, 6.99)];
