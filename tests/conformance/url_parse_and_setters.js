// new URL(input, base): parsing, components, setters, errors (WHATWG URL as Node has it).
const out = {};
const u = new URL("https://user:pw@例え.jp:8080/a b/c?x=1 2&y=%20#frag");
out.parts = [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port,
  u.pathname, u.search, u.hash];
out.strings = [String(u), `${u}`, u.toString(), u.toJSON(), u + "", JSON.stringify(u), JSON.stringify({ u })];
out.relative = [
  new URL("../x?q#h", "http://a.com/b/c/d").href,
  new URL("/abs", "https://h.org/p/q").href,
  new URL("//other.net/p", "https://h.org").href,
  new URL("?only", "http://a.com/p").href,
  new URL("#frag", new URL("http://a.com/p?q")).href,
  new URL(new URL("http://copy.me/")).href,
];
out.normalize = ["HTTP://EXAMPLE.COM:80/./a/../b/%7e", "http://[::1]:3000/", "http://1.2.3.4/",
  "file:///C:/x/y", "mailto:someone@example.com", "data:text/plain,hi there",
  "https://münchen.de/straße", "http://example.com/path with spaces?q=a b"].map(s => new URL(s).href);
out.origins = ["blob:https://a.com/uuid", "file:///tmp/x", "http://a.com:80", "https://a.com:8443"].map(s => new URL(s).origin);
for (const bad of [["foo"], ["/relative"], ["http://"], ["https://exa mple.com"], ["/a", "nope"], ["http://a:99999"]]) {
  try {
    new URL(...bad);
    out[bad.join(" ")] = "parsed";
  } catch (e) {
    out[bad.join(" ")] = [e.name, e.message, e.code, e.input, e.base, e instanceof TypeError];
  }
}
try { new URL(); } catch (e) { out.missing = [e.name, e.message, e.code]; }
try { URL.canParse(); } catch (e) { out.missingCanParse = [e.name, e.code]; }
out.emptyQuery = [new URL("http://a.com/?").search, new URL("http://a.com/?").href, new URL("http://a.com/?x").searchParams.toString()];
out.canParse = [URL.canParse("http://a"), URL.canParse("nope"), URL.canParse("/p", "http://b"), URL.canParse("/p")];
out.parse = [URL.parse("nope"), URL.parse("/p", "http://b/x").href, URL.parse("http://z") instanceof URL];
const s = new URL("http://example.com/path?a=1#top");
s.protocol = "https"; out.protocol = s.href;
s.protocol = "mailto"; out.protocolIgnored = s.href;
s.username = "me"; s.password = "p@ss word"; out.credentials = s.href;
s.host = "other.org:8443"; out.host = [s.href, s.host, s.port];
s.hostname = "xn--nxasmq6b.com"; out.hostname = s.hostname;
s.port = "443"; out.defaultPort = [s.port, s.href];
s.port = "8080"; s.port = "abc"; out.badPort = s.port;
s.port = ""; out.noPort = s.host;
s.pathname = "/a b/ü"; out.pathname = s.pathname;
s.search = "q=x y&r=é"; out.search = [s.search, s.href];
s.search = ""; out.searchCleared = s.href;
s.hash = "sec tion"; out.hash = s.hash;
s.hash = ""; out.hashCleared = s.href;
s.href = "http://new.example/p?k=v";
out.href = [s.href, s.host, s.search];
try { s.href = "not a url"; } catch (e) { out.badHref = [e.name, e.message, e.code, s.href]; }
out.tags = [Object.prototype.toString.call(u), typeof URL, URL.name, URL.length, u instanceof URL];
try { URL("http://a"); } catch (e) { out.noNew = [e.name, e.message]; }
try { Object.getOwnPropertyDescriptor(URL.prototype, "href").get.call({}); } catch (e) { out.badThis = e.name; }
out.keys = [Object.keys(u), JSON.stringify(Object.keys(URL.prototype)), Object.keys(URL).slice(0, 2)];
const forIn = [];
for (const k in new URL("http://a.com")) forIn.push(k);
out.forIn = forIn;
out.spreadUrl = { ...new URL("http://a.com") };
const d = Object.getOwnPropertyDescriptor(URL.prototype, "search");
out.accessor = [typeof d.get, typeof d.set, d.enumerable, d.configurable, "origin" in u,
  typeof Object.getOwnPropertyDescriptor(URL.prototype, "origin").set];
const withSpaces = new URL("https://api.example.com/search");
withSpaces.searchParams.set("q", "rust lang & more");
out.pathVsQuery = [new URL("http://x/a b?c d").href, withSpaces.href];
return out;
