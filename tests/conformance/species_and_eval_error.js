// Symbol.species accessors of the built-in constructors, and EvalError.
const r = [];
for (const C of [Array, Map, Set, Promise, RegExp, ArrayBuffer, Object.getPrototypeOf(Int8Array)]) {
  const d = Object.getOwnPropertyDescriptor(C, Symbol.species);
  r.push([C.name, typeof d.get, d.set, d.enumerable, d.configurable, d.get.name, C[Symbol.species] === C]);
}
class A extends Array {}
r.push(A[Symbol.species] === A);
r.push(new EvalError("x") instanceof Error, EvalError.prototype.name, String(new EvalError("m")), Object.prototype.toString.call(new EvalError()));
return r;
