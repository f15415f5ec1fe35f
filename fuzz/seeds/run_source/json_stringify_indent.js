const value = { a: 1, list: [1, { b: 2 }], empty: {}, none: [] };
return {
  two: JSON.stringify(value, null, 2),
  tab: JSON.stringify([1, [2]], null, "\t"),
  four: JSON.stringify({ x: { y: 1 } }, null, 4),
  zero: JSON.stringify(value, null, 0),
};
