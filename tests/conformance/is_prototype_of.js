// Object.prototype.isPrototypeOf along prototype chains, with primitives and null prototypes.
class A {}
class B extends A {}
const b = new B();
const bare = Object.create(null);
const out = [
  A.prototype.isPrototypeOf(b), B.prototype.isPrototypeOf(b), Object.prototype.isPrototypeOf(b),
  B.prototype.isPrototypeOf(new A()), Array.prototype.isPrototypeOf([]), Object.prototype.isPrototypeOf(bare),
  Object.prototype.isPrototypeOf(1), Function.prototype.isPrototypeOf(A), b.isPrototypeOf(b),
  Object.prototype.isPrototypeOf.call(undefined, 1),
];
try { Object.prototype.isPrototypeOf.call(undefined, {}); out.push("no error"); } catch (e) { out.push(e.constructor.name); }
return out;
