const { a = 1, b = 2, ...others } = { b: 20, c: 30, d: 40 };
const [p = "p", q = "q", ...tail] = [undefined, null, 3, 4, 5];
const { missing: { deep } = { deep: "default" } } = {};
return { a, b, others, p, q, tail, deep };
