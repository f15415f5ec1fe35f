// Reflect: the object operations as functions, false instead of a TypeError where the spec says so.
const s = Symbol("s");
const o = { a: 1, get g() { return this.a * 10 }, set g(v) { this.a = v }, [s]: 2 };
Object.defineProperty(o, "ro", { value: 5, writable: false, configurable: false });
const out = [Reflect.ownKeys(o).map(String), Reflect.has(o, "a"), Reflect.has(o, "zz"), Reflect.get(o, "g"), Reflect.get(o, "g", { a: 7 }),
  Reflect.set(o, "g", 3), o.a, Reflect.set(o, "ro", 9), o.ro, Reflect.defineProperty(o, "ro", { value: 1 }), Reflect.defineProperty(o, "n", { value: 1 }),
  Reflect.deleteProperty(o, "ro"), Reflect.deleteProperty(o, "a"), "a" in o, Reflect.getPrototypeOf(o) === Object.prototype,
  Reflect.setPrototypeOf(o, null), Reflect.getPrototypeOf(o), Reflect.isExtensible(o), Reflect.preventExtensions(o), Reflect.isExtensible(o),
  Reflect.apply(Math.max, null, [1, 5, 2]), Reflect.getOwnPropertyDescriptor(o, "ro").writable, Object.prototype.toString.call(Reflect)];
try { Reflect.get(1, "a") } catch (e) { out.push(e.constructor.name) }
function P(x) { this.x = x }
function Q() {}
const a = Reflect.construct(P, [1]), b = Reflect.construct(P, [2], Q), c = Reflect.construct(Date, [0]);
const out2 = [a.x, a instanceof P, b.x, b instanceof Q, b instanceof P, c.getTime(), Reflect.construct(function () { return { r: 1 } }, []).r];
for (const f of [() => 1, Math.max, 5]) { try { Reflect.construct(function () {}, [], f); out2.push("ok") } catch (e) { out2.push(e.constructor.name) } }
out.push(out2);
return out;
