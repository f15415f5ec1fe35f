// Symbol.toPrimitive (with its hints) and Symbol.hasInstance.
const hints = [];
const o = { [Symbol.toPrimitive](h) { hints.push(h); return h === "number" ? 42 : "str" } };
const out = [+o, `${o}`, o + "", o * 2, o == "str", String(o), Number(o), o < 50];
const bad = { [Symbol.toPrimitive]() { return {} } };
try { +bad } catch (e) { out.push(e.constructor.name) }
class Money { constructor(c) { this.c = c } [Symbol.toPrimitive](hint) { return hint === "string" ? `$${this.c / 100}` : this.c } }
const m = new Money(250);
out.push(`${m}`, m + 1, m > 100);
class Even { static [Symbol.hasInstance](n) { return n % 2 === 0 } }
const Truthy = { [Symbol.hasInstance](x) { return x ? {} : 0 } };
class A {}
out.push([2 instanceof Even, 3 instanceof Even, 1 instanceof Truthy, 0 instanceof Truthy, new A() instanceof A, [] instanceof Array]);
return { out, hints };
