const max = 9007199254740991;
return {
  max,
  plusOne: max + 1,
  plusTwo: max + 2,
  big: 2 ** 60,
  str: String(2 ** 64),
  product: 123456789 * 987654321,
  negative: -(2 ** 53),
  huge: 1e300 * 10,
};
