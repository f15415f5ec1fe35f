// Built-ins convert arguments with the program's own valueOf/toString/Symbol.toPrimitive (by replay), in order, with their errors.
const out = [];
const n = { valueOf() { out.push("valueOf"); return 2; } };
out.push("abcdef".slice(n), "abc".charAt(n), Math.max(n, 1), [1, 2, 3, 4].slice(n).join());
out.push(Array.prototype.join.call({ length: { valueOf() { return 2; } }, 0: "a", 1: "b", 2: "c" }));
const s = { toString() { out.push("toString"); return "k"; } };
const o = {}; Object.defineProperty(o, s, { value: 1, enumerable: true });
out.push(Object.keys(o).join(), "x".concat(s), [s, s].join("+"), String(s));
const prim = { [Symbol.toPrimitive](hint) { out.push("hint " + hint); return 5; } };
out.push(Math.abs(prim), "abcdefg".substring(prim));
try { Math.abs({ valueOf() { return {}; }, toString() { return {}; } }); } catch (e) { out.push(e.constructor.name); }
try { Math.abs({ valueOf() { throw new RangeError("mine"); } }); } catch (e) { out.push(e.message); }
out.push(new Date(2020, { valueOf() { return 1; } }, 1).getMonth());
out.push(parseInt({ toString() { return "42px"; } }), isNaN({ valueOf() { return 1; } }));
return out;
