// Key strings used again and again (from Object.keys, for-in, entries, concatenation) must read
// and write the same properties every time, index-like keys included.
const log = [];
const o = { b: 2, a: 1, 10: "ten", 2: "two", "-1": "minus", "01": "zero-one", "4294967295": "max" };
const keys = Object.keys(o);
log.push(keys);
const arr = ["x", "y", "z"];
const copy = {};
for (const k of keys) copy[k] = o[k];
for (const k of keys) arr[k] = o[k];
log.push(copy, arr.length, arr[2], arr[10], arr["01"], arr["-1"]);
for (const k in o) { o[k] = typeof o[k] + ":" + k; }
log.push(o);

// The same key string on many objects, then deleted, then redefined.
const objs = [{}, { a: 0 }, Object.create({ a: "inherited" })];
const ka = keys.find(k => k === "a");
log.push(objs.map(x => x[ka]));
for (const x of objs) x[ka] = (x[ka] ?? 0) + 1;
log.push(objs.map(x => [x[ka], Object.keys(x)]));
for (const x of objs) delete x[ka];
log.push(objs.map(x => x[ka]));

// Keys built at run time equal to existing names and indices.
const built = {};
for (let i = 0; i < 5; i++) built["k" + (i % 2)] = i;
const n = [];
for (let i = 0; i < 3; i++) n["" + i] = i * i;
log.push(built, n, n.length);

// Entries' keys used on a Map and as computed keys of literals.
const m = new Map(Object.entries({ p: 1, q: 2 }));
const lit = {};
for (const [k, v] of m) lit[k + k] = v;
log.push(Object.fromEntries(m), lit, { [keys[0]]: true });

// Symbols and keys with the same text as a symbol's description.
const sym = Symbol("a");
const withSym = { [sym]: "sym", a: "str" };
log.push(withSym[ka], withSym[sym], Object.keys(withSym));

// Getters and proxies see the key each time.
const seen = [];
const px = new Proxy({}, { get(t, k) { seen.push(k); return k.length; } });
let total = 0;
for (let i = 0; i < 3; i++) for (const k of ["long", "no"]) total += px[k];
log.push(total, seen);
return log;
