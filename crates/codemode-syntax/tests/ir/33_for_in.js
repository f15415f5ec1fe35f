const o = { a: 1, b: 2 };
const keys = [];
for (const key in o) keys.push(key);
for (var k in o) keys.push(() => k);
let target;
for (target in o) {}
const holder = {};
for (holder.key in o) {}
keys;
