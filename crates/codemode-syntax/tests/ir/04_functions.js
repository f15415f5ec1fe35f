function add(a, b = 2, ...rest) {
  return a + b + rest.length;
}
const square = (x) => x * x;
const block = async (x) => { return await x; };
const anonymous = function () { return 1; };
const fact = function factorial(n) { return n <= 1 ? 1 : n * factorial(n - 1); };
async function load(id) { return tools.orders.lookup({ id }); }
add(1) + square(2) + fact(3);
