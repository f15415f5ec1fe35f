const { a, b: { c = 5 } = {}, ...rest } = { a: 1, x: 2, y: 3 };
const [first, , third = 9, ...others] = [1, 2, undefined, 4, 5];
function f({ p, q } = { p: 1 }, ...more) { return p + (q ?? 0) + more.length; }
return { a, c, rest, first, third, others, f: f() };
