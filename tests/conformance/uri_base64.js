const t = f => {
  try {
    return f();
  } catch (e) {
    return e.name + ": " + e.message;
  }
};
const samples = ["hello world", "a+b=c&d", "ü€😀", "/path?q=1#frag", "-_.!~*'()", ";,/?:@&=+$#", "", "100%"];
return {
  encComp: samples.map(s => encodeURIComponent(s)),
  enc: samples.map(s => encodeURI(s)),
  roundTrip: samples.every(s => decodeURIComponent(encodeURIComponent(s)) === s && decodeURI(encodeURI(s)) === s),
  decComp: decodeURIComponent("%E4%BD%A0%2F%3f%41"),
  dec: decodeURI("%E4%BD%A0%2F%3f%41%23"),
  decPlain: decodeURIComponent("plain ü text"),
  nonString: [encodeURIComponent(12.5), encodeURIComponent(null), encodeURI(undefined), encodeURIComponent()],
  malformed: ["%", "%z1", "%C0%80", "%E4%BD", "%ED%A0%80", "%80", "abc%4"].map(s => t(() => decodeURIComponent(s))),
  malformedURI: t(() => decodeURI("%E4%BD")),
  isUriError: (() => {
    try {
      decodeURIComponent("%");
    } catch (e) {
      return [e instanceof URIError, e instanceof Error, e.constructor === URIError, String(e)];
    }
  })(),
  newUriError: [new URIError("x").name, new URIError("x").message, new URIError("x") instanceof Error, URIError("y").message],
  btoa: ["", "a", "ab", "abc", "abcd", "hello world", "\u00ff\u0000\u0080"].map(s => btoa(s)),
  atob: ["", "YQ==", "YQ", "YWI=", "YWJj", " YW Jj ZA ", "aGVsbG8gd29ybGQ=", "/wCA"].map(s => atob(s)),
  atobLatin1: [...atob("/wCA")].map(c => c.charCodeAt(0)),
  atobErrors: ["ab=c", "abc==", "Y", "YQ=", "-_", "ü"].map(s => t(() => atob(s))),
  btoaErrors: ["€", "😀"].map(s => t(() => btoa(s))),
  btoaNum: btoa(123),
  roundTrip64: atob(btoa("any \u00e9 text")),
  missing: [t(() => atob()), t(() => btoa())],
};
