// import() of Node's built-in modules url, util and buffer (node: prefix too).
const out = {};
const url = await import("url");
const nodeUrl = await import("node:url");
out.url = [url.URL === URL, url.URLSearchParams === URLSearchParams, nodeUrl.URL === URL,
  new url.URL("/x", "http://a.b").href, String(new nodeUrl.URLSearchParams({ a: "1" })),
  url.domainToASCII("español.com"), url.domainToUnicode("xn--espaol-zwa.com"), url.domainToASCII("xn--iñvalid.com")];
const { TextEncoder: Enc, TextDecoder: Dec } = await import("node:util");
out.util = [Enc === TextEncoder, Dec === TextDecoder, new Dec().decode(new Enc().encode("hé"))];
const buffer = await import("buffer");
out.buffer = [buffer.atob === atob, buffer.btoa === btoa, buffer.btoa("hi"), (await import("node:buffer")).atob("aGk=")];
return out;
