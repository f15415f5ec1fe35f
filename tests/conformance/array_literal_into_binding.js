// An array literal assigned to an existing binding, whose elements read other bindings
// (regression: the literal's temporaries once reused the bindings' registers).
let pair;
const a = 1, b = 2;
try {
  null.x;
} catch (e) {
  pair = [e instanceof Error, e instanceof TypeError, a, b];
}
let list = [];
list = [a, [b, a], { a, b }, pair.length];
return { pair, list };
