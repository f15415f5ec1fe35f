return {
  number: [Number("42"), Number("  3.5  "), Number(""), Number(true), Number(null), Number("0x10")],
  numberNaN: [Number("abc"), Number(undefined), Number("1,2")].map(v => Number.isNaN(v)),
  string: [String(1.25), String(null), String(undefined), String(true), String([1, [2, 3]]), String({})],
  parseInt: [parseInt("42px"), parseInt("  -17"), parseInt("ff", 16), parseInt("101", 2), parseInt("3.99")],
  parseIntNaN: isNaN(parseInt("px42")),
  parseFloat: [parseFloat("3.14abc"), parseFloat(".5"), parseFloat("-1e3"), parseFloat("1.2.3")],
  isNaN: [isNaN("abc"), isNaN("12"), isNaN(NaN), isNaN(undefined), isNaN(null)],
};
