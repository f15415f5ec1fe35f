// Proxy: forwarding without traps, proxies of functions and arrays, chains of proxies.
const out = [];
const arr = [1, 2, 3];
const pa = new Proxy(arr, {});
out.push(Array.isArray(pa), pa.length, pa[1], JSON.stringify(Object.keys(new Proxy({ x: 1, y: 2 }, {}))));
pa[3] = 4;
out.push(arr.length, arr[3]);
function add(a, b) { return a + b + (this && this.k || 0); }
const pf = new Proxy(add, {});
out.push(typeof pf, pf(1, 2), pf.call({ k: 10 }, 1, 2), pf.apply(null, [3, 4]), pf.length, pf.name);
const traced = new Proxy(add, {
  apply(t, self, args) { return "apply:" + args.join(","); },
  construct(t, args, nt) { return { made: args, same: nt === traced }; },
});
out.push(traced(1, 2), JSON.stringify(new traced(5, 6)));
function Point(x) { this.x = x; }
Point.prototype.getX = function () { return this.x; };
const PP = new Proxy(Point, {});
const pt = new PP(7);
out.push(pt.getX(), pt instanceof Point, pt instanceof PP);
// A chain of proxies forwards to the end.
let chain = { deep: "yes" };
for (let i = 0; i < 1000; i++) chain = new Proxy(chain, {});
out.push(chain.deep, "deep" in chain, Reflect.ownKeys(chain));
let counted = 0;
let outer = new Proxy(chain, { get(t, k, r) { counted++; return Reflect.get(t, k, r); } });
out.push(outer.deep, counted);
// set without a set trap goes to defineProperty on the receiver proxy
const defs = [];
const rp = new Proxy({}, { defineProperty(t, k, d) { defs.push([k, JSON.stringify(d)]); return Reflect.defineProperty(t, k, d); } });
rp.z = 1;
rp.z = 2;
out.push(defs, rp.z);
out.push(JSON.stringify(new Proxy({ a: 1, b: [1, 2] }, { get: (t, k) => (k === "a" ? "A" : t[k]) })));
out.push({ ...new Proxy({ s: 1 }, { get: () => "spread" }) });
out.push(Object.values(new Proxy({ v: 1 }, {})), Object.entries(new Proxy({ e: 2 }, {})));
const fl = [];
const fp = new Proxy({ a: 1, b: 2 }, {
  ownKeys(t) { fl.push("ownKeys"); return Reflect.ownKeys(t); },
  getOwnPropertyDescriptor(t, k) { fl.push("gopd:" + k); return Reflect.getOwnPropertyDescriptor(t, k); },
});
const fk = [];
for (const k in fp) fk.push(k);
out.push(fk, fl.slice(), Object.keys(fp), Object.getOwnPropertyNames(fp), Object.entries(fp));
const inheritsProxy = Object.create(new Proxy({ up: 1 }, {}));
inheritsProxy.own = 2;
const ik = [];
for (const k in inheritsProxy) ik.push(k);
out.push(ik);
return out;
