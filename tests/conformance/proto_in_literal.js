const base = { greet() { return "hi " + this.name; } };
const o = { __proto__: base, name: "ada" };
const n = { __proto__: null, a: 1 };
const computed = { ["__proto__"]: 5 };
const ignored = { __proto__: 42, b: 2 };
const str = { "__proto__": base };
return {
  greet: o.greet(),
  isProto: Object.getPrototypeOf(o) === base,
  keys: Object.keys(o),
  nullProto: Object.getPrototypeOf(n) === null,
  nKeys: Object.keys(n),
  computedKeys: Object.keys(computed),
  ignoredProto: Object.getPrototypeOf(ignored) === Object.prototype,
  strProto: Object.getPrototypeOf(str) === base,
};
