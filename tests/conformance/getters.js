const o = { _v: 1, get v() { return this._v * 10; }, set v(x) { this._v = x; } };
o.v = 5;
const arr = [o.v];
const obj = { a: 1, b: { c: [1, 2, { d: 3 }] } };
const { b: { c: [, second, { d }] } } = obj;
return { arr, second, d, keys: Object.keys(o) };
