let seed = 99;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const out = [];
for (let i = 0; i < 300; i++) {
  const t = ri(-4000000, 4000000) * ri(0, 1000000) + ri(0, 999);
  const d = new Date(t);
  const u = Date.UTC(ri(-300, 3000), ri(-30, 30), ri(-40, 40), ri(-30, 30), ri(-70, 70), ri(-70, 70), ri(-2000, 2000));
  const c = new Date(t);
  c.setUTCMonth(ri(-20, 20), ri(-5, 35));
  c.setUTCHours(ri(-5, 30));
  const iso = d.toISOString();
  out.push(JSON.stringify([
    iso, d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds(),
    u, Date.parse(iso) === t, c.getTime(), d.toUTCString(), d.toISOString().slice(0, 10), Date.parse(d.toUTCString()),
    d.toLocaleDateString("en-US", { timeZone: "UTC" }), d.toLocaleTimeString("en-US", { timeZone: "UTC" }),
  ]));
}
return out.join("\n");
