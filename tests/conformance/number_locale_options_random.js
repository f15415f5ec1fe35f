let seed = 31337;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const out = [];
for (let i = 0; i < 500; i++) {
  let digits = "";
  const nd = 1 + ri(0, 12);
  for (let j = 0; j < nd; j++) digits += ri(0, 9);
  const x = Number((rnd() < 0.3 ? "-" : "") + digits + "e" + ri(-8, 14));
  const lo = ri(1, 5), hi = lo + ri(0, 5);
  const fmin = ri(0, 3), fmax = fmin + ri(0, 3);
  out.push([
    x.toLocaleString("en-US", { notation: "compact" }),
    x.toLocaleString("en-US", { notation: "compact", compactDisplay: "long" }),
    x.toLocaleString("en-US", { notation: "compact", maximumFractionDigits: fmax }),
    x.toLocaleString("en-US", { maximumSignificantDigits: hi }),
    x.toLocaleString("en-US", { minimumSignificantDigits: lo, maximumSignificantDigits: hi }),
    x.toLocaleString("en-US", { minimumFractionDigits: fmin, maximumFractionDigits: fmax }),
    x.toLocaleString("en-US", { notation: "scientific" }),
    x.toLocaleString("en-US", { notation: "engineering" }),
    x.toLocaleString("en-US", { style: "currency", currency: "USD", notation: "compact" }),
  ].join(" ; "));
}
return out.join("\n");
