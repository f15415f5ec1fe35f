let seed = 5;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const objs = [{}, {}, [], {}];
const keys = [0, -0, 1, "1", NaN, "a", "b", null, undefined, true, false, ...objs, 2.5, "é", ""];
const log = [];
for (let round = 0; round < 20; round++) {
  const m = new Map();
  const s = new Set();
  for (let i = 0; i < 400; i++) {
    const k = keys[ri(0, keys.length - 1)];
    const op = ri(0, 9);
    if (op < 4) { m.set(k, i); s.add(k); }
    else if (op < 6) { log.push(m.delete(k) ? 1 : 0, s.delete(k) ? 1 : 0); }
    else if (op < 8) { log.push(m.has(k) ? 1 : 0, s.has(k) ? 1 : 0, m.get(k) ?? -1); }
    else if (op === 8 && ri(0, 20) === 0) { m.clear(); }
    else log.push(m.size, s.size);
  }
  const big = new Map();
  for (let i = 0; i < 3000; i++) { big.set("k" + (i % 1700), i); if (i % 3 === 0) big.delete("k" + ((i * 7) % 1700)); }
  log.push(big.size, [...big.values()].reduce((a, b) => a + b, 0), [...big.keys()].slice(0, 5).join());
  log.push([...m.keys()].map(k => typeof k === "object" && k !== null ? "obj" + objs.indexOf(k) : String(k)).join());
  const order = []; s.forEach((v, k, set) => order.push(set === s && v === k ? 1 : 0));
  log.push(order.join(""));
}
return log.join(",");
