// Symbol values, the registry, symbol-keyed properties and what leaves them out.
const s = Symbol("foo"), t = Symbol(), u = Symbol.for("k");
const o = { a: 1, [s]: 2 };
o[t] = 3;
const out = [typeof s, String(s), s.toString(), s.description, t.description, Symbol.keyFor(u), Symbol.keyFor(s),
  Symbol.for("k") === u, s === s, s === Symbol("foo"), o[s], o[t], Object.keys(o), JSON.stringify(o),
  Object.getOwnPropertySymbols(o).length, String(Symbol.iterator), Symbol.iterator.description,
  Object.prototype.toString.call(s), Object.prototype.toString.call(new Map()),
  Object.prototype.toString.call({ [Symbol.toStringTag]: "Custom" }), typeof Object(s), Object(s) == s];
try { `${s}` } catch (e) { out.push(e.message) }
try { s + 1 } catch (e) { out.push(e.constructor.name) }
try { +s } catch (e) { out.push(e.message) }
try { new Symbol() } catch (e) { out.push(e.message) }
try { Symbol.keyFor("x") } catch (e) { out.push(e.constructor.name) }
const c = { ...o }; out.push(c[s]);
const m = new Map([[s, 1]]); out.push(m.get(s), m.has(Symbol("foo")));
out.push(Object.assign({}, o)[s]);
for (const k in o) out.push(k);
out.push(Object.entries(o), Object.getOwnPropertyNames(o));
const desc = Object.getOwnPropertyDescriptor(o, s); out.push(desc.value, desc.enumerable);
Object.defineProperty(o, Symbol.for("hidden"), { value: 9, enumerable: false });
out.push(Object.getOwnPropertySymbols(o).length, { ...o }[Symbol.for("hidden")]);
class K { static [Symbol.hasInstance](x) { return x === 1 } }
K.prototype[Symbol.toStringTag] = "KK";
out.push(String(new K()), [Symbol.iterator, Symbol.asyncIterator].map(x => x.toString()));
return { out, symbolsAreLeftOut: { s, list: [s] } };
