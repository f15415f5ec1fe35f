const double = x => x * 2;
const sum = (a, b) => a + b;
const obj = () => ({ wrapped: true });
const block = n => {
  const m = n + 1;
  return m * m;
};
const curried = a => b => c => a + b + c;
return { double: double(4), sum: sum(1, 2), obj: obj(), block: block(2), curried: curried(1)(2)(3) };
