const obj = { name: "x", count: 3, 1: "one", active: false };
return {
  keys: Object.keys(obj),
  values: Object.values(obj),
  entries: Object.entries(obj),
  emptyKeys: Object.keys({}),
  arrayKeys: Object.keys(["a", "b"]),
};
