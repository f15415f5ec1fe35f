const m = new Map([["a", 1], ["b", 2]]);
m.set("c", 3).set("a", 10);
const key = { id: 1 };
m.set(key, "object");
m.set(NaN, "nan");
m.set(-0, "zero");
const seen = [];
m.forEach((v, k, map) => seen.push([typeof k === "object" ? "obj" : String(k), v, map === m]));
const s = new Set([1, 2, 2, 3, "3"]);
s.add(4).add(1);
const big = new Map();
for (let i = 0; i < 5000; i++) big.set("k" + i, i);
for (let i = 0; i < 5000; i += 2) big.delete("k" + i);
let sum = 0;
for (const [k, v] of big) sum += v;
const setSeen = [];
s.forEach((v, k) => setSeen.push(v === k));
return {
  get: [m.get("a"), m.get("b"), m.get(key), m.get({ id: 1 }), m.get(NaN), m.get(0), m.get("zz")],
  has: [m.has("c"), m.has("d"), m.has(-0)],
  size: m.size,
  seen,
  keys: [...m.keys()].filter(k => typeof k === "string"),
  values: [...m.values()].slice(0, 3),
  entries: [...m.entries()].slice(0, 2),
  deleted: [m.delete("b"), m.delete("b"), m.size],
  set: [...s],
  setSize: s.size,
  setHas: [s.has(3), s.has("3"), s.has(5)],
  setDelete: [s.delete(2), s.has(2), s.size],
  setEntries: [...s.entries()][0],
  setSeen,
  big: [big.size, big.get("k4999"), big.get("k4998"), big.has("k1"), sum],
  cleared: (() => { const c = new Map([[1, 1]]); c.clear(); return [c.size, c.get(1)]; })(),
  fromArray: Array.from(new Set("hello")).join(""),
  spreadMap: [...new Map([[1, "x"]])],
  instance: [m instanceof Map, s instanceof Set],
};
