function f(a, b = a + 1, ...rest) { return [a, b, rest, arguments.length]; }
const arr = [1, 2, 3];
const o = { ...{ a: 1, b: 2 }, b: 3, ...null, ...[9] };
const { a, ...others } = o;
return [f(1), f(1, undefined, 3, 4), f(...arr), Math.max(...arr), [...arr, ...arr].length, o, others, [..."héllo"]];
