// Proxy: trap results that contradict the target's invariants are TypeErrors; revocation.
const t = {};
Object.defineProperty(t, "fixed", { value: 1, writable: false, configurable: false });
Object.defineProperty(t, "nc", { value: 2, writable: true, configurable: false });
const out = [];
function attempt(name, f) {
  try { out.push([name, f()]); } catch (e) { out.push([name, e.constructor.name]); }
}
attempt("get lies about fixed", () => new Proxy(t, { get: () => 2 }).fixed);
attempt("get tells the truth", () => new Proxy(t, { get: () => 1 }).fixed);
attempt("has hides nc", () => "nc" in new Proxy(t, { has: () => false }));
attempt("delete nc", () => Reflect.deleteProperty(new Proxy(t, { deleteProperty: () => true }), "nc"));
attempt("gopd hides nc", () => Object.getOwnPropertyDescriptor(new Proxy(t, { getOwnPropertyDescriptor: () => undefined }), "nc"));
attempt("gopd invents nc", () => Object.getOwnPropertyDescriptor(new Proxy({}, { getOwnPropertyDescriptor: () => ({ value: 1, configurable: false }) }), "x"));
attempt("gopd returns a number", () => Reflect.getOwnPropertyDescriptor(new Proxy({}, { getOwnPropertyDescriptor: () => 1 }), "x"));
attempt("ownKeys misses nc", () => Reflect.ownKeys(new Proxy(t, { ownKeys: () => ["fixed"] })));
attempt("ownKeys duplicates", () => Reflect.ownKeys(new Proxy({}, { ownKeys: () => ["a", "a"] })));
attempt("ownKeys number", () => Reflect.ownKeys(new Proxy({}, { ownKeys: () => [1] })));
attempt("ownKeys ok", () => Reflect.ownKeys(new Proxy(t, { ownKeys: () => ["nc", "fixed", "more"] })));
const frozen = Object.preventExtensions({ a: 1 });
attempt("isExtensible lies", () => Object.isExtensible(new Proxy(frozen, { isExtensible: () => true })));
attempt("preventExtensions lies", () => Reflect.preventExtensions(new Proxy({}, { preventExtensions: () => true })));
attempt("getPrototypeOf lies", () => Object.getPrototypeOf(new Proxy(frozen, { getPrototypeOf: () => Array.prototype })));
attempt("getPrototypeOf number", () => Object.getPrototypeOf(new Proxy({}, { getPrototypeOf: () => 1 })));
attempt("defineProperty on frozen", () => Reflect.defineProperty(new Proxy(frozen, { defineProperty: () => true }), "b", { value: 1 }));
attempt("set fixed", () => Reflect.set(new Proxy(t, { set: () => true }), "fixed", 5));
attempt("set false strict", () => { new Proxy({}, { set: () => false }).x = 1; return "no error"; });
attempt("trap not callable", () => new Proxy({}, { get: 5 }).x);
attempt("construct non-object", () => new (new Proxy(function () {}, { construct: () => 1 }))());
const { proxy, revoke } = Proxy.revocable({ a: 1 }, {});
attempt("before revoke", () => proxy.a);
revoke();
revoke();
attempt("after revoke get", () => proxy.a);
attempt("after revoke typeof", () => typeof proxy);
attempt("after revoke isArray", () => Array.isArray(proxy));
attempt("Proxy without new", () => Proxy({}, {}));
attempt("Proxy non-object", () => new Proxy(1, {}));
attempt("Proxy.length", () => [Proxy.length, Proxy.name, "prototype" in Proxy]);
return out;
