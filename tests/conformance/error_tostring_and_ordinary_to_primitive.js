// Error.prototype.toString is generic (reads name/message with getters and conversions);
// ToPrimitive with no callable method throws; the Error `cause` option; constructors'
// `prototype` descriptors.
const r = [];
r.push(Error.prototype.toString.call({}));
r.push(Error.prototype.toString.call({ name: "X", message: "m" }));
r.push(Error.prototype.toString.call({ name: "", message: "only message" }));
r.push(Error.prototype.toString.call({ get name() { return "Getter"; }, message: { toString() { return "converted"; } } }));
for (const bad of [1, "s", undefined, null]) {
  try { Error.prototype.toString.call(bad); r.push("no throw"); } catch (e) { r.push(e.constructor.name); }
}
try { Error.prototype.toString.call({ message: Symbol("s") }); r.push("no throw"); } catch (e) { r.push(e.constructor.name); }
const noMethods = { toString: undefined, valueOf: undefined };
for (const f of [() => "" + noMethods, () => `${Object.create(null)}`, () => String(noMethods), () => Error(noMethods), () => noMethods * 2]) {
  try { r.push(f()); } catch (e) { r.push(e.constructor.name); }
}
r.push(Object.create(null) == null, noMethods == undefined);
r.push(new Error("a", { cause: undefined }).hasOwnProperty("cause"), new Error("a", {}).hasOwnProperty("cause"));
r.push(new Error("a", { cause: 7 }).cause, Object.keys(new Error("a", { cause: 7 })).length);
for (const C of [Error, TypeError, Map, Promise, Array, class K {}]) {
  const d = Object.getOwnPropertyDescriptor(C, "prototype");
  r.push([d.writable, d.enumerable, d.configurable].join());
}
class K2 {}
try { K2.prototype = {}; r.push("assigned"); } catch (e) { r.push(e.constructor.name); }
function F() {}
F.prototype = { a: 1 };
r.push(new F().a);
return r;
