// `o.name op= v`, `o.name++` and `o.name ??= v` read and write the property by name: the same
// order of effects, getters, setters, proxies, inherited setters, primitives and errors as
// `o["name"]`.
const log = [];
const counter = { n: 0, total: 1.5 };
for (let i = 0; i < 5; i++) { counter.n++; counter.total += i; counter.n *= 1; }
log.push(counter);
log.push(counter.n++, ++counter.n, counter.n--, --counter.n, counter.n);

// Getter and setter pairs run once each, in order.
const acc = {
  _v: 10,
  get v() { log.push("get"); return this._v; },
  set v(x) { log.push("set " + x); this._v = x; },
};
acc.v += 5;
acc.v++;
acc.v ??= 99;
acc.v ||= 98;
acc.v &&= 7;
log.push(acc._v);

// An inherited setter, a setter-less getter (strict mode: TypeError), a frozen object.
const proto = { set x(v) { this._x = v * 2; }, get x() { return this._x ?? 1; } };
const child = Object.create(proto);
child.x += 1;
child.x++;
log.push(child._x, Object.keys(child));
const ro = { get only() { return 1; } };
try { ro.only += 1; } catch (e) { log.push(e.name); }
const frozen = Object.freeze({ k: 1 });
try { frozen.k++; } catch (e) { log.push(e.name); }

// A proxy sees get then set with the name.
const traps = [];
const p = new Proxy({ a: 1 }, {
  get(t, k) { traps.push("get " + String(k)); return t[k]; },
  set(t, k, v) { traps.push("set " + String(k) + "=" + v); t[k] = v; return true; },
});
p.a += 2;
p.a++;
p.b ??= 5;
log.push(traps);

// Primitives: the read works, the write throws in strict mode (codemode programs are strict).
const s = "str";
try { s.length += 1; } catch (e) { log.push(e.name); }
let n = 5;
try { n.foo ??= 1; } catch (e) { log.push(e.name); }

// Null and undefined bases.
try { null.x += 1; } catch (e) { log.push(e.name); }
let u;
try { u.x++; } catch (e) { log.push(e.name); }

// The object expression is evaluated once.
let evaluated = 0;
const holder = { o: { c: 1 } };
const get = () => { evaluated++; return holder.o; };
get().c += 1;
get().c++;
get().c ||= 3;
log.push(evaluated, holder.o.c);

// Names that look like indices or are reserved words.
const odd = { 0: 1, class: 2, "constructor": 3 };
odd.class += 1;
odd.constructor++;
log.push(odd);
return log;
