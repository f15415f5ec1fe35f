const fib = function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
};
const shadowedByParam = function g(g) { return g; };
const shadowedByVar = function h() { var h = 1; return h; };
const inner = function outerName() { return () => outerName; };
fib(10);
