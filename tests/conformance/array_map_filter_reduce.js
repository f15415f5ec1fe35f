const nums = [1, 2, 3, 4, 5, 6];
return {
  map: nums.map(n => n * n),
  mapIndex: nums.map((n, i) => n * i),
  filter: nums.filter(n => n % 2 === 0),
  reduce: nums.reduce((acc, n) => acc + n, 0),
  reduceNoInit: nums.reduce((acc, n) => acc * n),
  reduceObj: ["a", "b", "a"].reduce((acc, k) => {
    acc[k] = (acc[k] || 0) + 1;
    return acc;
  }, {}),
  chain: nums.filter(n => n > 2).map(n => n * 10).reduce((a, b) => a + b, 0),
};
