"use strict";
// Reads and writes of an own data property of a plain object are answered in place; every
// other case (accessors, read-only, sealed/frozen, inherited, class instances, big objects)
// must behave as the full property lookup does.
const log = [];

// Records read and updated in a loop.
const groups = {};
for (let i = 0; i < 300; i++) {
  const key = "g" + (i % 7);
  const g = groups[key] ?? (groups[key] = { n: 0, total: 0 });
  g.n++;
  g.total += i;
}
log.push(Object.keys(groups).length, groups.g0.n, groups.g0.total, groups.g6.total);

// Own accessors run; own data shadows an inherited accessor; inherited data is read through.
let getterCalls = 0;
const withGetter = { get x() { getterCalls++; return 42; }, set x(v) { log.push("set:" + v); } };
log.push(withGetter.x, withGetter.x, getterCalls);
withGetter.x = 5;
const proto = { get shadowed() { return "proto getter"; }, inherited: "from proto" };
const child = Object.create(proto);
Object.defineProperty(child, "shadowed", { value: "own data", writable: true, enumerable: true, configurable: true });
log.push(child.shadowed, child.inherited, child.missing);
child.shadowed = "written";
log.push(child.shadowed);

// An inherited setter runs when the property is not own.
const setterProto = { set v(x) { this._v = "via setter " + x; } };
const viaSetter = Object.create(setterProto);
viaSetter.v = 1;
log.push(viaSetter._v, Object.keys(viaSetter));

// Read-only, frozen, sealed, non-extensible.
const ro = {};
Object.defineProperty(ro, "k", { value: 1, writable: false, enumerable: true });
try { ro.k = 2; log.push("no error"); } catch (e) { log.push(e.constructor.name, ro.k); }
const frozen = Object.freeze({ a: 1 });
try { frozen.a = 2; log.push("no error"); } catch (e) { log.push(e.constructor.name, frozen.a); }
const sealed = Object.seal({ a: 1 });
sealed.a = 3;
try { sealed.b = 1; log.push("no error"); } catch (e) { log.push(e.constructor.name); }
log.push(sealed.a, "b" in sealed);
const closed = Object.preventExtensions({ a: 1 });
closed.a = 4;
log.push(closed.a);

// Writes that change a value's kind, and deleted then re-added properties.
const o = { a: 1, b: "two", c: null };
o.a = "one"; o.b = 2; o.c = { deep: true };
delete o.b;
log.push(o.b, Object.keys(o));
o.b = "back";
log.push(Object.keys(o), o.b, o.c.deep);

// Class instances, objects with many properties, and a null-prototype object.
class Point { constructor(x, y) { this.x = x; this.y = y; } get sum() { return this.x + this.y; } }
const p = new Point(2, 3);
p.x = 10;
log.push(p.x, p.sum);
const big = {};
for (let i = 0; i < 40; i++) big["k" + i] = i;
big.k39 = "last";
log.push(big.k0, big.k20, big.k39);
const bare = Object.create(null);
bare.z = 1;
bare.z += 1;
log.push(bare.z, bare.toString);

// Symbols and numeric-looking names.
const sym = Symbol("s");
const keyed = { [sym]: "sym", "1": "one", "01": "zero-one" };
keyed[sym] = "sym2";
log.push(keyed[sym], keyed[1], keyed["01"]);

return log;
