const data = { a: 1, b: { c: [1, 2, 3] }, rest1: 4, rest2: 5 };
const { a, b: { c: [first, , third = 3, ...others] }, missing = a + 1, ...remaining } = data;
let [x, [y, z] = [1, 2], ...tail] = [1];
var { ["computed" + a]: computed = "default", 0: zero } = data;
const {} = data, [] = [];
first + third + others.length + x + y + z + tail.length + computed + zero;
