const shared = { tag: "shared" };
const original = {
  n: 1,
  neg: -0,
  s: "text",
  b: true,
  nul: null,
  undef: undefined,
  arr: [1, "two", [3, [4]], shared],
  nested: { deep: { deeper: { x: 1 } }, shared },
  date: new Date(Date.UTC(2024, 1, 29, 12, 30)),
  re: /ab+c/gi,
  map: new Map([["a", 1], [2, { v: 2 }]]),
  set: new Set([1, "x", shared]),
};
original.self = original;
original.arr.push(original.arr);
const c = structuredClone(original);
const errName = f => {
  try {
    f();
    return "no error";
  } catch (e) {
    return [e.name, e.message.endsWith(" could not be cloned."), e instanceof Error];
  }
};
const arrWithProp = [1, 2];
arrWithProp.extra = "kept";
class Point {
  constructor() {
    this.x = 1;
  }
  get y() {
    return 2;
  }
}
const err = new TypeError("bad", { cause: { why: "because" } });
err.code = 42;
const errC = structuredClone(err);
const custom = new RangeError("r");
custom.name = "Custom";
const re = /x/y;
re.lastIndex = 3;
return {
  notSame: c !== original,
  equalJson: JSON.stringify({ ...c, self: 0, arr: 0 }) === JSON.stringify({ ...original, self: 0, arr: 0 }),
  cycle: c.self === c,
  arrCycle: c.arr[4] === c.arr,
  sharedKept: c.arr[3] === c.nested.shared && c.nested.shared === [...c.set][2],
  sharedCopied: c.nested.shared !== shared,
  negZero: Object.is(c.neg, -0),
  hasUndef: "undef" in c,
  date: [c.date instanceof Date, c.date.getTime() === original.date.getTime(), c.date !== original.date],
  re: [c.re instanceof RegExp, c.re.source, c.re.flags, c.re !== original.re],
  reLastIndex: structuredClone(re).lastIndex,
  map: [c.map instanceof Map, [...c.map.keys()], c.map.get(2), c.map.get(2) !== original.map.get(2)],
  set: [c.set instanceof Set, c.set.size, c.set.has("x")],
  prims: [structuredClone(1), structuredClone("s"), structuredClone(null), structuredClone(undefined), structuredClone(false)],
  arrProp: [structuredClone(arrWithProp).extra, structuredClone(arrWithProp).length],
  classInstance: [structuredClone(new Point()), Object.getPrototypeOf(structuredClone(new Point())) === Object.prototype],
  err: [errC instanceof TypeError, errC.name, errC.message, errC.cause, errC.code, errC.cause !== err.cause],
  errCustom: [structuredClone(custom).name, structuredClone(custom).message],
  errNoMessage: "message" in structuredClone(new Error()) && structuredClone(new Error()).message,
  fn: errName(() => structuredClone(() => 1)),
  nestedFn: errName(() => structuredClone({ a: [1, { f() {} }] })),
  builtinFn: errName(() => structuredClone(Math.max)),
  promise: (() => {
    try {
      structuredClone(Promise.resolve(1));
    } catch (e) {
      return [e.name, e.message];
    }
  })(),
  missing: (() => {
    try {
      structuredClone();
    } catch (e) {
      return e.name;
    }
  })(),
  deep: (() => {
    let d = {};
    const root = d;
    for (let i = 0; i < 1000; i++) {
      d.next = { i };
      d = d.next;
    }
    let c2 = structuredClone(root);
    let depth = 0;
    while (c2.next) {
      c2 = c2.next;
      depth++;
    }
    return depth;
  })(),
};
