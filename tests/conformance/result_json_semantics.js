return {
  keep: 1,
  dropped: undefined,
  fn: () => 1,
  arr: [undefined, () => 2, NaN, 3],
  nested: { inner: undefined, value: "x" },
  custom: { toJSON: () => ({ replaced: true }) },
  err: new TypeError("as value"),
};
