let seed = 12345;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const out = [];
for (let i = 0; i < 600; i++) {
  let digits = "";
  const nd = 1 + Math.floor(rnd() * 18);
  for (let j = 0; j < nd; j++) digits += Math.floor(rnd() * 10);
  const e = Math.floor(rnd() * 44) - 22;
  let x = Number((rnd() < 0.3 ? "-" : "") + digits + "e" + e);
  const f = Math.floor(rnd() * 12);
  const p = 1 + Math.floor(rnd() * 20);
  const r = 2 + Math.floor(rnd() * 35);
  out.push([x.toFixed(f), x.toPrecision(p), x.toExponential(f), x.toString(r), Math.abs(x) < 1e15 ? x.toLocaleString() + " " + x.toLocaleString("en-US", { maximumFractionDigits: 1 }) + " " + x.toLocaleString("de-DE", { style: "currency", currency: "EUR" }) : "", String(x)]);
}
return out.map(r => r.join(" ")).join("\n");
