// Computed keys made at run time find their properties before and after collections free other
// strings (whose slots new strings then reuse), through reads, writes, `in` and Object.keys.
const o = {};
for (let i = 0; i < 2000; i++) o["k" + i] = i;
let found = 0;
let missing = 0;
for (let round = 0; round < 25; round++) {
  let garbage = [];
  for (let i = 0; i < 4000; i++) garbage.push("g" + round + "_" + i);
  garbage = null;
  for (let i = round; i < 2000; i += 7) {
    if (o["k" + i] === i) found++;
    if (!(("x" + i) in o)) missing++;
  }
  const keys = Object.keys(o);
  for (let j = round; j < keys.length; j += 97) {
    if (keys[j][0] === "k" && o[keys[j]] !== Number(keys[j].slice(1))) throw new Error("wrong value for " + keys[j]);
    o[keys[j]] += 0;
  }
  const fresh = "f" + (round * 31);
  o[fresh] = round;
  if (o["f" + (round * 31)] !== round) throw new Error("fresh key lost");
}
const sample = [o.k0, o.k31, o["k" + 1999], o.f0, o.f744, o["f" + 24 * 31]];
return { found, missing, sample, size: Object.keys(o).length };
