const obj = { b: 2, a: 1, 10: "ten", 2: "two", z: 26 };
const keys = [];
for (const k in obj) keys.push(k);
const arrKeys = [];
for (const i in ["x", "y"]) arrKeys.push(i);
let sum = 0;
for (const k in { p: 1, q: 2 }) sum += k.length;
return { keys, arrKeys, sum };
