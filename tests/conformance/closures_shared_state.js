function makeStack() {
  const items = [];
  function push(x) {
    items.push(x);
    return size();
  }
  function size() {
    return items.length;
  }
  return { push, pop: () => items.pop(), size };
}
const s = makeStack();
s.push("a");
s.push("b");
const popped = s.pop();
const adders = [1, 2, 3].map(n => x => x + n);
const memo = (() => {
  const cache = {};
  let misses = 0;
  return n => {
    if (cache[n] === undefined) {
      misses++;
      cache[n] = n * n;
    }
    return [cache[n], misses];
  };
})();
memo(4);
return { size: s.size(), popped, adders: adders.map(f => f(10)), memo: memo(4), memo5: memo(5) };
