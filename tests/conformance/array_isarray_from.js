return {
  isArray: Array.isArray([1]),
  notArray: Array.isArray({ length: 0 }),
  strNot: Array.isArray("abc"),
  fromLength: Array.from({ length: 4 }, (_, i) => i * i),
  fromLengthUndefined: Array.from({ length: 2 }),
  fromArray: Array.from([1, 2, 3], x => x + 1),
  fromString: Array.from("hey"),
};
