const o = { a: { b: { c: 42 } }, list: [10, 20, 30], "with space": 1 };
const k = "list";
o.d = "added";
o["e"] = "computed";
o.a.b.c += 1;
return {
  dot: o.a.b.c,
  computed: o[k][1],
  spaced: o["with space"],
  dynamic: o["a"]["b"],
  missing: o.nothing,
  keys: Object.keys(o),
  len: o.list.length,
};
