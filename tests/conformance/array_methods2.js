const a = [5, 1, 10, 2];
const sorted = [...a].sort();
const num = [...a].sort((x, y) => x - y);
const objs = [{ n: "b", v: 2 }, { n: "a", v: 2 }, { n: "c", v: 1 }].sort((x, y) => x.v - y.v).map(o => o.n);
const idx = a.indexOf(10);
const sp = [1, 2, 3, 4, 5]; const removed = sp.splice(1, 2, "x", "y", "z");
return [sorted, num, objs, idx, sp, removed, a.slice(-2), a.join("-"), Array.from({ length: 3 }, (_, i) => i * i), Array.from("abc"), [3, [4, [5]]].flat(Infinity), a.findLast(x => x > 1), [1, 2, 3].includes(NaN), [NaN].includes(NaN), [NaN].indexOf(NaN), a.at(-1), Array.isArray(a), a.some(x => x > 9), a.every(x => x > 0), [, 1].length, new Array(3).length];
