const m = new Map([["a", 1], ["b", 2]]);
m.set("c", 3).set("a", 10);
m.delete("b");
const s = new Set([1, 2, 2, 3, NaN, NaN]);
const counts = new Map();
for (const w of "the cat the dog the end".split(" ")) counts.set(w, (counts.get(w) ?? 0) + 1);
const out = [];
m.forEach((v, k) => out.push(k + v));
return { size: m.size, entries: [...m], keys: [...m.keys()], s: [...s], sSize: s.size, has: s.has(NaN), top: [...counts.entries()].sort((a, b) => b[1] - a[1])[0], out, asJson: JSON.stringify({ m, s }), uniq: [...new Set([3, 1, 3])] };
