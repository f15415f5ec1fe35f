const re = /(?<year>\d{4})-(?<month>\d{2})/g;
const input = "from 2023-01 to 2024-12, then 2025-06";
const found = [];
let m;
while ((m = re.exec(input)) !== null) {
  found.push({ match: m[0], year: m.groups.year, month: m[2], index: m.index, lastIndex: re.lastIndex });
}
const sticky = /foo/y;
sticky.lastIndex = 3;
const s1 = sticky.test("barfoo");
const s2 = sticky.lastIndex;
const s3 = sticky.test("barfoo");
const one = /(a)(z)?/.exec("xay");
const all = [..."a1b22c333".matchAll(/[a-z](\d+)/g)].map(x => [x[0], x[1], x.index]);
return {
  found,
  afterLoop: re.lastIndex,
  sticky: [s1, s2, s3, sticky.lastIndex],
  one: [one[0], one[1], one[2] === undefined, one.index, one.input, one.length],
  all,
  test: [/^\d+$/.test("12345"), /^\d+$/.test("12a45"), /colou?r/i.test("COLOR")],
  props: [re.source, re.flags, re.global, /x/.global, /x/gimsuy.flags, /a/i.ignoreCase, /a/m.multiline],
  toString: String(/a\/b/g),
  match: ["a1b2c3".match(/\d/g), "abc".match(/x/), "abc".match(/b/).index],
  search: ["hello world".search(/o/), "hello".search(/z/), "héllo".search(/l/)],
  split: ["a1b2c3".split(/\d/), "a, b ,c".split(/\s*,\s*/), "abc".split(/(b)/), "one  two".split(/\s+/, 1)],
  ctor: [new RegExp("a+", "g").flags, RegExp("x").source, new RegExp(/q/g).global, new RegExp("").source],
  badFlags: (() => { try { new RegExp("a", "zz"); return "no error"; } catch (e) { return e.name; } })(),
  badPattern: (() => { try { new RegExp("(a"); return "no error"; } catch (e) { return e.name; } })(),
  lookaround: ["price: $42".match(/(?<=\$)\d+/)[0], "abc".replace(/b(?=c)/, "X")],
  backref: /(\w)\1/.exec("hello")[0],
  unicodeIndex: /ö/.exec("héllo wörld").index,
};
