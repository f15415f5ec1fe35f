let seed = 4242;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
const alpha = ["a", "b", "c", "é", " ", ",", "x", "ñ", "中", "A", "1", "2"];
const rs = n => { let s = ""; for (let i = 0; i < n; i++) s += alpha[ri(0, alpha.length - 1)]; return s; };
const pats = [/a+/g, /(a|b)*c?/, /\bx\w*/gi, /(?<w>[éñ])(\s)?/g, /^\s+|\s+$/g, /[^a-z]/giu, /(.)\1/, /a(?=b)/g, /(?<!a)b/g, /,+/, /\d+/g, /(\d)(\d)?/g, /[a-c]{2,3}/y, /(?:)/g, /中|ñ/g, /^a/m, /x$/];
const out = [];
for (let i = 0; i < 250; i++) {
  const s = rs(ri(0, 14));
  const re = pats[ri(0, pats.length - 1)];
  re.lastIndex = ri(0, 3);
  const e = re.exec(s);
  const r = [
    re.source, e && [...e], e && e.index, e && e.groups, re.lastIndex,
    s.match(re), [...s.matchAll(new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g"))].map(m => [m[0], m.index]),
    s.replace(re, "<$1|$&>"), s.replace(re, (...a) => a.filter(x => typeof x !== "object").join(":")),
    s.split(re), s.search(re), new RegExp(re.source, re.flags).test(s),
  ];
  out.push(JSON.stringify(r));
}
return out.join("\n");
