// Computed class field names are evaluated once, when the class is defined, and converted to
// property keys then; each instance gets the field under that key.
const log = [];
let n = 0;
const key = (k) => { log.push("key " + k); return k; };
class A {
  [key("x")] = ++n;
  static [key("s" + 1)] = "static";
  ["lit" + "eral"] = 3;
  [key(2)] = "two";
  plain = "p";
}
log.push("defined");
const a = new A();
const b = new A();
const obj = { toString() { log.push("toString"); return "fromObject"; } };
class B { [obj] = 1; }
new B(); new B();
class C extends A { [key("y")] = this.x + 10; }
const c = new C();
return {
  a: Object.entries(a), b: b.x, s: A.s1, keys: Object.keys(new B()),
  c: [c.x, c.y], log,
};
