const m = new Map(Object.entries({ a: 1, b: 2 }));
const back = Object.fromEntries(m);
const grouped = new Map();
for (const w of ["apple", "avocado", "banana"]) { const k = w[0]; grouped.set(k, [...(grouped.get(k) || []), w]); }
const arr = Array.from(grouped, ([k, v]) => `${k}:${v.length}`);
const keys = Array.from(m.keys());
const [[k0, v0]] = m;
const s = new Set([3, 1, 2]);
const union = new Set([...s, ...new Set([4, 1])]);
const inter = [...s].filter(x => union.has(x));
const it = m.entries();
const first = it.next();
const mAll = "a1b22".matchAll(/\d+/g);
const steps = [mAll.next().value[0], mAll.next().value.index, mAll.next().done];
const dateSort = [new Date(3), new Date(1), new Date(2)].sort((a, b) => a - b).map(d => d.getTime());
const maxDate = new Date(Math.max(...[new Date(5), new Date(9)]));
return { back, arr, keys, k0, v0, union: [...union], inter, first, dateSort, maxDate: maxDate.toISOString(), spread: { ...m }, len: [...m].length, steps, words: "a b c".split(" ").entries().next().value };
