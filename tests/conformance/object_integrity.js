const errs = [];
const attempt = (label, f) => {
  try {
    f();
    errs.push(label + ": ok");
  } catch (e) {
    errs.push(label + ": " + e.name);
  }
};
const config = Object.freeze({ retries: 3, nested: { deep: 1 } });
attempt("write frozen", () => { config.retries = 5; });
attempt("add frozen", () => { config.extra = 1; });
attempt("delete frozen", () => { delete config.retries; });
attempt("nested still mutable", () => { config.nested.deep = 2; });
const arr = Object.freeze([1, 2, 3]);
attempt("push frozen array", () => arr.push(4));
attempt("index frozen array", () => { arr[0] = 9; });
attempt("sort frozen array", () => arr.sort());
const sealed = Object.seal({ a: 1 });
attempt("write sealed", () => { sealed.a = 2; });
attempt("add sealed", () => { sealed.b = 2; });
attempt("delete sealed", () => { delete sealed.a; });
const closed = Object.preventExtensions({ a: 1 });
attempt("add non-extensible", () => { closed.z = 1; });
attempt("delete non-extensible", () => { delete closed.a; });
const o = {};
Object.defineProperty(o, "id", { value: 7, enumerable: false });
Object.defineProperty(o, "name", { value: "x", writable: true, enumerable: true, configurable: true });
Object.defineProperty(o, "upper", { get() { return this.name.toUpperCase(); }, enumerable: true, configurable: true });
attempt("write readonly", () => { o.id = 8; });
attempt("redefine fixed", () => Object.defineProperty(o, "id", { value: 9 }));
Object.defineProperties(o, { a: { value: 1, enumerable: true }, b: { get: () => 2 } });
const counter = { count: 0 };
Object.defineProperty(counter, "count", { writable: false });
attempt("write after writable:false", () => { counter.count = 1; });
return {
  errs,
  config,
  isFrozen: [Object.isFrozen(config), Object.isFrozen(config.nested), Object.isFrozen({}), Object.isFrozen(1)],
  isSealed: [Object.isSealed(sealed), Object.isSealed(config), Object.isSealed({ a: 1 })],
  isExtensible: [Object.isExtensible(closed), Object.isExtensible({})],
  sealed,
  arr,
  keys: Object.keys(o),
  o: JSON.stringify(o),
  upper: o.upper,
  descId: Object.getOwnPropertyDescriptor(o, "id"),
  descUpper: Object.entries(Object.getOwnPropertyDescriptor(o, "upper")).map(([k, v]) => [k, typeof v]),
  descArr: Object.getOwnPropertyDescriptor(arr, 0),
  descLen: Object.getOwnPropertyDescriptor([1, 2], "length"),
  descs: Object.keys(Object.getOwnPropertyDescriptors({ x: 1, get y() { return 2; } })),
  counter: counter.count,
  missing: Object.getOwnPropertyDescriptor(o, "nope") === undefined,
  proto: (() => { const p = { hi() { return "hi"; } }; const c = Object.setPrototypeOf({}, p); return c.hi(); })(),
};
