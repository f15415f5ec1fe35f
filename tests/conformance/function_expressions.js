const add = function (a, b) {
  return a + b;
};
const fact = function self(n) {
  return n <= 1 ? 1 : n * self(n - 1);
};
const noReturn = function () {};
const immediate = (function (x) {
  return x * 2;
})(21);
return { add: add(2, 3), fact: fact(10), noReturn: noReturn(), immediate };
