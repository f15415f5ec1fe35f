let seed = 777;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const alpha = ["a", "b", "é", "ß", " ", ",", "x", "ñ", "中", "A", "\t"];
const rs = n => { let s = ""; for (let i = 0; i < n; i++) s += alpha[ri(0, alpha.length - 1)]; return s; };
const out = [];
for (let i = 0; i < 300; i++) {
  const s = rs(ri(0, 12));
  const t = rs(ri(0, 2));
  const a = ri(-15, 15), b = ri(-15, 15);
  const r = [
    s.slice(a, b), s.substring(a, b), s.substr(a, b), s.indexOf(t, a), s.lastIndexOf(t, b), s.at(a), s.charAt(a), s.charCodeAt(a), s.codePointAt(b),
    s.padStart(b, t), s.padEnd(a, t), s.split(t).join("|"), s.split(t, ri(0, 3)).length, s.includes(t, a), s.startsWith(t, b), s.endsWith(t, a),
    s.replace(t, "[$&]"), s.replaceAll(t, "<$`>"), s.trim(), s.toUpperCase(), s.toLowerCase(), s.localeCompare(t), s.repeat(ri(0, 2)),
    s.search(/[éñ]/), s.replace(/[a-z]+/g, m => m.length), s.split(/,/).length, (s.match(/\s/g) || []).length,
  ];
  out.push(JSON.stringify(r));
}
return out.join("\n");
