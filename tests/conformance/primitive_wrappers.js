// Wrapper objects: new String/Number/Boolean and Object(primitive) are objects (characters and length of String wrappers, JSON of wrappers, subclasses of String).
const out = [];
const s = new String("héllo");
out.push(typeof s, s.length, s[1], s[9], 1 in s, "length" in s, Object.keys(s).join(), JSON.stringify(s), s + "!", s == "héllo", s === "héllo");
const n = new Number(5), b = new Boolean(false);
out.push(typeof n, n + 1, n instanceof Number, typeof b, b ? "truthy" : "falsy", b.valueOf(), JSON.stringify({ n, b }));
out.push(typeof Object(1), Object(1) instanceof Number, Object("ab").length, typeof Object(true), Object.prototype.toString.call(Object("x")));
const F1 = function () { return new Boolean(true); };
out.push(new F1() instanceof Boolean, new F1().valueOf());
class MyStr extends String { hi() { return "hi " + this; } }
const m = new MyStr("q");
out.push(m.hi(), m.length, m instanceof String, m instanceof MyStr);
out.push(String.prototype.length, Array.prototype.join.call(new String("abc"), "-"), [...new String("ab")].join("|"));
return out;
