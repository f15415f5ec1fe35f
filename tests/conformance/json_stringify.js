return [
  JSON.stringify({ a: 1, b: "two", c: [true, null] }),
  JSON.stringify([1, "x", undefined, () => 1]),
  JSON.stringify({ skip: undefined, fn: function () {}, keep: 0 }),
  JSON.stringify("quote \" and \\ and \n newline"),
  JSON.stringify(3.5),
  JSON.stringify(null),
  JSON.stringify(undefined) === undefined,
  JSON.stringify({ nan: NaN, inf: -Infinity }),
  JSON.stringify({ nested: { deeper: { deepest: [] } } }),
  JSON.stringify(new Error("e")),
  JSON.stringify({ toJSON: () => "custom" }),
];
