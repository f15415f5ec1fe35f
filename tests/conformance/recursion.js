function fact(n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}
function depth(node) {
  if (!node) return 0;
  return 1 + Math.max(depth(node.left), depth(node.right));
}
const isEven = n => (n === 0 ? true : isOdd(n - 1));
const isOdd = n => (n === 0 ? false : isEven(n - 1));
const tree = { left: { left: { left: null }, right: null }, right: { right: null } };
return { fact: fact(12), depth: depth(tree), even: isEven(10), odd: isOdd(7) };
