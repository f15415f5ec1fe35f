// URLSearchParams: constructors, methods, live iteration, encoding, and its link with a URL.
const out = {};
out.fromString = [new URLSearchParams("?a=1&b=2&a=3").toString(), new URLSearchParams("a=1&&b").toString(),
  new URLSearchParams("q=a+b%20c%2Bd&e=%E2%82%AC&bad=%ZZ").get("q"), new URLSearchParams("e=%E2%82%AC").get("e"),
  new URLSearchParams("bad=%ZZ&x=%").toString(), new URLSearchParams("").size, new URLSearchParams().toString(),
  new URLSearchParams("??a=1").toString(), new URLSearchParams(null).toString(), new URLSearchParams(12).toString()];
out.protoKeys = [Object.keys(URLSearchParams.prototype), Object.keys(Object.getPrototypeOf(new URLSearchParams().keys()))];
out.fromRecord = new URLSearchParams({ a: "1 2", b: [1, 2], c: null, d: undefined, 1: "one", "ü": "€" }).toString();
out.fromPairs = [new URLSearchParams([["x", "1"], ["x", "2"], ["y", 3]]).toString(),
  new URLSearchParams(new Map([["m", "1"], ["n", "2"]])).toString(),
  new URLSearchParams(new Set([["s", "t"]])).toString(),
  new URLSearchParams([new Set(["k", "v"])]).toString()];
function* gen() { yield ["g", "1"]; yield ["h", "2"]; }
out.fromGenerator = new URLSearchParams(gen()).toString();
const base = new URLSearchParams("a=1&b=2");
const copy = new URLSearchParams(base);
copy.append("c", "3");
out.copyIndependent = [base.toString(), copy.toString()];
for (const bad of [[["a", "b", "c"]], [["a"]], [1], ["ab"]]) {
  try { new URLSearchParams(bad); out["bad " + JSON.stringify(bad)] = "ok"; }
  catch (e) { out["bad " + JSON.stringify(bad)] = [e.name, e.message, e.code]; }
}
const p = new URLSearchParams("a=1&b=2&a=3");
out.get = [p.get("a"), p.get("nope"), p.getAll("a"), p.getAll("nope"), p.has("b"), p.has("b", "2"), p.has("b", "9"), p.size];
p.append("a b", "c+d&e=f");
out.append = p.toString();
p.set("a", "only");
out.set = p.toString();
p.set("new", "v");
out.setNew = p.toString();
p.append("b", "5");
p.delete("b", "2");
out.deleteValue = p.toString();
p.delete("b");
out.deleteName = [p.toString(), p.size];
const s = new URLSearchParams("z=1&a=2&z=0&a=1&\u{1F600}=x&\uFB01=y&A=upper&b=&a=0");
s.sort();
out.sort = [...s.keys()].join(",") + " | " + s.toString();
out.encoding = [new URLSearchParams({ q: "a b" }).toString(), new URLSearchParams({ k: "*-._~!'()" }).toString(),
  new URLSearchParams({ "a=b": "c&d" }).toString(), new URLSearchParams({ x: "\u00e9\u{1F600}" }).toString()];
const it = new URLSearchParams("a=1&b=2");
const keys = it.keys();
const seen = [keys.next()];
it.delete("a");
seen.push(keys.next(), keys.next());
it.append("c", "3");
seen.push(keys.next(), keys.next());
out.liveIterator = seen;
const visited = [];
const f = new URLSearchParams("a=1&b=2");
f.forEach(function (value, key, obj) { visited.push([key, value, obj === f, this.tag]); if (key === "b") f.append("z", "9"); }, { tag: "T" });
out.forEach = visited;
out.spread = [[...f], [...f.values()], [...f.entries()], Array.from(f.keys())];
const forOf = [];
for (const [k, v] of new URLSearchParams("x=1&y=2")) forOf.push(k + v);
out.forOf = forOf;
out.entriesObject = Object.fromEntries(new URLSearchParams("a=1&b=2&a=3"));
out.iterTag = [Object.prototype.toString.call(f), Object.prototype.toString.call(f.entries()),
  URLSearchParams.prototype[Symbol.iterator] === URLSearchParams.prototype.entries,
  typeof f.entries()[Symbol.iterator], f.keys()[Symbol.iterator]() !== undefined];
out.iteratorString = [String(f.keys()), `${f}`, f + "", String(f)];
out.json = [JSON.stringify(f), JSON.stringify({ p: f }), JSON.stringify(new URL("http://a.com/?x=1"))];
try { URLSearchParams(); } catch (e) { out.noNew = e.name; }
try { URLSearchParams.prototype.get.call({}, "a"); } catch (e) { out.badThis = [e.name, e.message, e.code]; }
try { f.append("only"); } catch (e) { out.missingArgs = [e.name, e.code]; }
try { f.forEach(1); } catch (e) { out.badCallback = [e.name, e.code]; }
// Linked with a URL, both ways.
const u = new URL("https://example.com/search?q=1&lang=en#top");
const sp = u.searchParams;
out.same = sp === u.searchParams;
sp.append("page", "2");
out.linkAppend = [u.href, u.search];
sp.set("q", "two words");
out.linkSet = u.href;
sp.delete("q"); sp.delete("lang"); sp.delete("page");
out.linkEmpty = [u.href, u.search, sp.size];
u.search = "?r=2&s=3";
out.fromSearch = [sp.get("r"), [...sp.keys()], sp.size];
u.href = "http://other.org/?k=v";
out.fromHref = [sp.get("k"), sp.get("r")];
sp.sort();
u.hash = "h";
out.linkSort = u.href;
const built = new URL("https://api.example.com/items");
for (const [k, v] of Object.entries({ limit: 10, q: "café & crème", tags: ["a", "b"] })) built.searchParams.set(k, v);
out.built = [built.href, `${built.origin}${built.pathname}?${built.searchParams}`];
return out;
