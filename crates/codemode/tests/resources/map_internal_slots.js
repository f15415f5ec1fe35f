// A Map's index is an internal slot, out of the program's reach: a property named like the one it once lived under is an ordinary property, and lookups stay right and fast (issue 36).
// expect: value [50016, true, false, 64, 64, [1000000000, 5, 5, 5]]
// timeout-ms: 5000
const m = new Map();
for (let i = 0; i < 64; i++) m.set(i, i);
m["\u0001mapIndex"] = [1e9, 5, 5, 5];
const s = new Set([1, 2, 3]);
s["\u0001mapIndex"] = { 0: 1e9 };
let found = 0;
for (let i = 0; i < 100000; i++) if (m.has(i % 128)) found++;
return [found, m.has(3), m.has(100), m.size, [...m.keys()].length, m["\u0001mapIndex"]];
