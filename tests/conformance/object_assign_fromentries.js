const target = { a: 1 };
const returned = Object.assign(target, { b: 2 }, { a: 3, c: 4 });
const fresh = Object.assign({}, target, null);
const fromEntries = Object.fromEntries([["x", 1], ["y", [2]]]);
const mapped = Object.fromEntries(Object.entries({ p: 1, q: 2 }).map(([k, v]) => [k.toUpperCase(), v * 10]));
return { target, same: returned === target, fresh, fromEntries, mapped };
