function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const fact = function f(n) { return n <= 1 ? 1 : n * f(n - 1); };
let swapped = function (n) { return n; };
function usesSwapped(n) { return swapped(n); }
swapped = usesSwapped;
return fib(10) + fact(5);
