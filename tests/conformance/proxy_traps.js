// Proxy: every trap is called with the right arguments, and its result is what the operation gives.
const log = [];
const target = { a: 1, b: 2 };
const handler = {
  get(t, k, r) { log.push(["get", String(k), r === p]); return k === "virtual" ? 42 : Reflect.get(t, k, r); },
  set(t, k, v, r) { log.push(["set", k, v]); return Reflect.set(t, k, v * 2); },
  has(t, k) { log.push(["has", k]); return k === "ghost" || k in t; },
  deleteProperty(t, k) { log.push(["delete", k]); return delete t[k]; },
  getOwnPropertyDescriptor(t, k) { log.push(["gopd", k]); return Reflect.getOwnPropertyDescriptor(t, k); },
  defineProperty(t, k, d) { log.push(["define", k, JSON.stringify(d)]); return Reflect.defineProperty(t, k, d); },
  getPrototypeOf(t) { log.push(["getPrototypeOf"]); return Array.prototype; },
  setPrototypeOf(t, proto) { log.push(["setPrototypeOf", proto === null]); return false; },
  isExtensible(t) { log.push(["isExtensible"]); return Reflect.isExtensible(t); },
  preventExtensions(t) { log.push(["preventExtensions"]); return false; },
  ownKeys(t) { log.push(["ownKeys"]); return [...Reflect.ownKeys(t), "extra"]; },
};
const p = new Proxy(target, handler);
const out = [];
out.push(p.a, p.virtual, p["computed" + 1]);
p.c = 5;
out.push(target.c);
out.push("ghost" in p, "a" in p, "zzz" in p);
out.push(delete p.b, "b" in target);
out.push(JSON.stringify(Object.getOwnPropertyDescriptor(p, "a")));
Object.defineProperty(p, "d", { value: 9, enumerable: true });
out.push(target.d);
out.push(Object.getPrototypeOf(p) === Array.prototype, p instanceof Array);
out.push(Reflect.setPrototypeOf(p, null));
try { Object.setPrototypeOf(p, null); } catch (e) { out.push(e.constructor.name); }
out.push(Object.isExtensible(p), Reflect.preventExtensions(p));
try { Object.preventExtensions(p); } catch (e) { out.push(e.constructor.name); }
out.push(Reflect.ownKeys(p));
out.push(typeof p, Reflect.get(p, "a", 7));
const inherits = Object.create(p);
out.push(inherits.a);
return [out, log];
