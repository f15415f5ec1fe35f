// WeakMap, WeakSet, WeakRef: object and unregistered-symbol keys, brand checks, not cloneable.
const k1 = {}, k2 = function () {}, s = Symbol("s");
const wm = new WeakMap([[k1, 1]]);
wm.set(k2, 2).set(s, 3);
const ws = new WeakSet([k1]);
ws.add(k2);
const out = [wm.get(k1), wm.get(k2), wm.get(s), wm.has({}), wm.delete(k1), wm.has(k1), wm.get(1), ws.has(k1), ws.has(k2), ws.delete(k2), ws.has(k2)];
const r = new WeakRef(k1);
out.push(r.deref() === k1, Object.prototype.toString.call(wm), String(ws), String(r));
for (const bad of [1, "x", null, Symbol.for("reg")]) { try { wm.set(bad, 1) } catch (e) { out.push(e.constructor.name) } }
try { WeakMap.prototype.get.call(new Map(), k1) } catch (e) { out.push(e.constructor.name) }
try { WeakMap() } catch (e) { out.push(e.constructor.name) }
try { new WeakRef(1) } catch (e) { out.push(e.constructor.name) }
try { structuredClone(wm) } catch (e) { out.push(e.name) }
class Cache { #m = new WeakMap(); get(o) { if (!this.#m.has(o)) this.#m.set(o, Object.keys(o).length); return this.#m.get(o) } }
const c = new Cache(), obj = { a: 1, b: 2 };
out.push(c.get(obj), c.get(obj));
return out;
