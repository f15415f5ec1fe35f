const data = { a: { b: null, list: [{ v: 1 }] }, fn: () => "called", zero: 0, empty: "" };
return {
  nullishNull: data.a.b ?? "default",
  nullishZero: data.zero ?? "default",
  nullishEmpty: data.empty ?? "default",
  optional: data.a?.list?.[0]?.v,
  optionalMissing: data.x?.y.z ?? "short-circuit",
  optionalCall: data.fn?.(),
  optionalCallMissing: data.nope?.() ?? "no fn",
  optionalIndex: data.a.list?.[5]?.v ?? "none",
  nullBase: null?.foo ?? "null base",
};
