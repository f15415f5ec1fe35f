// The RegExp protocol: RegExp.prototype[Symbol.match|matchAll|replace|search|split], and String
// methods calling an argument's own matcher (before: ignored, the object read as a pattern).
const out = {};
const re = /a(b)?/g;
out.m = re[Symbol.match]("abcab");
out.r = /b/g[Symbol.replace]("abcb", "X");
out.rf = /b/[Symbol.replace]("abcb", (m) => m.toUpperCase());
out.s = /,/[Symbol.split]("a,b,c", 2);
out.se = /c/[Symbol.search]("abc");
out.ma = [.../a/g[Symbol.matchAll]("aXa")].map(m => m.index);
out.ma1 = [.../a/[Symbol.matchAll]("aXa")].map(m => m.index);
class R extends RegExp { [Symbol.split](s, l) { return ["sub", ...super[Symbol.split](s, l)]; } }
out.sub = "1-2".split(new R("-"));
out.name = RegExp.prototype[Symbol.split].name;
out.len = [RegExp.prototype[Symbol.replace].length, RegExp.prototype[Symbol.match].length];
try { RegExp.prototype[Symbol.match].call({}, "x"); } catch (e) { out.err = e.name; }
out.norm = ["x1y2".replace(/\d/g, "#"), "a b".split(" "), "abc".search("c"), "aa".match(/a/g), "q".replaceAll("q", "z")];
out.nonObj = "abc".replace({ toString() { return "b"; } }, "Z");

const custom = {
  [Symbol.match](s) { return "custom:" + s; },
  [Symbol.replace](s, r) { return "rep:" + s + r; },
  [Symbol.split](s, l) { return ["sp", s, l]; },
  [Symbol.search]() { return 99; },
  [Symbol.matchAll](s) { return ["all", s][Symbol.iterator](); },
};
out.custom = ["abc".match(custom), "abc".replace(custom, "X"), "abc".split(custom, 3), "abc".search(custom)];
// replaceAll and matchAll ask an object with [Symbol.match] for its flags, which must hold "g".
const withoutMatch = { [Symbol.replace]: custom[Symbol.replace], [Symbol.matchAll]: custom[Symbol.matchAll] };
out.all = ["abc".replaceAll(withoutMatch, "Y"), [..."abc".matchAll(withoutMatch)]];
out.globalLike = "abc".replaceAll({ [Symbol.match]: true, flags: "g", [Symbol.replace]: () => "G" }, "Y");
for (const [name, f] of [
  ["replaceAllNoFlags", () => "abc".replaceAll(custom, "Y")],
  ["matchAllNoFlags", () => "abc".matchAll(custom)],
  ["replaceAllNotGlobal", () => "abc".replaceAll({ [Symbol.match]: true, flags: "i" }, "Y")],
  ["matchAllNotGlobal", () => "abc".matchAll(/b/)],
]) {
  try {
    f();
    out[name] = "no error";
  } catch (e) {
    out[name] = e.name;
  }
}
try { "abc".match({ [Symbol.match]: 5 }); } catch (e) { out.notCallable = e.name; }
return out;
