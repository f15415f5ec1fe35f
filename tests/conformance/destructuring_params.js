function describe({ name, tags = [] }, [first, ...rest] = []) {
  return `${name}:${tags.length}:${first}:${rest.length}`;
}
const pairSum = ([a, b]) => a + b;
const pick = ({ id, meta: { n } }) => id * 100 + n;
return [
  describe({ name: "x" }),
  describe({ name: "y", tags: ["t"] }, [1, 2, 3]),
  pairSum([3, 4]),
  pick({ id: 2, meta: { n: 5 } }),
];
