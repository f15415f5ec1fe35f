function f({ a, b = 2 }, [c, ...d] = [], ...{ length }) {
  return a + b + c + d.length + length;
}
const g = ({ x }, [y]) => x + y;
for (const { id, tags: [firstTag] = [] } of []) {
  id + firstTag;
}
for (const [key, value] of Object.entries({})) {
  key + value;
}
let k, v;
for ([k, v] of []) {}
try {
  throw new Error("x");
} catch ({ message, stack = "" }) {
  message + stack;
}
f({ a: 1 }) + g({ x: 1 }, [2]);
