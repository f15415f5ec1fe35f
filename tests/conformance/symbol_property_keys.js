// Symbols as property keys where a key is converted: class fields with computed symbol names,
// and objects whose Symbol.toPrimitive gives a symbol (ToPropertyKey keeps it a symbol, and
// calls the method once).
const x = Symbol("x");
const y = Symbol("y");
let nameCalls = 0;
const named = () => { nameCalls++; return x; };
class C {
  [x];
  [y] = 42;
  static [named()] = "static";
  ["plain" + 1] = 1;
}
const c = new C();
const fields = [
  Object.getOwnPropertySymbols(c).map(String),
  Object.keys(c),
  c[y],
  Object.prototype.hasOwnProperty.call(c, x),
  c[x],
  C[x],
  nameCalls,
  Object.prototype.hasOwnProperty.call(C.prototype, x),
];

let calls = 0;
const w = { [Symbol.toPrimitive]() { calls++; return x; } };
const o = { [x]: 1 };
const keyed = [
  Object.hasOwn(o, w),
  o.hasOwnProperty(w),
  o.propertyIsEnumerable(w),
  Reflect.get(o, w),
  Reflect.has(o, w),
  Object.getOwnPropertyDescriptor(o, w).value,
  { [w]: 2 }[x],
];
Object.defineProperty(o, w, { value: 3 });
keyed.push(o[x], calls);
return { fields, keyed };
